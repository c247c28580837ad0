"""Transcript files on disk: append-only with fsync, a torn last frame dropped with a warning."""

import os
import random
import stat

import pytest

from briscola_tui.files.storage import (
    LoadedTranscript,
    TranscriptFile,
    read_transcript,
    read_transcript_file,
    save_transcript,
)
from protocol.codec import frame
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.transcript import GENESIS, HOST, VERSION, Entry, Header, Signed, Transcript, entry_hash, make_payload
from protocol.transcript_file import NotATranscript, dump_transcript

TABLE = bytes(range(16))
META = ["briscola", 2, [b"x"]]


def chat(n, seats=2):
    """`n` host-signed entries of seats chatting, as encoded bytes, and the keys."""
    ids = {HOST: Identity.generate(), **{s: Identity.generate() for s in range(seats)}}
    keys = {s: i.public_bytes for s, i in ids.items()}
    seq = dict.fromkeys(ids, 0)
    entries, head = [], GENESIS
    for k in range(n):
        sender = k % seats
        header = Header(VERSION, TABLE, "chat", sender, seq[sender], head)
        seq[sender] += 1
        message = Signed.sign(ids[sender], make_payload(header, [b"hi %d" % k])).encode()
        entry = Entry(k, head, message).signed_by(ids[HOST], TABLE)
        entries.append(entry)
        head = entry_hash(entry)
    return [entry.encode() for entry in entries], keys


def receive_all(entries, keys):
    """A peer receives every entry in order (each checked); the opened messages."""
    log = Transcript(TABLE)
    return [log.receive(entry, keys) for entry in entries]


def written(path, entries, meta=META):
    with TranscriptFile.create(path, TABLE, meta) as log:
        for entry in entries:
            log.append(entry)
    return path.read_bytes()


def spans(data):
    """(start, end) of every frame of a file."""
    out, offset = [], 0
    while offset < len(data):
        end = offset + 4 + int.from_bytes(data[offset : offset + 4], "big")
        out.append((offset, end))
        offset = end
    return out


# --- create, append, open ----------------------------------------------------------


def test_create_append_reopen(tmp_path):
    entries, keys = chat(6)
    path = tmp_path / "t.bin"
    data = written(path, entries)
    assert data == dump_transcript(TABLE, META, [Entry.decode(e) for e in entries])
    with TranscriptFile.open(path) as log:
        assert (log.table_id, log.meta, log.warnings) == (TABLE, META, [])
        assert [e.encode() for e in log.entries] == entries
    table_id, got = read_transcript(path)
    assert table_id == TABLE and len(receive_all(got, keys)) == 6


def test_create_gives_what_open_will_read(tmp_path):
    with TranscriptFile.create(tmp_path / "t.bin", TABLE, ("game", (1, 2))) as log:
        assert (log.table_id, log.meta, log.entries, log.warnings) == (TABLE, ["game", [1, 2]], [], [])


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.parametrize("umask", [0o000, 0o022, 0o277])
def test_new_file_is_private(tmp_path, umask):
    old = os.umask(umask)
    try:
        TranscriptFile.create(tmp_path / "t.bin", TABLE).close()
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "t.bin").stat().st_mode) == 0o600


def test_create_never_overwrites(tmp_path):
    path = tmp_path / "t.bin"
    path.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        TranscriptFile.create(path, TABLE)
    assert path.read_bytes() == b"precious"


def test_create_with_bad_meta_leaves_no_file(tmp_path):
    with pytest.raises(LocalProtocolError):
        TranscriptFile.create(tmp_path / "t.bin", TABLE, [1.5])
    assert not (tmp_path / "t.bin").exists()


def test_append_after_reopen_continues_the_file(tmp_path):
    entries, keys = chat(7)
    path = tmp_path / "t.bin"
    written(path, entries[:4])
    with TranscriptFile.open(path) as log:
        for entry in entries[4:]:
            log.append(entry)
        assert [e.encode() for e in log.entries] == entries
    loaded = read_transcript_file(path)
    assert (loaded.table_id, loaded.meta, [e.encode() for e in loaded.entries], loaded.warnings) == (
        TABLE,
        META,
        entries,
        [],
    )
    assert len(receive_all(loaded.entries, keys)) == 7


