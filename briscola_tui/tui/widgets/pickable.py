"""A widget whose cells are picked with the mouse: it says which index was clicked."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widget import Widget


class Pickable(Widget):
    """Subclasses give `index_at(x, y)` and their own `Clicked` (so a screen can tell them apart)."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def index_at(self, x: int, y: int) -> int | None:  # pragma: no cover - each widget has its own
        raise NotImplementedError

    def on_click(self, event: events.Click) -> None:
        i = self.index_at(event.x, event.y)
        if i is not None:
            self.post_message(self.Clicked(i))
