"""Cards and actions as the screen writes them: the suit as a glyph (or its
letter in ASCII) beside the rank, never colour alone."""

from __future__ import annotations

import re

from engine.cards import SUIT_GLYPHS, Card
from engine.labels import label

GLYPHS = "".join(SUIT_GLYPHS.values()) + "┌┐└┘│─←▲✓·–…"


def can_show_glyphs(encoding: str | None) -> bool:
    """True when `encoding` can write the suit glyphs and box lines."""
    try:
        GLYPHS.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Style:
    """How to write cards and marks: glyphs, or plain ASCII."""

    def __init__(self, ascii: bool = False):
        self.ascii = ascii
        self.arrow = "<-" if ascii else "←"
        self.dot = "-" if ascii else "·"
        self.dash = "-" if ascii else "–"
        self.ellipsis = "..." if ascii else "…"
        self.cursor = "^" if ascii else "▲"
        self.tick = "*" if ascii else "✓"
        self.box = ("+--+", "|", "+--+") if ascii else ("┌──┐", "│", "└──┘")

    def card(self, card: Card | None) -> str:
        if card is None:
            return "??"
        return str(card) if self.ascii else card.rank + SUIT_GLYPHS[card.suit]

    def suit(self, suit: str | None) -> str:
        if suit is None:
            return "none"
        return suit if self.ascii else SUIT_GLYPHS[suit]

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards)

    def text(self, text: str, names=()) -> str:
        """An event or label text: cards as this style writes them, seats by name."""
        if names:
            text = re.sub(r"\bseat (\d+)\b", lambda m: _name(names, int(m.group(1))), text)
        if not self.ascii:
            text = re.sub(r"\b([A2-7JQK])([DHSC])\b", lambda m: m.group(1) + SUIT_GLYPHS[m.group(2)], text)
        return text

    def action(self, action, names=()) -> str:
        return self.text(label(action), names)


def _name(names, seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"
