"""The home screen: play against the computer, resume an unfinished game
against the computer (when there is one), the rules, host, join or watch a
network table (their forms: `netforms.py`), quit."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine.games import GAMES

from ...files.saved import SavedGame, Slot
from ...language import N_, _
from ...wording import SHORT_NAMES, count
from ..shell import Shell
from ..widgets.choices import DIGITS, Choice, Choices
from ..widgets.literal import literal

MENU = [
    (N_("Play against the computer"), "play"),
    (N_("Resume an unfinished game"), "resume"),
    (N_("Replay a transcript"), "replay"),
    (N_("Settings"), "settings"),
    (N_("Rules"), "rules"),
    (N_("Host a table"), "host"),
    (N_("Join a table"), "join"),
    (N_("Watch a table"), "watch"),
    (N_("Quit"), "quit"),
]
"""The home menu: always these items, so each keeps its number (Resume is there, dim, when
there is no game to resume, and says so when chosen). Translated with `_` when shown."""
SUBTITLE = N_(" Dealt by mental poker: no one, the host included, sees a hidden card.")
KEYS = N_(" digits choose  arrows move  Enter confirm  c club  Escape back  ctrl+q quit")


MONTHS = (
    N_("Jan"),
    N_("Feb"),
    N_("Mar"),
    N_("Apr"),
    N_("May"),
    N_("Jun"),
    N_("Jul"),
    N_("Aug"),
    N_("Sep"),
    N_("Oct"),
    N_("Nov"),
    N_("Dec"),
)
"""The months as the resume list dates a game ("03 Dec 14:05"), in the current language."""


def saved_label(saved: SavedGame, dot: str) -> str:
    """One unfinished game: when, game and players, hands played, scores (seat 0, the person
    who played it, as "you" in the current language; the others by their names)."""
    import time

    moment = time.localtime(saved.when)
    when = f"{moment.tm_mday:02d} {_(MONTHS[moment.tm_mon - 1])} {moment.tm_hour:02d}:{moment.tm_min:02d}"
    names = [_("you") if seat == 0 else str(name) for seat, name in enumerate(saved.names)]
    scores = " ".join(f"{name} {score}" for name, score in zip(names, saved.scores))
    game = SHORT_NAMES.get(saved.game, saved.game)
    players = _("{n}p").format(n=saved.players)
    return f"{when}  {game}, {players} {dot} {count(saved.played, 'hand')} {dot} {scores}"


class HomeScreen(Screen[None]):
    app = getters.app(Shell)
    CSS_PATH = "home.tcss"
    BINDINGS = [
        *DIGITS,
        Binding("up,k", "move(-1)", show=False),
        Binding("down,j", "move(1)", show=False),
        Binding("enter,space", "confirm", show=False),
        Binding("escape", "back", show=False),
        Binding("question_mark", "help", show=False),
        Binding("d,delete", "delete", show=False),
        Binding("c", "club", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.menu = "home"
        self.saved: list[SavedGame] = []  # the unfinished games against the computer, newest first
        self.resuming = False  # a game is being rebuilt: one at a time
        self.confirming = False  # the delete dialog is open over the resume menu

    def compose(self) -> ComposeResult:
        yield Static(Text(" " + " · ".join(info.short for info in GAMES.values()), "bold"), id="home-title")
        yield Static(_(SUBTITLE), id="home-sub")
        yield Choices(id="home-menu")
        yield Static(id="home-note")
        yield Static(_(KEYS), id="home-keys")

    def on_mount(self) -> None:
        self.query_one(Choices).columns_max = 1  # a menu reads top to bottom
        self._show()
        problem = self.app.settings.problem
        if problem:
            self.query_one("#home-note", Static).update(literal(" " + _("Settings: {problem}").format(problem=problem)))

    def on_screen_resume(self) -> None:
        """Back from a game: the unfinished ones may have changed."""
        if self.confirming:  # back from the delete dialog: the same menu
            self.confirming = False
            return
        if self.is_mounted:
            if self.resuming:  # the note said "Resuming"
                self.query_one("#home-note", Static).update("")
            self.menu, self.resuming = "home", False
            self.query_one("#home-sub", Static).update(_(SUBTITLE))  # the language may have changed
            self.query_one("#home-keys", Static).update(_(KEYS))
            self._show()

    def _items(self) -> list[tuple[str, object]]:
        if self.menu == "resume":
            dot = self.app.style_.dot
            return [(saved_label(saved, dot), saved.slot) for saved in self.saved]
        return [(_(text), value) for text, value in MENU]

    def _show(self, cursor: int = 0) -> None:
        from ...files.saved import saved_games

        if self.menu == "home":
            self.saved = saved_games()[:9]
        title = _("Resume (newest first; d deletes one):") if self.menu == "resume" else ""
        items = [Choice(text, value) for text, value in self._items()]
        if self.menu == "home" and not self.saved:
            items[1] = Choice(_("{item} (none)").format(item=_(MENU[1][0])), "resume", dim=True)
        self.query_one(Choices).show(items, cursor, 1, title)

    def action_digit(self, d: int) -> None:
        menu = self.query_one(Choices)
        i = menu.on_page(d)
        if i is not None:
            menu.cursor = i
            menu.refresh()

    def action_move(self, step: int) -> None:
        menu = self.query_one(Choices)
        menu.cursor = (menu.cursor + step) % len(menu.items)
        menu.refresh()

    def action_back(self) -> None:
        if self.menu != "home":
            self.menu = "home"
            self._show()

    def action_help(self) -> None:
        from .dialogs import InfoScreen, help_keys

        self.app.push_screen(InfoScreen(_("Keys"), help_keys()))

    def _resume(self, slot: Slot) -> None:
        """Rebuild the game (a moment for a long series); the menu waits meanwhile."""
        note = self.query_one("#home-note", Static)

        def failed(why: str) -> None:
            self.resuming = False
            note.update(literal(f" {why}"))
            self.action_back()

        if not self.resuming:
            self.resuming = True
            note.update(" " + _("Resuming") + self.app.style_.ellipsis)
            self.app.resume_table(slot, failed)

    def action_delete(self) -> None:
        """In the resume menu: delete the chosen unfinished game, once confirmed."""
        if self.menu != "resume" or self.resuming or not self.saved:
            return
        from .dialogs import ConfirmDelete

        menu = self.query_one(Choices)
        item = menu.items[menu.cursor]

        def answered(yes: bool | None) -> None:
            if yes and isinstance(item.action, Slot):
                self._delete(item.action, menu.cursor)

        self.confirming = True
        self.app.push_screen(ConfirmDelete(item.text), answered)

    def _delete(self, slot: Slot, cursor: int) -> None:
        from ...files.folders import InUse
        from ...files.saved import saved_games

        note = self.query_one("#home-note", Static)
        try:
            slot.hold()  # not a game another briscola process is playing
        except InUse as error:
            note.update(literal(f" {error}"))
            return
        slot.discard()
        note.update(
            literal(" " + _("Deleted {name} (its transcript stays for the replay viewer).").format(name=slot.name))
        )
        self.saved = saved_games()[:9]
        if not self.saved:
            self.menu = "home"
        self._show(min(cursor, max(0, len(self._items()) - 1)) if self.menu == "resume" else 0)

    @on(Choices.Clicked)
    def _clicked(self, event: Choices.Clicked) -> None:
        self.query_one(Choices).cursor = event.index
        self.action_confirm()

    def action_club(self) -> None:
        """The club ledger: ratings and statistics from verified transcripts."""
        from .club import ClubScreen

        self.app.push_screen(ClubScreen())

    def action_confirm(self) -> None:
        menu = self.query_one(Choices)
        value = menu.items[menu.cursor].action
        if self.menu == "resume" and isinstance(value, Slot):
            self._resume(value)
        elif value == "resume" and not self.saved:
            self.query_one("#home-note", Static).update(
                " " + _("No unfinished game to resume: a game you leave mid-series waits here.")
            )
        elif value == "resume":
            self.menu = "resume"
            self._show()
        elif value == "play":
            from .setup import SetupScreen

            self.app.push_screen(SetupScreen(level=self.app.level))
        elif value == "replay":
            from .replay import OpenReplay

            self.app.push_screen(OpenReplay())
        elif value == "settings":
            from .settings import SettingsScreen

            self.app.push_screen(SettingsScreen())
        elif value == "rules":
            from .dialogs import InfoScreen, all_rules

            self.app.push_screen(InfoScreen(_("Rules"), all_rules()))
        elif value == "quit":
            self.app.exit()
        else:
            from .netforms import FORMS

            self.app.push_screen(FORMS[str(value)]())
