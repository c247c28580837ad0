"""What a seat sends: the message each phase owes, its decisions, and
signing — every secret and every signed message stored before it leaves.

A part of `TableSession`, over the state `SessionState` sets (sessionstate.py). A
spectator never sends anything.

The builders, one per phase (`BUILDERS`: `make_join` ... `make_reveal`),
are the session's public hooks for what this seat sends: each returns the
message the seat owes now (or None: nothing), and `outgoing` signs it. A
subclass may override one to send something else (the cheating seats of
`briscola selfplay --cheat` and of the tests do); `sign`, `sign_step`,
`shuffle_input`, `prove_shuffle` and `pair_key` are the pieces a builder
uses.
"""

from __future__ import annotations

import secrets
from typing import Self

from engine.state import PUBLIC, Action

from . import coin, complaint, hidden_proofs, statements, stepproofs
from . import deck as mp
from .certificate import certify
from .codec import encode
from .errors import LocalProtocolError
from .events import Update
from .hidden_claims import claim_context
from .identity import Identity
from .messages import (
    KIND_OF,
    Act,
    CoinCommit,
    CoinReveal,
    Commit,
    Complaint,
    Handover,
    Join,
    Reveal,
    Shares,
    Shuffle,
    to_body,
)
from .sealing import hand_pair_key, seal_shares
from .sessionstate import SessionState, Shared
from .statements import Statement
from .store import SeatStore
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


