"""What carries a table's connections where TCP does not reach: a club (briscola_tui/club), or
anything else that gives a host its connections as links and a client a link to its host.
The host and the client know it only as this: the protocol above is the same on every carrier
(net/link.py), and so are resume, time-outs, admission limits and every hostile-peer rule."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from protocol.identity import Identity

from .announcement import Announcement
from .link import Link
from .watching import Heard


class Listening(Protocol):
    def close(self) -> None:
        """No more connections; those open are cut."""
        ...


class Carrier(Protocol):
    @property
    def plates(self) -> frozenset[int]:
        """The join codes' plates its tables use (as the command found them when it started):
        a new table's code takes another."""
        ...

    @property
    def name(self) -> str:
        """The name a command gives it (`--club NAME`)."""
        ...

    @property
    def label(self) -> str:
        """Where a table is reached, in words ("the club friends")."""
        ...

    @property
    def member(self) -> str:
        """Who this process is at the carrier (a host's name there is part of its tables' place)."""
        ...

    async def listen(self, serve: Callable[[Link], Coroutine[Any, Any, None]], table: str) -> Listening:
        """Serve each connection to table `table` (hex) as a link (`serve`, in its own task)."""
        ...

    async def announce(self, now: Callable[[], Announcement], identity: Identity, say: Callable[[str], None]) -> None:
        """Keep `now()` listed, signed by the table key, until cancelled; then withdraw it."""
        ...

    async def connect(self, host: str, table: str) -> Link:
        """A link to table `table` hosted by `host` (ConnectionError where it cannot be made)."""
        ...

    async def broadcast(self, table: str) -> Callable[[bytes], None]:
        """How the host of table `table` publishes a message to all its spectators at once (in order)."""
        ...

    async def watch(self, host: str, table: str) -> Heard:
        """The broadcast of table `table` hosted by `host`, heard from now on."""
        ...

    async def close(self) -> None: ...


class CarriedPlaces:
    """Where a client tries a table through a carrier: the one place it has (the carrier
    reaches the host wherever it is), in the shape of `places.Places`."""

    named_by_lan = False

    def __init__(self, carrier: Carrier, host: str, table: str) -> None:
        self.carrier, self.host, self.table = carrier, host, table

    def where(self) -> str:
        return f"{self.carrier.label}, table {self.table[:12]}"

    async def connect(self) -> Link:
        return await self.carrier.connect(self.host, self.table)

    async def watch(self) -> Heard:
        return await self.carrier.watch(self.host, self.table)

    async def next(self, table_id: bytes | None, say: Callable[[str], None]) -> float:
        return 0.0
