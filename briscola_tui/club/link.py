"""A connection's bytes through a club: `ClubLink`, a `Link` (net/link.py) over two NATS
subjects, so that the host and its clients speak through a club exactly as over TCP.

Each message is one kind byte, a 4-byte sequence number and the bytes: OPEN (the first each
way: the connection asked for, and the host's answer that it listens), DATA, PING (each side
says something at least every PING_SECONDS), CLOSE. Core NATS delivers at most once and in
order from one sender: a message missing or replayed shows as a sequence number out of
place, and the link ends there (its reader sees the end, as a TCP connection cut); a link
that hears nothing for SILENT_SECONDS ends too. Nothing above depends on a message the club
may drop: a seat that connects again resumes from its transcript's head, as over TCP.
The bytes are the sealed frames of the SPAKE2 channel (protocol/channel.py): the club sees
their sizes and timing, never what they say.

Every buffer a peer can fill has a bound: the bytes arrived and not read (HELD: past it the
link ends), the subscription's queue (nats-py's pending limits: past them it drops, and the
link ends at the gap), the links one host serves (MAX_LINKS, MAX_LINKS_A_MEMBER).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import struct
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from protocol.codec import MAX_FRAME

from ..language import _
from ..net.reaching import Whole
from . import subjects

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.aio.msg import Msg
    from nats.aio.subscription import Subscription

OPEN, DATA, PING, CLOSE = b"o", b"d", b"p", b"c"
HEAD = struct.Struct(">cI")
CHUNK = 32 * 1024
"""The most bytes of one DATA message."""
HELD = 4 * (MAX_FRAME + 4)
"""Bytes arrived and not read, at most (a reader that reads frame by frame holds one)."""
SEND_HIGH = 256 * 1024
"""Bytes written and not published yet past which `drain` waits."""
PING_SECONDS = 5.0
SILENT_SECONDS = 20.0
"""A link that hears nothing this long has lost its peer (a process killed says no CLOSE)."""
ANSWER_SECONDS = 5.0
"""How long a client waits for the host's OPEN before it takes the table as not there."""
PENDING_MESSAGES = 4096
PENDING_BYTES = 16 * 1024 * 1024
"""A subscription's queue in nats-py, bounded: past it messages are dropped (and a link ends at the gap)."""
MAX_LINKS = 4096
MAX_LINKS_A_MEMBER = 32
"""Connections one host serves through the club at once (its spectators on the broadcast cost
it a link each, no entry: net/connection.py `max_watching`), and of them one member's."""


class NoHost(Whole):
    """Nobody answered for the table at the club (its host is not there, or not yet)."""


class ClubLink:
    """One connection through a club: bytes published on `out`, those of the peer `deliver`ed."""

    def __init__(self, nc: Client, out: str, peer: str, ended: Callable[[], object] = lambda: None) -> None:
        self.nc, self.out, self.peer = nc, out, peer
        self._ended_callback = ended
        self._in: deque[bytes] = deque()
        self._in_bytes = 0
        self._arrived = asyncio.Event()
        self._out: deque[tuple[bytes, bytes]] = deque()
        self._out_bytes = 0
        self._room = asyncio.Event()
        self._room.set()
        self._wake = asyncio.Event()
        self._sent = 0  # the next sequence number to send
        self._expected = 0  # the next one to receive
        self._heard = time.monotonic()
        self.opened = asyncio.Event()  # the peer's OPEN came
        self._closing = False
        self._ended = False
        self._sender = asyncio.create_task(self._send())

    # --- what came ---------------------------------------------------------------

    def deliver(self, payload: bytes) -> None:
        """A message of the peer's, in the order the club gave it."""
        if self._ended:
            return
        if len(payload) < HEAD.size:
            self._end()
            return
        kind, number = HEAD.unpack_from(payload)
        if number != self._expected:  # one lost or replayed: the bytes cannot go on
            self._end()
            return
        self._expected += 1
        self._heard = time.monotonic()
        data = payload[HEAD.size :]
        if kind == DATA and data and self._in_bytes + len(data) <= HELD:
            self._in.append(data)
            self._in_bytes += len(data)
            self._arrived.set()
        elif kind == OPEN and number == 0:
            self.opened.set()
        elif kind != PING:  # CLOSE, too much unread, or not a kind at all
            self._end()

    async def read(self) -> bytes:
        while not self._in:
            if self._ended:
                return b""
            self._arrived.clear()
            await self._arrived.wait()
        data = self._in.popleft()
        self._in_bytes -= len(data)
        return data

    def unread(self) -> bool:
        return bool(self._in)

    def peek(self, limit: int) -> bytes:
        return b"".join(self._in)[:limit]

    # --- what goes ---------------------------------------------------------------

    def say(self, kind: bytes, data: bytes = b"") -> None:
        self._out.append((kind, data))
        self._out_bytes += len(data)
        if self._out_bytes > SEND_HIGH:
            self._room.clear()
        self._wake.set()

    def write(self, data: bytes) -> None:
        if self._closing or self._ended:
            return
        for at in range(0, len(data), CHUNK):
            self.say(DATA, data[at : at + CHUNK])

    async def drain(self) -> None:
        while not self._room.is_set() and not self._ended:
            await self._room.wait()

    def buffered(self) -> int:
        return self._out_bytes

    def close(self) -> None:
        self._closing = True
        self._wake.set()

    def abort(self) -> None:
        self._out.clear()
        self._out_bytes = 0
        self._room.set()
        self.close()

    def is_closing(self) -> bool:
        return self._closing or self._ended

    async def _send(self) -> None:
        """Publish what is written, in order; a PING when there was nothing to say; CLOSE last."""
        try:
            while not self._ended:
                while self._out:
                    kind, data = self._out.popleft()
                    await self._publish(kind, data)
                    self._out_bytes -= len(data)
                    if self._out_bytes <= SEND_HIGH:
                        self._room.set()
                if self._closing:
                    await self._publish(CLOSE)
                    break
                if time.monotonic() - self._heard > SILENT_SECONDS:
                    break
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), PING_SECONDS)
                except TimeoutError:
                    await self._publish(PING)
        except Exception:  # (the club's connection closed or refused it: the link ends, as a TCP one cut)
            pass
        finally:
            self._end()

    async def _publish(self, kind: bytes, data: bytes = b"") -> None:
        await self.nc.publish(self.out, HEAD.pack(kind, self._sent) + data)
        self._sent += 1

    def _end(self) -> None:
        if self._ended:
            return
        self._ended = True
        self._closing = True
        self._out.clear()
        self._out_bytes = 0
        self._arrived.set()
        self._room.set()
        self._wake.set()
        self._ended_callback()


