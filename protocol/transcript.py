"""The hash-chained, host-ordered transcript and its verification.

Every wire message is a `Signed` [payload, signature]. The payload is the
canonical encoding of [version, table_id, kind, sender, seq, head, *body].
The host wraps each message it accepts in an `Entry` naming the hash of the
previous entry; peers check the chain, the signatures, each sender's
message counter, and that every echoed head is one of their own chain's
earlier hashes (else the host showed different histories).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .codec import (
    decode,
    encode,
    expect_array,
    expect_bytes,
    expect_int,
    expect_str,
)
from .errors import LocalProtocolError, RemoteProtocolError
from .identity import Identity, sign_message, verify, verify_message
from .sizes import HASH_LEN, MAX_MESSAGE, SIGNATURE_LEN, TABLE_ID_LEN  # (MAX_MESSAGE: the chain of size bounds)

VERSION = 3
"""Message format. 2: the deck on secp256k1 with a proof on every step (1: P-256, no proofs)."""
GENESIS = bytes(32)
HOST = -1
SPECTATOR = -2
MAX_SEAT = 5
MAX_SEQ = 2**63 - 1
MAX_INDEX = 2**63 - 1
MAX_KIND = 32
ENTRY_TAG = b"briscola-tui/entry/v1\x00"
ENTRY_SIG_TAG = b"briscola-tui/entry-signature/v1\x00"
DAMAGED = "damaged or altered: "
"""How a reason begins when the fault is in the bytes, not proven of anyone (culprit None)."""


# --- message envelope -------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """The first six fields of every message payload."""

    version: int
    table_id: bytes
    kind: str
    sender: int
    seq: int
    head: bytes


def parse_header(payload: bytes) -> tuple[Header, list]:
    """Decode a payload into its header and body fields, strictly."""
    fields = decode(payload)
    if not isinstance(fields, list) or len(fields) < 6:
        raise RemoteProtocolError("message: expected an array of at least 6 fields")
    version = expect_int(fields[0], 0, MAX_SEQ, "message version")
    if version != VERSION:
        raise RemoteProtocolError(f"message: unsupported version {version}")
    header = Header(
        version=version,
        table_id=expect_bytes(fields[1], TABLE_ID_LEN, "message table_id"),
        kind=expect_str(fields[2], MAX_KIND, "message kind"),
        sender=expect_int(fields[3], SPECTATOR, MAX_SEAT, "message sender"),
        seq=expect_int(fields[4], 0, MAX_SEQ, "message seq"),
        head=expect_bytes(fields[5], HASH_LEN, "message head"),
    )
    return header, fields[6:]


def make_payload(header: Header, body: list | tuple = ()) -> bytes:
    """Canonical payload bytes; LocalProtocolError if the header is invalid."""
    h = header
    payload = encode([h.version, h.table_id, h.kind, h.sender, h.seq, h.head, *body])
    try:
        parse_header(payload)
    except RemoteProtocolError as exc:
        raise LocalProtocolError(exc.reason) from None
    return payload


@dataclass(frozen=True)
class Signed:
    """A payload and its sender's signature, as sent on the wire."""

    payload: bytes
    signature: bytes

    @classmethod
    def sign(cls, identity: Identity, payload: bytes) -> Signed:
        """Sign `payload` with the message domain tag."""
        return cls(payload, sign_message(identity, payload))

    def encode(self) -> bytes:
        """[payload, signature] as canonical msgpack."""
        data = encode([self.payload, self.signature])
        if len(data) > MAX_MESSAGE:
            raise LocalProtocolError("signed message too large")
        return data

    @classmethod
    def decode(cls, data: bytes) -> Signed:
        """Strictly decode [payload, signature]."""
        if len(data) > MAX_MESSAGE:
            raise RemoteProtocolError("signed message too large")
        fields = expect_array(decode(data), 2, "signed message")
        payload = expect_bytes(fields[0], (1, MAX_MESSAGE), "signed payload")
        signature = expect_bytes(fields[1], SIGNATURE_LEN, "signature")
        return cls(payload, signature)


@dataclass(frozen=True)
class Opened:
    """A verified message: the envelope, its header and its body fields."""

    signed: Signed
    header: Header
    body: list


def parse_signed(data: bytes) -> Opened:
    """Decode and parse a signed message, its signature not yet checked."""
    signed = Signed.decode(data)
    header, body = parse_header(signed.payload)
    return Opened(signed, header, body)


def open_signed(data: bytes | Opened, keys: dict[int, bytes], table_id: bytes, verified: set | None = None) -> Opened:
    """Decode, parse and verify one signed message against the senders' keys.

    `verified`: digests of signatures already checked in this process (nodes
    sharing a process check each signature once). Errors name the sender as
    culprit once it is known.
    """
    opened = data if isinstance(data, Opened) else parse_signed(data)
    signed, sender = opened.signed, opened.header.sender
    if opened.header.table_id != table_id:
        raise RemoteProtocolError("message for another table", culprit=sender)
    public = keys.get(sender)
    if public is None:
        raise RemoteProtocolError(f"no key known for sender {sender}", culprit=sender)
    digest = _digest(b"msg", public, signed.payload, signed.signature) if verified is not None else None
    if verified is None or digest not in verified:
        try:
            verify_message(public, signed.payload, signed.signature)
        except RemoteProtocolError as exc:
            raise RemoteProtocolError(exc.reason, culprit=sender) from None
        if verified is not None:
            verified.add(digest)
    return opened


