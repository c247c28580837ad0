"""The forms for a table somebody hosts (join, watch): the tables on the LAN, or the club's,
under the fields, and how the address and the join code typed find the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from ...club.choosing import chosen as chosen_in_club
from ...club.choosing import club_of
from ...language import _
from ...net.candidates import answers, chosen, impostors_line, none_opens
from ...net.finding import FIND_SECONDS
from ...net.joincode import plate_of, tidy
from ...net.mdns import Seen
from ..widgets.clubtables import ClubTables
from ..widgets.lantables import LanTables, Sources
from ..widgets.literal import literal
from .netform_base import NetForm
from .netform_fields import (
    FormError,
    code_as_address,
    example_address,
)

if TYPE_CHECKING:
    from ...club.choosing import Reaching
    from ...club.member import Member


class LanForm(NetForm):
    """A form for a table somebody hosts (join, watch): under its fields, the tables heard on
    the LAN (widgets/lantables.py), live while the form is open. Picking one fills the address
    (its first address and port) and puts the focus in the join code; a code typed without the
    picked table's plate gets it in front. With the address blank, a code with a plate names
    the table: the one in the list with that plate, else the one heard within `wait` seconds;
    where several announce it, the code is tried on each (net/candidates.py), the address of
    the one it opens filled in and the others named as impostors, and Enter joins. Through a
    club, the club's tables in place of the LAN's (widgets/clubtables.py); Enter asks the club
    again and joins the table the address (a table's id, or a join code) or the code names."""

    BINDINGS = [*NetForm.BINDINGS, Binding("ctrl+r", "ask_club", show=False)]

    def __init__(self, sources: Sources | None = None, wait: float = FIND_SECONDS, values: dict | None = None) -> None:
        super().__init__(values)
        self.sources, self.wait = sources, wait
        self.picked: tuple[str, int | None] | None = None  # (the address it filled in, its plate)
        self.joining: str | None = None  # (the club asked for its tables, to join when it answers)
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
        yield ClubTables()

    def club_note(self, club: str) -> str:
        return _("Through the club {club}: pick one of its tables, or type the join code alone").format(club=club)

    def made_for(self, club: str | None) -> None:
        """Through a club, its tables in place of the LAN's (asked for now), and the address a
        table's id or its join code."""
        self.joining = None  # (a join through another club is dropped)
        self.query_one(LanTables).display = club is None
        self.query_one(ClubTables).display = club is not None
        address = self.query_one("#address", Input)
        address.placeholder = example_address() if club is None else _("picked in the list, or the join code")
        if club is not None:
            self.query_one(ClubTables).ask(club)

    def action_ask_club(self) -> None:
        """ctrl+r: ask the club for its tables again."""
        club = self.club()
        if club is not None:
            self.query_one(ClubTables).ask(club)

    def on_club_tables_picked(self, event: ClubTables.Picked) -> None:
        listed = next((t for t in self.query_one(ClubTables).tables if t.seen.announcement.table == event.table), None)
        if listed is None:  # (gone meanwhile)
            return
        self.picked = (event.table, listed.seen.announcement.plate)
        self.query_one("#address", Input).value = event.table
        self.query_one("#form-error", Static).update("")
        self.query_one("#code", Input).focus()

    def on_club_tables_listed(self, event: ClubTables.Listed) -> None:
        """The club answered: where the form was waiting for it to join, the table it names now."""
        if self.joining == event.club:
            self.joining = None
            super().action_submit()

    def on_club_tables_failed(self, event: ClubTables.Failed) -> None:
        if self.joining == event.club:
            self.joining = None
            self.query_one("#form-error", Static).update(literal(event.line))

    def reached(self, options: Reaching) -> tuple[Reaching, Member]:
        """Through a club: `options` aimed at the table they name in the club's list as last
        asked, and the club (SetupError where the list has no such table, or several)."""
        assert options.club
        return chosen_in_club(options, self.query_one(ClubTables).tables), club_of(options.club)

    def submit_through(self, club: str) -> None:
        """Through a club: the fields checked, then the club asked for its tables anew (the form
        joins when it answers, the table the address or the code names in its list)."""
        address, code = self.query_one("#address", Input), self.query_one("#code", Input)
        code.value = tidy(code.value)
        picked = self.picked if self.picked is not None and self.picked[0] == address.value.strip() else None
        try:
            if picked is not None and picked[1] is not None and code.value.strip():
                code.value = with_plate(code.value, picked[1])
            self.options(self.values(), club)
        except FormError as error:
            self.query_one("#form-error", Static).update(literal(str(error)))
            return
        self.joining = club
        line = _("looking for the table at the club {club}…").format(club=club)
        self.query_one("#form-error", Static).update(literal(line))
        self.query_one(ClubTables).ask(club)

    def options(self, values: dict, club: str | None) -> Reaching:
        """The join or watch options the fields give (FormError for a bad one)."""
        raise NotImplementedError

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
        club = self.club()
        if club is not None:
            self.submit_through(club)
            return
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
