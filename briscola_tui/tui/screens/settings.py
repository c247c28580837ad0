"""Settings: ASCII, the four-colour deck, suit names, the computer's level, the bell.
Each change is saved at once in the user's config directory and redraws
what follows with the new style."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.widgets import Static

from ...files.settings import CHOICES, EXPLAIN, config_dir
from ..widgets.choices import Choice, Choices
from .setup import RowsScreen

LABELS = {
    "ascii": "ASCII cards",
    "four_colour": "four-colour deck",
    "suit_names": "suit names",
    "level": "computer level",
    "bell": "bell on my turn",
}


def shown(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


class SettingsScreen(RowsScreen):
    HEADING = "Settings"
    KEYS = "up/down choose   Enter or left/right change (saved at once)   Escape back"
    BINDINGS = [
        *RowsScreen.ROW_BINDINGS,
        Binding("enter,space,right,l", "change(1)", show=False),
        Binding("left,h", "change(-1)", show=False),
        Binding("escape,q", "back", show=False),
    ]

    def show_rows(self, cursor: int) -> None:
        settings = self.app.settings
        items = [Choice(f"{LABELS[name]:<18} {shown(getattr(settings, name))}") for name in CHOICES]
        self.query_one(Choices).show(items, cursor, 1)
        name = list(CHOICES)[cursor]
        where = config_dir() / "settings.json"
        note = settings.problem or f"saved in {where}"
        self.query_one("#setup-help", Static).update(Text(f" {EXPLAIN[name]}\n {note}", "italic"))

    def action_move(self, step: int) -> None:
        self.show_rows((self.query_one(Choices).cursor + step) % len(CHOICES))

    def action_change(self, step: int) -> None:
        cursor = self.query_one(Choices).cursor
        name = list(CHOICES)[cursor]
        settings = self.app.settings
        for _ in range(step % len(CHOICES[name])):
            settings.cycle(name)
        try:
            settings.save()
            settings.problem = ""
        except OSError as error:
            settings.problem = f"could not save: {error}"
        self.app.apply_settings()
        self.show_rows(cursor)

    @on(Choices.Clicked)
    def _clicked(self, event: Choices.Clicked) -> None:
        self.show_rows(event.index)
        self.action_change(1)
