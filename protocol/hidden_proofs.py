"""A statement about hidden cards, proved with the message that makes it, and checked.

statements.py says what a decision claims; hidden_claims.py holds the
proofs. This module joins them for one message: the claim is `()` when the
statement needs no proof, else `(lacks, holds)`: the proof that none of the
sender's hidden cards is one it says it lacks (it carries the combined keys
of positions not chained before, hidden_claims.py), and one proof per card
it says it holds, in the statement's order.

Every node checks with the same public inputs: the final deck, the
committed position keys of every seat, and the combined keys the sender
proved earlier in the hand (`HandDeck.chained`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import hidden_claims
from .codec import encode
from .hidden_claims import ClaimRefused, Holding
from .positions import HandDeck
from .statements import Statement


def prove(
    statement: Statement,
    context: bytes,
    cards: HandDeck,
    seat: int,
    position_keys: Sequence[Sequence[bytes]],
    nonce_key: bytes | None,
) -> tuple:
    """The claim proving `statement` for this seat (its own cards' keys are in `cards`)."""
    if not statement.needs_proof():
        return ()
    lacks = hidden_claims.prove_lacks(
        context,
        Holding({p: cards.private_keys[p] for p in statement.positions}),
        statement.positions,
        cards.final,
        position_keys,
        cards.chained.get(seat, {}),
        statement.lacks,
        nonce_key,
    )
    openings = {p: cards.private_scalar[p] for p in statement.positions}
    holds = [
        hidden_claims.prove_holds(
            _card_context(context, card), openings, statement.positions, cards.final, card, nonce_key
        )
        for card in statement.holds
    ]
    return (lacks, holds)


def check(
    statement: Statement,
    context: bytes,
    cards: HandDeck,
    seat: int,
    position_keys: Sequence[Sequence[bytes]],
    claim: tuple,
) -> dict[int, bytes]:
    """The combined keys the claim newly proves ({position: key}); ClaimRefused if it
    does not prove `statement`. Nothing changes here: the caller records the keys."""
    if not statement.needs_proof():
        if claim:
            raise ClaimRefused("a proof about its hidden cards where the rules ask none")
        return {}
    if not claim:
        raise ClaimRefused("no proof with the claim")
    lacks, holds = claim
    if len(holds) != len(statement.holds):
        raise ClaimRefused(f"{len(holds)} holding proof(s) for {len(statement.holds)} card(s)")
    chains = hidden_claims.check_lacks(
        context,
        statement.positions,
        cards.final,
        position_keys,
        cards.chained.get(seat, {}),
        statement.lacks,
        list(lacks),
    )
    for card, proof in zip(statement.holds, holds):
        hidden_claims.check_holds(_card_context(context, card), statement.positions, cards.final, card, proof)
    return chains


def digest(statement: Statement, context: bytes, cards: HandDeck, seat: int, claim: tuple) -> bytes:
    """What a check depends on, hashed: nodes of one process that hold the same check it once
    (the deck and the committed keys are the hand's, which `context` names)."""
    chained = sorted(cards.chained.get(seat, {}).items())
    statement_parts = [statement.about, list(statement.positions), list(statement.lacks), list(statement.holds)]
    data = encode([context, statement_parts, [list(item) for item in chained], list(cards.final), claim])
    return hashlib.sha256(b"hidden-claim" + data).digest()


def _card_context(context: bytes, card: int) -> bytes:
    return context + b"/holds/" + bytes([card])
