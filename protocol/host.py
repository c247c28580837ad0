"""The host of a table: it orders messages into the transcript, signs each
entry, and relays. Sans-IO, like the session it is built on."""

from __future__ import annotations

from engine.games import make

from .errors import RemoteProtocolError
from .identity import Identity
from .messages import Table, to_body
from .session import TableSession
from .transcript import (
    GENESIS,
    HOST,
    VERSION,
    Entry,
    Header,
    Signed,
    Transcript,
    make_payload,
    parse_header,
)


class Host:
    """Orders a table's messages: a spectator session that signs the table entry."""

    def __init__(self, identity: Identity, table_id: bytes, game: str, players: int, options: dict | None = None, name: str = "table"):
        make(game, players, options or {})  # a bad configuration fails here, before anyone joins
        self.identity = identity
        self.table_id = table_id
        self.session = TableSession(None)
        self._table = Table(game, players, tuple(sorted((options or {}).items())), name, identity.public_bytes)
        self._seq = 0

    @property
    def transcript(self) -> Transcript:
        return self.session.transcript

    def open(self) -> bytes:
        """The first entry: the table message."""
        header = Header(VERSION, self.table_id, "table", HOST, 0, GENESIS)
        signed = Signed.sign(self.identity, make_payload(header, to_body(self._table))).encode()
        entry = Entry(0, GENESIS, signed).signed_by(self.identity, self.table_id)
        self.session.receive(entry.encode())
        return entry.encode()

    def submit(self, signed: bytes) -> bytes:
        """Order one message; return the entry to broadcast.

        A message the table cannot accept raises RemoteProtocolError naming
        its sender, and is not appended.
        """
        log = self.transcript
        if log.has_message(signed):
            raise RemoteProtocolError("replayed message: already in the transcript", culprit=_sender_of(signed), entry=len(log.entries))
        entry = Entry(len(log.entries), log.head, signed).signed_by(self.identity, self.table_id)
        try:
            self.session.receive(entry.encode())
        except RemoteProtocolError as error:
            if error.culprit == "host":
                error.culprit = _sender_of(signed)
            raise
        return entry.encode()


def _sender_of(signed: bytes):
    try:
        return parse_header(Signed.decode(signed).payload)[0].sender
    except RemoteProtocolError:
        return None
