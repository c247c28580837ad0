"""A table's broadcast through the club (net/fanout.py, protocol/broadcast.py): the host
publishes each sealed message once on the table's `watch` subject, in order; the club fans it
out to every spectator subscribed. Bounded both ways: what the host has not published yet
(past PENDING_BYTES it drops the message, and each spectator sees the gap and connects
again), and what a spectator has heard and not read (HEARD messages: past them it stops
taking any, and connects again)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import TYPE_CHECKING

from ..language import _
from . import subjects
from .link import PENDING_BYTES as SUBSCRIPTION_BYTES

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.aio.msg import Msg
    from nats.aio.subscription import Subscription

PENDING_BYTES = 8 * 1024 * 1024
"""The host's broadcast messages not published yet, at most."""
HEARD = 4096
"""A spectator's broadcast messages heard and not read yet, at most."""


class Broadcaster:
    """The host's side: `publish` (sync) queues, one task publishes in order."""

    def __init__(self, nc: Client, subject: str) -> None:
        self.nc, self.subject = nc, subject
        self.queue: deque[bytes] = deque()
        self.queued = 0
        self.wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._send())

    def publish(self, data: bytes) -> None:
        if self.queued + len(data) > PENDING_BYTES:
            return  # (dropped: the spectators see the gap, and connect again)
        self.queue.append(data)
        self.queued += len(data)
        self.wake.set()

    async def _send(self) -> None:
        while True:
            while self.queue:
                data = self.queue.popleft()
                self.queued -= len(data)
                with contextlib.suppress(Exception):  # (the club's connection lost: a gap, seen by each spectator)
                    await self.nc.publish(self.subject, data)
            self.wake.clear()
            await self.wake.wait()

    async def close(self, seconds: float = 2.0) -> None:
        """Once what is queued is published (`seconds` at most), stop."""
        for _tick in range(int(seconds / 0.01)):
            if not self.queue:
                break
            await asyncio.sleep(0.01)
        self.task.cancel()


class Heard:
    """A spectator's side: the broadcast's messages as they come (`net.watching.Heard`)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(HEARD)
        self.lost = False
        self.subscription: Subscription | None = None

    async def came(self, msg: Msg) -> None:
        if self.lost:
            return
        try:
            self.queue.put_nowait(msg.data)
        except asyncio.QueueFull:
            self.lost = True

    async def next(self) -> bytes:
        if self.queue.empty() and self.lost:
            raise ConnectionError(_("too slow to take the table's broadcast"))
        if self.lost:
            return self.queue.get_nowait()
        return await self.queue.get()

    def close(self) -> None:
        if self.subscription is not None:
            subscription, self.subscription = self.subscription, None
            with contextlib.suppress(RuntimeError):  # (the loop is closing: the connection goes with it)
                asyncio.get_running_loop().create_task(_unsubscribe(subscription))


async def _unsubscribe(subscription: Subscription) -> None:
    with contextlib.suppress(Exception):
        await subscription.unsubscribe()


async def broadcaster(nc: Client, prefix: str, host: str, table: str) -> Broadcaster:
    return Broadcaster(nc, subjects.watch(prefix, host, table))


async def heard(nc: Client, prefix: str, host: str, table: str) -> Heard:
    """The broadcast of `table`, subscribed (and the subscription known to the club) before this returns."""
    listening = Heard()
    listening.subscription = await nc.subscribe(
        subjects.watch(prefix, host, table),
        cb=listening.came,
        pending_msgs_limit=HEARD,
        pending_bytes_limit=SUBSCRIPTION_BYTES,
    )
    await nc.flush()
    return listening
