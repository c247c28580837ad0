"""How the words of the tables write cards and suits outside the app: by their letters
(`LETTERS`: `3S`, `trump H`; `HEADLESS`: `trump H (hearts)`), as the `CardStyle` that
`render` takes (the app's `tui.widgets.cards.Style` is one too: glyphs, suit names)."""

from __future__ import annotations

from typing import Protocol

from engine.cards import SUIT_NAMES, Card

from . import engine_words

__all__ = ["CARD_TEXTS", "HEADLESS", "LETTERS", "CardStyle", "Headless", "Letters"]


class CardStyle(Protocol):
    names: str  # the cards' names: "french" or "italian" (a bid's Q: "donna" or "cavallo")

    def card(self, card: Card | None) -> str: ...

    def suit(self, suit: str) -> str: ...


class Letters:
    """Cards and suits by their letters: `3S`, `trump H`."""

    names = "french"

    def card(self, card: Card | None) -> str:
        return "??" if card is None else str(card)

    def suit(self, suit: str) -> str:
        return suit


class Headless(Letters):
    """The headless host and clients: letters, the trump suit named after its letter."""

    def suit(self, suit: str) -> str:
        return f"{suit} ({engine_words.suit_word(SUIT_NAMES[suit][1])})"


LETTERS = Letters()
HEADLESS = Headless()

CARD_TEXTS = frozenset(str(Card.from_index(i)) for i in range(40))
"""Every card as its letters ("4S"): a result's card fact is written in the card style when it is one."""
