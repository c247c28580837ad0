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

The session is split by what each part owns: `lifecycle.py` (joining, the
coin, seating, the host's entries, the end of a hand), `handflow.py` (the
hand's messages), `outbox.py` (what a seat sends), `positions.py` (the
deck's positions and proofs), `claims.py` (claims checked when cards are
shown), `records.py` (what the audit reads), `phases.py` (the table's
phases), `handstate.py` (what a node holds of the hand it is in) and
`sessionstate.py` (the state the parts share, and the queries they ask).
Each message kind has its handler in `HANDLERS`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card
from engine.state import Action, IllegalAction

from . import deck as mp
from .errors import CheatDetected, RemoteProtocolError
from .events import Update
from .handflow import HandFlow
from .lifecycle import TableLifecycle
from .messages import HOST_KINDS, KIND_OF, MessageKind, from_body
from .outbox import Outbox
from .phases import HAND_PHASES
from .sessionstate import Shared
from .transcript import DAMAGED, HOST, Entry, Header, Opened, Signed, Transcript, parse_header, parse_signed
from .view import SeatView, build_view

HANDLERS: dict[MessageKind, Callable[..., None]] = {
    "table": TableLifecycle._on_table,
    "join": TableLifecycle._on_join,
    "coin_commit": TableLifecycle._on_coin_commit,
    "coin_reveal": TableLifecycle._on_coin_reveal,
    "evidence": TableLifecycle._on_evidence,
    "timeout": TableLifecycle._on_timeout,
    "close": TableLifecycle._on_close,
    "commit": HandFlow._on_commit,
    "shuffle": HandFlow._on_shuffle,
    "shares": HandFlow._on_shares,
    "complaint": HandFlow._on_complaint,
    "act": HandFlow._on_act,
    "handover": HandFlow._on_handover,
    "reveal": HandFlow._on_reveal,
}
"""The handler of each message kind, `handler(session, sender, message, entry index)`:
what `_judge` applies once the message has passed every check."""


class TableSession(TableLifecycle, HandFlow, Outbox):
    """One node's state of a table: a seat (with its secrets) or a spectator.

    Its state is set by `SessionState` (sessionstate.py), the base every part shares;
    the hand it is in is `current` (a `HandState`).
    """

    # --- public queries -----------------------------------------------------

    @property
    def outcomes(self) -> list:
        """The audited outcome of every hand scored so far."""
        return [v.outcome for v in self.verdicts if v.ok and v.outcome is not None]

    def my_turn(self) -> bool:
        if self.phase != "play" or not self.holds_seat() or self._complaint is not None:
            return False
        assert self.view is not None  # "play": the hand is dealt
        return self.view.current_player() == self.seat and self._step_key() not in self._produced

    def legal_actions(self) -> list[Action]:
        if not self.my_turn():
            return []
        assert self.view is not None  # this seat's turn: the hand is dealt
        return self.view.legal_actions()

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
            self._check_expected(header, message, index)
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

    # --- is a message the one the table waits for? ---------------------------------

    def _in_phase(self, header: Header, message) -> bool:
        """Is this message one the table waits for now (kind, sender and hand)?"""
        if header.sender == HOST:
            return self._host_may(header.kind)
        hand = getattr(message, "hand", None)
        if hand is not None and (self.hand is None or hand != self.hand.number):
            return False
        if self.machine.interrupted_by(header.kind) and 0 <= header.sender < self.players:
            assert self.hand is not None  # a hand's phases
            if header.kind == "complaint" or header.sender not in self.hand.reveals:
                return True  # (machine.INTERRUPTS) a reveal once; a complaint: `_on_complaint` checks which step
        kinds, senders = self.expected()
        return header.kind in kinds and header.sender in senders

    def _is_stale(self, header: Header, message) -> bool:
        """A seat's message out of phase because an interruption (an early
        reveal, evidence, a time-out) was ordered after the entry it echoes:
        it crossed in flight. It is accepted as a no-op (its sequence number
        is spent), so the sender is neither blamed nor stuck."""
        if header.sender == HOST or self._interrupted_at < 0:
            return False
        assert self.transcript is not None  # the table message came first
        echoed = self.transcript.echoed_index(header.head)
        return echoed is not None and echoed < self._interrupted_at and not self._in_phase(header, message)

    def crosses_interruption(self, opened: Opened) -> bool:
        """Would this message, as the next entry, be a no-op (`_is_stale`)? The host bounds
        how many it orders (`protocol/stale.py`)."""
        header = opened.header
        if header.kind in HOST_KINDS or header.sender == HOST or self._interrupted_at < 0:
            return False  # (no interruption yet: the usual case, and no need to read the body twice)
        try:
            message = from_body(header.kind, opened.body)
        except RemoteProtocolError:
            return False  # refused as evidence, not a no-op
        return self._is_stale(header, message)

    @property
    def interrupted_at(self) -> int:
        """The index of the latest interruption (an early reveal, evidence, a time-out); -1 for none."""
        return self._interrupted_at

    def _check_expected(self, header: Header, message, index: int) -> None:
        if not self._in_phase(header, message):
            hand = getattr(message, "hand", None)
            if hand is not None and self.hand is not None and hand != self.hand.number:
                reason = f"message for hand {hand}, this is hand {self.hand.number}"
            else:
                reason = f"{header.kind} from {self._who(header.sender)} is out of phase ({self.phase})"
            raise RemoteProtocolError(reason, culprit="host" if header.sender == HOST else header.sender, entry=index)

    def _host_may(self, kind: str) -> bool:
        if kind == "close" and self.phase == "commit":
            assert self.hand is not None  # "commit" starts a hand
            if self.hand.commits:
                return False  # the hand has begun: closed at its end only
        return self.machine.host_may(kind)  # (machine.HOST_MAY)

    # --- events -------------------------------------------------------------------------

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"<TableSession {who} phase={self.phase}>"


__all__ = ["TableSession", "Shared", "HAND_PHASES"]
