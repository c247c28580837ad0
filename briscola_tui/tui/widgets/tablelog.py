"""The table's log: the lines of the hand so far, kept as data and written again whenever the
log's width changes, so that a line wraps at the width the log has now (a terminal made larger
mid-hand re-wraps every line, not only the next ones)."""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import RichLog

MAX_LINES = 2000
"""The lines kept (a hand writes far fewer; the log is cleared at each new hand)."""


class TableLog(RichLog):
    """A RichLog that keeps its lines (rich Text, literal) and wraps them again on a resize."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, min_width=16, **kwargs)
        self.can_focus = False
        self.kept: deque[Text] = deque(maxlen=MAX_LINES)  # the lines written since the last clear, unwrapped
        self.wrapped_at = 0  # the width the lines shown were wrapped at (0: not yet)

    def add(self, line: Text) -> None:
        """A line at the end of the log, wrapped at the log's width now."""
        self.kept.append(line)
        self.write(line)

    def clear(self) -> TableLog:
        self.kept.clear()
        super().clear()
        return self

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if not self._size_known or self._deferred_renders:
            return  # the first size: RichLog writes the lines it deferred itself
        if width != self.wrapped_at and self.kept:
            super().clear()
            for line in self.kept:
                self.write(line, scroll_end=True)
        self.wrapped_at = width
