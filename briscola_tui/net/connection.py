"""One network connection as the host holds it, and the bounds every connection is held to.

`Limits` (every bound of the host's connections, given by `--limit NAME=VALUE`), `Conn`
(a connection, over its `link`, and what it has proved), `Frames` and `read_frame` (its
frames in, from a link whatever carries it) and `Busy` (a refusal for load). The modules of the host (`admission`, `relay`, `ordering`, `clock`, `server`) all
speak of connections in these terms.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

from protocol.channel import Channel
from protocol.codec import FrameReader
from protocol.reasons import Reason

from ..language import N_, _
from .link import Link

ROLES = {"player": N_("connection {n} (player)"), "spectator": N_("connection {n} (spectator)")}
"""A connection of each role, on the host's console."""


@dataclass
class Limits:
    max_connections: int = 256  # connections past their handshake; a player (it holds a seat) is let in past it
    max_watching: int = 2_048  # spectators on a carrier's broadcast (a club): no entry is sent to each, so
    # they are counted apart from `max_connections`, and more are let in
    handshaking: int = 128  # connections still in their handshake, from every address together
    per_address: int = 32  # of those, from one address, whatever they sent (past it the address's oldest goes)
    quiet_per_address: int = 32  # of those, from one address and not a byte sent yet (past it the oldest goes)
    busy_seconds: float = 1.0  # how long a connection refused for load is told to wait before it tries again
    listen_backlog: int = 256  # connections the kernel holds until the host accepts them (a burst past it waits)
    send_buffer: int = 32_768  # the kernel's send buffer for one connection (and as much again buffered
    # by asyncio): past that a stalled reader's cursor stops, and `backlog` counts how far behind it falls
    handshake_seconds: float = 10.0
    messages_per_second: float = 50.0  # per key (a spectator's: per address), across its reconnections
    burst: int = 400
    penalty_seconds: float = 30.0  # a key (or address) that ran out of messages is kept out this long
    buckets: int = 4_096  # rate buckets remembered at once (refilled ones are forgotten first)
    queue_bytes: int = 65_536  # frames other than entries queued for one connection: past it, it is closed
    close_seconds: float = 2.0  # a connection the host closed is cut if its reader has not taken the rest by then
    stats_seconds: float | None = None  # print `stats` this often (tests and bench/host_memory.py)
    backlog: int = 5_000  # new entries one reader may be behind before it is dropped as too slow
    linger_seconds: float = (
        10.0  # once the table is over, how long a seat that is away may take to come back for its end
    )


class Busy(Exception):
    """Refused for load, not for what the peer is or did: it is told (a `busy` frame) to try
    again `seconds` later, and the client does."""

    def __init__(self, reason: Reason, seconds: float):
        super().__init__(str(reason))
        self.reason, self.seconds = reason, seconds


class Frames(FrameReader):
    """A connection's frame reader, which counts what it was fed."""

    fed = 0

    def feed(self, data: bytes) -> None:
        self.fed += len(data)
        super().feed(data)


@dataclass
class Conn:
    """One network connection, and what it has proved."""

    number: int
    link: Link
    role: str = "?"
    seat: int | None = None
    key: bytes = b""
    channel: Channel | None = None  # after the key exchange: every frame either way is sealed
    queue: deque = field(default_factory=deque)  # (entries written first, frame, status): the handshake, away...
    queued: int = 0  # bytes in `queue`
    address: str = "?"  # where it comes from (its link's `peer`)
    opened: float = 0.0  # when it was accepted
    frames: Frames | None = None
    heard: bool = False  # a byte came from it (it is not a connection that only holds a slot)
    named: bytes = b""  # the seated key its hello named (signed): it spends that key's tries
    anonymous: bool = False  # its hello named no seated key (in a full share, it goes before one not read yet)
    peeked: bool | None = None  # its hello, seen before it was read, is signed by a seated key (None: not seen)
    half: object = None  # whose tries a key exchange begun and not finished would cost (None: none such)
    closed: bool = False
    welcomed: bool = False  # it has its welcome: it reads the stored entries from its cursor on
    returning: bool = False  # it came back holding part of the transcript (it resumes, not starts)
    cursor: int = 0  # the next stored entry to write to it
    base: int = 0  # the entries stored when it was welcomed (its catch-up is not held against it)
    until: int | None = None  # a spectator through a fan-out: its entries past this come by the broadcast
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def behind(self, stored: int) -> int:
        """New entries this reader has not taken yet."""
        return stored - max(self.cursor, self.base)

    def __str__(self) -> str:
        if self.seat is not None:
            return _("connection {n} (seat {seat})").format(n=self.number, seat=self.seat)
        if self.role in ROLES:
            return _(ROLES[self.role]).format(n=self.number)
        return _("connection {n} ({role})").format(n=self.number, role=self.role)  # no role yet ("?")


async def read_frame(link: Link, frames: FrameReader, conn: Conn | None = None) -> bytes:
    """The next frame's payload from `link`; opened (its integrity checked) once `conn` has a
    channel. ConnectionError("closed") if the link ends first."""
    while True:
        data = frames.next_frame()
        if data is not None:
            if conn is not None and conn.channel is not None:
                return conn.channel.open(data)
            return data
        chunk = await link.read()
        if not chunk:
            raise ConnectionError("closed")
        frames.feed(chunk)
