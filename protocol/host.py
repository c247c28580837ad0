"""The host of a table: it orders messages into the transcript, signs each
entry, and relays. Sans-IO, like the session it is built on.

What the host does with a message (`submit`):

- it proves nothing about its author (a bad signature, bytes already in the
  transcript, a wrong sequence number or echoed head, a join that cannot be
  taken): **dropped**, `Dropped` names the connection it came from;
- it is over MAX_SUBMIT bytes (the evidence of it could not be relayed:
  `sizes.py`): **dropped** as `Oversized`, naming the connection, with the
  message's SHA-256;
- it would be a no-op (it crossed an interruption in flight) past its seat's
  bounds (`stale.py`): **dropped** as `Flooding`, naming the connection;
- it is the seat's own next message but the rules refuse it (its signature
  proves who sent it): **kept as evidence** in a host-signed entry, which
  every node checks again, and the hand stops;
- otherwise it is **ordered**: the next entry.

The host also times a seat out (`time_out`), and closes a table before its
series ends (`close`). It cannot forge a seat's move with either.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any  # (a connection: the caller's own handle, named as the culprit of what it sent)

from engine.games import make

from .errors import LocalProtocolError, RemoteProtocolError
from .identity import Identity
from .messages import KIND_OF, Close, Evidence, Message, Table, Timeout, to_body
from .session import TableSession
from .sessionstate import Shared
from .sizes import MAX_SUBMIT, clip_reason
from .stale import NoopBounds
from .tableid import table_id_of
from .transcript import (
    GENESIS,
    HOST,
    VERSION,
    Entry,
    Header,
    Opened,
    Signed,
    Transcript,
    make_payload,
    open_signed,
    parse_header,
)


class Dropped(RemoteProtocolError):
    """A message the host refused without ordering it; `culprit` is the connection."""


class Oversized(Dropped):
    """A seat's message over MAX_SUBMIT: kept as evidence it could not be relayed. Its sender
    broke the protocol (no client sends one); `digest` (SHA-256) names the bytes dropped."""

    def __init__(self, reason: str, digest: bytes, *, culprit: Any = None, entry: int | None = None) -> None:
        super().__init__(reason, culprit=culprit, entry=entry)
        self.digest = digest


class Flooding(Dropped):
    """A no-op past the seat's bounds (`protocol/stale.py`): dropped, its number not spent."""


@dataclass(frozen=True)
class Ordered:
    """What `submit` appended: the entry to relay, and, when the message was
    refused and kept as evidence, why."""

    entry: bytes
    refused: RemoteProtocolError | None = None


