"""The table state machine, sans-IO: transcript entries in, messages and events out.

Every node of a table runs a `TableSession` over the same host-ordered
transcript: a player holds one seat's secrets and view, a spectator (seat
None) holds none. `receive(entry_bytes)` checks an entry completely (link,
signature, echo, sequence, body shape, phase, proofs, rules) and only then
changes anything; it returns an `Update`: the messages this node must now
send and the events the entry caused. A player's decisions go in through
`act(action)`; `seat_view()` is all a UI or a computer player may read.

The host is a spectator session that also orders messages (`host.py`).

One hand, in the order the transcript shows it (docs/protocol.md):
commit (every seat) -> shuffle phase 1 (each seat in turn) -> phase 2 (each
in turn) -> shares for the deal (every seat) -> decisions (`act`), with
more `shares` whenever the engine waits for cards and `handover` in a
Calabresella Chiamo -> reveal (every seat) -> audit -> next hand.

The session is split by what each part owns, by composition: `SessionState`
(sessionstate.py) is the node's state, and `TableSession` is that state with
the entry points and the builders' hooks. Its phase is `machine`'s
(machine.py: what each phase waits for, and every phase change as a
(phase, move) -> phase table, applied by `Machine.advance` alone). The rest
is functions over the state: `lifecycle.py` (joining, the coin, seating, the
host's entries, the end of a hand), `handflow.py` (the hand's messages),
`awaited.py` (is a message the one the table waits for), `outbox.py` (what a
seat sends), `positions.py` (the deck's positions and proofs), `claims.py`
(claims checked when cards are shown), `records.py` (what the audit reads),
`phases.py` (the table's phases) and `handstate.py` (what a node holds of the
hand it is in). Each message kind has its handler in `HANDLERS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

from engine.cards import Card
from engine.state import Action, IllegalAction

from . import awaited, handflow, lifecycle, outbox
from . import deck as mp
from .audit import Culprit
from .errors import CheatDetected, LocalProtocolError, RemoteProtocolError
from .events import Event, Update
from .identity import Identity
from .messages import (
    HOST_KINDS,
    KIND_OF,
    CoinCommit,
    CoinReveal,
    Commit,
    Complaint,
    Evidence,
    Handover,
    Join,
    Message,
    MessageKind,
    Reveal,
    Shares,
    Shuffle,
    from_body,
)
from .phases import HAND_PHASES
from .sessionstate import SessionState, Shared
from .store import SeatStore
from .transcript import (
    DAMAGED,
    HOST,
    Entry,
    Header,
    Opened,
    Signed,
    Transcript,
    open_signed,
    parse_header,
    parse_signed,
)
from .view import SeatView, build_view


class TableSession(SessionState):
    """One node's state of a table: a seat (with its secrets) or a spectator.

    Its state is `SessionState`'s (sessionstate.py), its phase `machine`'s
    (machine.py); the hand it is in is `current` (a `HandState`). The handlers
    (`HANDLERS`) are functions over that state; what a seat sends, outbox.py's.
    """

    # --- public queries -----------------------------------------------------

    @property
    def outcomes(self) -> list:
        """The audited outcome of every hand scored so far."""
        return [v.outcome for v in self.verdicts if v.ok and v.outcome is not None]

    def known_cards(self) -> set[Card]:
        """Every card whose position this node has opened (its hand and what is public)."""
        return {Card.from_index(c) for c in self.cards.known.values()}

    def seat_view(self) -> SeatView:
        """What this node may see, as a read-only object (no secret in it)."""
        return build_view(self)

    # --- inbound ------------------------------------------------------------

    def receive(self, data: bytes) -> Update:
        """Process one transcript entry; the messages to send now, and what happened.

        Raises RemoteProtocolError (the host or a seat broke the protocol;
        `culprit` and `entry` say who and where) and changes nothing then.
        """
        if self.machine.closed:
            raise RemoteProtocolError("the table is closed", culprit="host")
        entry = Entry.decode(data)
        if self.transcript is None:
            self._expect_table(entry)
        assert self.transcript is not None  # `_expect_table` starts it (or raises)
        try:
            verified = self.shared.verified if self.shared is not None else None
            self.transcript.check_placed(entry, self.keys, verified)  # (the host's key: the first entry's)
            parsed = self._parse(entry)
            opened = self.transcript.check_message(entry, self._keys_for(parsed), parsed, verified)
            self._judge(opened.header, opened.body, entry.index)
        except RemoteProtocolError:
            self._events = []
            if not self.transcript.entries:
                self.transcript = None
                self.keys.pop(HOST, None)
            raise
        self.transcript.commit(entry, opened)
        self._note_own(opened.header)
        return self._update()

    def _update(self, messages: list[bytes] | None = None) -> Update:
        events, self._events = self._events, []
        return Update(self.outgoing() if messages is None else messages, events)

    def _judge(self, header: Header, body: list, index: int) -> None:
        """Check one message in full and, only if it passes, apply it.

        Every error names the signed sender (a malformed body, an illegal
        action, a deck that does not check out are its own doing).
        """
        sender = header.sender
        try:
            message = from_body(header.kind, body)
            if (header.kind in HOST_KINDS) != (sender == HOST):
                raise RemoteProtocolError(f"{header.kind} from {self._who(sender)} is not allowed")
            if self._is_stale(header, message):
                self.stale.append(index)  # it crossed an interruption in flight: a no-op
                return
            awaited.check_expected(self, header, message, index)
            HANDLERS[KIND_OF[type(message)]](self, sender, message, index)
        except IllegalAction as error:
            raise CheatDetected(f"illegal action: {error}", culprit=sender, entry=index) from None
        except mp.DeckError as error:
            raise CheatDetected(str(error), culprit=sender, entry=index) from None
        except RemoteProtocolError as error:
            if error.culprit is None or (header.kind == "join" and error.culprit == sender):
                # A join is signed by the key it brings: refused, it proves nothing
                # about any seat, and the host should have dropped it.
                error.culprit = "host" if sender == HOST or header.kind == "join" else sender
            if error.entry is None:
                error.entry = index
            raise

    def _note_own(self, header: Header) -> None:
        """Our own message is in the transcript: count from it, and the store may forget it."""
        if header.sender == self.seat:
            self.seq = max(self.seq, header.seq + 1)  # a seat's counter runs on across keys
            if self.holds_seat():
                self.store.confirm(header.seq)

    def _expect_table(self, entry: Entry) -> None:
        header, body = parse_header(Signed.decode(entry.message).payload)
        if entry.index != 0 or header.kind != "table" or header.sender != HOST:
            # (no key is known yet, so nothing here is anyone's signed word)
            raise RemoteProtocolError(DAMAGED + "a table starts with the host's table message", entry=entry.index)
        table = from_body("table", body)
        self.transcript = Transcript(header.table_id)
        self.keys[HOST] = table.key

    def _parse(self, entry: Entry) -> Opened:
        """The entry's message, decoded once (a message that does not decode is the host's to answer for)."""
        try:
            return parse_signed(entry.message)
        except RemoteProtocolError as error:
            raise RemoteProtocolError(
                f"host relayed a bad message: {error.reason}", culprit="host", entry=entry.index
            ) from None

    def keys_for_message(self, signed: bytes) -> dict[int, bytes]:
        """Known keys, plus the self-certified key of a join for a free seat."""
        try:
            return self._keys_for(parse_signed(signed))
        except RemoteProtocolError:
            return self.keys

    def _keys_for(self, parsed: Opened) -> dict[int, bytes]:
        header, body = parsed.header, parsed.body
        free = header.sender not in self.keys or (self.phase == "seating" and header.sender in self.absent)
        if header.kind == "join" and free and 0 <= header.sender < self.players:
            try:
                join = from_body("join", body)
            except RemoteProtocolError:
                return self.keys  # verification then fails naming the sender
            return {**self.keys, header.sender: join.key}
        return self.keys

    def _is_stale(self, header: Header, message: Message) -> bool:
        return awaited.is_stale(self, header, message)

    def crosses_interruption(self, opened: Opened) -> bool:
        """Would this message, as the next entry, be a no-op (`awaited.is_stale`)? The host bounds
        how many it orders (`protocol/stale.py`)."""
        header = opened.header
        if header.kind in HOST_KINDS or header.sender == HOST or self._interrupted_at < 0:
            return False  # (no interruption yet: the usual case, and no need to read the body twice)
        try:
            message = from_body(header.kind, opened.body)
        except RemoteProtocolError:
            return False  # refused as evidence, not a no-op
        return awaited.is_stale(self, header, message)

    @property
    def interrupted_at(self) -> int:
        """The index of the latest interruption (an early reveal, evidence, a time-out); -1 for none."""
        return self._interrupted_at

    def _on_evidence(self, sender: int, msg: Evidence, index: int) -> None:
        """A seat's message the host refused: check for ourselves that the rules
        refuse it and that it is the seat's own next message, then stop the hand."""
        assert self.transcript is not None  # the table message came first
        try:
            opened = open_signed(msg.message, self.keys, self.transcript.table_id)
        except RemoteProtocolError as error:
            raise RemoteProtocolError(
                f"evidence that does not verify: {error.reason}", culprit="host", entry=index
            ) from None
        inner = opened.header
        log = self.transcript
        if (
            not 0 <= inner.sender < self.players
            or inner.kind == "join"
            or log.has_message(msg.message)
            or inner.seq != log.next_seq(inner.sender)
            or log.echoed_index(inner.head) is None
        ):
            raise RemoteProtocolError("evidence that is not the seat's next message", culprit="host", entry=index)
        try:
            self._judge(inner, opened.body, index)
        except RemoteProtocolError as error:
            if error.culprit != inner.sender:
                raise RemoteProtocolError(
                    f"evidence that does not prove its seat wrong: {error.reason}", culprit="host", entry=index
                ) from None
            proven = Culprit(inner.sender, error.reason, index)
        else:
            self.machine.advance("host refused falsely")  # we applied a valid message: the host refused it falsely
            raise RemoteProtocolError(
                f"the host refused a valid message of seat {inner.sender}", culprit="host", entry=index
            )
        log.spend(opened)
        self._note_own(inner)
        lifecycle.refused(self, inner.sender, proven, index)

    # --- outbound: what this seat sends (outbox.py); the builders are public hooks -------

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
        return self._update([outbox.decision(self, action)])

    def outgoing(self) -> list[bytes]:
        """The messages this seat owes now, signed (`outbox.outgoing`: the builder of the
        phase, `BUILDERS`, once for each step). A hook: a subclass may hold them back."""
        return outbox.outgoing(self, lambda builder: getattr(self, builder)())

    def sign(self, message: Message) -> bytes:
        """Sign `message` as this seat's next message, stored first (`outbox.sign`)."""
        return outbox.sign(self, message)

    def sign_step(self, message: Message) -> bytes:
        """Sign `message` as this seat's answer to the step the table is at (`outbox.sign_step`)."""
        return outbox.sign_step(self, message)

    # The builders, one per phase (`outbox.BUILDERS`): the message this seat owes now
    # (None: nothing). A subclass may override one to send something else (the cheating
    # seats of `briscola selfplay --cheat` and of the tests do).

    def make_join(self) -> Join | None:
        return outbox.make_join(self)

    def make_seating(self) -> Join | None:
        return outbox.make_seating(self)

    def make_coin_commit(self) -> CoinCommit:
        return outbox.make_coin_commit(self)

    def make_coin_reveal(self) -> CoinReveal:
        return outbox.make_coin_reveal(self)

    def make_commit(self) -> Commit:
        return outbox.make_commit(self)

    def make_shuffle(self) -> Shuffle:
        return outbox.make_shuffle(self)

    def make_deal(self) -> Shares:
        return outbox.make_deal(self)

    def make_handover(self) -> Handover:
        return outbox.make_handover(self)

    def make_reveal(self) -> Reveal | None:
        return outbox.make_reveal(self)

    def make_complaint(self) -> Complaint:
        return outbox.make_complaint(self)

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
        heard: list[Event] | None = None,
    ) -> tuple[Self, list[bytes]]:
        """Rebuild a seat after a crash from the transcript it holds and its store
        (`shared`: work shared with the other nodes of this process, see `Shared`).

        Returns the session, caught up, and the messages it owes now: those it
        had signed but the transcript does not hold yet (the very bytes stored),
        then any new ones. Nothing already in the transcript is signed again. `person`:
        the identity key that certifies the seat's key in a join it owes (`person`);
        `bot_level`: the computer level that person runs at the seat, named in the certificate;
        `heard`: a list the events of the transcript are added to, in order (a seat that comes
        back tells its person the hand so far).
        """
        session = cls(seat, identity, name, store=store, replacing=replacing, shared=shared)
        session.person, session.bot_level = person, bot_level
        session._resume_floor = 1 + max((h.seq for h in outbox.headers(entries) if h.sender == seat), default=-1)
        owed: list[bytes] = []
        for entry in entries:
            update = session.receive(entry)
            owed += [m for m in update.messages if m]
            if heard is not None:
                heard += update.events
        for q in [q for q in sorted(store.sent) if q >= session.seq]:  # signed (an act) just before the crash
            owed.append(store.sent[q])
            session.seq = q + 1
            session._produced.add(session._step_key())
        return session, outbox.not_in(owed, session.transcript)

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"<TableSession {who} phase={self.phase}>"


HANDLERS: dict[MessageKind, Callable[..., None]] = {
    "table": lifecycle.on_table,
    "join": lifecycle.on_join,
    "coin_commit": lifecycle.on_coin_commit,
    "coin_reveal": lifecycle.on_coin_reveal,
    "evidence": TableSession._on_evidence,
    "timeout": lifecycle.on_timeout,
    "close": lifecycle.on_close,
    "commit": handflow.on_commit,
    "shuffle": handflow.on_shuffle,
    "shares": handflow.on_shares,
    "complaint": handflow.on_complaint,
    "act": handflow.on_act,
    "handover": handflow.on_handover,
    "reveal": handflow.on_reveal,
}
"""The handler of each message kind, `handler(session, sender, message, entry index)`:
what `_judge` applies once the message has passed every check."""


__all__ = ["TableSession", "Shared", "HAND_PHASES"]
