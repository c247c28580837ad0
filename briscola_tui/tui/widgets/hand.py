"""The person's hand: cards numbered 1..n, sorted by suit and rank; the
cursor, the cards chosen (a discard) and the cards that may be played. The cards are
boxes of the largest face (`faces`) up to `most` that fits them all in one row at the
widget's width (at 80 columns: SMALL, up to 8 cards); more go two rows, compact."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.geometry import Size

from engine.cards import Card

from ...language import _
from .cards import Style
from .faces import SMALL, Face, face_lines, largest
from .pickable import Pickable

BOXES = 8
"""Up to this many cards are drawn as SMALL boxes at 80 columns; more go two rows, compact."""
COMPACT_WIDTH = 8
GAP = 1
"""The blank after a card's box."""


def number_width(count: int) -> int:
    """The cells of a card's number before its box, in a hand of `count`: 2, or 3 from 10 cards."""
    return 2 if count < 10 else 3


class Hand(Pickable):
    """Draws the hand; tells the screen which card was clicked."""

    DEFAULT_CSS = "Hand { height: 4; }"

    class Clicked(Pickable.Clicked):
        pass

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.style_ = style
        self.cards: tuple = ()
        self.playable: set = set()  # cards that may be played now (all shown plainly when empty)
        self.cursor: int | None = None
        self.chosen: set[int] = set()
        self.most: Face = SMALL  # the largest face the table's layout allows (`table_layout`)
        self.centre: int | None = None  # the column the row of cards centres on (None: the middle)

    def show(
        self,
        cards: Iterable[Card],
        playable: Iterable[Card] = (),
        cursor: int | None = None,
        chosen: Iterable[int] = (),
    ) -> None:
        self.cards, self.playable, self.cursor, self.chosen = tuple(cards), set(playable), cursor, set(chosen)
        self.refresh()

    def _style(self, i: int, card: Card) -> str:
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

    def allow(self, most: Face, centre: int | None = None) -> None:
        """The largest face the table's layout allows now, and the column to centre the cards on
        (None: the widget's middle)."""
        if most is not self.most or centre != self.centre:
            self.most, self.centre = most, centre
            self.refresh(layout=True)

    def face(self, width: int | None = None) -> Face | None:
        """The face the cards are drawn with at `width` (the widget's own by default), None: two
        rows, compact. SMALL alone (the 80x24 table): boxes up to BOXES cards, whatever the width."""
        if self.most is SMALL:
            return SMALL if len(self.cards) <= BOXES else None
        room = self.size.width if width is None else width
        return largest(room, self.most.height, len(self.cards), self.most, number_width(len(self.cards)) + GAP)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        face = self.face(width)
        return face.height + 1 if face is not None and self.cards else 4

    def render(self) -> Text:
        if not self.cards:
            return Text(_("(no cards)"), style="dim")
        face = self.face()
        return self._boxes(face) if face is not None else self._compact()

    def indent(self, face: Face | None) -> int:
        """The blank before the row of boxes: none at 80x24, else what centres the row on `centre`
        as far as the width allows."""
        if face is None or self.most is SMALL:
            return 0
        row = len(self.cards) * (number_width(len(self.cards)) + face.width + GAP)
        centre = self.size.width // 2 if self.centre is None else self.centre
        return max(0, min(self.size.width - row, centre - row // 2))

    def _boxes(self, face: Face) -> Text:
        """One row of boxes, each numbered, its marks (the cursor, a tick) under it."""
        lines = [Text(" " * self.indent(face)) for _ in range(face.height + 1)]
        number = number_width(len(self.cards))
        for i, card in enumerate(self.cards):
            box = face_lines(card, face, self.style_, self._style(i, card))
            for row, line in enumerate(box):
                lines[row].append(f"{i + 1:<{number}}" if row == 0 else " " * number)
                lines[row].append(line)
                lines[row].append(" ")
            mark = f"{self._mark(i):^{face.width}}" if face is not SMALL else f" {self._mark(i)}   "
            lines[-1].append(" " * number + f"{mark} ")
        return Text("\n").join(lines)

    def _compact(self) -> Text:
        """Two rows of cards in words, numbered, the marks under each row."""
        s, lines = self.style_, [Text() for _ in range(4)]
        for i, card in enumerate(self.cards):
            row = 0 if i < BOXES else 2
            lines[row].append(f"{i + 1:>2} ")
            lines[row].append(f"{s.card(card)}", f"{self._style(i, card)} {s.colour_of(card)}".strip())
            lines[row].append("   ")
            lines[row + 1].append(f"   {self._mark(i)}   ")
        return Text("\n").join(lines)

    def index_at(self, x: int, y: int) -> int | None:
        face = self.face()
        if face is not None:
            i = (x - self.indent(face)) // (number_width(len(self.cards)) + face.width + GAP)
        else:
            i = x // COMPACT_WIDTH + (BOXES if y >= 2 else 0)
        return i if 0 <= i < len(self.cards) else None
