"""A numbered list of choices, a page of up to nine at a time: digits pick,
arrows move. A page is laid out in columns when the width allows, so a whole
auction fits under the hand at 80x24; the numbers then follow reading order,
left to right and then down (as the cards of the hand above are numbered, and
as the arrows step), never down one column and then the next."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size

from engine.state import Action
from engine.text import visible

from ...language import _
from .pickable import Pickable

PAGE = 9
"""Items a page holds: one per digit."""
DIGITS = [Binding(str(d), f"digit({d})", show=False) for d in range(1, 10)]
"""The digit keys: `action_digit(d)` on the screen."""
GAP = 2


@dataclass
class Choice:
    text: str
    action: object = None  # the Action, or None for a group that needs a number
    targets: list[int] = field(default_factory=list)  # a group: the legal targets, and their actions
    actions: list[Action] = field(default_factory=list)
    dim: bool = False  # shown but not available now (the home menu's Resume with no game to resume)

    @property
    def as_action(self) -> Action | None:
        """The action chosen, in a list of a decision's options (None: a group that needs a number)."""
        return self.action if isinstance(self.action, Action) else None


class Choices(Pickable):
    DEFAULT_CSS = "Choices { height: auto; max-height: 11; }"

    class Clicked(Pickable.Clicked):
        pass

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.items: list[Choice] = []
        self.cursor = 0
        self.first = 1  # the number of the first item (after the cards, in play)
        self.title = ""
        self.columns_max = 3
        self.page_size_max = PAGE  # more than nine: the rest are reached with the arrows

    def show(self, items: Iterable[Choice], cursor: int = 0, first: int = 1, title: str = "") -> None:
        self.items, self.cursor, self.first, self.title = list(items), cursor, first, title
        self.display = bool(items)
        self.refresh(layout=True)

    @property
    def page_size(self) -> int:
        return max(1, self.page_size_max + 1 - self.first) if self.first <= PAGE else self.page_size_max

    @property
    def page(self) -> int:
        return max(self.cursor, 0) // self.page_size

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.items) // self.page_size))

    def on_page(self, digit: int) -> int | None:
        """The item a digit names on the page shown."""
        size = self.page_size
        i = self.page * size + digit - self.first
        return i if self.page * size <= i < min(len(self.items), (self.page + 1) * size) else None

    def _page_items(self) -> list[tuple[int, str]]:
        size = self.page_size
        start = self.page * size
        stop = min(len(self.items), start + size)
        width = len(str(stop - 1 - start + self.first))
        # (an item may name a file, or a seat by its player's name: shown as it is)
        return [(i, f"{i - start + self.first:>{width}}  {visible(self.items[i].text)}") for i in range(start, stop)]

    def _layout(self, width: int) -> tuple[int, int, int]:
        """(columns, rows, column width) for the page shown in `width` cells."""
        shown = self._page_items()
        if not shown:
            return 1, 0, width
        cell = max(len(text) for _, text in shown) + 1 + GAP
        columns = max(1, min(self.columns_max, width // cell, len(shown)))
        if len(shown) <= 3:
            columns = 1
        rows = -(-len(shown) // columns)
        return columns, rows, cell

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        _, rows, _ = self._layout(width or 80)
        return rows + (1 if self.title else 0) + (1 if self.pages > 1 else 0)

    def render(self) -> Text:
        out = Text()
        if self.title:
            out.append(self.title + "\n", "bold")
        columns, rows, cell = self._layout(self.size.width or 80)
        shown = self._page_items()
        for row in range(rows):
            for column in range(columns):
                k = row * columns + column  # reading order: along the row, then the next row
                if k >= len(shown):
                    break
                i, text = shown[k]
                mark = ">" if i == self.cursor else " "
                entry = f"{mark}{text}"
                out.append(
                    entry,
                    " ".join(
                        s for s in ("dim" if self.items[i].dim else "", "reverse" if i == self.cursor else "") if s
                    ),
                )
                if column < columns - 1:
                    out.append(" " * max(1, cell - len(entry)))
            out.append("\n")
        if self.pages > 1:
            out.append(
                "  " + _("page {page} of {pages}: arrows for more").format(page=self.page + 1, pages=self.pages), "dim"
            )
        out.rstrip()  # in place: Text.rstrip returns None
        return out

    def index_at(self, x: int, y: int) -> int | None:
        row = y - (1 if self.title else 0)
        columns, rows, cell = self._layout(self.size.width or 80)
        column = min(x // cell, columns - 1)
        k = row * columns + column
        shown = self._page_items()
        return shown[k][0] if 0 <= row < rows and 0 <= k < len(shown) else None
