"""Cards, suits, ranks, the decks of each game, points and rank orders.

A `Card` is a small immutable value. There are exactly 40 of them and they are
interned, so `Card.parse("AS") is Card.parse("AS")` and comparing or hashing
cards is as cheap as comparing objects. The stable `index` (0..39) exists for
the wire and the deck cipher; everything else uses the card itself.
"""

from __future__ import annotations

from typing import NoReturn

SUITS = ("D", "H", "S", "C")
"""Suit letters in index order: Denari/diamonds, Coppe/hearts, Spade/spades, Bastoni/clubs."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
"""Rank letters in index order (not a playing order: see the rank orders below)."""

SUIT_NAMES = {
    "D": ("Denari", "diamonds"),
    "H": ("Coppe", "hearts"),
    "S": ("Spade", "spades"),
    "C": ("Bastoni", "clubs"),
}
SUIT_GLYPHS = {"D": "♦", "H": "♥", "S": "♠", "C": "♣"}


class Card:
    """One of the 40 Italian cards: a suit letter and a rank letter."""

    __slots__ = ("suit", "rank", "index", "_text")

    suit: str
    rank: str
    index: int
    _text: str

    def __new__(cls, rank: str, suit: str) -> Card:
        try:
            return _BY_TEXT[rank + suit]
        except KeyError:
            raise ValueError(f"no such card: rank {rank!r} suit {suit!r}") from None

    @classmethod
    def _make(cls, rank: str, suit: str) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", SUITS.index(suit) * 10 + RANKS.index(rank))
        object.__setattr__(card, "_text", rank + suit)
        return card

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:

        return (Card, (self.rank, self.suit))

    @staticmethod
    def parse(text: str) -> Card:
        """`Card.parse("AS")` -> ace of spades. Raises ValueError for anything else."""
        if not isinstance(text, str):
            raise ValueError(f"a card is a string like 'AS', not {type(text).__name__}")
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ValueError(f"unknown card {text!r} (write rank then suit: AS, 3H, QC, 7D)")
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        if not isinstance(index, int) or not 0 <= index < 40:
            raise ValueError(f"card index must be 0..39, not {index!r}")
        return ALL_CARDS[index]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_BY_TEXT: dict[str, Card] = {}
ALL_CARDS: tuple[Card, ...] = tuple(Card._make(rank, suit) for suit in SUITS for rank in RANKS)
for _card in ALL_CARDS:
    _BY_TEXT[str(_card)] = _card


# --- rank orders and points -------------------------------------------------

BRISCOLA_ORDER = "A3KQJ76542"
"""Briscola and Chiamata, high to low."""
SEVEN_SECOND_ORDER = "A7KQJ65432"
"""Briscola with the 'seven second' option, high to low."""
TRESSETTE_ORDER = "32AKQJ7654"
"""Calabresella (Tressette ranks), high to low."""

BRISCOLA_POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
SEVEN_SECOND_POINTS = {"A": 11, "7": 10, "K": 4, "Q": 3, "J": 2}
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1}
"""Calabresella values in thirds of a point."""


def strength_table(order: str) -> tuple[int, ...]:
    """Per card index, a number that is higher for a higher-ranking card of its suit."""
    return tuple(len(order) - order.index(c.rank) for c in ALL_CARDS)


def points_table(points: dict[str, int]) -> tuple[int, ...]:
    """Per card index, the card's value."""
    return tuple(points.get(c.rank, 0) for c in ALL_CARDS)
