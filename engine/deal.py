"""Deals and deal plans: the cards of a hand, and which deck position goes where.

`Deal` holds the cards of one hand as one holder knows them (hidden ones
are `None`). The shuffled deck is a row of positions, 0 on top. A plan follows the rule
book's dealing order for a game, player count and dealer: dealing starts with
the dealer's right-hand neighbour (seat dealer+1) and goes round in seat
order (`packets`). Each game builds its own plan (`Game.plan`). The protocol uses the plan to hand out encrypted positions; tests and
bots use `DealPlan.deal` on a plainly shuffled list of cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import ClassVar

from .cards import Card

Getter = Callable[[Sequence], list]


@dataclass
class Deal:
    """The cards of one hand as one holder knows them: `None` is a hidden card.

    `hands[s]` are the cards seat s is dealt; `stock` the Briscola face-down
    stock in drawing order, `faceup` the Briscola face-up card (drawn last),
    `monte` the Calabresella monte.
    """

    hands: list[list[Card | None]]
    stock: list[Card | None] = field(default_factory=list)
    faceup: Card | None = None
    monte: list[Card | None] = field(default_factory=list)

    def __repr__(self) -> str:
        # Never print the cards: a deal is full of hidden ones.
        sizes = "/".join(str(len(h)) for h in self.hands)
        return f"<Deal hands={sizes} stock={len(self.stock)} monte={len(self.monte)}>"

    def redact(self, viewer: int | None, public_hands: bool = False) -> Deal:
        """What `viewer` knows of this deal at the start of the hand (see `engine.state.VIEWERS`)."""
        if viewer is None:
            return Deal([list(h) for h in self.hands], list(self.stock), self.faceup, list(self.monte))
        hands: list[list[Card | None]] = [
            list(h) if (s == viewer or public_hands) else [None] * len(h) for s, h in enumerate(self.hands)
        ]
        return Deal(hands, [None] * len(self.stock), self.faceup, [None] * len(self.monte))


@dataclass(frozen=True)
class DealPlan:
    """Deck positions per destination.

    `hands[s]` lists, in the order received, the positions seat s is dealt;
    `stock` the Briscola face-down stock positions in drawing order;
    `faceup` the position of the Briscola face-up card (drawn last);
    `monte` the Calabresella monte positions.
    """

    size: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...] = ()
    faceup: int | None = None
    monte: tuple[int, ...] = ()

    # Not a field: the plan's own getters (ClassVar keeps it out of the dataclass's fields).
    _getters: ClassVar[tuple[tuple[Getter, ...], Getter, Getter]]
    """The positions' getters (the hands', the stock's, the monte's), built once: every
    hand of every playout is dealt."""

    def __post_init__(self) -> None:
        hands = tuple(_getter(positions) for positions in self.hands)
        object.__setattr__(self, "_getters", (hands, _getter(self.stock), _getter(self.monte)))

    def __getstate__(self) -> dict:
        return {name: getattr(self, name) for name in ("size", "hands", "stock", "faceup", "monte")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    def deal(self, deck: Sequence[Card | None]) -> Deal:
        """Lay out a shuffled deck (position 0 first) as a fully known `Deal`."""
        if len(deck) != self.size:
            raise ValueError(f"the plan deals {self.size} cards, the deck has {len(deck)}")
        hands, stock, monte = self._getters
        return Deal(
            [get(deck) for get in hands], stock(deck), None if self.faceup is None else deck[self.faceup], monte(deck)
        )


def _getter(positions: tuple[int, ...]) -> Getter:
    """A function of a deck: the list of its cards at `positions`, in order."""
    if len(positions) < 2:
        return lambda deck: [deck[p] for p in positions]
    get = itemgetter(*positions)
    return lambda deck: list(get(deck))


def packets(players: int, dealer: int, per_round: list[int]) -> list[list[int]]:
    """Positions dealt to each seat, dealing `per_round[r]` cards at a time.

    Round r gives `per_round[r]` consecutive positions to each seat in turn,
    starting with dealer+1. Returns per seat the positions in the order
    received; positions run on from 0.
    """
    hands: list[list[int]] = [[] for _ in range(players)]
    position = 0
    for count in per_round:
        for i in range(players):
            seat = (dealer + 1 + i) % players
            hands[seat].extend(range(position, position + count))
            position += count
    return hands