def test_a_real_table(tmp_path):
    rng = random.Random(3)
    table = LocalTable("briscola", 2, {}, choosers={s: lambda view, _rng: rng.choice(view.legal) for s in range(2)})
    table.run(max_hands=1)
    path = tmp_path / "table.bin"
    with TranscriptFile.create(path, table.host.table_id, ["briscola"]) as log:
        for entry in table.entries:
            log.append(entry)
    with TranscriptFile.open(path) as log:
        assert [e.encode() for e in log.entries] == table.entries
    assert read_transcript(path) == (table.host.table_id, [Entry.decode(e) for e in table.entries])


# --- fsync and failures ---------------------------------------------------------------


def test_append_fsyncs_the_frame_before_returning(tmp_path, monkeypatch):
    entries, _ = chat(2)
    path = tmp_path / "t.bin"
    log = TranscriptFile.create(path, TABLE)
    synced = []
    fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.fstat(fd).st_size), fsync(fd)))
    for entry in entries:
        log.append(entry)
        assert synced[-1] == path.stat().st_size  # synced with the whole frame in it
    assert len(synced) == 2
    log.close()


def test_a_failed_write_is_cut_back(tmp_path, monkeypatch):
    entries, _ = chat(3)
    path = tmp_path / "t.bin"
    log = TranscriptFile.create(path, TABLE)
    log.append(entries[0])
    size = path.stat().st_size
    write = os.write

    def disk_full(fd, data):
        write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", disk_full)
    with pytest.raises(OSError):
        log.append(entries[1])
    monkeypatch.setattr(os, "write", write)
    assert path.stat().st_size == size and len(log.entries) == 1
    log.append(entries[1])
    log.append(entries[2])
    log.close()
    assert read_transcript_file(path).warnings == []
    assert [e.encode() for e in read_transcript(path)[1]] == entries


def test_append_refuses_what_is_not_the_next_entry(tmp_path):
    entries, _ = chat(3)
    path = tmp_path / "t.bin"
    with TranscriptFile.create(path, TABLE) as log:
        log.append(entries[0])
        before = path.read_bytes()
        for bad in (entries[2], entries[0], b"\xc1", Entry(1, GENESIS, Entry.decode(entries[1]).message).encode()):
            with pytest.raises(LocalProtocolError):
                log.append(bad)
        assert path.read_bytes() == before


def test_closed_file_refuses_appends(tmp_path):
    entries, _ = chat(1)
    with TranscriptFile.create(tmp_path / "t.bin", TABLE) as log:
        pass
    log.close()  # twice is fine
    with pytest.raises(LocalProtocolError):
        log.append(entries[0])


# --- a torn last frame ---------------------------------------------------------------


@pytest.mark.slow
def test_every_cut_inside_the_last_frame_is_dropped(tmp_path):
    entries, _ = chat(3)
    path = tmp_path / "t.bin"
    data = written(path, entries)
    start, end = spans(data)[-1]
    for cut in range(start + 1, end):
        path.write_bytes(data[:cut])
        with TranscriptFile.open(path) as log:
            assert [e.encode() for e in log.entries] == entries[:2]
            assert log.warnings == [f"dropped a torn last frame of {cut - start} bytes (a crash mid-write)"]
        assert path.read_bytes() == data[:start]  # cut back to the whole frames


def test_reading_a_torn_file_warns_and_changes_nothing(tmp_path):
    entries, _ = chat(3)
    path = tmp_path / "t.bin"
    data = written(path, entries)
    path.write_bytes(data[:-7])
    loaded = read_transcript_file(path)
    assert loaded == LoadedTranscript(
        TABLE,
        META,
        [Entry.decode(e) for e in entries[:2]],
        [f"dropped a torn last frame of {len(frame(entries[2])) - 7} bytes (a crash mid-write)"],
    )
    assert read_transcript(path) == (TABLE, loaded.entries)
    assert path.read_bytes() == data[:-7]


