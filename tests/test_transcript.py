"""The signed message envelope and the hash-chained transcript."""

import os

import pytest

from protocol.codec import MAX_FRAME, encode, frame
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.identity import Identity
from protocol.transcript import (
    GENESIS,
    HOST,
    MAX_INDEX,
    MAX_MESSAGE,
    Entry,
    Header,
    NotATranscript,
    Signed,
    Transcript,
    dump_transcript,
    entry_hash,
    load_transcript,
    load_transcript_prefix,
    make_payload,
    parse_header,
    verify_chain,
    verify_entry,
    verify_transcript,
)

TABLE = bytes(range(16))
META = ["briscola", 2, [b"x"]]


class Table:
    """A host and some seats exchanging signed messages in memory."""

    def __init__(self, seats=2):
        self.ids = {HOST: Identity.generate()}
        self.ids.update({s: Identity.generate() for s in range(seats)})
        self.keys = {s: i.public_bytes for s, i in self.ids.items()}
        self.seq = {s: 0 for s in self.ids}
        self.host = Transcript(TABLE, self.ids[HOST])

    def message(self, sender, kind="chat", body=(), head=None, seq=None, signer=None):
        header = Header(
            1, TABLE, kind, sender,
            self.seq[sender] if seq is None else seq,
            self.host.head if head is None else head,
        )
        if seq is None:
            self.seq[sender] += 1
        signed = Signed.sign(self.ids[sender if signer is None else signer],
                             make_payload(header, list(body)))
        return signed.encode()

    def play(self, senders):
        for sender in senders:
            self.host.admit(self.message(sender, body=[sender, b"\x00" * 3]), self.keys)
        return self.host.entries


# --- envelope -----------------------------------------------------------------


def test_header_round_trip():
    header = Header(1, TABLE, "play", 3, 7, GENESIS)
    payload = make_payload(header, ["card", 5])
    assert parse_header(payload) == (header, ["card", 5])
    assert parse_header(make_payload(header)) == (header, [])


@pytest.mark.parametrize(
    "fields, reason",
    [
        ([1, TABLE, "k", 0, 0], "at least 6"),
        ([2, TABLE, "k", 0, 0, GENESIS], "version"),
        ([True, TABLE, "k", 0, 0, GENESIS], "version"),
        ([1, TABLE[:15], "k", 0, 0, GENESIS], "table_id"),
        ([1, TABLE, b"k", 0, 0, GENESIS], "kind"),
        ([1, TABLE, "k" * 33, 0, 0, GENESIS], "kind"),
        ([1, TABLE, "k", 6, 0, GENESIS], "sender"),
        ([1, TABLE, "k", -3, 0, GENESIS], "sender"),
        ([1, TABLE, "k", 0, -1, GENESIS], "seq"),
        ([1, TABLE, "k", 0, 0, GENESIS[:31]], "head"),
        ("not an array", "at least 6"),
    ],
)
def test_parse_header_rejects(fields, reason):
    with pytest.raises(RemoteProtocolError) as info:
        parse_header(encode(fields))
    assert reason in info.value.reason


def test_make_payload_rejects_bad_header_locally():
    with pytest.raises(LocalProtocolError):
        make_payload(Header(1, TABLE, "k", 9, 0, GENESIS))
    with pytest.raises(LocalProtocolError):
        make_payload(Header(1, TABLE, "k", 0, 0, GENESIS), [1.5])


def test_signed_round_trip_and_rejects():
    me = Identity.generate()
    signed = Signed.sign(me, b"payload")
    assert Signed.decode(signed.encode()) == signed
    for bad in ([b"p"], [b"p", b"s" * 63], [b"", b"s" * 64], ["p", b"s" * 64]):
        with pytest.raises(RemoteProtocolError):
            Signed.decode(encode(bad))


def test_entry_hash_depends_on_every_field():
    entry = Entry(0, GENESIS, b"m")
    others = [Entry(1, GENESIS, b"m"), Entry(0, b"\x01" * 32, b"m"), Entry(0, GENESIS, b"n")]
    assert len({entry_hash(e) for e in [entry, *others]}) == 4


# --- chain ----------------------------------------------------------------------


def test_honest_chain_verifies_on_a_peer():
    table = Table()
    entries = table.play([HOST, 0, 1, 0, 1, HOST])
    verify_chain(entries)
    peer = Transcript(TABLE)
    for entry in entries:
        opened = peer.receive(entry, table.keys)
        assert opened.body[0] == opened.header.sender
    assert peer.head == table.host.head
    assert peer.known_heads == table.host.known_heads
    assert GENESIS in peer.known_heads and len(peer.known_heads) == 7