def _digest(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(4, "big") + part)
    return h.digest()


# --- entries ----------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One host-ordered transcript entry: an encoded `Signed`, its link, and
    the host's signature over both.

    The host signs every entry it orders, so the log is the host's own
    signed statement: two entries it signed with the same index and
    different content prove that it showed peers different histories.
    """

    index: int
    prev: bytes
    message: bytes
    signature: bytes = b""

    def content(self) -> bytes:
        """[index, prev, message]: what the chain hash and the host's signature cover."""
        return encode([self.index, self.prev, self.message])

    def encode(self) -> bytes:
        """[index, prev, message, signature] as canonical msgpack."""
        return encode([self.index, self.prev, self.message, self.signature])

    @classmethod
    def decode(cls, data: bytes) -> Entry:
        """Strictly decode [index, prev, message, signature]."""
        fields = expect_array(decode(data), 4, "entry")
        signature = expect_bytes(fields[3], (0, SIGNATURE_LEN), "entry signature")
        if len(signature) not in (0, SIGNATURE_LEN):
            raise RemoteProtocolError("entry signature: expected 64 bytes")
        return cls(
            index=expect_int(fields[0], 0, MAX_INDEX, "entry index"),
            prev=expect_bytes(fields[1], HASH_LEN, "entry prev"),
            message=expect_bytes(fields[2], (1, MAX_MESSAGE), "entry message"),
            signature=signature,
        )

    def signed_by(self, host: Identity, table_id: bytes) -> Entry:
        """This entry with the host's signature."""
        return Entry(self.index, self.prev, self.message, host.sign(_entry_signing_bytes(table_id, self)))


def _entry_signing_bytes(table_id: bytes, entry: Entry) -> bytes:
    return ENTRY_SIG_TAG + table_id + entry.content()


def entry_hash(entry: Entry) -> bytes:
    """SHA-256 of the domain tag and the entry's content (index, prev, message)."""
    return hashlib.sha256(ENTRY_TAG + entry.content()).digest()


def check_host_signature(entry: Entry, keys: dict[int, bytes], table_id: bytes, verified: set | None = None) -> None:
    """The entry must carry the host's signature once the host's key is known."""
    public = keys.get(HOST)
    if public is None:
        return
    signing = _entry_signing_bytes(table_id, entry)
    digest = _digest(b"entry", public, signing, entry.signature) if verified is not None else None
    if verified is not None and digest in verified:
        return
    try:
        verify(public, signing, entry.signature)
    except (RemoteProtocolError, ValueError):
        # A signature that does not verify proves nothing about its claimed signer: anyone
        # can flip a bit. Damaged or altered on the way, and nobody is named for it.
        raise RemoteProtocolError(DAMAGED + "the entry is not signed by the host", entry=entry.index) from None
    if verified is not None:
        verified.add(digest)


def proves_fork(a: Entry, b: Entry, host_key: bytes, table_id: bytes) -> bool:
    """True when `a` and `b` are both signed by the host, at the same index,
    with different content: proof, for anyone, that the host showed two
    peers different histories."""
    if a.index != b.index or a.content() == b.content():
        return False
    try:
        for entry in (a, b):
            check_host_signature(entry, {HOST: host_key}, table_id)
    except RemoteProtocolError:
        return False
    return True


def verify_entry(
    entry: Entry, keys: dict[int, bytes], table_id: bytes, parsed: Opened | None = None, verified: set | None = None
) -> Opened:
    """Check an entry's message signature. The host must relay only good
    messages, so any failure here names the host."""
    try:
        return open_signed(parsed or entry.message, keys, table_id, verified)
    except RemoteProtocolError as exc:
        raise RemoteProtocolError(
            f"host relayed a bad message: {exc.reason}", culprit="host", entry=entry.index
        ) from None


def verify_chain(entries: list[Entry]) -> None:
    """Check indices count up from 0 and each entry names the previous hash."""
    head = GENESIS
    for position, entry in enumerate(entries):
        if entry.index != position:
            raise RemoteProtocolError(f"{DAMAGED}entry {position} has index {entry.index}", entry=position)
        if entry.prev != head:
            raise RemoteProtocolError(f"{DAMAGED}entry {position} does not follow the previous one", entry=position)
        head = entry_hash(entry)


# --- the log ----------------------------------------------------------------


