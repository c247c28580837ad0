"""The home screen's forms for network play: host a table (game, players,
computer players and their level, a join code or an open table, the port),
join one (address, code, name, seat) and watch one (address, code). Each
field is checked before anything starts (netform_fields.py), and a bad one is
named; what only the network can tell (a refused code, a host that does not
answer) shows in the lobby that follows."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Literal

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Checkbox, Input, Label, Select, Static

from engine.bots import PLAYERS

from ...files.settings import Settings, value_word
from ...language import N_, _
from ...net.candidates import answers, chosen, impostors_line, none_opens
from ...net.finding import FIND_SECONDS
from ...net.joincode import plate_of, tidy
from ...net.mdns import Seen
from ...options import HostOptions
from ...os_errors import os_error_words
from ...wording import table_label
from ..shell import Shell
from ..widgets.lantables import LanTables, Sources
from ..widgets.literal import literal
from .netform_fields import (
    MAX_TEXT,
    TABLES,
    FormError,
    code_as_address,
    example_address,
    host_args,
    join_args,
    watch_args,
)

if TYPE_CHECKING:
    from ...tables.network import NetTable

Field = Input | Select[tuple[str, int]] | Select[str] | Checkbox
"""A form's field: a text, a choice or a tick box."""

# --- the screens ---------------------------------------------------------------------------


