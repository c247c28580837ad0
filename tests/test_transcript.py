"""The signed message envelope and the hash-chained transcript."""

import io
import os

import pytest

from protocol.codec import encode, frame
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.identity import Identity
from protocol.sizes import MAX_ENTRY
from protocol.transcript import (
    GENESIS,
    HOST,
    MAX_INDEX,
    MAX_MESSAGE,
    VERSION,
    Entry,
    Header,
    Signed,
    Transcript,
    entry_hash,
    make_payload,
    parse_header,
    verify_chain,
    verify_entry,
)
from protocol.transcript_file import (
    FILE_VERSION,
    NotATranscript,
    OldTranscript,
    TranscriptReader,
    dump_transcript,
    load_transcript_prefix,
)

TABLE = bytes(range(16))
META = ["briscola", 2, [b"x"]]


def ordered(host, messages, before=()):
    """`before` and then `messages`, each wrapped as the next entry and signed
    by `host`, as `protocol.host.Host` orders them (no checks: a host that
    relays whatever it is given)."""
    entries = list(before)
    for message in messages:
        prev = entry_hash(entries[-1]) if entries else GENESIS
        entries.append(Entry(len(entries), prev, message).signed_by(host, TABLE))
    return entries


def peer(entries, keys):
    """A peer's log that has received `entries`."""
    log = Transcript(TABLE)
    for entry in entries:
        log.receive(entry, keys)
    return log


def receive_all(table_id, entries, keys):
    """Every entry received in order by a fresh peer: the opened messages."""
    log = Transcript(table_id)
    return [log.receive(entry, keys) for entry in entries]


class Table:
    """A host and some seats exchanging signed messages in memory."""

    def __init__(self, seats=2):
        self.ids = {HOST: Identity.generate()}
        self.ids.update({s: Identity.generate() for s in range(seats)})
        self.keys = {s: i.public_bytes for s, i in self.ids.items()}
        self.seq = {s: 0 for s in self.ids}
        self.entries = []

    @property
    def head(self):
        return entry_hash(self.entries[-1]) if self.entries else GENESIS

    def message(self, sender, kind="chat", body=(), head=None, seq=None, signer=None):
        header = Header(
            VERSION,
            TABLE,
            kind,
            sender,
            self.seq[sender] if seq is None else seq,
            self.head if head is None else head,
        )
        if seq is None:
            self.seq[sender] += 1
        signed = Signed.sign(self.ids[sender if signer is None else signer], make_payload(header, list(body)))
        return signed.encode()

    def order(self, *messages):
        """Append `messages` as the host's next entries."""
        self.entries = ordered(self.ids[HOST], messages, self.entries)
        return self.entries

    def play(self, senders):
        for sender in senders:
            self.order(self.message(sender, body=[sender, b"\x00" * 3]))
        return self.entries


# --- envelope -----------------------------------------------------------------


def test_header_round_trip():
    header = Header(VERSION, TABLE, "play", 3, 7, GENESIS)
    payload = make_payload(header, ["card", 5])
    assert parse_header(payload) == (header, ["card", 5])
    assert parse_header(make_payload(header)) == (header, [])


@pytest.mark.parametrize(
    "fields, reason",
    [
        ([VERSION, TABLE, "k", 0, 0], "at least 6"),
        ([VERSION + 1, TABLE, "k", 0, 0, GENESIS], "version"),
        ([1, TABLE, "k", 0, 0, GENESIS], "version"),
        ([True, TABLE, "k", 0, 0, GENESIS], "version"),
        ([VERSION, TABLE[:15], "k", 0, 0, GENESIS], "table_id"),
        ([VERSION, TABLE, b"k", 0, 0, GENESIS], "kind"),
        ([VERSION, TABLE, "k" * 33, 0, 0, GENESIS], "kind"),
        ([VERSION, TABLE, "k", 6, 0, GENESIS], "sender"),
        ([VERSION, TABLE, "k", -3, 0, GENESIS], "sender"),
        ([VERSION, TABLE, "k", 0, -1, GENESIS], "seq"),
        ([VERSION, TABLE, "k", 0, 0, GENESIS[:31]], "head"),
        ("not an array", "at least 6"),
    ],
)
def test_parse_header_rejects(fields, reason):
    with pytest.raises(RemoteProtocolError) as info:
        parse_header(encode(fields))
    assert reason in info.value.reason