class Transcript:
    """The ordered log of one table, as a node checks and keeps it."""

    def __init__(self, table_id: bytes) -> None:
        self.table_id = table_id
        self.entries: list[Entry] = []
        self._hashes: list[bytes] = []
        self._position: dict[bytes, int] = {GENESIS: -1}
        self._last_seq: dict[int, int] = {}
        self._last_echo: dict[int, int] = {}
        self._messages: set[bytes] = set()

    @property
    def head(self) -> bytes:
        """Hash of the last entry, or GENESIS."""
        return self._hashes[-1] if self._hashes else GENESIS

    def has_message(self, message: bytes) -> bool:
        """True when these exact signed bytes are already in the log."""
        return hashlib.sha256(message).digest() in self._messages

    def echoed_index(self, head: bytes) -> int | None:
        """The index of the entry whose hash is `head` (-1 for GENESIS), or None."""
        return self._position.get(head)

    def next_seq(self, sender: int) -> int:
        """The sequence number `sender`'s next message must carry."""
        return self._last_seq.get(sender, -1) + 1

    def spend(self, opened: Opened) -> None:
        """Count a refused message (kept as evidence) as its sender's: its
        sequence number is used and its bytes can never be ordered again."""
        self._messages.add(hashlib.sha256(opened.signed.encode()).digest())
        self._note(opened.header, self._position[opened.header.head])

    def receive(self, entry: Entry, keys: dict[int, bytes]) -> Opened:
        """Peer: check link, signature, echo and seq of an entry, then add it."""
        opened = self.inspect(entry, keys)
        self.commit(entry, opened)
        return opened

    def inspect(
        self, entry: Entry, keys: dict[int, bytes], parsed: Opened | None = None, verified: set | None = None
    ) -> Opened:
        """Every check of `receive`, changing nothing (see `commit`). `parsed`:
        the entry's message already decoded; `verified`: see `open_signed`."""
        self.check_placed(entry, keys, verified)
        return self.check_message(entry, keys, parsed, verified)

    def check_placed(self, entry: Entry, keys: dict[int, bytes], verified: set | None = None) -> None:
        """The entry is the host's and comes next: its signature first, since nothing in bytes
        that nobody signed proves anything of anyone; then its place in the chain."""
        check_host_signature(entry, keys, self.table_id, verified)
        self._check_link(entry)

    def check_message(
        self, entry: Entry, keys: dict[int, bytes], parsed: Opened | None = None, verified: set | None = None
    ) -> Opened:
        """The rest of `inspect`, for an entry `check_placed` passed: the message's signature,
        replay, echo and counter."""
        opened = verify_entry(entry, keys, self.table_id, parsed, verified)
        if self.has_message(entry.message):
            # A seat never signs the same bytes twice (its counter moves on):
            # only the host can put one message in the log twice.
            raise RemoteProtocolError(
                f"host replayed an earlier message of {_who(opened.header.sender)}",
                culprit="host",
                entry=entry.index,
            )
        self.check_echo(opened.header, entry.index)
        self.check_seq(opened.header, entry.index)
        return opened

    def commit(self, entry: Entry, opened: Opened) -> None:
        """Add an entry that `inspect` passed (after the caller accepted its body)."""
        self._add(entry)
        self._note(opened.header, entry.index)

    # checks

    def check_echo(self, header: Header, at_index: int) -> None:
        """The echoed head must be GENESIS or the hash of an entry before `at_index`."""
        position = self._position.get(header.head)
        if position is None or position >= at_index:
            raise RemoteProtocolError("host showed different histories", culprit="host", entry=at_index)
        if position < self._last_echo.get(header.sender, -1):
            raise RemoteProtocolError("echoed head went backwards", culprit=header.sender, entry=at_index)

    def check_seq(self, header: Header, at_index: int) -> None:
        """The sender's counter must be exactly one more than its last message."""
        expected = self._last_seq.get(header.sender, -1) + 1
        if header.seq < expected:
            # Different bytes at a number already used (the same bytes are caught
            # as a replay): the sender signed both, and both signatures prove it.
            raise RemoteProtocolError(
                f"replayed message: seq {header.seq}, expected {expected}",
                culprit=header.sender,
                entry=at_index,
            )
        if header.seq > expected:
            # An honest seat never skips a number: the host withheld one.
            raise RemoteProtocolError(
                f"out-of-order message: seq {header.seq}, expected {expected} "
                f"(a message of {_who(header.sender)} is missing)",
                culprit="host",
                entry=at_index,
            )

    def _check_link(self, entry: Entry) -> None:
        """The entry comes next. One missing or out of place proves nothing of anyone (a copy
        can lose an entry); an entry in its place, signed by the host, that names another
        entry before it is the host's own statement of a second history."""
        if entry.index != len(self.entries):
            raise RemoteProtocolError(
                f"{DAMAGED}expected entry {len(self.entries)}, got {entry.index}", entry=entry.index
            )
        if entry.prev != self.head:
            raise RemoteProtocolError(
                "the host signed this entry after another history than ours", culprit="host", entry=entry.index
            )

    def _add(self, entry: Entry) -> None:
        self._messages.add(hashlib.sha256(entry.message).digest())
        digest = entry_hash(entry)
        self._position[digest] = entry.index
        self.entries.append(entry)
        self._hashes.append(digest)

    def _note(self, header: Header, at_index: int) -> None:
        self._last_seq[header.sender] = header.seq
        self._last_echo[header.sender] = self._position[header.head]


def _who(sender: int) -> str:
    return "the host" if sender == HOST else f"seat {sender}"
