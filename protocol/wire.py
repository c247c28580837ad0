"""Derivations and encodings shared by the session and the audit.

Contexts bind every commitment, sealing key and sealed message to its
table, hand, step and seats, so nothing can be replayed elsewhere.
"""

from __future__ import annotations

import hashlib

from engine.cards import Card
from engine.state import Action

from . import deck as mp
from .errors import RemoteProtocolError


def commit_context(table_id: bytes, hand: int, seat: int) -> bytes:
    return table_id + hand.to_bytes(4, "big") + bytes([seat])


def pair_context(table_id: bytes, hand: int, a: int, b: int) -> bytes:
    return table_id + hand.to_bytes(4, "big") + bytes(sorted((a, b)))


def seal_aad(table_id: bytes, hand: int, step: int, sender: int, recipient: int) -> bytes:
    return table_id + hand.to_bytes(4, "big") + step.to_bytes(2, "big") + bytes([sender, recipient])


def seal_nonce(aad: bytes) -> bytes:
    """The nonce a seat seals one step's shares with. The AAD names table,
    hand, step, sender and recipient, so no pair key ever sees a nonce twice;
    being derived, it lets a seat rebuilt after a crash seal the same bytes."""
    return hashlib.sha256(b"briscola-tui/seal-nonce/v1" + aad).digest()[:12]


def scalar_bytes(k: int) -> bytes:
    return k.to_bytes(32, "big")


def scalar_int(b: bytes) -> int:
    k = int.from_bytes(b, "big")
    if not 0 < k < mp.ORDER:
        raise RemoteProtocolError("key share out of range")
    return k


def action_to_wire(action: Action) -> tuple:
    card = None if action.card is None else action.card.index
    cards = () if action.kind == "discard" else tuple(_known(c).index for c in action.cards)
    return (action.kind, card, cards, action.rank, action.target, action.contract, action.choice)


def _known(card: Card | None) -> Card:
    """A card a seat's own action names: the seat sees it (a discard goes face down, as positions)."""
    assert card is not None
    return card


def action_from_wire(seat: int, wire: tuple, cards: tuple = ()) -> Action:
    """The action as its sender wrote it: a kind that is no `ActionKind` is refused by
    `State.apply` (no phase allows it), like any other illegal action."""
    kind, card, wire_cards, rank, target, contract, choice = wire
    return Action(
        seat,
        kind,
        card=None if card is None else Card.from_index(card),
        cards=cards or tuple(Card.from_index(c) for c in wire_cards),
        rank=rank,
        target=target,
        contract=contract,
        choice=choice,
    )