def test_accept_checks_link():
    table = Table()
    entries = table.play([0, 1, 0])
    peer = Transcript(TABLE)
    peer.accept(entries[0])
    for bad in (entries[2], Entry(1, GENESIS, entries[1].message)):
        with pytest.raises(RemoteProtocolError) as info:
            peer.accept(bad)
        assert info.value.culprit == "host"
        assert info.value.entry == bad.index


def test_verify_chain_names_first_bad_entry():
    entries = Table().play([0, 1, 0, 1])
    broken = entries[:2] + [Entry(2, GENESIS, entries[2].message)] + entries[3:]
    with pytest.raises(RemoteProtocolError) as info:
        verify_chain(broken)
    assert info.value.entry == 2
    with pytest.raises(RemoteProtocolError) as info:
        verify_chain(entries[:1] + entries[2:])
    assert info.value.entry == 1


# --- cheating -------------------------------------------------------------------


def test_forged_signature_detected():
    table = Table()
    table.play([0])
    forged = table.message(1, signer=0)  # seat 0 signs as seat 1
    with pytest.raises(RemoteProtocolError) as info:
        table.host.admit(forged, table.keys)
    assert info.value.culprit == 1 and "bad signature" in info.value.reason
    table.host.append(forged)  # a host that relays it anyway
    peer = Transcript(TABLE)
    peer.receive(table.host.entries[0], table.keys)
    with pytest.raises(RemoteProtocolError) as info:
        peer.receive(table.host.entries[1], table.keys)
    assert info.value.culprit == "host" and info.value.entry == 1


def test_verify_entry_rejects_unknown_sender_and_other_table():
    table = Table()
    entry = table.play([0])[0]
    with pytest.raises(RemoteProtocolError):
        verify_entry(entry, {1: table.keys[1]}, TABLE)
    with pytest.raises(RemoteProtocolError):
        verify_entry(entry, table.keys, bytes(16))


def test_forked_history_detected_via_echo():
    table = Table(seats=3)
    table.play([HOST, 0])
    # The host shows seat 1 a different entry 2 than it shows seat 2.
    fork_a = Transcript(TABLE)
    fork_b = Transcript(TABLE)
    for entry in table.host.entries:
        fork_a.accept(entry)
        fork_b.accept(entry)
    fork_a.append(table.message(0, body=["A"]))
    table.seq[0] -= 1
    fork_b.append(table.message(0, body=["B"]))
    assert fork_a.head != fork_b.head
    # Seat 2 saw fork B and echoes its head; seat 1's view is fork A.
    msg = table.message(2, head=fork_b.head)
    header, _ = parse_header(Signed.decode(msg).payload)
    with pytest.raises(RemoteProtocolError) as info:
        fork_a.check_echo(header, 3)
    assert info.value.culprit == "host"
    assert info.value.reason == "host showed different histories"
    fork_b.check_echo(header, 3)
    # An echo of a later entry than the message's own position is a fork too.
    header_now = parse_header(Signed.decode(table.message(1, head=fork_a.head)).payload)[0]
    with pytest.raises(RemoteProtocolError, match="different histories"):
        fork_a.check_echo(header_now, 2)


def test_host_rejects_made_up_echo():
    table = Table()
    with pytest.raises(RemoteProtocolError) as info:
        table.host.admit(table.message(0, head=b"\x07" * 32), table.keys)
    assert info.value.culprit == 0


def test_echo_going_backwards_detected():
    table = Table()
    table.play([0, 1, 0])
    stale = table.message(0, head=GENESIS)
    with pytest.raises(RemoteProtocolError) as info:
        table.host.admit(stale, table.keys)
    assert info.value.culprit == 0 and "backwards" in info.value.reason


def test_replayed_message_detected_via_seq():
    table = Table()
    table.play([0, 1])
    table.host.append(table.host.entries[0].message)  # host replays seat 0
    peer = Transcript(TABLE)
    with pytest.raises(RemoteProtocolError) as info:
        for entry in table.host.entries:
            peer.receive(entry, table.keys)
    # Only the host can put a seat's exact signed bytes in the log twice.
    assert info.value.culprit == "host" and info.value.entry == 2
    assert "replayed" in info.value.reason
    with pytest.raises(RemoteProtocolError, match="replayed"):
        table.host.admit(table.host.entries[0].message, table.keys)


