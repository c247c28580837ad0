"""Transcripts through the club's stream, in parts (stream.py): what the stream offers, a
file put, a file taken back whole. The server is trusted to keep bytes, never for what they
are: a file taken is checked against the SHA-256 its subjects name, then by the ledger."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .stream import PART, Part, part_subject, read_subject

if TYPE_CHECKING:
    from nats.js.client import JetStreamContext

WRITTEN = "Briscola-Written"
"""The header of a transcript's first part: when the member's copy was written (seconds since
the epoch), as a file sent by hand keeps its time; the ledger dates a table by its earliest copy."""

Step = Callable[[], None]


@dataclass
class Offered:
    """One transcript the stream holds: who put it, its SHA-256, and its parts."""

    member: str
    digest: str
    parts: int
    have: set[int] = field(default_factory=set)

    @property
    def whole(self) -> bool:
        return self.have == set(range(self.parts))


async def offered(js: JetStreamContext, stream: str, prefix: str) -> dict[tuple[str, str], Offered]:
    """Every transcript in the stream, by (member, digest); subjects that name no part are passed over."""
    info = await js.stream_info(stream, subjects_filter=f"{prefix}.ledger.>")
    found: dict[tuple[str, str], Offered] = {}
    for subject in (info.state.subjects or {}) if info.state else {}:
        part = read_subject(prefix, subject)
        if part is None:
            continue
        entry = found.setdefault((part.member, part.digest), Offered(part.member, part.digest, part.parts))
        if entry.parts == part.parts:
            entry.have.add(part.index)
    return found


def split(data: bytes) -> list[bytes]:
    return [data[i : i + PART] for i in range(0, len(data), PART)] or [b""]


async def put(
    js: JetStreamContext, stream: str, prefix: str, member: str, data: bytes, written: float, step: Step
) -> None:
    """Publish `data` as parts under `member`'s name; each part's message id is its subject,
    so a put retried is stored once, and the stream keeps one message a subject."""
    from nats.js.errors import APIError

    digest = hashlib.sha256(data).hexdigest()
    chunks = split(data)
    for index, chunk in enumerate(chunks):
        subject = part_subject(prefix, Part(member, digest, index, len(chunks)))
        headers = {"Nats-Msg-Id": subject}
        if index == 0:
            headers[WRITTEN] = f"{written:.3f}"
        try:
            await js.publish(subject, chunk, stream=stream, headers=headers)
        except APIError as error:
            if "maximum messages per subject" not in str(error.description or ""):
                raise  # (that part is there already: a put cut short before, carried on)
        step()


async def take(js: JetStreamContext, stream: str, prefix: str, entry: Offered, step: Step) -> tuple[bytes, float]:
    """The transcript's bytes, its parts in order, and the time its first part claims
    (never later than now); ValueError if the bytes are not those its SHA-256 names."""
    chunks, written = [], time.time()
    for index in range(entry.parts):
        message = await js.get_last_msg(
            stream, part_subject(prefix, Part(entry.member, entry.digest, index, entry.parts))
        )
        chunks.append(message.data or b"")
        if index == 0 and message.headers:
            try:
                written = min(written, float(message.headers.get(WRITTEN, written)))
            except ValueError:
                pass
        step()
    data = b"".join(chunks)
    if hashlib.sha256(data).hexdigest() != entry.digest:
        raise ValueError(entry.digest)
    return data, max(written, 0.0)