def test_make_payload_rejects_bad_header_locally():
    with pytest.raises(LocalProtocolError):
        make_payload(Header(VERSION, TABLE, "k", 9, 0, GENESIS))
    with pytest.raises(LocalProtocolError):
        make_payload(Header(VERSION, TABLE, "k", 0, 0, GENESIS), [1.5])


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
    log = Transcript(TABLE)
    for entry in entries:
        opened = log.receive(entry, table.keys)
        assert opened.body[0] == opened.header.sender
    assert log.head == table.head == entry_hash(entries[-1])
    assert log.entries == entries
    for index, entry in enumerate(entries):
        assert log.echoed_index(entry_hash(entry)) == index
    assert log.echoed_index(GENESIS) == -1


def test_receive_checks_link():
    """An entry missing (the next one comes) proves nothing of anyone: a copy can lose one. An
    entry in its place that the host signed after another history is the host's own word."""
    table = Table()
    entries = table.play([0, 1, 0])
    log = peer(entries[:1], table.keys)
    unlinked = Entry(1, GENESIS, entries[1].message).signed_by(table.ids[HOST], TABLE)
    for bad, named in ((entries[2], None), (unlinked, "host")):
        with pytest.raises(RemoteProtocolError) as info:
            log.inspect(bad, table.keys)
        assert info.value.culprit == named
        assert info.value.entry == bad.index
        assert log.head == entry_hash(entries[0])


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
    # The host drops such a message (tests/test_cheats.py); one that relays it
    # anyway is named by every peer.
    table = Table()
    table.play([0])
    forged = table.message(1, signer=0)  # seat 0 signs as seat 1
    entries = table.order(forged)
    log = peer(entries[:1], table.keys)
    with pytest.raises(RemoteProtocolError) as info:
        log.receive(entries[1], table.keys)
    assert info.value.culprit == "host" and info.value.entry == 1
    assert "bad signature" in info.value.reason


def test_verify_entry_rejects_unknown_sender_and_other_table():
    table = Table()
    entry = table.play([0])[0]
    with pytest.raises(RemoteProtocolError):
        verify_entry(entry, {1: table.keys[1]}, TABLE)
    with pytest.raises(RemoteProtocolError):
        verify_entry(entry, table.keys, bytes(16))


def test_forked_history_detected_via_echo():
    table = Table(seats=3)
    common = table.play([HOST, 0])
    host = table.ids[HOST]
    # The host shows seat 1 a different entry 2 than it shows seat 2.
    fork_a = peer(ordered(host, [table.message(0, body=["A"])], common), table.keys)
    table.seq[0] -= 1
    fork_b = peer(ordered(host, [table.message(0, body=["B"])], common), table.keys)
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


def test_echo_going_backwards_names_the_sender():
    table = Table()
    entries = table.play([0, 1, 0])
    stale = table.message(0, head=GENESIS)  # seat 0 has echoed entry 1 already
    log = peer(entries, table.keys)
    header, _ = parse_header(Signed.decode(stale).payload)
    with pytest.raises(RemoteProtocolError) as info:
        log.check_echo(header, len(entries))
    assert info.value.culprit == 0 and "backwards" in info.value.reason
    with pytest.raises(RemoteProtocolError) as info:
        log.receive(table.order(stale)[-1], table.keys)
    assert info.value.culprit == 0 and info.value.entry == 3


def test_replayed_message_detected():
    table = Table()
    entries = table.play([0, 1])
    table.order(entries[0].message)  # the host replays seat 0
    with pytest.raises(RemoteProtocolError) as info:
        peer(table.entries, table.keys)
    # Only the host can put a seat's exact signed bytes in the log twice.
    assert info.value.culprit == "host" and info.value.entry == 2
    assert "replayed" in info.value.reason


def test_reordered_messages_detected_via_seq():
    table = Table()
    first = table.message(0)
    second = table.message(0)
    entries = table.order(second, first)
    with pytest.raises(RemoteProtocolError) as info:
        Transcript(TABLE).receive(entries[0], table.keys)
    # A seat never skips a number: only the host can withhold or reorder its messages.
    assert info.value.culprit == "host" and "out-of-order" in info.value.reason


def test_seq_used_twice_names_the_sender():
    table = Table()
    table.play([0, 1])
    again = table.message(0, seq=0, body=["other bytes"])  # seat 0 signs a second message 0
    with pytest.raises(RemoteProtocolError) as info:
        peer(table.order(again), table.keys)
    assert info.value.culprit == 0 and info.value.entry == 2
    assert "replayed message: seq 0" in info.value.reason


# --- storage ----------------------------------------------------------------------


