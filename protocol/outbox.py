"""What a seat sends: the message each phase owes, its decisions, and
signing — every secret and every signed message stored before it leaves.

Functions over one node's state (`SessionState`, sessionstate.py). A
spectator never sends anything.

The builders, one per phase (`BUILDERS`: `make_join` ... `make_reveal`),
are behind the session's public hooks of the same names (`TableSession.make_commit`
...): each returns the message the seat owes now (or None: nothing), and
`outgoing` signs it. A subclass of `TableSession` may override a hook to send
something else (the cheating seats of `briscola selfplay --cheat` and of the
tests do); `sign`, `sign_step` and the state's `shuffle_input`,
`prove_shuffle`, `make_claim` and `pair_key` are the pieces a builder uses.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

from engine.state import PUBLIC, Action

from . import coin, complaint, statements
from . import deck as mp
from .certificate import certify
from .errors import LocalProtocolError
from .messages import (
    KIND_OF,
    Act,
    CoinCommit,
    CoinReveal,
    Commit,
    Complaint,
    Handover,
    Join,
    Message,
    Reveal,
    Shares,
    Shuffle,
    to_body,
)
from .sealing import seal_shares
from .sessionstate import SessionState
from .transcript import VERSION, Entry, Header, Signed, Transcript, make_payload, parse_header
from .wire import action_to_wire, commit_context

BUILDERS = {
    "join": "make_join",
    "seating": "make_seating",
    "coin_commit": "make_coin_commit",
    "coin_reveal": "make_coin_reveal",
    "commit": "make_commit",
    "shuffle": "make_shuffle",
    "deal": "make_deal",
    "handover": "make_handover",
    "reveal": "make_reveal",
}
"""The message a seat owes in each phase: the name of its builder (decisions, in "play", come from `act`)."""


def decision(s: SessionState, action: Action) -> bytes:
    """This seat's decision, signed (its turn: `TableSession.act`); IllegalAction if the
    rules forbid it (nothing signed)."""
    if action.seat != s.seat:
        raise LocalProtocolError("act for this seat only")
    assert s.view is not None and s.hand is not None and s.seat is not None  # this seat's turn
    s.view.child(action)  # raises IllegalAction, changing nothing
    mine = s.cards.held_by(s.seat)
    proofs = [s.cards.proof(mine[card.index]) for card in s.view.shown_cards(action)]
    positions: list[int] = []
    if action.kind == "discard":
        for card in action.cards:
            assert card is not None  # this seat's own cards: it knows them
            positions.append(mine[card.index])
    wire = action_to_wire(action)
    statement = statements.of_act(s.view, action, s.cards, [p for p, _, _ in proofs])
    claim = s.make_claim(statement, "act", list(wire))
    message = Act(s.hand.number, wire, tuple(proofs), tuple(positions), claim)
    return sign_step(s, message)


# --- what is owed now ---------------------------------------------------------------


def outgoing(s: SessionState, build: Callable[[str], Any]) -> list[bytes]:
    """The messages this seat owes now, signed (none for a spectator): the
    builder's of the phase (`BUILDERS`) once for each step, or the early
    reveal of a complaint. A hook: a subclass may hold them back (a seat
    that stops answering)."""
    if s.seat is None or s.machine.closed or s.evicted:
        return []
    if not s.holds_seat() and s.phase not in ("join", "seating"):
        return []
    if s._complaint is not None and s.machine.in_hand and s.phase != "reveal":
        assert s.hand is not None  # a complaint is about a hand
        key = ("complaint", s.hand.number)
        if key in s._produced:
            return []
        s._produced.add(key)
        message = build("make_complaint" if s._sealed_fault is not None else "make_reveal")
        return [] if message is None else [sign(s, message)]
    _, senders = s.expected()
    key = s._step_key()
    if s.seat not in senders or key in s._produced or s.phase not in BUILDERS:
        return []
    message = build(BUILDERS[s.phase])
    if message is None:
        return []
    s._produced.add(key)
    return [sign(s, message)]


def sign(s: SessionState, message: Message) -> bytes:
    """Sign `message` as this seat's next message, stored before it is
    returned (and so before it can leave). A sequence number signed before
    a crash gives back the very bytes stored then; one already in the
    transcript is never signed again."""
    seq = s.seq
    s.seq += 1
    stored = s.store.sent.get(seq)
    if stored is not None:
        return stored
    if seq < s._resume_floor:
        return b""  # rebuilding: the transcript holds what was sent at this number
    assert s.transcript is not None and s.seat is not None and s.identity is not None  # a seat at a table
    header = Header(VERSION, s.transcript.table_id, KIND_OF[type(message)], s.seat, seq, s.transcript.head)
    signed = Signed.sign(s.identity, make_payload(header, to_body(message))).encode()
    s.store.put_sent(seq, signed)
    return signed


def sign_step(s: SessionState, message: Message) -> bytes:
    """Sign `message` (`sign`) as this seat's answer to the step the table
    is at: the seat owes nothing more for that step (a decision, or a
    reveal that stops the hand)."""
    s._produced.add(s._step_key())
    return sign(s, message)


# --- one builder per phase ------------------------------------------------------------


def make_join(s: SessionState) -> Join | None:
    """The join this seat sends to take its seat (None: a replacement, which waits for the seat to be free)."""
    if s.replacing:
        return None  # a replacement waits for the seat to be free
    assert s.identity is not None  # a seat's
    return Join(s.identity.public_bytes, s.name or f"seat {s.seat}", certificate(s))


def make_seating(s: SessionState) -> Join | None:
    """The join that takes the seat back between hands, when this key may and means to (else None)."""
    assert s.identity is not None and s.seat is not None  # a seat's
    mine = s.identity.public_bytes
    if mine in s.banned:
        return None  # evicted for cheating: this key may not sit here again
    if s.keys.get(s.seat) == mine and not s._rejoin:
        return None  # timed out: back only when asked (`rejoin`)
    if s.keys.get(s.seat) != mine and not s.replacing:
        return None
    s.evicted = False
    return Join(mine, s.name or f"seat {s.seat}", certificate(s))


def certificate(s: SessionState) -> tuple:
    """This seat's key certified by its person's identity key (`person`), naming the computer
    level it runs (`bot_level`) if any; () without one."""
    if s.person is None or s.identity is None or s.transcript is None:
        return ()
    certificate = certify(s.person, s.transcript.table_id, s.identity.public_bytes, s.bot_level)
    if not certificate.level:
        return (certificate.identity, certificate.signature)
    return (certificate.identity, certificate.signature, certificate.level)


def make_coin_commit(s: SessionState) -> CoinCommit:
    """The commitment to this seat's coin value (stored first), for the first dealer."""
    assert s.seat is not None  # a seat's
    value = s.store.coins.get(0)
    if value is None:
        value = secrets.token_bytes(32)
        s.store.put_coin(0, value)
    s.toss.mine = value
    return CoinCommit(coin.coin_commit(value, s._coin_context(s.seat)))


