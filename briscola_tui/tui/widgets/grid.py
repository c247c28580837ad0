"""A card to call out of many (the Calabresella call may name any card): the
deck as a grid, one row per suit, ranks high to low; arrows move, Enter or a
click calls. Cards that may not be called are dimmed."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.text import Text
from textual.geometry import Size

from engine.cards import Card

from ...games.base import SUIT_ORDER
from .cards import Style
from .pickable import Pickable

CELL = 4


class CardGrid(Pickable):
    DEFAULT_CSS = "CardGrid { height: auto; }"

    class Clicked(Pickable.Clicked):
        pass

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.style_ = style
        self.cells: list[Card] = []
        self.allowed: set[Card] = set()
        self.cursor = 0
        self.title = ""
        self.columns = 10

    def show(self, order: str, allowed: Collection[Card], cursor: int, title: str = "") -> None:
        """`order`: ranks high to low; `allowed`: the cards that may be chosen."""
        self.columns = len(order)
        self.cells = [Card(rank, suit) for suit in SUIT_ORDER for rank in order]
        self.allowed, self.cursor, self.title = set(allowed), cursor, title
        self.display = True
        self.refresh(layout=True)

    def hide(self) -> None:
        self.display = False

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(SUIT_ORDER) + (1 if self.title else 0)

    def render(self) -> Text:
        s = self.style_
        out = Text()
        if self.title:
            out.append(self.title + "\n", "bold")
        for row, suit in enumerate(SUIT_ORDER):
            out.append(f" {s.suit(suit):<11.11}")
            for column in range(self.columns):
                i = row * self.columns + column
                card = self.cells[i]
                style = s.colour_of(card) if card in self.allowed else "dim"
                if i == self.cursor:
                    style += " reverse"
                out.append(f" {s.card(card):<3}", style.strip())
            out.append("\n")
        out.rstrip()
        return out

    def index_at(self, x: int, y: int) -> int | None:
        row = y - (1 if self.title else 0)
        column = (x - 12) // CELL
        if 0 <= row < len(SUIT_ORDER) and 0 <= column < self.columns:
            return row * self.columns + column
        return None
