"""Settings: ASCII, the four-colour deck, suit names, the computer's level, the bell, the
language, and the club the network forms go through at first (tui/clubs.py). Each change is saved at once in the user's config directory and redraws
what follows with the new style."""

from __future__ import annotations

from textual import on
from textual.binding import Binding

from ...files.settings import CHOICES, EXPLAIN, config_dir, value_word
from ...language import N_, _
from ..clubs import club_choices, club_problem, club_word, kept_clubs
from ..widgets.choices import Choice, Choices
from .setup import RowsScreen

LABELS = {
    "ascii": N_("ASCII cards"),
    "four_colour": N_("four-colour deck"),
    "suit_names": N_("suit names"),
    "level": N_("computer level"),
    "bell": N_("bell on my turn"),
    "language": N_("language"),
    "club": N_("club"),
}
ROWS = [*CHOICES, "club"]
"""The settings in the screen's order: those with fixed values, then the club (among those kept)."""


def shown(value: object, name: str = "") -> str:
    """A setting's value in words (the language's own name for `language`; a club not kept
    here said so)."""
    if name == "club":
        word = club_word(str(value))
        return word if not value or value in kept_clubs() else _("{club} (not kept here)").format(club=word)
    return value_word(name, value)


class SettingsScreen(RowsScreen):
    HEADING = N_("Settings")
    KEYS = N_("up/down choose   Enter or left/right change (saved at once)   Escape back")
    BINDINGS = [
        *RowsScreen.ROW_BINDINGS,
        Binding("enter,space,right,l", "change(1)", show=False),
        Binding("left,h", "change(-1)", show=False),
        Binding("escape,q", "back", show=False),
    ]

    def show_rows(self, cursor: int) -> None:
        settings = self.app.settings
        self.show_words()  # the language may have just changed
        items = [Choice(f"{_(LABELS[name]):<18} {shown(getattr(settings, name), name)}") for name in ROWS]
        self.query_one(Choices).show(items, cursor, 1)
        name = ROWS[cursor]
        where = config_dir() / "settings.json"
        note = settings.problem or _("saved in {where}").format(where=where)
        why = club_problem(settings.club) if name == "club" else ""
        self.show_help(_(EXPLAIN[name]), *([why] if why else []), note)

    def action_move(self, step: int) -> None:
        self.show_rows((self.query_one(Choices).cursor + step) % len(ROWS))

    def action_change(self, step: int) -> None:
        cursor = self.query_one(Choices).cursor
        name = ROWS[cursor]
        settings = self.app.settings
        if name == "club":  # (the clubs kept now)
            clubs = club_choices()
            now = clubs.index(settings.club) if settings.club in clubs else 0
            settings.club = clubs[(now + step) % len(clubs)]
        for _turn in range(step % len(CHOICES[name]) if name in CHOICES else 0):
            settings.cycle(name)
        try:
            settings.save()
            settings.problem = ""
        except OSError as error:
            settings.problem = _("could not save: {error}").format(error=error)
        self.app.apply_settings()
        self.show_rows(cursor)

    @on(Choices.Clicked)
    def _clicked(self, event: Choices.Clicked) -> None:
        self.show_rows(event.index)
        self.action_change(1)