class Outbox(SessionState):
    """A seat's outgoing side of `TableSession`."""

    def start(self) -> Update:
        """What to send once connected (the join, when the table is known)."""
        return self._update()

    def rejoin(self) -> Update:
        """Take this seat back after a time-out (with this node's own key)."""
        self._rejoin = True
        return self._update()

    def act(self, action: Action) -> Update:
        """Send this seat's decision; IllegalAction if the rules forbid it (nothing sent)."""
        if not self.my_turn():
            raise LocalProtocolError("it is not this seat's turn to act")
        if action.seat != self.seat:
            raise LocalProtocolError("act for this seat only")
        assert self.view is not None and self.hand is not None and self.seat is not None  # this seat's turn
        self.view.child(action)  # raises IllegalAction, changing nothing
        mine = self.cards.held_by(self.seat)
        proofs = [self.cards.proof(mine[card.index]) for card in self.view.shown_cards(action)]
        positions: list[int] = []
        if action.kind == "discard":
            for card in action.cards:
                assert card is not None  # this seat's own cards: it knows them
                positions.append(mine[card.index])
        wire = action_to_wire(action)
        statement = statements.of_act(self.view, action, self.cards, [p for p, _, _ in proofs])
        claim = self.make_claim(statement, "act", list(wire))
        message = Act(self.hand.number, wire, tuple(proofs), tuple(positions), claim)
        return self._update([self.sign_step(message)])

    def make_claim(self, statement: Statement, kind: str, decision: list) -> tuple:
        """The proof of what this seat's message says of its hidden cards (hidden_proofs.py).
        A hook: a cheating seat (briscola_tui/tools/play_cheats.py) sends another."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None
        assert self.secrets is not None  # a seat that decides committed to the hand
        if not statement.needs_proof():
            return ()
        context, keys = self._claim_inputs(self.seat, kind, decision)
        return hidden_proofs.prove(statement, context, self.cards, self.seat, keys, self.secrets.proof_key)

    def _claim_inputs(self, seat: int, kind: str, decision: list) -> tuple[bytes, list]:
        """What `seat`'s claim is proved and checked against: the context binding it to its
        message (table, hand, seat, kind, the decision) and every seat's committed position keys."""
        assert self.hand is not None and self.transcript is not None  # a hand's decision
        context = claim_context(self.transcript.table_id, self.hand.number, seat, kind, encode(decision))
        return context, [self.hand.commits[s][0].position_keys for s in range(self.players)]

    @classmethod
    def resume(
        cls,
        seat: int,
        identity: Identity,
        store: SeatStore,
        entries: list[bytes],
        name: str = "",
        replacing: bool = False,
        shared: Shared | None = None,
        person: Identity | None = None,
        bot_level: str = "",
    ) -> tuple[Self, list[bytes]]:
        """Rebuild a seat after a crash from the transcript it holds and its store
        (`shared`: work shared with the other nodes of this process, see `Shared`).

        Returns the session, caught up, and the messages it owes now: those it
        had signed but the transcript does not hold yet (the very bytes stored),
        then any new ones. Nothing already in the transcript is signed again. `person`:
        the identity key that certifies the seat's key in a join it owes (`person`);
        `bot_level`: the computer level that person runs at the seat, named in the certificate.
        """
        session = cls(seat, identity, name, store=store, replacing=replacing, shared=shared)
        session.person, session.bot_level = person, bot_level
        session._resume_floor = 1 + max((h.seq for h in _headers(entries) if h.sender == seat), default=-1)
        owed: list[bytes] = []
        for entry in entries:
            owed += [m for m in session.receive(entry).messages if m]
        for q in [q for q in sorted(store.sent) if q >= session.seq]:  # signed (an act) just before the crash
            owed.append(store.sent[q])
            session.seq = q + 1
            session._produced.add(session._step_key())
        return session, _not_in(owed, session.transcript)

    # --- what is owed now ---------------------------------------------------------------

    def _step_key(self) -> tuple:
        hand = self.hand
        if hand is None:
            return (self.phase, -1, 0, 0, 0)
        return (self.phase, hand.number, len(hand.steps), len(hand.moves), len(hand.shuffles))

    def outgoing(self) -> list[bytes]:
        """The messages this seat owes now, signed (none for a spectator): the
        builder's of the phase (`BUILDERS`) once for each step, or the early
        reveal of a complaint. A hook: a subclass may hold them back (a seat
        that stops answering)."""
        if self.seat is None or self.machine.closed or self.evicted:
            return []
        if not self.holds_seat() and self.phase not in ("join", "seating"):
            return []
        if self._complaint is not None and self.machine.in_hand and self.phase != "reveal":
            assert self.hand is not None  # a complaint is about a hand
            key = ("complaint", self.hand.number)
            if key in self._produced:
                return []
            self._produced.add(key)
            message = self.make_complaint() if self._sealed_fault is not None else self.make_reveal()
            return [] if message is None else [self.sign(message)]
        _, senders = self.expected()
        key = self._step_key()
        if self.seat not in senders or key in self._produced or self.phase not in BUILDERS:
            return []
        message = getattr(self, BUILDERS[self.phase])()
        if message is None:
            return []
        self._produced.add(key)
        return [self.sign(message)]

    def sign(self, message) -> bytes:
        """Sign `message` as this seat's next message, stored before it is
        returned (and so before it can leave). A sequence number signed before
        a crash gives back the very bytes stored then; one already in the
        transcript is never signed again."""
        seq = self.seq
        self.seq += 1
        stored = self.store.sent.get(seq)
        if stored is not None:
            return stored
        if seq < self._resume_floor:
            return b""  # rebuilding: the transcript holds what was sent at this number
        assert self.transcript is not None and self.seat is not None and self.identity is not None  # a seat at a table
        header = Header(VERSION, self.transcript.table_id, KIND_OF[type(message)], self.seat, seq, self.transcript.head)
        signed = Signed.sign(self.identity, make_payload(header, to_body(message))).encode()
        self.store.put_sent(seq, signed)
        return signed

    def sign_step(self, message) -> bytes:
        """Sign `message` (`sign`) as this seat's answer to the step the table
        is at: the seat owes nothing more for that step (a decision, or a
        reveal that stops the hand)."""
        self._produced.add(self._step_key())
        return self.sign(message)

    # --- one builder per phase ------------------------------------------------------------

    def make_join(self) -> Join | None:
        """The join this seat sends to take its seat (None: a replacement, which waits for the seat to be free)."""
        if self.replacing:
            return None  # a replacement waits for the seat to be free
        assert self.identity is not None  # a seat's
        return Join(self.identity.public_bytes, self.name or f"seat {self.seat}", self._certificate())

    def make_seating(self) -> Join | None:
        """The join that takes the seat back between hands, when this key may and means to (else None)."""
        assert self.identity is not None and self.seat is not None  # a seat's
        mine = self.identity.public_bytes
        if mine in self.banned:
            return None  # evicted for cheating: this key may not sit here again
        if self.keys.get(self.seat) == mine and not self._rejoin:
            return None  # timed out: back only when asked (`rejoin`)
        if self.keys.get(self.seat) != mine and not self.replacing:
            return None
        self.evicted = False
        return Join(mine, self.name or f"seat {self.seat}", self._certificate())

    def _certificate(self) -> tuple:
        """This seat's key certified by its person's identity key (`person`), naming the computer
        level it runs (`bot_level`) if any; () without one."""
        if self.person is None or self.identity is None or self.transcript is None:
            return ()
        certificate = certify(self.person, self.transcript.table_id, self.identity.public_bytes, self.bot_level)
        if not certificate.level:
            return (certificate.identity, certificate.signature)
        return (certificate.identity, certificate.signature, certificate.level)

    def make_coin_commit(self) -> CoinCommit:
        """The commitment to this seat's coin value (stored first), for the first dealer."""
        assert self.seat is not None  # a seat's
        value = self.store.coins.get(0)
        if value is None:
            value = secrets.token_bytes(32)
            self.store.put_coin(0, value)
        self.toss.mine = value
        return CoinCommit(coin.coin_commit(value, self._coin_context(self.seat)))

    def make_coin_reveal(self) -> CoinReveal:
        """The coin value this seat committed to."""
        assert self.toss.mine is not None  # set by `make_coin_commit`
        return CoinReveal(self.toss.mine)

    def make_commit(self) -> Commit:
        """The hand's commitment: this seat's secrets drawn from its seed (stored
        first), its sealing key U and its public deck keys."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None  # a seat's, in a hand
        seed = self.store.seeds.get(self.hand.number)
        if seed is None:
            seed = secrets.token_bytes(32)
            self.store.put_seed(self.hand.number, seed)
        self.secrets = mp.SeatSecrets(seed)
        context = commit_context(self.transcript.table_id, self.hand.number, self.seat)
        phase1_key, position_keys = self.secrets.public_keys(self.plan.size)
        return Commit(
            self.hand.number,
            self.secrets.commitment(context),
            self.secrets.seal_public,
            phase1_key,
            position_keys,
        )

    def shuffle_input(self) -> list[bytes]:
        """The deck this seat's next shuffle step starts from."""
        hand = self.hand
        assert hand is not None and self.game is not None  # a hand's shuffle
        return list(hand.shuffles[-1][1].deck if hand.shuffles else mp.start_deck([c.index for c in self.game.deck()]))

    def make_shuffle(self) -> Shuffle:
        """This seat's shuffle step (phase 1 while every seat has not shuffled once, then 2), proved."""
        assert self.hand is not None and self.secrets is not None  # committed to the hand
        phase = 1 if len(self.hand.shuffles) < self.players else 2
        deck_in = self.shuffle_input()
        step = mp.shuffle_phase1 if phase == 1 else mp.shuffle_phase2
        return self.prove_shuffle(phase, deck_in, step(deck_in, self.secrets))

    def prove_shuffle(self, phase: int, deck_in: list[bytes], deck_out: list[bytes]) -> Shuffle:
        """The Shuffle message for `deck_out`, with this seat's proof that it follows from `deck_in`."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None
        assert self.secrets is not None  # committed to the hand
        keys = self.secrets.public_keys(self.plan.size)
        ctx = stepproofs.context(self.transcript.table_id, self.hand.number, self.seat, phase, keys, deck_in, deck_out)
        proof = stepproofs.prove(ctx, phase, self.secrets, keys, deck_in, deck_out)
        return Shuffle(self.hand.number, phase, tuple(deck_out), proof)

    def make_deal(self) -> Shares:
        """This seat's key shares for the dealing step the hand is at: sealed to
        the seat that sees each card, in the open for a card shown to all."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None
        assert self.secrets is not None  # committed to the hand
        step = self.hand.steps[-1]
        by_seat: dict[int, list] = {}
        public = []
        for p, audience in zip(step.positions, step.audiences):
            share = mp.key_share(self.secrets, p)
            if audience == PUBLIC:
                public.append((p, share))
            elif audience != self.seat:
                by_seat.setdefault(audience, []).append((p, share))
        table_id, hand = self.transcript.table_id, self.hand.number
        sealed = tuple(
            (
                recipient,
                seal_shares(self.pair_key(recipient), table_id, hand, step.number, self.seat, recipient, pairs),
            )
            for recipient, pairs in sorted(by_seat.items())
        )
        return Shares(hand, step.number, sealed, tuple((p, k.to_bytes(32, "big")) for p, k in public))

    def make_handover(self) -> Handover:
        """A Calabresella Chiamo: the proof of the called card if this seat holds it, else a denial (None)."""
        assert self.view is not None and self.hand is not None and self.seat is not None  # dealt
        called = self.view.need().card
        assert called is not None  # a handover's need names the called card
        position = self.cards.held_by(self.seat).get(called.index)
        if position is not None:
            return Handover(self.hand.number, self.cards.proof(position))
        statement = statements.of_denial(self.seat, called, self.cards)
        return Handover(self.hand.number, None, self.make_claim(statement, "handover", [called.index]))

    def make_reveal(self) -> Reveal | None:
        """This seat's seed for the hand (at its end, or early to stop it); None
        when sent already or when this key committed none for the hand."""
        assert self.hand is not None
        if self._revealed == self.hand.number:
            return None  # sent already (an early reveal)
        if self.secrets is None:
            return None  # no seed committed for this hand by this key (a seat taken after it): nothing owed
        self._revealed = self.hand.number
        return Reveal(self.hand.number, self.secrets.seed)

    def make_complaint(self) -> Complaint:
        """The complaint about the first wrong blob sealed to this seat: the pair's
        shared point Z and the proof that it is (complaint.py); sent instead of an
        early reveal, so that every node names the sender at once."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None
        assert self.secrets is not None and self._sealed_fault is not None  # a blob sealed to this seat
        step, accused = self._sealed_fault
        z, proof = complaint.make(
            self.transcript.table_id,
            self.hand.number,
            step,
            self.seat,
            self.secrets.seal_key,
            self.secrets.seal_public,
            accused,
            self.hand.commits[accused][0].seal_key,
        )
        return Complaint(self.hand.number, step, accused, z, proof)

    def pair_key(self, other: int) -> bytes:
        """The key this seat shares with `other` for this hand (derived once)."""
        if other not in self.current.pair_keys:
            assert self.hand is not None and self.transcript is not None and self.seat is not None
            assert self.secrets is not None  # committed to the hand
            their = self.hand.commits[other][0].seal_key
            self.current.pair_keys[other] = hand_pair_key(
                self.transcript.table_id, self.hand.number, self.seat, self.secrets.seal_key, other, their
            )
        return self.current.pair_keys[other]


def _headers(entries: list[bytes]):
    """The message header of each stored entry (for a quick look before replaying)."""
    for data in entries:
        yield parse_header(Signed.decode(Entry.decode(data).message).payload)[0]


def _not_in(messages: list[bytes], transcript: Transcript | None) -> list[bytes]:
    """Messages not yet ordered, each once, in order."""
    out = []
    for m in messages:
        if m not in out and (transcript is None or not transcript.has_message(m)):
            out.append(m)
    return out
