"""What the screens ask of the app they run in: its settings and its computer players' level,
to take changed settings up, and to open a table against the computer (new, or resumed). The
app (`BriscolaApp`) is a `Shell`; a screen that asks any of this declares
`app = getters.app(Shell)`, and its `self.app` is typed as one (the screens cannot import the
app itself, which imports them)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from ..files.saved import Slot
from ..files.settings import Settings
from .widgets.cards import Style


class Shell(App[None]):
    settings: Settings
    """The player's settings, as the settings screen changes them."""
    level: str
    """The computer players' level of the next table."""
    from_command: bool
    """Whether a command (`play`, `host`, `join`, `watch`) opened the app straight into a table: leaving it
    leaves the app."""
    style_: Style
    """How cards and marks are written (from the settings)."""

    def apply_settings(self) -> None:
        """The settings changed: take them up."""
        raise NotImplementedError

    def start_table(
        self,
        game: str,
        players: int | None = None,
        hands: int | None = None,
        options: dict[str, object] | None = None,
        level: str | None = None,
    ) -> None:
        """Open a new table against the computer."""
        raise NotImplementedError

    def table_over(self) -> None:
        """The series (or the hands asked for) is over: leave the table."""
        raise NotImplementedError

    def resume_table(self, slot: Slot, failed: Callable[[str], None]) -> None:
        """Open the unfinished game kept in `slot`; `failed(why)` if it cannot be resumed."""
        raise NotImplementedError
