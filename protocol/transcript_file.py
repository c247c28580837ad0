"""The transcript file: a header frame (magic, format, table id, metadata), then one
frame per entry, as `dump_transcript` writes it; `load_transcript_prefix` reads it back,
forgiving only a last frame cut short by a crash. What the entries mean is
`transcript.py`'s."""

from __future__ import annotations

from collections.abc import Iterator

from .codec import decode, encode, expect_array, expect_bytes, frame, frame_length, is_cut_value
from .errors import ProtocolError, RemoteProtocolError
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
    frames = _split_frames(data)
    try:
        head = next(frames, None)
        if head is None and data:
            raise RemoteProtocolError("header frame cut short")
        table_id, meta = _parse_file_header(head)
    except OldTranscript:
        raise
    except ProtocolError as exc:
        raise NotATranscript(f"not a transcript: {exc.reason}") from None
    assert head is not None  # else `_parse_file_header` refused it
    entries: list[Entry] = []
    consumed = 4 + len(head)
    try:
        for payload in frames:
            entries.append(_parse_stored_entry(payload, table_id))
            consumed += 4 + len(payload)
    except RemoteProtocolError as exc:
        raise RemoteProtocolError(f"corrupted entry: {exc.reason}", entry=len(entries)) from None
    return table_id, meta, entries, len(data) - consumed


def _split_frames(data: bytes) -> Iterator[bytes]:
    """Payloads of the whole frames of a file, one at a time (errors when
    reached); stops before a last frame that the end of the data cuts short."""
    offset = 0
    while offset < len(data):
        prefix = data[offset : offset + 4]
        if len(prefix) < 4:
            # Cut inside the prefix: forgiven only if some valid length starts so.
            lowest = max(int.from_bytes(prefix.ljust(4, b"\x00"), "big"), 1)
            frame_length(lowest.to_bytes(4, "big"))
            return
        size = frame_length(prefix)
        if offset + 4 + size > len(data):
            if not is_cut_value(data[offset + 4 :]):
                raise RemoteProtocolError(
                    f"frame length {size} runs past the end of the file, but its content does not"
                )
            return
        yield data[offset + 4 : offset + 4 + size]
        offset += 4 + size


def _parse_file_header(payload: bytes | None) -> tuple[bytes, list]:
    if payload is None:
        raise RemoteProtocolError("no header frame")
    fields = expect_array(decode(payload), 4, "transcript header")
    if fields[0] != FILE_MAGIC:
        raise RemoteProtocolError("wrong magic")
    if isinstance(fields[1], int) and not isinstance(fields[1], bool) and 1 <= fields[1] < FILE_VERSION:
        raise OldTranscript(
            f"a transcript of format {fields[1]}, written by an earlier release; this release reads "
            f"only format {FILE_VERSION} (proofs about hidden cards, sealing on secp256k1, a complaint anyone can check) and cannot check it"
        )
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
