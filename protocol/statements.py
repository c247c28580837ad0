"""What a decision says about its sender's hidden cards, as every node works it out.

Three decisions make a statement about cards nobody else can see:

- a Calabresella play off the suit led says "none of my hidden cards is of
  that suit" (follow suit is compulsory);
- a Calabresella Chiamo answered with no card says "I do not hold the
  called card";
- a Chiamata call under the two rule says "I hold the 2 of trump and every
  trump below the card I call, and not that card".

The game's state says what a decision claims (`State.hidden_claim`, engine/state.py
and each game's own in engine/games/).

The sender proves its statement with the message (hidden_claims.py), and
every node, the host and spectators included, checks the proof before it
accepts the message. For that, prover and checkers must compute the very
same statement from what is public at that moment: the sender's hidden
positions (held by it and not open to everyone, in increasing order) and
the cards it lacks (those of the statement not yet shown to everyone, by
card index). A card shown to everyone is at a known position, and the deck
holds each card once, so a shown card needs no proof.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.state import Action, State

from .positions import HandDeck


@dataclass(frozen=True)
class Statement:
    """What the sender claims of the cards at its hidden `positions`."""

    about: str  # "void" (off the suit led), "denial" (a Chiamo with no card), "two rule", or "" for none
    positions: tuple[int, ...]  # the sender's hidden deck positions, increasing
    lacks: tuple[int, ...]  # card indices, increasing: at none of those positions
    holds: tuple[int, ...]  # card indices, increasing: each at one of them

    def needs_proof(self) -> bool:
        """False when there is nothing to prove: no hidden card, or no card claimed."""
        return bool(self.holds) or bool(self.positions and self.lacks)


NOTHING = Statement("", (), (), ())


def of_act(view: State, action: Action, cards: HandDeck, shown: list[int]) -> Statement:
    """The statement of `action` (taken in `view`), whose proofs show the
    cards at the positions `shown`."""
    claim = view.hidden_claim(action)
    if claim is None:
        return NOTHING
    return _statement(claim.about, cards, action.seat, shown, list(claim.lacks), list(claim.holds))


def of_denial(seat: int, called: Card, cards: HandDeck) -> Statement:
    """A Chiamo answered with no card: `seat` lacks the called card."""
    return _statement("denial", cards, seat, [], [called], [])


def _statement(
    about: str, cards: HandDeck, seat: int, shown: list[int], lacks: list[Card], holds: list[Card]
) -> Statement:
    public = {cards.known[p] for p in cards.public_scalar}
    positions = tuple(
        sorted(
            p for p, owner in cards.owner.items() if owner == seat and p not in cards.public_scalar and p not in shown
        )
    )
    return Statement(
        about,
        positions,
        tuple(sorted(c.index for c in lacks if c.index not in public)),
        tuple(sorted(c.index for c in holds)),
    )