def test_dump_load_round_trip():
    table = Table()
    entries = table.play([HOST, 0, 1])
    data = dump_transcript(TABLE, META, entries)
    assert load_transcript_prefix(data) == (TABLE, META, entries, 0)
    assert load_transcript_prefix(dump_transcript(TABLE, (), [])) == (TABLE, [], [], 0)
    verify_chain(entries)
    assert len(receive_all(TABLE, entries, table.keys)) == 3


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"hello world",
        b"\x00\x00\x00\x00",
        frame(encode(["briscola-transcript", FILE_VERSION + 1, TABLE, []])),
        frame(encode(["briscola-transcript", True, TABLE, []])),
        frame(encode(["briscola-transcript", FILE_VERSION, TABLE])),
        frame(encode(["briscola-transcript", FILE_VERSION, TABLE, "meta"])),
        frame(encode(["briscola-transcript", FILE_VERSION, TABLE[:8], []])),
        frame(encode(["other", FILE_VERSION, TABLE, []])),
        frame(encode(["briscola-transcript", FILE_VERSION, TABLE, []]))[:-1],
        pytest.param(os.urandom(100), id="random-bytes"),  # an id of its own: the same on every xdist worker
    ],
)
def test_not_a_transcript(data):
    with pytest.raises(NotATranscript):
        load_transcript_prefix(data)


def test_a_file_of_the_earlier_format_is_named_as_such():
    with pytest.raises(OldTranscript, match="format 1, written by an earlier release"):
        load_transcript_prefix(frame(encode(["briscola-transcript", 1, TABLE, []])))


def test_corrupted_later_frame_names_entry():
    table = Table()
    entries = table.play([0, 1, 0])
    data = dump_transcript(TABLE, META, entries[:2]) + frame(b"\xc1")
    with pytest.raises(RemoteProtocolError) as info:
        load_transcript_prefix(data)
    assert info.value.entry == 2


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
            table_id, got_meta, got, torn = load_transcript_prefix(bytes(bad))
            receive_all(table_id, got, table.keys)
        except NotATranscript:
            assert i < meta.stop, i
            continue
        except RemoteProtocolError as exc:
            assert exc.entry is not None, (i, exc)
            continue
        assert not torn, i  # no change passes for a crash mid-write
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
    header = Header(VERSION, TABLE, "chat", 0, 0, GENESIS)
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
    assert len(framed) == 4 + MAX_ENTRY  # the bound is tight (tests/test_size_chain.py: the rest of the chain)
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


def test_torn_header_is_not_a_transcript():
    data = dump_transcript(TABLE, META, [])
    for cut in range(1, len(data)):
        with pytest.raises(NotATranscript):
            load_transcript_prefix(data[:cut])


def test_corrupted_middle_entry_is_not_forgiven():
    table = Table()
    entries = table.play([0, 1, 0])
    data = dump_transcript(TABLE, META, entries[:1]) + frame(b"\xc1")
    data += dump_transcript(TABLE, META, entries[1:])[frame_spans(dump_transcript(TABLE, META, []))[0][1] :]
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
    _, _, got, torn = load_transcript_prefix(data)
    assert torn == 0 and got == [entries[0], changed, entries[2]]
    with pytest.raises(RemoteProtocolError) as info:
        verify_chain(got)
    assert info.value.entry == 2  # the chain check blames the next link
    with pytest.raises(RemoteProtocolError) as info:
        receive_all(TABLE, got, table.keys)
    assert info.value.entry == 1  # the reader names the changed one


class Counted(io.BytesIO):
    """A stream that counts the bytes read from it."""

    taken = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data


def test_a_reader_reads_an_entry_only_when_asked_and_stops_at_the_first_bad_frame():
    table = Table()
    entries = table.play([HOST, 0, 1])
    good = dump_transcript(TABLE, META, entries)
    stream = Counted(good + frame(b"\xc1 not msgpack") + good * 50)
    reader = TranscriptReader(stream)
    assert (reader.table_id, reader.meta) == (TABLE, META)
    assert stream.taken == 4 + int.from_bytes(good[:4], "big")  # the header only
    read = reader.entries()
    assert next(read) == entries[0]
    with pytest.raises(RemoteProtocolError) as info:
        list(read)
    assert info.value.entry == len(entries) and "corrupted entry" in info.value.reason
    assert stream.taken == len(good) + len(frame(b"\xc1 not msgpack"))  # nothing after the bad frame


def test_a_reader_counts_a_torn_last_frame_as_load_transcript_prefix_does():
    table = Table()
    data = dump_transcript(TABLE, META, table.play([HOST, 0, 1]))
    for cut in (len(data) - 3, len(data) - 40):
        reader = TranscriptReader(io.BytesIO(data[:cut]))
        assert [*reader.entries()] == load_transcript_prefix(data[:cut])[2]
        assert reader.torn == load_transcript_prefix(data[:cut])[3] > 0
