"""A numbered list of choices, a page at a time: digits pick, arrows move."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widget import Widget

PAGE = 8


@dataclass
class Choice:
    text: str
    action: object = None  # the Action, or None for a group that needs a number
    targets: tuple = ()  # a group: the legal targets, and their actions
    actions: tuple = ()


class Choices(Widget):
    DEFAULT_CSS = "Choices { height: auto; max-height: 10; }"

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.items: list[Choice] = []
        self.cursor = 0
        self.first = 1  # the number of the first item (after the cards, in play)
        self.title = ""

    def show(self, items, cursor: int = 0, first: int = 1, title: str = "") -> None:
        self.items, self.cursor, self.first, self.title = list(items), cursor, first, title
        self.display = bool(items)
        self.refresh(layout=True)

    @property
    def page(self) -> int:
        return self.cursor // PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.items) // PAGE))

    def on_page(self, digit: int) -> int | None:
        """The item a digit names on the page shown."""
        i = self.page * PAGE + digit - self.first
        return i if self.page * PAGE <= i < min(len(self.items), (self.page + 1) * PAGE) else None

    def get_content_height(self, container, viewport, width) -> int:
        return min(PAGE, len(self.items)) + (1 if self.title else 0) + (1 if self.pages > 1 else 0)

    def render(self) -> Text:
        out = Text()
        if self.title:
            out.append(self.title + "\n", "bold")
        start = self.page * PAGE
        for i in range(start, min(len(self.items), start + PAGE)):
            number = i - start + self.first
            mark = ">" if i == self.cursor else " "
            out.append(f"{mark}{number}  {self.items[i].text}", "reverse" if i == self.cursor else "")
            out.append("\n")
        if self.pages > 1:
            out.append(f"  page {self.page + 1} of {self.pages}: left/right for more", "dim")
        return out.rstrip() or Text("")

    def on_click(self, event) -> None:
        row = event.y - (1 if self.title else 0)
        i = self.page * PAGE + row
        if 0 <= row < PAGE and i < len(self.items):
            self.post_message(self.Clicked(i))
