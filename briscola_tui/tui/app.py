"""BriscolaApp: the Textual client. Playing against the computer, offline,
through the same protocol code as a network table (`briscola_tui.tables.offline`)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual import events
from textual.color import Color
from textual.filter import LineFilter
from textual.screen import Screen

from .. import language
from ..files import settings as settings_module
from ..language import _
from ..options import PlayOptions
from .screens.toosmall import TooSmall, too_small
from .shell import Shell
from .widgets.cards import Style, ascii_text, can_show_glyphs
from .widgets.literal import literal

if TYPE_CHECKING:
    from ..files.saved import Slot
    from ..tables.offline import OfflineTable


def terminal_shows_glyphs() -> bool:
    """Whether the terminal standard output goes to can show the suit glyphs and box lines. Read
    it before the app runs: while it runs, `sys.stdout` is Textual's capture of prints, which has
    no encoding (a style made then would always be ASCII)."""
    return can_show_glyphs(getattr(sys.stdout, "encoding", None))


class AsciiOnly(LineFilter):
    """With ASCII on, every character that reaches the terminal is 7-bit (`cards.ascii_text`).
    The screens draw in ASCII themselves (the card style's marks; the `.-ascii` rules of their
    .tcss files: ASCII borders, the log's separator); this turns what is left into ASCII too:
    what Textual's widgets draw (a scroll bar's ends, a select's arrow, a check box), text from
    elsewhere (a seat's name: José is Jose, 陈 is ??)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            segment if segment.text.isascii() else Segment(ascii_text(segment.text), segment.style, segment.control)
            for segment in segments
        ]


HANGUP_GRACE = 20.0
"""Seconds the app has to close after its terminal went away before the process just ends (a
network table's own shutdown, telling the host, takes up to 10 s)."""


class BriscolaApp(Shell):
    TITLE = "briscola"

    def __init__(
        self,
        play: dict | None = None,
        *,
        ascii: bool | None = None,
        level: str | None = None,
        seed: int | None = None,
        deal_seed: int | None = None,
        pace: float = PlayOptions.pace,
        settings: settings_module.Settings | None = None,
        resume: Slot | None = None,
    ) -> None:
        """`play`: open straight into a table: {"game", "players", "hands", "options"};
        `resume`: open straight into the unfinished game kept in this `saved.Slot`.
        `seed` and `deal_seed` fix the computer players and the deals (tests);
        `pace`: seconds a computer player takes per decision. `settings`: the
        player's settings (default: those saved in the config directory);
        `ascii` and `level` given here win over them for this run."""
        # NO_COLOR means no colour at all: with ANSI colours on, Textual's NO_COLOR filter drops
        # every colour (with them off it turns each colour grey, still sent as 256 colours).
        super().__init__(ansi_color=True if "NO_COLOR" in os.environ else None)
        self.settings = settings if settings is not None else settings_module.load()
        language.choose(self.settings.language)
        self.ascii_forced = ascii
        self.glyphs = terminal_shows_glyphs()  # the terminal's, read once: Textual takes stdout over
        self.ascii_only = AsciiOnly()
        self.style_ = self.make_style()
        self.play, self.seed, self.deal_seed, self.pace = play, seed, deal_seed, pace
        self.level = level or self.settings.level
        self.resume = resume
        self.from_command = play is not None or resume is not None
        self.offline: OfflineTable | None = None  # the last game against the computer opened (for the line at exit)

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        if not self.is_headless:
            self._on_hangup()
        if self.resume is not None:
            from textual.widgets import Static

            self.mount(
                Static(
                    literal(
                        " "
                        + _("Resuming {name}: replaying and checking its transcript").format(name=self.resume.name)
                        + self.style_.ellipsis
                    ),
                    id="resuming",
                )
            )
            self.resume_table(
                self.resume, lambda why: self.exit(return_code=2, message=literal(f"briscola play: {why}"))
            )
        elif self.play is not None:
            self.start_table(**self.play)
        else:
            from .screens.home import HomeScreen

            self.push_screen(HomeScreen())

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), self.ascii_only] if self.ascii_only.enabled else super().get_line_filters()

    # --- a terminal too small: the TooSmall screen on top until it is large enough -------------

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int | None = None, height: int | None = None) -> None:
        """TooSmall on top while the terminal is below 80x24 (but over a screen that fits in
        any terminal, the quit question), and gone once it is not."""
        if width is None or height is None:
            width, height = self.size
        if not self.screen_stack:
            return
        top = self.screen
        if too_small(width, height):
            if not isinstance(top, TooSmall) and not getattr(top, "FITS_ANY_TERMINAL", False):
                super().push_screen(TooSmall(self.style_.times))
        elif isinstance(top, TooSmall):
            super().pop_screen()

    def _uncover(self) -> None:
        if len(self.screen_stack) > 1 and isinstance(self.screen, TooSmall):
            super().pop_screen()

    def push_screen(self, screen: Screen[Any] | str, *args: Any, **kwargs: Any) -> Any:
        """As App's, under TooSmall while the terminal is too small."""
        self._uncover()
        pushed = super().push_screen(screen, *args, **kwargs)
        self.fit()
        return pushed

    def switch_screen(self, screen: Screen[Any] | str) -> Any:
        """As App's: the screen under TooSmall is the one replaced."""
        self._uncover()
        switched = super().switch_screen(screen)
        self.fit()
        return switched

    def pop_screen(self) -> Any:
        """As App's: the screen under TooSmall is the one popped."""
        self._uncover()
        popped = super().pop_screen()
        self.fit()
        return popped

    def make_style(self) -> Style:
        """The card style from the settings: ASCII (forced, on, off or automatic: as the terminal's
        encoding read at start-up allows), colours, suit names; the screens' ASCII rules (the
        `-ascii` class) and the last word on every character drawn (`AsciiOnly`) follow it."""
        ascii, chosen = self.ascii_forced, self.settings.ascii
        if ascii is None:
            ascii = {"on": True, "off": False}.get(chosen)
        if ascii is None:
            ascii = not self.glyphs
        self.ascii_only.enabled = ascii
        self.set_class(ascii, "-ascii")
        return Style(
            ascii,
            four_colour=self.settings.four_colour,
            names=self.settings.suit_names,
            colour="NO_COLOR" not in os.environ,
        )

    def apply_settings(self) -> None:
        """The settings changed: the style and level of what is opened next; what shows now is
        drawn again (in ASCII, or no longer)."""
        ascii, words = self.style_.ascii, language.current()
        language.choose(self.settings.language)
        self.style_ = self.make_style()
        self.level = self.settings.level
        if self.style_.ascii != ascii or language.current() != words:
            for screen in self.screen_stack:
                for widget in screen.walk_children(with_self=True):
                    widget.refresh()

    def start_table(
        self,
        game: str,
        players: int | None = None,
        hands: int | None = None,
        options: dict[str, object] | None = None,
        level: str | None = None,
    ) -> None:
        from ..files.saved import Slot
        from ..tables.offline import OfflineTable
        from .screens.table import TableScreen

        controller = OfflineTable(
            game,
            players,
            level or self.level,
            hands,
            options,
            seed=self.seed,
            deal_seed=self.deal_seed,
            pace=self.pace,
            slot=Slot.new(game),
        )
        self.offline = controller
        self.push_screen(TableScreen(controller, self.style_))

    def resume_table(self, slot: Slot, failed: Callable[[str], None]) -> None:
        """Open the unfinished game kept in `slot`, rebuilt in a worker thread (a
        long series takes a moment); `failed(why)` if it cannot be resumed."""
        self.run_worker(lambda: self._resume(slot, failed), thread=True, group="resume")

    def _resume(self, slot: Slot, failed: Callable[[str], None]) -> None:
        from ..files.folders import InUse
        from ..files.saved import NotResumable
        from ..tables.offline import OfflineTable
        from .screens.table import TableScreen

        try:
            controller = OfflineTable.resume(slot, pace=self.pace)
        except (NotResumable, InUse) as error:
            self.call_from_thread(failed, str(error))
            return
        self.offline = controller
        self.call_from_thread(self.push_screen, TableScreen(controller, self.style_))

    def _on_hangup(self) -> None:
        """When the terminal goes away (SIGHUP), exit cleanly: the game is already kept on disk."""
        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.terminal_gone)
        except (AttributeError, NotImplementedError, RuntimeError, ValueError):  # no SIGHUP (Windows)
            pass

    def terminal_gone(self) -> None:
        """The terminal is gone: draw nowhere (a write to a dead terminal fails), and exit. Should
        the exit still hang (Textual's output thread may have died on a write to the dead terminal
        before this ran, and its shutdown then waits on it for ever), the process ends anyway after
        `HANGUP_GRACE` seconds: everything worth keeping is on disk already."""
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (1, 2):
            os.dup2(devnull, fd)
        os.close(devnull)
        watchdog = threading.Timer(HANGUP_GRACE, os._exit, args=(0,))
        watchdog.daemon = True
        watchdog.start()
        self.exit()

    def table_over(self) -> None:
        """The series (or the hands asked for) is over."""
        if self.from_command:
            self.exit()
        else:
            self.pop_screen()

    def _in_game(self) -> bool:
        return any(getattr(s, "over", True) is False for s in self.screen_stack)

    async def action_quit(self) -> None:
        from .screens.dialogs import ConfirmQuit

        if not self._in_game() or isinstance(self.screen, ConfirmQuit):
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmQuit(self.kept_note()), answered)

    def kept_note(self) -> str:
        """How a game left now is taken up again (the quit question says it)."""
        return _("It is kept: Resume on the home screen, or briscola play --resume, takes it up.")