class Host:
    """Orders a table's messages: a spectator session that signs its own entries."""

    def __init__(
        self,
        identity: Identity,
        game: str,
        players: int,
        options: dict | None = None,
        name: str = "table",
        rules: dict | None = None,
    ):
        """`rules`: table rules, e.g. {"time_limit": 60, "retake": True} (a seat
        timed out may be taken by a new key), "replace_cheats": True (a seat an
        audit names a cheat is evicted and the table goes on)."""
        make(game, players, options or {})  # a bad configuration fails here, before anyone joins
        self.identity = identity
        self.table_id = table_id_of(identity.public_bytes)  # (self-certifying: tableid.py)
        self.session = TableSession(None)
        self._table: Table | None = Table(
            game,
            players,
            tuple(sorted((options or {}).items())),
            name,
            identity.public_bytes,
            tuple(sorted((rules or {}).items())),
        )
        self._seq = 0
        self.events: list = []  # what happened, as the host's own spectator session saw it
        self.noops = NoopBounds()  # what each seat's no-ops cost the table

    @classmethod
    def resume(cls, identity: Identity, entries: list[bytes], shared: Shared | None = None) -> Host:
        """Rebuild a host from its transcript file and its key (`shared`: see `TableSession`)."""
        session = TableSession(None, shared=shared)
        for data in entries:
            session.receive(data)
        if session.keys.get(HOST) != identity.public_bytes:
            raise LocalProtocolError("this transcript was hosted with another key")
        assert session.transcript is not None  # it holds the host's key: it read the table message
        host = object.__new__(cls)
        host.identity, host.table_id, host.session = identity, session.transcript.table_id, session
        host._table = None  # sent long ago: the first entry
        host.events = []
        host.noops = NoopBounds()
        host._seq = sum(1 for data in entries if _sender_of(Entry.decode(data).message) == HOST)
        return host

    @property
    def transcript(self) -> Transcript | None:
        """None until the table message (`open`)."""
        return self.session.transcript

    def open(self) -> bytes:
        """The first entry: the table message."""
        if self._table is None:
            raise LocalProtocolError("the table message is the transcript's first entry already (a host taken up)")
        return self._own(self._table)

    def submit(self, signed: bytes, connection: Any = None) -> Ordered:
        """Order one message from `connection` (whatever names it to the caller).

        Raises `Dropped` for a message that proves nothing about its author. One
        that reaches the host once the table has ended is dropped naming nobody
        (`culprit` None): its seat may well have signed it before it saw the end.
        """
        if self.session.phase in ("over", "aborted"):
            index = len(self.transcript.entries) if self.transcript is not None else 0
            raise Dropped("the table has ended", culprit=None, entry=index)
        opened = self.screen(signed, connection)
        noop = self.session.crosses_interruption(opened)
        if noop:
            self._bound_noop(opened, len(signed), connection)
        try:
            entry = self.judge(signed)
        except RemoteProtocolError as error:
            sender = opened.header.sender
            if opened.header.kind == "join" or error.culprit != sender:
                raise Dropped(error.reason, culprit=connection, entry=error.entry) from None
            evidence = self._own(Evidence(signed, clip_reason(error.reason)))
            return Ordered(evidence, error)
        if noop:
            self.noops.charge(opened.header.sender, self.session.interrupted_at, len(signed))
        return Ordered(entry)

    def _bound_noop(self, opened: Opened, size: int, connection: Any) -> None:
        """`Flooding` if one more no-op from this seat is past its bounds (`protocol/stale.py`)."""
        log, seat = self.transcript, opened.header.sender
        assert log is not None  # `screen` passed
        index = len(log.entries)
        echoed = log.echoed_index(opened.header.head)
        assert echoed is not None  # `screen` passed
        reason = self.noops.check(seat, self.session.interrupted_at, index - 1 - echoed, size)
        if reason is not None:
            raise Flooding(reason, culprit=connection, entry=index)

    def screen(self, signed: bytes, connection: Any = None) -> Opened:
        """The checks that need no rules: a signature by a known key (or the
        key a join brings), bytes not seen before, the sender's next sequence
        number, a head from this table's history. `Dropped` if any fails."""
        session, log = self.session, self.transcript
        assert log is not None  # `open` ordered the table message first
        index = len(log.entries)
        _check_size(signed, connection, index)
        try:
            opened = open_signed(signed, session.keys_for_message(signed), self.table_id)
            if log.has_message(signed):
                raise RemoteProtocolError("replayed message: already in the transcript")
            if log.echoed_index(opened.header.head) is None:
                raise RemoteProtocolError("echoed head is not in this table's history")
            log.check_echo(opened.header, index)
            log.check_seq(opened.header, index)
        except RemoteProtocolError as error:
            raise Dropped(error.reason, culprit=connection, entry=index) from None
        return opened

    def judge(self, signed: bytes) -> bytes:
        """Run a screened message through the rules as the next entry; the entry
        if it is accepted (and appended), else RemoteProtocolError with nothing changed."""
        entry = self._wrap(signed)
        self.events += self.session.receive(entry).events
        return entry

    def owing(self) -> tuple[tuple[str, ...], set[int]]:
        """What the table waits for and from which seats (what a clock runs on)."""
        return self.session.expected()

    def time_out(self, seat: int) -> bytes:
        """The entry naming `seat` for a message it owes past the time limit."""
        kinds, senders = self.session.expected()
        if seat not in senders or len(kinds) != 1:
            raise LocalProtocolError(f"seat {seat} owes nothing now")
        return self._own(Timeout(seat, kinds[0]))

    def close(self, reason: str = "host-closed") -> bytes:
        """The entry that ends the table between hands; `reason` as the wire carries a `Reason`
        (reasons.py: a code, which each reader writes in its own language)."""
        return self._own(Close(clip_reason(reason)))

    def _own(self, message: Message) -> bytes:
        """Sign a host message, order it, and check it through our own session."""
        kind = KIND_OF[type(message)]
        header = Header(
            VERSION, self.table_id, kind, HOST, self._seq, self.transcript.head if self.transcript else GENESIS
        )
        signed = Signed.sign(self.identity, make_payload(header, to_body(message))).encode()
        entry = self._wrap(signed)
        try:
            self.events += self.session.receive(entry).events
        except RemoteProtocolError as error:  # our own message refused: a misuse of this class
            raise LocalProtocolError(f"the host may not send that now: {error.reason}") from None
        self._seq += 1
        return entry

    def _wrap(self, signed: bytes) -> bytes:
        log = self.transcript
        index, prev = (len(log.entries), log.head) if log else (0, GENESIS)
        return Entry(index, prev, signed).signed_by(self.identity, self.table_id).encode()


def _check_size(signed: bytes, connection: Any, index: int) -> None:
    """`Oversized` for a message over MAX_SUBMIT: the host could not relay the evidence of it."""
    if len(signed) > MAX_SUBMIT:
        digest = hashlib.sha256(signed).digest()
        reason = f"a message of {len(signed)} bytes, over the {MAX_SUBMIT}-byte limit (sha256 {digest.hex()[:16]})"
        raise Oversized(reason, digest, culprit=connection, entry=index)


def _sender_of(signed: bytes) -> int | None:
    try:
        return parse_header(Signed.decode(signed).payload)[0].sender
    except RemoteProtocolError:
        return None
