"""The transcript file: a header frame (magic, format, table id, metadata), then one
frame per entry, as `dump_transcript` writes it; `load_transcript_prefix` reads it back
(`TranscriptReader` a frame at a time), forgiving only a last frame cut short by a crash. What the entries mean is
`transcript.py`'s."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from typing import BinaryIO

from .codec import decode, encode, expect_array, expect_bytes, frame, frame_length, is_cut_value
from .errors import ProtocolError, RemoteProtocolError
from .reasons import Reason
from .transcript import TABLE_ID_LEN, Entry, Signed, parse_header

FILE_MAGIC = "briscola-transcript"
FILE_VERSION = 3
"""Transcript file format; it follows the message format (VERSION)."""


class NotATranscript(ProtocolError):
    """The bytes do not start with a transcript file header."""


class OldTranscript(NotATranscript):
    """A transcript file of an earlier format, which this release no longer reads."""


def dump_transcript(table_id: bytes, meta: list | tuple, entries: list[Entry]) -> bytes:
    """A transcript file: a header frame, then one frame per entry."""
    head = encode([FILE_MAGIC, FILE_VERSION, table_id, list(meta)])
    return frame(head) + b"".join(frame(entry.encode()) for entry in entries)


def load_transcript_prefix(data: bytes) -> tuple[bytes, list, list[Entry], int]:
    """Parse a transcript file that may end in a torn frame (a crash mid-write).

    Returns (table_id, meta, entries, torn_bytes): the entries of every
    whole frame, and how many bytes at the end belong to a last frame cut
    short by the end of the data (0 if none). Only that is forgiven:
    NotATranscript if the header frame is wrong or cut short; a
    RemoteProtocolError naming the entry for any whole frame that does not
    decode, or a length prefix no writer could have written.

    Chain and signature checks are left to a TableSession reading the
    entries, which names the entry that is itself wrong.
    """
    reader = TranscriptReader(io.BytesIO(data))
    entries = list(reader.entries())
    return reader.table_id, reader.meta, entries, reader.torn


class TranscriptReader:
    """A transcript file read one frame at a time from a binary stream, as
    `load_transcript_prefix` reads it whole: the header when made (`table_id`,
    `meta`; NotATranscript or OldTranscript), then `entries()`, each decoded
    only when asked for. It holds one frame at a time (MAX_FRAME bytes at
    most), so a caller checking each entry as it comes stops at the first bad
    one without reading the rest. Once `entries()` has ended, `torn` is how
    many bytes a last frame cut short had (dropped, as a crash mid-write
    leaves it)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self.torn = 0
        try:
            self.table_id, self.meta = _parse_file_header(self._next_frame())
        except OldTranscript:
            raise
        except ProtocolError as exc:
            raise NotATranscript(f"not a transcript: {exc.reason}") from None

    def entries(self) -> Iterator[Entry]:
        """Each whole frame's entry, in order; a RemoteProtocolError naming the
        entry (its index) for the first that does not decode or has a length
        prefix no writer could have written."""
        for index in itertools.count():
            try:
                payload = self._next_frame()
                if payload is None:
                    return
                entry = _parse_stored_entry(payload, self.table_id)
            except RemoteProtocolError as exc:
                raise RemoteProtocolError(f"corrupted entry: {exc.reason}", entry=index) from None
            yield entry

    def _next_frame(self) -> bytes | None:
        """The next whole frame's payload; None at the end of the file, or for a
        last frame the end cuts short (its bytes are `torn`)."""
        prefix = self._read(4)
        if len(prefix) < 4:
            _check_cut_prefix(prefix)
            self.torn = len(prefix)
            return None
        size = frame_length(prefix)
        payload = self._read(size)
        if len(payload) < size:
            if not is_cut_value(payload):
                raise RemoteProtocolError(
                    f"frame length {size} runs past the end of the file, but its content does not"
                )
            self.torn = 4 + len(payload)
            return None
        return payload

    def _read(self, size: int) -> bytes:
        """`size` bytes, or fewer at the end of the stream."""
        chunks, left = [], size
        while left > 0 and (chunk := self._stream.read(left)):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def _check_cut_prefix(prefix: bytes) -> None:
    """A length prefix cut short is forgiven only if some valid length starts so."""
    if prefix:
        lowest = max(int.from_bytes(prefix.ljust(4, b"\x00"), "big"), 1)
        frame_length(lowest.to_bytes(4, "big"))


def _parse_file_header(payload: bytes | None) -> tuple[bytes, list]:
    if payload is None:
        raise RemoteProtocolError("no header frame")
    fields = expect_array(decode(payload), 4, "transcript header")
    if fields[0] != FILE_MAGIC:
        raise RemoteProtocolError("wrong magic")
    if isinstance(fields[1], int) and not isinstance(fields[1], bool) and 1 <= fields[1] < FILE_VERSION:
        raise OldTranscript(Reason.of("old-transcript", theirs=fields[1], ours=FILE_VERSION))
    if fields[1] != FILE_VERSION or isinstance(fields[1], bool):
        raise RemoteProtocolError("unsupported transcript version")
    table_id = expect_bytes(fields[2], TABLE_ID_LEN, "table_id")
    meta = fields[3]
    if not isinstance(meta, list):
        raise RemoteProtocolError("metadata: expected an array")
    return table_id, meta


def _parse_stored_entry(payload: bytes, table_id: bytes) -> Entry:
    """Decode an entry and check its message is well formed for this table."""
    entry = Entry.decode(payload)
    header, _ = parse_header(Signed.decode(entry.message).payload)
    if header.table_id != table_id:
        raise RemoteProtocolError("message for another table")
    return entry