def make_coin_reveal(s: SessionState) -> CoinReveal:
    """The coin value this seat committed to."""
    assert s.toss.mine is not None  # set by `make_coin_commit`
    return CoinReveal(s.toss.mine)


def make_commit(s: SessionState) -> Commit:
    """The hand's commitment: this seat's secrets drawn from its seed (stored
    first), its sealing key U and its public deck keys."""
    assert s.hand is not None and s.transcript is not None and s.seat is not None  # a seat's, in a hand
    seed = s.store.seeds.get(s.hand.number)
    if seed is None:
        seed = secrets.token_bytes(32)
        s.store.put_seed(s.hand.number, seed)
    s.secrets = mp.SeatSecrets(seed)
    context = commit_context(s.transcript.table_id, s.hand.number, s.seat)
    phase1_key, position_keys = s.secrets.public_keys(s.plan.size)
    return Commit(
        s.hand.number,
        s.secrets.commitment(context),
        s.secrets.seal_public,
        phase1_key,
        position_keys,
    )


def make_shuffle(s: SessionState) -> Shuffle:
    """This seat's shuffle step (phase 1 while every seat has not shuffled once, then 2), proved."""
    assert s.hand is not None and s.secrets is not None  # committed to the hand
    first = len(s.hand.shuffles) < s.players  # phase 1, else 2
    deck_in = s.shuffle_input()
    step = mp.shuffle_phase1 if first else mp.shuffle_phase2
    return s.prove_shuffle(1 if first else 2, deck_in, step(deck_in, s.secrets))


