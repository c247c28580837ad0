"""The chain of size bounds (protocol/sizes.py), at its extremes: whatever the host orders, a
seat's message or the evidence that holds it, fits every frame that carries it.

Each test builds a wrapping at its largest, a message exactly at the limit and one byte over:
a relayed entry, a submit, and the host's evidence of a malformed `act` at a real table.
"""

from __future__ import annotations

import pytest
from helpers.cheaters import random_choosers

from protocol import handshake as hs
from protocol.channel import Channel
from protocol.codec import MAX_FRAME, decode, encode, frame
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.host import Oversized
from protocol.identity import Identity, sign_message
from protocol.local import LocalTable
from protocol.messages import Evidence, to_body
from protocol.session import TableSession
from protocol.sizes import (
    ENTRY_OVERHEAD,
    EVIDENCE_OVERHEAD,
    MAX_ENTRY,
    MAX_MESSAGE,
    MAX_PLAIN,
    MAX_REASON,
    MAX_SUBMIT,
    clip_reason,
)
from protocol.transcript import HOST, MAX_INDEX, MAX_SEQ, VERSION, Entry, Header, Signed, make_payload

TABLE_ID = bytes(range(16))
KEY = Identity.generate()


def sealed(data: bytes) -> bytes:
    """`data` sealed as a connection seals a frame, then framed: what goes on the wire."""
    return frame(Channel(bytes(32), bytes(32)).seal(data))


def signed_of_size(size: int, kind: str = "act", sender: int = 0, seq: int = 0, head: bytes = bytes(32)) -> bytes:
    """A signed message of `kind` whose encoding is exactly `size` bytes: one padding field."""
    header = Header(VERSION, TABLE_ID, kind, sender, seq, head)
    bare = len(Signed.sign(KEY, make_payload(header, [b""])).encode())
    for pad in range(size - bare, size - bare - 6, -1):  # the padding's own bin header grows
        signed = encode([(payload := make_payload(header, [bytes(pad)])), KEY.sign(payload)])
        if len(signed) == size:
            return signed
    raise AssertionError(size)


def test_the_chain_holds_from_the_frame_down():
    assert MAX_PLAIN == MAX_FRAME - 16
    assert MAX_ENTRY == MAX_PLAIN - (len(hs.entry(bytes(300))) - 300)  # ["entry", bin16]
    assert MAX_MESSAGE == MAX_ENTRY - ENTRY_OVERHEAD
    assert MAX_SUBMIT == MAX_MESSAGE - EVIDENCE_OVERHEAD
    assert (MAX_PLAIN, MAX_ENTRY, MAX_MESSAGE, MAX_SUBMIT) == (65_520, 65_510, 65_397, 65_041)


def test_an_entry_at_the_largest_message_and_index_is_relayed_and_one_byte_more_is_refused():
    message = signed_of_size(MAX_MESSAGE)
    entry = Entry(MAX_INDEX, b"\xff" * 32, message).signed_by(KEY, TABLE_ID).encode()
    assert len(entry) == MAX_ENTRY
    relayed = hs.entry(entry)
    assert len(relayed) == MAX_PLAIN  # tight: not one byte to spare
    assert len(sealed(relayed)) == 4 + MAX_FRAME
    payload, signature = decode(signed_of_size(MAX_MESSAGE + 1))
    with pytest.raises(LocalProtocolError):
        Signed(payload, signature).encode()
    with pytest.raises(RemoteProtocolError):
        Signed.decode(signed_of_size(MAX_MESSAGE + 1))


def test_evidence_of_the_largest_seat_message_at_the_worst_host_fields_is_still_a_message():
    """The host's evidence at its largest: the seat's message at MAX_SUBMIT, the host's last
    sequence number, a reason of 200 bytes (multi-byte characters clipped), the largest index."""
    inner = signed_of_size(MAX_SUBMIT)
    reason = clip_reason("é" * MAX_REASON)
    assert len(reason.encode()) == MAX_REASON
    header = Header(VERSION, TABLE_ID, "evidence", HOST, MAX_SEQ, b"\xff" * 32)
    evidence = Signed.sign(KEY, make_payload(header, to_body(Evidence(inner, reason)))).encode()
    version_slack = 9 - 1  # the version is counted as the largest integer; 3 takes one byte
    assert len(evidence) == MAX_MESSAGE - version_slack
    entry = Entry(MAX_INDEX, b"\xff" * 32, evidence).signed_by(KEY, TABLE_ID).encode()
    assert len(hs.entry(entry)) <= MAX_PLAIN
    sealed(hs.entry(entry))


def test_a_submit_at_the_limit_is_sealed():
    assert len(hs.submit(signed_of_size(MAX_SUBMIT))) <= MAX_PLAIN
    sealed(hs.submit(signed_of_size(MAX_SUBMIT)))


def at_a_turn() -> tuple[LocalTable, TableSession]:
    """A two-seat Briscola table, dealt, and the seat whose turn it is."""
    table = LocalTable("briscola", 2, choosers=random_choosers(2, 3))
    table.start()
    seat = next(s for s in table.seats if s.my_turn())
    return table, seat


def malformed_act(seat: TableSession, size: int) -> bytes:
    """The seat's next message: an `act` of one padding field (malformed), `size` bytes signed."""
    assert seat.identity is not None and seat.transcript is not None
    header = Header(VERSION, seat.transcript.table_id, "act", seat.seat, seat.seq, seat.transcript.head)
    bare = len(Signed.sign(seat.identity, make_payload(header, [b""])).encode())
    for pad in range(size - bare, size - bare - 6, -1):
        payload = make_payload(header, [bytes(pad)])
        signed = encode([payload, sign_message(seat.identity, payload)])
        if len(signed) == size:
            return signed
    raise AssertionError(size)


def test_a_malformed_act_at_the_limit_is_kept_as_evidence_every_connection_can_be_sent():
    table, seat = at_a_turn()
    ordered = table.host.submit(malformed_act(seat, MAX_SUBMIT), "conn")
    assert ordered.refused is not None and ordered.refused.culprit == seat.seat
    assert len(hs.entry(ordered.entry)) <= MAX_PLAIN
    sealed(hs.entry(ordered.entry))
    table.broadcast(ordered.entry)
    assert table.failures == []  # every node checks the evidence and names the seat, not the host


def test_a_malformed_act_one_byte_over_is_dropped_naming_its_connection_with_a_digest():
    table, seat = at_a_turn()
    stored = len(table.entries)
    message = malformed_act(seat, MAX_SUBMIT + 1)
    with pytest.raises(Oversized) as caught:
        table.host.submit(message, "conn")
    assert caught.value.culprit == "conn" and len(caught.value.digest) == 32
    assert caught.value.digest.hex()[:16] in caught.value.reason
    assert len(table.entries) == stored


def test_evidence_of_a_message_over_the_limit_is_refused_by_every_node_the_host_too():
    """The evidence body takes no message over MAX_SUBMIT: a host that ordered one would be
    named by every node, and the host's own session refuses to order it."""
    table, seat = at_a_turn()
    with pytest.raises(LocalProtocolError, match="evidence message"):
        table.host._own(Evidence(malformed_act(seat, MAX_SUBMIT + 1), "too large"))
