"""Who wins a trick and what it is worth: shared by every game."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card


def played_by(tricks: Sequence, trick: Sequence[Card], leader: int, n: int, card: Card | None) -> int | None:
    """The seat that played `card` in a hand so far (its `tricks`, each a `Trick`; the `trick`
    under way, led by `leader`; `n` seats), if it has been played."""
    if card is None:
        return None
    for done in tricks:
        if card in done.cards:
            return (done.leader + done.cards.index(card)) % n
    if card in trick:
        return (leader + trick.index(card)) % n
    return None


def trick_winner(cards: list[Card], trump: str | None, strength: tuple[int, ...]) -> int:
    """Position (0-based, in playing order) of the card that wins the trick.

    The highest trump wins; with no trump in the trick (or no trump suit at
    all, as in Calabresella) the highest card of the suit led. Cards of any
    other suit never win.
    """
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit == best_card.suit:
            if strength[card.index] > strength[best_card.index]:
                best, best_card = i, card
        elif card.suit == trump:
            best, best_card = i, card
    return best


def trick_value(cards: list[Card], points: tuple[int, ...]) -> int:
    """Sum of the card values in a trick."""
    return sum([points[c.index] for c in cards])