def test_the_dropped_entry_can_be_written_again(tmp_path):
    entries, _ = chat(3)
    path = tmp_path / "t.bin"
    data = written(path, entries)
    path.write_bytes(data[:-1])
    with TranscriptFile.open(path) as log:
        log.append(entries[2])
    assert path.read_bytes() == data


def test_a_cut_header_is_not_a_transcript(tmp_path):
    path = tmp_path / "t.bin"
    data = written(path, [])
    for cut in range(len(data)):
        path.write_bytes(data[:cut])
        with pytest.raises(NotATranscript):
            TranscriptFile.open(path)
        with pytest.raises(NotATranscript):
            read_transcript_file(path)
        assert path.read_bytes() == data[:cut]


@pytest.mark.parametrize(
    "data",
    [
        b"hello world, this is not a transcript",
        pytest.param(os.urandom(64), id="random-bytes"),  # an id of its own: the same on every xdist worker
        frame(b"\xc1"),
    ],
)
def test_not_a_transcript(tmp_path, data):
    path = tmp_path / "t.bin"
    path.write_bytes(data)
    with pytest.raises(NotATranscript):
        TranscriptFile.open(path)
    assert path.read_bytes() == data


def test_a_corrupted_middle_entry_is_refused_not_dropped(tmp_path):
    entries, _ = chat(4)
    path = tmp_path / "t.bin"
    data = written(path, entries)
    start, end = spans(data)[2]
    bad = data[:start] + frame(b"\xc1" * (end - start - 4)) + data[end:]
    for cut in (len(bad), len(bad) - 3):  # with or without a torn tail
        path.write_bytes(bad[:cut])
        with pytest.raises(RemoteProtocolError) as info:
            TranscriptFile.open(path)
        assert info.value.entry == 1
        assert path.read_bytes() == bad[:cut]


def test_a_stretched_length_prefix_is_refused_not_dropped(tmp_path):
    """A length changed to run past the end looks torn, but the entry's content ends early."""
    entries, _ = chat(4)
    path = tmp_path / "t.bin"
    data = written(path, entries)
    start, _ = spans(data)[2]
    bad = bytearray(data)
    bad[start : start + 4] = (len(data) - start - 3).to_bytes(4, "big")
    path.write_bytes(bytes(bad))
    with pytest.raises(RemoteProtocolError) as info:
        TranscriptFile.open(path)
    assert info.value.entry == 1
    assert path.read_bytes() == bytes(bad)


# --- whole-file writes ----------------------------------------------------------------


def test_save_and_read_transcript(tmp_path):
    entries, _ = chat(3)
    path = tmp_path / "t.bin"
    path.write_bytes(b"old")
    save_transcript(path, TABLE, entries)
    assert read_transcript(path) == (TABLE, [Entry.decode(e) for e in entries])
    assert read_transcript_file(path).warnings == []
    assert [p.name for p in tmp_path.iterdir()] == ["t.bin"]


# --- a seat's store on disk -----------------------------------------------------


def test_seat_store_file_is_private_and_survives_a_restart(tmp_path, monkeypatch):
    from briscola_tui.files.folders import data_dir
    from briscola_tui.files.storage import FileSeatStore

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home"
    assert (tmp_path / "home").stat().st_mode & 0o777 == 0o700
    store = FileSeatStore.for_seat(bytes(16), 2)
    store.put_seed(0, b"s" * 32)
    store.put_coin(0, b"c" * 32)
    store.put_sent(5, b"signed bytes")
    assert store.path.stat().st_mode & 0o777 == 0o600
    again = FileSeatStore.for_seat(bytes(16), 2)
    assert (again.seeds, again.coins, again.sent) == ({0: b"s" * 32}, {0: b"c" * 32}, {5: b"signed bytes"})
    again.confirm(5)
    assert FileSeatStore(store.path).sent == {}
    assert "sss" not in repr(again)


def test_a_file_that_is_not_a_seat_store_is_refused_and_kept(tmp_path):
    from briscola_tui.files.storage import FileSeatStore, StoreError

    path = tmp_path / "x.store"
    path.write_bytes(b"not a store")
    with pytest.raises(StoreError, match="not a seat store"):
        FileSeatStore(path)
    assert path.read_bytes() == b"not a store"
