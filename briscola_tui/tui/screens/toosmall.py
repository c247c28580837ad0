"""What shows while the terminal is smaller than the app needs (80x24): one line saying so, in
place of a screen that would garble; the app takes it away once the terminal is large enough
again (`BriscolaApp.fit`). Keys other than ctrl+q do nothing meanwhile: no card is played unseen."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from ...language import _

MIN_WIDTH, MIN_HEIGHT = 80, 24


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmall(Screen):
    DEFAULT_CSS = """
    TooSmall { align: center middle; }
    TooSmall > Static { width: auto; max-width: 100%; height: auto; text-style: bold; }
    """

    def __init__(self, times: str = "x", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.times = times

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.show(event.size.width, event.size.height)

    def show(self, width: int, height: int) -> None:
        x = self.times
        self.query_one(Static).update(
            _("This table needs at least {need}: the terminal is {size}.").format(
                need=f"{MIN_WIDTH}{x}{MIN_HEIGHT}", size=f"{width}{x}{height}"
            )
            + "\n"
            + _("Make it larger to go on (ctrl+q quits).")
        )
