"""The table's header line: the game, the hand (of how many), the score (both
sides in a game of two, mine otherwise); on the right the contract, the card
called (and my partner, once known), trump, the face-up card, the stock and the
target bid. Drawn from its `view` and `hands` at its own width: when the line
is too narrow, trump loses its suit's name. Names (from the wire) are literal."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from ...wording import TITLES
from .cards import Style
from .literal import literal
from .seats import seat_name

MIN_WIDTH = 40
"""The width the line is laid out for before the first layout gives its size."""


class TableHeader(Widget):
    DEFAULT_CSS = "TableHeader { height: 1; }"

    view = reactive(None, always_update=True)
    """The seat view shown (None: nothing yet)."""
    hands = reactive(0)
    """Hands the table was asked for (0: no limit)."""

    def __init__(self, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.style_ = style

    def render(self) -> Content:
        return Content.from_rich_text(self._line(), console=self.app.console)

    def _line(self) -> Text:
        v, s = self.view, self.style_
        if v is None:
            return Text()
        header = Text(f" {TITLES.get(v.game, v.game)}", "bold")
        if v.hand_number is not None or v.hands_played:
            number = (v.hand_number + 1) if v.hand_number is not None else v.hands_played
            header.append(f" {s.dot} hand {number}" + (f" of {self.hands}" if self.hands else ""))
        if v.scores and v.seat is not None:
            if v.players == 2:
                left, right = seat_name(v, 0), seat_name(v, 1)
                header.append(literal(f" {s.dot} {left} {v.scores[0]} {s.dash} {v.scores[1]} {right}"))
            else:
                header.append(f" {s.dot} your score {v.scores[v.seat]}")
        right = self._right()
        tail = "  ".join(right) + " "
        width = max(self.size.width, MIN_WIDTH)
        if len(header.plain) + len(tail) + 1 > width:
            tail = "  ".join(r for r in right if not r.startswith("trump")) + " "
            if v.trump is not None:
                tail = f"trump {s.suit(v.trump).split()[0]}  " + tail
        header.append(literal(" " * max(1, width - len(header.plain) - len(tail)) + tail))
        return header

    def _right(self) -> list[str]:
        """The right-hand items: contract, card called and partner, trump, face-up card, stock, target."""
        v, s = self.view, self.style_
        right = []
        if v.contract:
            right.append(v.contract)
        if v.called is not None:
            right.append(f"called {s.card(v.called)}")
            if v.game == "chiamata" and v.phase == "play":
                partner = [seat for seat, roles in v.roles.items() if "partner" in roles or "alone" in roles]
                right.append(f"partner {seat_name(v, partner[0]) if partner else '?'}")
        if v.trump is not None:
            right.append(f"trump {s.suit(v.trump)}")
        if v.faceup is not None:
            right.append(f"face up {s.card(v.faceup)}")
        if v.stock is not None:
            right.append(f"stock {v.stock}")
        targets = [a.target for a in v.auction if a.kind == "bid" and a.target is not None]
        if targets and v.phase != "auction":
            right.append(f"target {targets[-1]}")
        return right