def test_reordered_messages_detected_via_seq():
    table = Table()
    first = table.message(0)
    second = table.message(0)
    table.host.append(second)
    table.host.append(first)
    peer = Transcript(TABLE)
    with pytest.raises(RemoteProtocolError) as info:
        peer.receive(table.host.entries[0], table.keys)
    # A seat never skips a number: only the host can withhold or reorder its messages.
    assert info.value.culprit == "host" and "out-of-order" in info.value.reason


def test_seq_skip_rejected_by_host():
    table = Table()
    with pytest.raises(RemoteProtocolError) as info:
        table.host.admit(table.message(0, seq=1), table.keys)
    assert info.value.culprit == 0


# --- storage ----------------------------------------------------------------------


def test_dump_load_round_trip():
    table = Table()
    entries = table.play([HOST, 0, 1])
    data = dump_transcript(TABLE, META, entries)
    assert load_transcript(data) == (TABLE, META, entries)
    assert load_transcript(dump_transcript(TABLE, (), [])) == (TABLE, [], [])
    assert len(verify_transcript(TABLE, entries, table.keys)) == 3


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"hello world",
        b"\x00\x00\x00\x00",
        frame(encode(["briscola-transcript", 2, TABLE, []])),
        frame(encode(["briscola-transcript", True, TABLE, []])),
        frame(encode(["briscola-transcript", 1, TABLE])),
        frame(encode(["briscola-transcript", 1, TABLE, "meta"])),
        frame(encode(["briscola-transcript", 1, TABLE[:8], []])),
        frame(encode(["other", 1, TABLE, []])),
        frame(encode(["briscola-transcript", 1, TABLE, []]))[:-1],
        os.urandom(100),
    ],
)
def test_not_a_transcript(data):
    with pytest.raises(NotATranscript):
        load_transcript(data)


def test_corrupted_later_frame_names_entry():
    table = Table()
    entries = table.play([0, 1, 0])
    data = dump_transcript(TABLE, META, entries[:2]) + frame(b"\xc1")
    with pytest.raises(RemoteProtocolError) as info:
        load_transcript(data)
    assert info.value.entry == 2
    with pytest.raises(RemoteProtocolError) as info:
        load_transcript(dump_transcript(TABLE, META, entries)[:-3])
    assert info.value.entry == 2 and "truncated" in info.value.reason


def _meta_span(data):
    """Byte range of the metadata inside the header frame."""
    header_len = 4 + int.from_bytes(data[:4], "big")
    return range(header_len - len(encode(META)), header_len)


@pytest.mark.parametrize("mask", [0x01, 0x80, 0xFF])
def test_every_single_byte_change_is_detected(mask):
    table = Table()
    entries = table.play([HOST, 0, 1])
    data = dump_transcript(TABLE, META, entries)
    meta = _meta_span(data)
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= mask
        try:
            table_id, got_meta, got = load_transcript(bytes(bad))
            verify_transcript(table_id, got, table.keys)
        except NotATranscript:
            assert i < meta.stop, i
            continue
        except RemoteProtocolError as exc:
            assert exc.entry is not None, (i, exc)
            continue
        # Only the metadata is not authenticated; a change there shows.
        assert i in meta and got_meta != META, i


def test_error_messages_never_show_key_material():
    table = Table()
    entries = table.play([0])
    bad = Entry(0, GENESIS, table.message(1, signer=0))
    with pytest.raises(ProtocolError) as info:
        verify_entry(bad, table.keys, TABLE)
    text = str(info.value) + repr(info.value)
    for key in table.keys.values():
        assert key.hex() not in text and repr(key) not in text
    assert entries


# --- size limits -------------------------------------------------------------------


def signed_of_size(table, size):
    """A real signed message whose encoding is exactly `size` bytes."""
    header = Header(1, TABLE, "chat", 0, 0, GENESIS)
    pad = size - len(Signed.sign(table.ids[0], make_payload(header, [b""])).encode())
    for guess in range(pad, pad - 4, -1):  # the padding's own bin header grows
        payload = make_payload(header, [b"\x00" * guess])
        signed = Signed(payload, table.ids[0].sign(payload))
        if len(encode([signed.payload, signed.signature])) == size:
            return signed
    raise AssertionError(size)


