"""The club's JetStream stream, where transcripts wait for members: its subjects and its
configuration. A transcript is kept in parts of at most PART bytes, each one message on
`club.<club>.ledger.<member>.<sha256>.<part>.<parts>`: the member who put it (the server lets
a member publish only under its own name), the SHA-256 of the whole file, the part's index
and how many there are. One message a subject (a second is refused, whoever sends it) and a
`Nats-Msg-Id` of the subject: nothing is stored twice."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .config import MAX_PAYLOAD

if TYPE_CHECKING:
    from nats.js.client import JetStreamContext

PART = MAX_PAYLOAD // 2
"""A part's bytes: half the largest message, room to spare for headers."""

MAX_PARTS = 128
"""The parts of one transcript at most (64 MiB: the ledger's largest transcript)."""

DUPLICATE_WINDOW = 600.0
"""Seconds the server remembers a message id (a put retried within them is stored once)."""


@dataclass(frozen=True)
class Part:
    member: str
    digest: str
    index: int
    parts: int


def ledger_subjects(prefix: str) -> str:
    return f"{prefix}.ledger.>"


def part_subject(prefix: str, part: Part) -> str:
    return f"{prefix}.ledger.{part.member}.{part.digest}.{part.index}.{part.parts}"


def read_subject(prefix: str, subject: str) -> Part | None:
    """The part a subject names; None for a subject that is not one (a member may publish
    anything under its own name: it is passed over)."""
    match = re.fullmatch(
        re.escape(prefix) + r"\.ledger\.([a-z0-9][a-z0-9_-]{0,31})\.([0-9a-f]{64})\.(\d{1,3})\.(\d{1,3})", subject
    )
    if not match:
        return None
    member, digest, index, parts = match[1], match[2], int(match[3]), int(match[4])
    if not 0 <= index < parts <= MAX_PARTS:
        return None
    return Part(member, digest, index, parts)


async def ensure_stream(js: JetStreamContext, name: str, prefix: str, replicas: int = 1) -> None:
    """The club's stream, made if missing (the keeper's job when the server starts), kept on
    `replicas` nodes (a cluster's up to three: one node down loses nothing)."""
    from nats.js.api import DiscardPolicy, StorageType, StreamConfig
    from nats.js.errors import NotFoundError

    config = StreamConfig(
        name=name,
        subjects=[ledger_subjects(prefix)],
        storage=StorageType.FILE,
        discard=DiscardPolicy.NEW,
        max_msgs_per_subject=1,
        discard_new_per_subject=True,
        max_msg_size=MAX_PAYLOAD,
        duplicate_window=DUPLICATE_WINDOW,
        num_replicas=replicas,
    )
    try:
        await js.stream_info(name)
    except NotFoundError:
        await js.add_stream(config)
