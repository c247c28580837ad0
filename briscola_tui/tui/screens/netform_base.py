"""What every network form is (screens/netforms.py): a titled column of labelled fields, the
first the club the table goes through (none: the LAN; at first the settings' club, tui/clubs.py),
a line saying what the club chosen means, the line naming a field the form cannot use; and the
fields' own widgets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Checkbox, Input, Label, Select, Static

from ...language import _
from ...os_errors import os_error_words
from ..clubs import club_choices, club_problem, club_word, first_club
from ..shell import Shell
from ..widgets.literal import literal
from .netform_fields import (
    MAX_TEXT,
    FormError,
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
        self.made_through: tuple[str | None] | None = None  # (the club the form is made for; None: not yet)

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
        yield Static(id="form-club")
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
        self.made[1][2].focus()  # (the first after the club)
        self.club_changed()

    def club_field(self) -> tuple[str, str, Field]:
        """The choice of the club the table goes through: none (the LAN) or one kept here."""
        clubs = club_choices()
        words = [(club_word(club), club) for club in clubs] if len(clubs) > 1 else [(_("none: no club kept here"), "")]
        only_lan = len(clubs) == 1  # (nothing to choose)
        choice = Select(words, value=first_club(self.app.settings), allow_blank=False, compact=True, disabled=only_lan)
        return ("club", _("Club"), choice)

    def club(self) -> str | None:
        """The club chosen (None: the LAN)."""
        return str(self.query_one("#club", Select).value) or None

    @on(Select.Changed, "#club")
    def club_changed(self) -> None:
        """The club chosen changed (or the form opened): the form made for it, and what it means said."""
        club = self.club()
        if self.made_through == (club,):  # (the same again)
            return
        self.made_through = (club,)
        note = self.query_one("#form-club", Static)
        note.display = club is not None
        note.update(literal((club_problem(club) or self.club_note(club)) if club is not None else ""))
        self.query_one("#form-error", Static).update("")
        self.made_for(club)

    def club_note(self, club: str) -> str:
        """What going through the club `club` means in this form."""
        raise NotImplementedError

    def made_for(self, club: str | None) -> None:
        """The fields (and the list) made for the club `club` (None: the LAN)."""

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
