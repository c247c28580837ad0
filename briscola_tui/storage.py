"""Files on disk: transcripts (written whole, atomically)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from protocol.transcript import Entry, dump_transcript, load_transcript


def save_transcript(path: str | os.PathLike, table_id: bytes, entries: list[bytes]) -> None:
    """Write a transcript file; an existing file is replaced only once the new one is complete."""
    data = dump_transcript(table_id, [], [Entry.decode(e) for e in entries])
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=".transcript-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def read_transcript(path: str | os.PathLike) -> tuple[bytes, list[Entry]]:
    """(table_id, entries); NotATranscript or RemoteProtocolError for a bad file."""
    data = Path(path).read_bytes()
    table_id, _meta, entries = load_transcript(data)
    return table_id, entries