def make_deal(s: SessionState) -> Shares:
    """This seat's key shares for the dealing step the hand is at: sealed to
    the seat that sees each card, in the open for a card shown to all."""
    assert s.hand is not None and s.transcript is not None and s.seat is not None
    assert s.secrets is not None  # committed to the hand
    step = s.hand.steps[-1]
    by_seat: dict[int, list] = {}
    public = []
    for p, audience in zip(step.positions, step.audiences):
        share = mp.key_share(s.secrets, p)
        if audience == PUBLIC:
            public.append((p, share))
        elif audience != s.seat:
            by_seat.setdefault(audience, []).append((p, share))
    table_id, hand = s.transcript.table_id, s.hand.number
    sealed = tuple(
        (
            recipient,
            seal_shares(s.pair_key(recipient), table_id, hand, step.number, s.seat, recipient, pairs),
        )
        for recipient, pairs in sorted(by_seat.items())
    )
    return Shares(hand, step.number, sealed, tuple((p, k.to_bytes(32, "big")) for p, k in public))


def make_handover(s: SessionState) -> Handover:
    """A Calabresella Chiamo: the proof of the called card if this seat holds it, else a denial (None)."""
    assert s.view is not None and s.hand is not None and s.seat is not None  # dealt
    called = s.view.need().card
    assert called is not None  # a handover's need names the called card
    position = s.cards.held_by(s.seat).get(called.index)
    if position is not None:
        return Handover(s.hand.number, s.cards.proof(position))
    statement = statements.of_denial(s.seat, called, s.cards)
    return Handover(s.hand.number, None, s.make_claim(statement, "handover", [called.index]))


def make_reveal(s: SessionState) -> Reveal | None:
    """This seat's seed for the hand (at its end, or early to stop it); None
    when sent already or when this key committed none for the hand."""
    assert s.hand is not None
    if s._revealed == s.hand.number:
        return None  # sent already (an early reveal)
    if s.secrets is None:
        return None  # no seed committed for this hand by this key (a seat taken after it): nothing owed
    s._revealed = s.hand.number
    return Reveal(s.hand.number, s.secrets.seed)


def make_complaint(s: SessionState) -> Complaint:
    """The complaint about the first wrong blob sealed to this seat: the pair's
    shared point Z and the proof that it is (complaint.py); sent instead of an
    early reveal, so that every node names the sender at once."""
    assert s.hand is not None and s.transcript is not None and s.seat is not None
    assert s.secrets is not None and s._sealed_fault is not None  # a blob sealed to this seat
    step, accused = s._sealed_fault
    z, proof = complaint.make(
        s.transcript.table_id,
        s.hand.number,
        step,
        s.seat,
        s.secrets.seal_key,
        s.secrets.seal_public,
        accused,
        s.hand.commits[accused][0].seal_key,
    )
    return Complaint(s.hand.number, step, accused, z, proof)


def headers(entries: list[bytes]) -> Iterator[Header]:
    """The message header of each stored entry (for a quick look before replaying)."""
    for data in entries:
        yield parse_header(Signed.decode(Entry.decode(data).message).payload)[0]


def not_in(messages: list[bytes], transcript: Transcript | None) -> list[bytes]:
    """Messages not yet ordered, each once, in order."""
    out = []
    for m in messages:
        if m not in out and (transcript is None or not transcript.has_message(m)):
            out.append(m)
    return out
