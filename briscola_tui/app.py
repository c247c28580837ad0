"""BriscolaApp: the Textual client. Playing against the computer, offline,
through the same protocol code as a network table (`briscola_tui.offline`)."""

from __future__ import annotations

import sys

from textual.app import App

from .offline import OfflineTable
from .screens.table import TableScreen
from .widgets.cards import Style, can_show_glyphs


class BriscolaApp(App):
    TITLE = "briscola"

    def __init__(self, play: dict | None = None, *, ascii: bool | None = None, level: str = "normal",
                 seed: int | None = None, deal_seed: int | None = None, pace: float = 0.4) -> None:
        """`play`: open straight into a table: {"game", "players", "hands", "options"}.
        `seed` and `deal_seed` fix the computer players and the deals (tests);
        `pace`: seconds a computer player takes per decision."""
        super().__init__()
        if ascii is None:
            ascii = not can_show_glyphs(getattr(sys.stdout, "encoding", None))
        self.style_ = Style(ascii)
        self.play, self.level, self.seed, self.deal_seed, self.pace = play, level, seed, deal_seed, pace
        self.from_command = play is not None

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        if self.play is not None:
            self.start_table(**self.play)
        else:
            from .screens.home import HomeScreen

            self.push_screen(HomeScreen())

    def start_table(self, game: str, players: int | None = None, hands: int | None = None,
                    options: dict | None = None) -> None:
        controller = OfflineTable(game, players, self.level, hands, options, seed=self.seed,
                                  deal_seed=self.deal_seed, pace=self.pace)
        self.push_screen(TableScreen(controller, self.style_))

    def table_over(self) -> None:
        """The series (or the hands asked for) is over."""
        if self.from_command:
            self.exit()
        else:
            self.pop_screen()

    def _in_game(self) -> bool:
        return any(isinstance(s, TableScreen) and not s.over for s in self.screen_stack)

    async def action_quit(self) -> None:
        from .screens.dialogs import ConfirmQuit

        if not self._in_game() or isinstance(self.screen, ConfirmQuit):
            self.exit()
            return

        def answered(yes):
            if yes:
                self.exit()

        self.push_screen(ConfirmQuit(), answered)
