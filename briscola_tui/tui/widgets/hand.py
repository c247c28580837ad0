"""The person's hand: cards numbered 1..n, sorted by suit and rank; the
cursor, the cards chosen (a discard) and the cards that may be played."""

from __future__ import annotations

from rich.text import Text

from ...language import _
from .cards import Style
from .pickable import Pickable

BOXES = 8
"""Up to this many cards are drawn as boxes; more go two rows, compact."""
BOX_WIDTH = 9
COMPACT_WIDTH = 8


class Hand(Pickable):
    """Draws the hand; tells the screen which card was clicked."""

    DEFAULT_CSS = "Hand { height: 4; }"

    class Clicked(Pickable.Clicked):
        pass

    def __init__(self, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.style_ = style
        self.cards: tuple = ()
        self.playable: set = set()  # cards that may be played now (all shown plainly when empty)
        self.cursor: int | None = None
        self.chosen: set[int] = set()

    def show(self, cards, playable=(), cursor: int | None = None, chosen=()) -> None:
        self.cards, self.playable, self.cursor, self.chosen = tuple(cards), set(playable), cursor, set(chosen)
        self.refresh()

    def _style(self, i: int, card) -> str:
        style = ""
        if self.playable and card not in self.playable:
            style = "dim"
        elif self.playable:
            style = "bold"
        if i == self.cursor:
            style += " reverse"
        return style.strip()

    def _mark(self, i: int) -> str:
        return (self.style_.cursor if i == self.cursor else " ") + (self.style_.tick if i in self.chosen else " ")

    def render(self) -> Text:
        s = self.style_
        if not self.cards:
            return Text(_("(no cards)"), style="dim")
        lines = [Text() for _ in range(4)]
        if len(self.cards) <= BOXES:
            top, side, bottom = ("+----+", "|", "+----+") if s.ascii else ("┌────┐", "│", "└────┘")
            for i, card in enumerate(self.cards):
                style = self._style(i, card)
                lines[0].append(f"{i + 1} " if i < 9 else "  ")
                lines[0].append(top, style)
                lines[0].append(" ")
                lines[1].append("  ")
                lines[1].append(side, style)
                lines[1].append(f" {s.card(card):<2} ", f"{style} {s.colour_of(card)}".strip())
                lines[1].append(side, style)
                lines[1].append(" ")
                lines[2].append("  ")
                lines[2].append(bottom, style)
                lines[2].append(" ")
                lines[3].append(f"   {self._mark(i)}    ")
        else:
            for i, card in enumerate(self.cards):
                row = 0 if i < BOXES else 2
                lines[row].append(f"{i + 1:>2} ")
                lines[row].append(f"{s.card(card)}", f"{self._style(i, card)} {s.colour_of(card)}".strip())
                lines[row].append("   ")
                lines[row + 1].append(f"   {self._mark(i)}   ")
        return Text("\n").join(lines)

    def index_at(self, x: int, y: int) -> int | None:
        if len(self.cards) <= BOXES:
            i = x // BOX_WIDTH
        else:
            i = x // COMPACT_WIDTH + (BOXES if y >= 2 else 0)
        return i if 0 <= i < len(self.cards) else None
