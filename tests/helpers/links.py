"""A `Link` (briscola_tui/net/link.py) in memory: what one end writes, the other reads.

`link_pair()` gives the two ends of one connection (each a queue of the chunks the other
wrote); an end alone (`MemoryLink()`) keeps what is written to it in `written`. The
protocol code runs over it as over TCP: it does not know what carries its bytes."""

from __future__ import annotations

import asyncio
from collections import deque


class MemoryLink:
    def __init__(self, peer: str = "memory") -> None:
        self.peer = peer
        self.came: deque[bytes] = deque()  # chunks the other end wrote, not read yet
        self.ended = False  # the other end closed: after `came`, a read gives b""
        self.arrived = asyncio.Event()
        self.other: MemoryLink | None = None
        self.written: list[bytes] = []
        self.closed = False

    async def read(self) -> bytes:
        while not self.came and not self.ended:
            self.arrived.clear()
            await self.arrived.wait()
        return self.came.popleft() if self.came else b""

    def write(self, data: bytes) -> None:
        if self.closed:
            return  # (as a closed transport: dropped)
        self.written.append(data)
        if self.other is not None:
            self.other.came.append(bytes(data))
            self.other.arrived.set()

    async def drain(self) -> None:
        await asyncio.sleep(0)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.other is not None:
            self.other.ended = True
            self.other.arrived.set()

    def abort(self) -> None:
        self.close()

    def is_closing(self) -> bool:
        return self.closed

    def buffered(self) -> int:
        return sum(map(len, self.other.came)) if self.other is not None else 0

    def unread(self) -> bool:
        return bool(self.came)

    def peek(self, limit: int) -> bytes:
        return b"".join(self.came)[:limit]


def link_pair(a: str = "10.0.0.2", b: str = "10.0.0.1") -> tuple[MemoryLink, MemoryLink]:
    """The two ends of one connection in memory; the first's peer (where its bytes come
    from) is `a`, the second's `b`."""
    first, second = MemoryLink(peer=a), MemoryLink(peer=b)
    first.other, second.other = second, first
    return first, second