# --- the client's side -------------------------------------------------------------


async def connect_link(nc: Client, prefix: str, host: str, table: str, member: str) -> ClubLink:
    """A link to table `table` hosted by member `host`, as `member`; NoHost if its host does
    not answer within ANSWER_SECONDS."""
    connection = secrets.token_hex(8)
    subscription: Subscription | None = None

    def ended() -> None:
        if subscription is not None:
            asyncio.get_running_loop().create_task(_unsubscribe(subscription))

    link = ClubLink(nc, subjects.up(prefix, host, table, member, connection), f"{host} (club)", ended)

    async def came(msg: Msg) -> None:
        link.deliver(msg.data)

    subscription = await nc.subscribe(
        subjects.down(prefix, host, table, member, connection),
        cb=came,
        pending_msgs_limit=PENDING_MESSAGES,
        pending_bytes_limit=PENDING_BYTES,
    )
    link.say(OPEN)
    try:
        await asyncio.wait_for(link.opened.wait(), ANSWER_SECONDS)
    except TimeoutError:
        link.abort()
        raise NoHost(_("no host answers for table {table} at the club").format(table=table[:12])) from None
    return link


async def _unsubscribe(subscription: Subscription) -> None:
    with contextlib.suppress(Exception):  # (the connection may be closed already: nothing is left then)
        await subscription.unsubscribe()


# --- the host's side ---------------------------------------------------------------


class ClubListener:
    """The host of one table through a club: each connection a member opens is served as a
    link (`serve`, in its own task), at most MAX_LINKS at once and MAX_LINKS_A_MEMBER of one
    member's; a message for no link that is not an OPEN is dropped."""

    def __init__(
        self, nc: Client, prefix: str, host: str, table: str, serve: Callable[[ClubLink], Coroutine[Any, Any, None]]
    ) -> None:
        self.nc, self.prefix, self.host, self.table = nc, prefix, host, table
        self.serve = serve
        self.links: dict[tuple[str, str], ClubLink] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.subscription: Subscription | None = None

    async def start(self) -> None:
        self.subscription = await self.nc.subscribe(
            subjects.ups(self.prefix, self.host, self.table),
            cb=self._came,
            pending_msgs_limit=PENDING_MESSAGES,
            pending_bytes_limit=PENDING_BYTES,
        )

    async def _came(self, msg: Msg) -> None:
        who = subjects.connection_of(self.prefix, self.host, self.table, msg.subject)
        if who is None:
            return
        link = self.links.get(who)
        if link is None:
            link = self._opened(who, msg.data)
            if link is None:
                return
        link.deliver(msg.data)

    def _opened(self, who: tuple[str, str], first: bytes) -> ClubLink | None:
        member, connection = who
        if first[:1] != OPEN or len(self.links) >= MAX_LINKS:
            return None
        if sum(1 for m, _c in self.links if m == member) >= MAX_LINKS_A_MEMBER:
            return None
        out = subjects.down(self.prefix, self.host, self.table, member, connection)
        link = ClubLink(self.nc, out, member, lambda: self.links.pop(who, None))
        self.links[who] = link
        link.say(OPEN)
        task = asyncio.get_running_loop().create_task(self.serve(link))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return link

    def close(self) -> None:
        """No more connections; those open are cut."""
        if self.subscription is not None:
            asyncio.get_running_loop().create_task(_unsubscribe(self.subscription))
            self.subscription = None
        for link in list(self.links.values()):
            link.abort()
