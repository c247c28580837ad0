"""Files on disk: transcripts.

A live table writes its transcript append-only through `TranscriptFile`:
each entry is on disk (fsynced) before `append` returns, so before the host
relays it. A crash mid-write leaves at most a torn last frame, which
`TranscriptFile.open` and `read_transcript_file` drop with a warning.
`save_transcript` writes a whole file at once, atomically. Every write here
follows the fsync rule of `atomic` (whole files go through
`atomic.replace_file`).

A seat's secrets go to a `FileSeatStore` in the user's data folder
(`folders.data_dir`), readable by the user only.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from protocol.codec import frame
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.store import SeatStore
from protocol.transcript import GENESIS, Entry, entry_hash, verify_chain
from protocol.transcript_file import TranscriptReader, dump_transcript, load_transcript_prefix

from ..language import _
from . import atomic, folders
from .atomic import fsync_folder, write_all
from .platform import BINARY, set_mode


@dataclass(frozen=True)
class LoadedTranscript:
    """A transcript file as read: its header, the entries of its whole
    frames, and what was forgiven (a torn last frame) in `warnings`."""

    table_id: bytes
    meta: list
    entries: list[Entry]
    warnings: list[str]


def torn_warning(torn: int) -> str:
    """The warning for `torn` bytes of a last frame cut short."""
    return _("dropped a torn last frame of {torn} bytes (a crash mid-write)").format(torn=torn)


def read_transcript_file(path: str | os.PathLike) -> LoadedTranscript:
    """Read a transcript file, forgiving a torn last frame (the file is not changed).

    NotATranscript or RemoteProtocolError (naming the entry) for a bad file.
    Chain and signature checks are left to a TableSession reading the
    entries, which names the entry that is itself wrong.
    """
    with open(path, "rb") as stream:  # a frame at a time (`TranscriptReader`): no copy of the whole file
        reader = TranscriptReader(stream)
        entries = list(reader.entries())
    return LoadedTranscript(reader.table_id, reader.meta, entries, [torn_warning(reader.torn)] if reader.torn else [])


def read_transcript(path: str | os.PathLike) -> tuple[bytes, list[Entry]]:
    """(table_id, entries), chain-checked; a torn last frame is dropped silently
    (`read_transcript_file` reports it). NotATranscript or RemoteProtocolError
    for a bad file."""
    loaded = read_transcript_file(path)
    verify_chain(loaded.entries)
    return loaded.table_id, loaded.entries


def save_transcript(path: str | os.PathLike, table_id: bytes, entries: list[bytes]) -> None:
    """Write a transcript file; an existing file is replaced only once the new one is complete."""
    data = dump_transcript(table_id, [], [Entry.decode(e) for e in entries])
    atomic.replace_file(Path(path), data)


class TranscriptFile:
    """A transcript file open for appending, one fsynced frame per entry.

    `create` starts a new file, `open` continues an existing one (a host
    restarting). `table_id`, `meta` and `entries` describe the file as it
    stands; `warnings` says what `open` dropped.

    `sync_each` (on by default: the host's file, which is the table) fsyncs
    every entry before `append` returns. A peer's copy turns it off: each
    entry is still written to the kernel before the peer acts on it (a
    killed process loses nothing), and `sync` puts the file on disk at the
    end; what a machine crash loses of the tail the host sends again. An
    offline table turns it off too: no entry has left the process before it
    is written. The rule is `atomic`'s: data fsynced before it counts, and
    a new file's name made durable by fsyncing its folder (`create`).
    """

    sync_each = True

    def __init__(self, path: Path, fd: int, size: int, loaded: LoadedTranscript) -> None:
        """Use `create` or `open`."""
        self.path = path
        self.table_id = loaded.table_id
        self.meta = loaded.meta
        self.entries = list(loaded.entries)
        self.warnings = list(loaded.warnings)
        self._fd: int | None = fd
        self._size = size
        """Bytes of whole frames: where the next frame starts."""

    @classmethod
    def create(cls, path: str | os.PathLike, table_id: bytes, meta: list | tuple = ()) -> TranscriptFile:
        """A new file (mode 0o600) holding the header frame, fsynced.

        FileExistsError if `path` exists: a transcript is never overwritten.
        """
        path = Path(path)
        header = dump_transcript(table_id, meta, [])
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY, 0o600)
        try:
            set_mode(fd, 0o600)  # whatever the umask
            write_all(fd, header)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(path)
            raise
        fsync_folder(path)  # the rule of `atomic`: the frame, then its name
        table_id, meta, _entries, _torn = load_transcript_prefix(header)  # as `open` will read it
        return cls(path, fd, len(header), LoadedTranscript(table_id, meta, [], []))

    @classmethod
    def open(cls, path: str | os.PathLike) -> TranscriptFile:
        """An existing file, to append to. A torn last frame is cut off the
        file (with a warning in `.warnings`); NotATranscript or
        RemoteProtocolError (naming the entry) for anything else wrong."""
        path = Path(path)
        fd = os.open(path, os.O_RDWR | BINARY)
        try:
            data = _read_all(fd)
            table_id, meta, entries, torn = load_transcript_prefix(data)
            size = len(data) - torn
            if torn:
                os.ftruncate(fd, size)
                os.fsync(fd)
            os.lseek(fd, size, os.SEEK_SET)
        except BaseException:
            os.close(fd)
            raise
        warnings = [torn_warning(torn)] if torn else []
        return cls(path, fd, size, LoadedTranscript(table_id, meta, entries, warnings))

    def append(self, entry_bytes: bytes) -> None:
        """Write one encoded entry as a frame and fsync; relay it only after this returns.

        LocalProtocolError if the bytes are not the next entry of this file.
        If the write fails the file is cut back to its last whole frame; if
        even that fails the object closes, and the torn frame left behind is
        what `open` drops.
        """
        if self._fd is None:
            raise LocalProtocolError("transcript file is closed")
        entry = self._next_entry(entry_bytes)
        data = frame(entry_bytes)
        try:
            write_all(self._fd, data)
            if self.sync_each:
                os.fsync(self._fd)
        except BaseException:
            self._roll_back()
            raise
        self._size += len(data)
        self.entries.append(entry)

    def sync(self) -> None:
        """Put every entry written so far on disk."""
        if self._fd is not None:
            os.fsync(self._fd)

    def close(self) -> None:
        """Close the file (again: no-op)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> TranscriptFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _next_entry(self, entry_bytes: bytes) -> Entry:
        """Decode `entry_bytes`; it must follow the file's last entry."""
        try:
            entry = Entry.decode(entry_bytes)
        except ProtocolError as exc:
            raise LocalProtocolError(f"not an encoded entry: {exc.reason}") from None
        head = entry_hash(self.entries[-1]) if self.entries else GENESIS
        if entry.index != len(self.entries) or entry.prev != head:
            raise LocalProtocolError(f"entry {entry.index} does not follow the file's {len(self.entries)} entries")
        return entry

    def _roll_back(self) -> None:
        """Cut a half-written frame off; close if that fails too."""
        fd = self._fd
        assert fd is not None  # (`append` rolls back a file it has open)
        try:
            os.ftruncate(fd, self._size)
            os.lseek(fd, self._size, os.SEEK_SET)
            os.fsync(fd)
        except OSError:
            self.close()


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


# --- a seat's secrets ----------------------------------------------------------


class FileSeatStore(SeatStore):
    """A seat's store in a file only its user can read (mode 0o600).

    Every change is written to a new file, fsynced and renamed over the old
    one before `save` returns, so a crash leaves either the old or the new
    store, never half of one — and the secret is on disk before the message
    that depends on it leaves.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        super().__init__()
        self.path = Path(path)
        try:
            data = folders.read_own(self.path)  # not through a link planted there (UnsafeFolder)
        except FileNotFoundError:
            return
        try:
            self.load_bytes(data)
        except ProtocolError as error:
            raise StoreError(
                _("{path} is not a seat store: {reason}").format(path=self.path, reason=error.reason)
            ) from None

    @classmethod
    def for_seat(cls, table_id: bytes, seat: int) -> FileSeatStore:
        """The store of `seat` at table `table_id`, in the user's data folder."""
        return cls(folders.subfolder("seats") / f"{table_id.hex()}-seat{seat}.store")

    def save(self) -> None:
        atomic.replace_file(self.path, self.to_bytes())

    def __repr__(self) -> str:
        return f"<FileSeatStore {self.path.name} hands={sorted(self.seeds)} unconfirmed={sorted(self.sent)}>"


class QuickSeatStore(FileSeatStore):
    """A seat store for an offline table: each change replaces the file at once,
    as `FileSeatStore` does (a crash leaves the old or the new store).

    Once a write fails, or the game is no longer kept (`kept` False), it keeps
    the secrets in memory only and the game plays on; `lost(error)` is told."""

    kept = True
    lost: Callable[[OSError], None] | None = None

    def save(self) -> None:
        if not self.kept:
            return
        try:
            super().save()
        except OSError as error:
            self.kept = False
            if self.lost is not None:
                self.lost(error)


class StoreError(ValueError):
    """A seat store file that cannot be read as one (nothing is overwritten)."""


FIXED_HANDS = 300
"""Hands a fixed store holds seeds for."""


def fixed_store(deal_seed: int, seat: int) -> SeatStore:
    """A seat store whose coin and hand seeds derive from `deal_seed`: the same
    deals every run (for tests and snapshots; never for a real table)."""
    store = SeatStore()

    def derive(*parts: object) -> bytes:
        return hashlib.sha256("/".join(map(str, ("briscola-tui fixed", deal_seed, seat, *parts))).encode()).digest()

    store.coins[0] = derive("coin")
    for hand in range(FIXED_HANDS):
        store.seeds[hand] = derive("hand", hand)
    return store
