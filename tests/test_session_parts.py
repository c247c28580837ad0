"""The session's composition: a handler for every message kind, the hand's state in one object,
no mixins and no stubs."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from protocol.handstate import HandState
from protocol.messages import MessageKind
from protocol.session import HANDLERS, TableSession
from protocol.sessionstate import SessionState


def test_every_message_kind_has_its_handler():
    assert set(HANDLERS) == set(get_args(MessageKind))


def test_a_session_starts_with_no_hand():
    session = TableSession(None)
    assert session.hand is None and session.view is None and session.secrets is None
    assert session.cards is session.current.cards and session.cards.plan is None


def test_the_end_of_a_hand_drops_the_secrets_and_keeps_the_cards():
    hand = HandState(complaint="why", sealed_fault=(1, 2), pair_keys={1: b"k"})
    cards, claims = hand.cards, hand.claims
    hand.end()
    assert (hand.complaint, hand.sealed_fault, hand.pair_keys, hand.secrets) == (None, None, {}, None)
    assert hand.cards is cards and hand.claims is claims


def test_the_session_is_its_state_with_no_mixins_and_no_stubs():
    """Issue 45: one class over one state (the parts are functions over it), nothing declared
    for the type checker only."""
    assert TableSession.__mro__ == (TableSession, SessionState, object)
    protocol = Path(__file__).resolve().parent.parent / "protocol"
    assert [p.name for p in sorted(protocol.glob("*.py")) if "TYPE_CHECKING" in p.read_text()] == []
