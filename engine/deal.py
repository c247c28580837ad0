"""Deal plans: which position of the shuffled deck goes where.

The shuffled deck is a row of positions, 0 on top. A plan follows the rule
book's dealing order for a game, player count and dealer: dealing starts with
the dealer's right-hand neighbour (seat dealer+1) and goes round in seat
order (`packets`). Each game builds its own plan (`Game.plan`). The protocol uses the plan to hand out encrypted positions; tests and
bots use `DealPlan.deal` on a plainly shuffled list of cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .state import Deal


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

    def deal(self, deck: Sequence[Card | None]) -> Deal:
        """Lay out a shuffled deck (position 0 first) as a fully known `Deal`."""
        if len(deck) != self.size:
            raise ValueError(f"the plan deals {self.size} cards, the deck has {len(deck)}")
        return Deal(
            hands=[[deck[p] for p in positions] for positions in self.hands],
            stock=[deck[p] for p in self.stock],
            faceup=None if self.faceup is None else deck[self.faceup],
            monte=[deck[p] for p in self.monte],
        )


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
