"""Claims a seat makes about its hidden cards, checked when cards are shown.

Not following the suit led (where a seat must follow) claims "I hold none
of that suit"; answering a Calabresella Chiamo with no card claims "I do
not hold the called card". Each claim is kept with the deck positions the
seat held then. A card shown later from one of those positions proves the
claim false: a renege, or a false denial, named at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

from .errors import CheatDetected


@dataclass(frozen=True)
class Claim:
    seat: int
    lacks_suit: str | None  # "I hold no card of this suit"
    lacks_card: int | None  # "I do not hold this card"
    held: frozenset[int]  # the positions the seat held then
    entry: int


class Claims:
    """Every claim of the hand so far."""

    def __init__(self) -> None:
        self.made: list[Claim] = []

    def lacks_suit(self, seat: int, suit: str, held: frozenset[int], entry: int) -> None:
        self.made.append(Claim(seat, suit, None, held, entry))

    def lacks_card(self, seat: int, card: int, held: frozenset[int], entry: int) -> None:
        self.made.append(Claim(seat, None, card, held, entry))

    def check(self, seat: int, shown: list[tuple[int, int]], entry: int) -> None:
        """`seat` shows these (position, card index): CheatDetected if one belies a claim."""
        for position, card in shown:
            face = Card.from_index(card)
            for claim in self.made:
                if claim.seat != seat or position not in claim.held:
                    continue
                if claim.lacks_suit == face.suit:
                    raise CheatDetected(
                        f"renege: it did not follow {face.suit} at entry {claim.entry} while holding {face}",
                        culprit=seat,
                        entry=entry,
                    )
                if claim.lacks_card == card:
                    raise CheatDetected(
                        f"it denied holding the called card at entry {claim.entry}, and holds {face}",
                        culprit=seat,
                        entry=entry,
                    )