class NetForm(Screen[None]):
    """A titled column of labelled fields; Enter in a field (or ctrl+s) starts, Escape goes back."""

    app = getters.app(Shell)

    CSS_PATH = "netforms.tcss"
    BINDINGS = [Binding("escape", "back", show=False), Binding("ctrl+s", "submit", show=False)]
    HEADING = ""
    INTRO = ""

    def __init__(self, values: dict | None = None) -> None:
        super().__init__()
        self.given = dict(values or {})  # what the fields show when the form opens (the lobby's way back)

    def fields(self) -> list[tuple[str, str, Field]]:
        """(id, label, widget) for each field, in order."""
        raise NotImplementedError

    def table(self, values: dict) -> NetTable:
        """The NetTable these values make (not started yet)."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        self.made = self.fields()
        yield Static(f" {_(self.HEADING)}", id="form-title")
        yield Static(_(self.INTRO), id="form-intro")
        for ident, label, widget in self.made:
            widget.id = ident
            with Horizontal(classes="row"):
                yield Label(label)
                yield widget
        yield Static(id="form-error")
        yield from self.below()
        yield Static(" " + _("Tab next field   Enter or ctrl+s start   Escape back   ctrl+q quit"), id="form-keys")

    def below(self) -> ComposeResult:
        """What the form shows under its fields (nothing; the tables on the LAN in the join and watch forms)."""
        yield from ()

    def on_mount(self) -> None:
        for ident, _label, widget in self.made:
            if ident in self.given:
                widget.value = self.given[ident]
        self.made[0][2].focus()

    def values(self) -> dict:
        return {ident: widget.value for ident, _, widget in self.made}

    def again(self, values: dict) -> NetForm:
        """This form anew, its fields filled with `values` (back from a lobby that failed)."""
        return type(self)(values)

    @on(Input.Submitted)
    def _entered(self, _event: Input.Submitted) -> None:
        self.action_submit()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_submit(self) -> None:
        from ...net.commands import SetupError
        from .lobby import open_lobby

        try:
            table = self.table(self.values())
        except (FormError, SetupError) as error:
            self.query_one("#form-error", Static).update(literal(str(error)))
            return
        except OSError as error:
            self.query_one("#form-error", Static).update(literal(os_error_words(error)))
            return
        values = self.values()
        open_lobby(self.app, table, replace=True, back=lambda: self.again(values))


class Tick(Checkbox):
    """A checkbox whose box is empty when it is off: Textual's shows its X either way, only
    in another colour, which reads as ticked on many terminals (and always without colour)."""

    TICKED = "X"

    def __init__(self, label: str, value: bool = False, **kwargs: Any) -> None:
        super().__init__(label, value, **kwargs)
        self.BUTTON_INNER = self.TICKED if value else " "

    def watch_value(self) -> None:
        super().watch_value()
        self.BUTTON_INNER = self.TICKED if self.value else " "
        self.refresh()


def compact_input(value: str = "", placeholder: str = "", kind: Literal["integer", "text"] = "text") -> Input:
    return Input(value, placeholder, type=kind, compact=True, max_length=MAX_TEXT)


class HostForm(NetForm):
    HEADING = N_("Host a table")
    INTRO = N_(
        " You hold seat 0; computer players take the last seats. The lobby shows\n"
        " the join code and the addresses to give friends."
    )

    def fields(self) -> list[tuple[str, str, Field]]:
        return [
            (
                "table",
                _("Game"),
                Select(
                    [(table_label(*value), value) for _text, value in TABLES],
                    value=TABLES[0][1],
                    allow_blank=False,
                    compact=True,
                ),
            ),
            ("bots", _("Computer players"), compact_input(str(HostOptions.bots), _("0 to players - 1"), "integer")),
            (
                "level",
                _("Their level"),
                Select(
                    [(value_word("level", name), name) for name in sorted(PLAYERS)],
                    value=Settings.level,
                    allow_blank=False,
                    compact=True,
                ),
            ),
            ("hands", _("Hands"), compact_input("", _("blank: the whole series"), "integer")),
            ("code", _("Join code"), compact_input("", _("blank: a random one"))),
            ("open", _("Open table"), Tick(_("no join code at all"), compact=True)),
            ("coach", _("Coach"), Tick(_("the players may ask it (h)"), compact=True)),
            ("port", _("Port"), compact_input(str(HostOptions.port), _("0: any free port"), "integer")),
            ("bind", _("Listen on"), compact_input("", _("blank: every interface"))),
            ("advertise", _("Announce on the LAN"), Tick(_("friends see the table in their list"), True, compact=True)),
            ("name", _("Your name"), compact_input("", _("what the others see"))),
        ]

    def table(self, values: dict) -> NetTable:
        from ...net.joining import player_identity
        from ...tables.hosting_seat import hosting_table

        return hosting_table(host_args(values), player_identity())


class LanForm(NetForm):
    """A form for a table somebody hosts (join, watch): under its fields, the tables heard on
    the LAN (widgets/lantables.py), live while the form is open. Picking one fills the address
    (its first address and port) and puts the focus in the join code; a code typed without the
    picked table's plate gets it in front. With the address blank, a code with a plate names
    the table: the one in the list with that plate, else the one heard within `wait` seconds;
    where several announce it, the code is tried on each (net/candidates.py), the address of
    the one it opens filled in and the others named as impostors, and Enter joins."""

    def __init__(self, sources: Sources | None = None, wait: float = FIND_SECONDS, values: dict | None = None) -> None:
        super().__init__(values)
        self.sources, self.wait = sources, wait
        self.picked: tuple[str, int | None] | None = None  # (the address it filled in, its plate)
        self.announced: tuple[str, str] | None = None  # (an address filled in from the LAN, its table's id)

    def again(self, values: dict) -> NetForm:
        form = type(self)(self.sources, self.wait, values)
        form.picked, form.announced = self.picked, self.announced  # (the table the LAN named for the address)
        return form

    def table_id(self, values: dict) -> str | None:
        """The id of the table the LAN named for the address in the form (None: typed by hand)."""
        if self.announced is not None and self.announced[0] == values["address"].strip():
            return self.announced[1]
        return None

    def below(self) -> ComposeResult:
        yield LanTables(self.sources, self.wait)

    def on_lan_tables_picked(self, event: LanTables.Picked) -> None:
        seen = next((s for s in self.query_one(LanTables).tables() if s.announcement.table == event.table), None)
        if seen is None:  # (gone meanwhile)
            return
        where = f"{seen.addresses[0]}:{seen.announcement.port}"
        self.picked = (where, seen.announcement.plate)
        self.announced = (where, seen.announcement.table)
        self.query_one("#address", Input).value = where
        self.query_one("#form-error", Static).update("")
        self.query_one("#code", Input).focus()

    def on_lan_tables_found(self, _event: LanTables.Found) -> None:
        self.action_submit()

    def on_lan_tables_not_heard(self, event: LanTables.NotHeard) -> None:
        """Said under the fields; the list says whether anything at all was heard (multicast may not reach here)."""
        line = _("no table on the LAN answers to {plate} after {seconds:g} s").format(
            plate=event.plate, seconds=event.seconds
        )
        self.query_one("#form-error", Static).update(literal(line + "; " + _("type the host's HOST:PORT")))

    def action_submit(self) -> None:
        lan = self.query_one(LanTables)
        if lan.listening.looking is not None:
            if not self.query_one("#address", Input).value.strip():
                return  # (still looking)
            lan.stop_looking()  # (HOST:PORT typed meanwhile: that table)
        try:
            ready = self.resolve(lan)
        except FormError as error:
            self.query_one("#form-error", Static).update(literal(str(error)))
            return
        if ready:
            super().action_submit()

    def resolve(self, lan: LanTables) -> bool:
        """Fill the address (and the code's plate) from the tables on the LAN where the fields
        call for it: True when the form may start, False while a table is looked for."""
        address, code = self.query_one("#address", Input), self.query_one("#code", Input)
        if plate_of(address.value) is not None:  # (the code typed as the address: the code it is)
            if code.value.strip() and tidy(code.value) != tidy(address.value):
                raise FormError(code_as_address(address.value))
            address.value, code.value = "", address.value
        code.value = tidy(code.value)  # (42-7Q8R2K read aloud is 42-7q8r2k)
        picked = self.picked if self.picked is not None and self.picked[0] == address.value.strip() else None
        if picked is not None and picked[1] is not None and code.value.strip():
            code.value = with_plate(code.value, picked[1])
        plate = plate_of(code.value)
        if address.value.strip() or plate is None:
            return True
        if lan.listening.off is not None:
            raise FormError(_("address: looking for tables on the LAN is off: type the host's HOST:PORT"))
        found = [s for s in lan.tables() if s.announcement.plate == plate]
        if len(found) > 1:
            line = _("{n} tables on the LAN answer to {plate}: trying the code on each…")
            self.query_one("#form-error", Static).update(literal(line.format(n=len(found), plate=plate)))
            self.run_worker(self.candidates(found, code.value, plate), exclusive=True, group="candidates")
            return False
        if not found:
            self.query_one("#form-error", Static).update("")
            lan.look_for(plate)
            return False
        address.value = f"{found[0].addresses[0]}:{found[0].announcement.port}"
        self.announced = (address.value, found[0].announcement.table)
        return True

    async def candidates(self, found: list[Seen], code: str, plate: int) -> None:
        """The code tried on each table announcing its plate: the address of the one it opens
        filled in, the others named as impostors (Enter joins); or why none is joined."""
        real, others = chosen(await answers(found, code))
        error = self.query_one("#form-error", Static)
        if real is None:
            error.update(literal(none_opens(plate, others)))
            return
        address = self.query_one("#address", Input)
        address.value = real.address
        self.announced = (real.address, real.seen.announcement.table)
        error.update(literal(impostors_line(plate, others) + "; " + _("Enter joins the table the code opens")))
        address.focus()


def with_plate(code: str, plate: int) -> str:
    """`code` for a table whose codes begin with `plate`: as it is when it has that plate,
    with the plate put in front when it has none (FormError for another plate)."""
    code = tidy(code)
    own = plate_of(code)
    if own is None and plate_of(f"{plate}-{code}") is not None:
        return tidy(f"{plate}-{code}")
    if own is not None and own != plate:
        raise FormError(_("join code: the codes of table {plate} begin with {plate}-").format(plate=plate))
    return code


class JoinForm(LanForm):
    HEADING = N_("Join a table")
    INTRO = N_(
        " Pick a table in the list or type the host's HOST:PORT, then the join code;\n"
        " the code alone (such as 42-7q8r2k) finds its table on the LAN."
    )

    def fields(self) -> list[tuple[str, str, Field]]:
        return [
            ("address", _("Address"), compact_input("", example_address())),
            ("code", _("Join code"), compact_input("", _("blank for an open table"))),
            ("name", _("Your name"), compact_input("", _("what the others see"))),
            ("seat", _("Seat"), compact_input("", _("blank: any free seat"), "integer")),
        ]

    def table(self, values: dict) -> NetTable:
        from ...net.joining import join_options, player_identity
        from ...tables.network import NetTable

        options = dataclasses.replace(join_args(values), table=self.table_id(values))
        return NetTable(join_options(options), player_identity())


class WatchForm(LanForm):
    HEADING = N_("Watch a table")
    INTRO = N_(
        " A spectator sees every public card and nothing hidden, and sends nothing.\n"
        " Pick a table in the list or type the host's HOST:PORT, then the join code."
    )

    def fields(self) -> list[tuple[str, str, Field]]:
        return [
            ("address", _("Address"), compact_input("", example_address())),
            ("code", _("Join code"), compact_input("", _("blank for an open table"))),
        ]

    def table(self, values: dict) -> NetTable:
        from ...net.joining import watch_options
        from ...tables.network import NetTable

        return NetTable(watch_options(dataclasses.replace(watch_args(values), table=self.table_id(values))))


FORMS = {"host": HostForm, "join": JoinForm, "watch": WatchForm}