def test_worst_case_entry_fits_a_frame():
    table = Table()
    signed = signed_of_size(table, MAX_MESSAGE)
    message = signed.encode()
    entry = Entry(MAX_INDEX, b"\xff" * 32, message).signed_by(table.ids[HOST], TABLE)
    framed = frame(entry.encode())
    assert len(framed) == 4 + MAX_FRAME  # the bound is tight
    assert Entry.decode(framed[4:]) == entry
    assert Signed.decode(entry.message) == signed


def test_a_message_over_the_limit_is_refused():
    table = Table()
    with pytest.raises(LocalProtocolError):
        signed_of_size(table, MAX_MESSAGE + 1).encode()
    with pytest.raises(RemoteProtocolError):
        Signed.decode(b"\x00" * (MAX_MESSAGE + 1))


# --- torn files ---------------------------------------------------------------------


def frame_spans(data):
    out, offset = [], 0
    while offset < len(data):
        end = offset + 4 + int.from_bytes(data[offset : offset + 4], "big")
        out.append((offset, end))
        offset = end
    return out


def test_prefix_of_a_whole_file():
    table = Table()
    entries = table.play([HOST, 0, 1])
    data = dump_transcript(TABLE, META, entries)
    assert load_transcript_prefix(data) == (TABLE, META, entries, 0)


def test_torn_last_frame_cut_anywhere():
    table = Table()
    entries = table.play([0, 1, 0])
    data = dump_transcript(TABLE, META, entries)
    start, end = frame_spans(data)[-1]
    for cut in range(start + 1, end):
        assert load_transcript_prefix(data[:cut]) == (TABLE, META, entries[:2], cut - start)
        with pytest.raises(RemoteProtocolError) as info:
            load_transcript(data[:cut])  # the strict reader still refuses it
        assert info.value.entry == 2 and "truncated" in info.value.reason


def test_torn_header_is_not_a_transcript():
    data = dump_transcript(TABLE, META, [])
    for cut in range(1, len(data)):
        with pytest.raises(NotATranscript):
            load_transcript_prefix(data[:cut])


def test_corrupted_middle_entry_is_not_forgiven():
    table = Table()
    entries = table.play([0, 1, 0])
    data = dump_transcript(TABLE, META, entries[:1]) + frame(b"\xc1")
    data += dump_transcript(TABLE, META, entries[1:])[frame_spans(dump_transcript(TABLE, META, []))[0][1]:]
    with pytest.raises(RemoteProtocolError) as info:
        load_transcript_prefix(data[:-5])
    assert info.value.entry == 1


def test_a_length_prefix_stretched_past_the_end_is_not_a_torn_frame():
    """A changed prefix that claims the rest of the file is not a crash: the
    entry's own content ends before the claimed length."""
    table = Table()
    entries = table.play([0, 1, 0])
    data = dump_transcript(TABLE, META, entries)
    for k, (start, _end) in enumerate(frame_spans(data)[1:]):
        bad = bytearray(data)
        bad[start : start + 4] = (len(data) - start).to_bytes(4, "big")  # one byte too many
        with pytest.raises(RemoteProtocolError) as info:
            load_transcript_prefix(bytes(bad))
        assert info.value.entry == k


@pytest.mark.parametrize("tail", [b"\xff", b"\x00\x01\x01", b"\x00\x02"])
def test_an_impossible_cut_prefix_is_not_forgiven(tail):
    table = Table()
    data = dump_transcript(TABLE, META, table.play([0]))
    with pytest.raises(RemoteProtocolError) as info:
        load_transcript_prefix(data + tail)
    assert info.value.entry == 1


def test_prefix_leaves_chain_checks_to_the_reader_who_names_the_changed_entry():
    table = Table()
    entries = table.play([0, 1, 0])
    signed = Signed.decode(entries[1].message)
    forged = Signed(signed.payload, bytes([signed.signature[0] ^ 1]) + signed.signature[1:])
    changed = Entry(1, entries[1].prev, forged.encode(), entries[1].signature)
    data = dump_transcript(TABLE, META, [entries[0], changed, entries[2]])
    with pytest.raises(RemoteProtocolError) as info:
        load_transcript(data)
    assert info.value.entry == 2  # the chain check blames the next link
    _, _, got, torn = load_transcript_prefix(data)
    assert torn == 0 and got == [entries[0], changed, entries[2]]
    with pytest.raises(RemoteProtocolError) as info:
        verify_transcript(TABLE, got, table.keys)
    assert info.value.entry == 1  # the reader names the changed one
