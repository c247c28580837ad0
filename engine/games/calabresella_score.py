"""What a Calabresella hand is worth: the soloist's thirds against the price of its contract."""

from __future__ import annotations

from ..cards import THIRDS, points_table
from .calabresella_facts import CalabresellaResult

PRICE = {"chiamo": 1, "solo": 2, "solissimo": 4, "dividete": 8, "scegliete": 16}
LAST_TRICK = 3
"""Thirds for winning the last trick."""
NEEDED = 18
"""Thirds the soloist needs: 6 whole points."""
CARD_THIRDS = sum(points_table(THIRDS))
"""Thirds in the 40 cards (32): what the tricks did not take is in the monte."""


def settle(
    solo: int, contract: str, raised: str, points: list[int], won: list[int], captured: list[int]
) -> tuple[CalabresellaResult, list[int]]:
    """The result and the score of a hand played out: `solo` the soloist, `points` every
    seat's thirds (the last trick and the monte counted), `won` the tricks each seat won,
    `captured` the thirds of its tricks' cards alone."""
    thirds = points[solo]
    success = thirds // 3 >= NEEDED // 3
    defenders = [(solo + 1) % 3, (solo + 2) % 3]
    losers = [solo] if not success else defenders
    loser_cards = sum(captured[s] for s in losers)
    if won[solo] in (0, 12):
        multiplier = 2
    elif loser_cards < 3:
        multiplier = 3
    else:
        multiplier = 1
    price = PRICE[raised if raised != "none" else contract] * multiplier
    price = price if success else -price
    score = [-price] * 3
    score[solo] = 2 * price
    return CalabresellaResult(solo, contract, raised, thirds, success, multiplier), score
