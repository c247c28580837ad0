"""Where a client tries its host: the address it was given, then, once the host is lost, the
places the LAN names for its table (every address and port the table's key signed in an
announcement: the host taken up again on another port, or reachable on another address).
A place the LAN named is only a try: whoever answers there must still prove the join code
and answer as the table (client.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from ..language import _
from .finding import places_of
from .link import Link, connect_tcp

MAX_PLACES = 8
"""Places (address, port) a client tries its table at, at most: where it joined, then those the LAN names."""
LOOK_AGAIN_SECONDS = 10.0
"""How often a client that lost its host asks the LAN where its table answers, at most (each
asking listens up to `finding.AGAIN_SECONDS`)."""


class Places:
    """The places a client tries, and the one it tries now."""

    def __init__(self, address: str, port: int) -> None:
        self.places: list[tuple[str, int]] = [(address, port)]
        self.place = 0  # the one tried now
        self._looked = -LOOK_AGAIN_SECONDS  # when the LAN was last asked (monotonic)

    def now(self) -> tuple[str, int]:
        return self.places[self.place]

    def where(self) -> str:
        address, port = self.now()
        return f"{address}:{port}"

    async def connect(self) -> Link:
        return await connect_tcp(*self.now())

    async def watch(self) -> None:
        """No broadcast over TCP: the host sends each spectator its entries itself."""
        return None

    @property
    def named_by_lan(self) -> bool:
        """The place tried now is one the LAN named, not the one the client was given."""
        return self.place != 0

    async def next(self, table_id: bytes | None, say: Callable[[str], None]) -> float:
        """The host lost: the next try goes to the next place; past the last, the LAN is asked
        where table `table_id` answers now (at most every `LOOK_AGAIN_SECONDS`), and a place
        not tried yet is tried first (said). The seconds the asking took."""
        self.place = (self.place + 1) % len(self.places)
        began = time.monotonic()
        if self.place or table_id is None or began - self._looked < LOOK_AGAIN_SECONDS:
            return 0.0
        self._looked = began
        found = await asyncio.to_thread(places_of, table_id)
        new = [place for place in found if place not in self.places][: MAX_PLACES - len(self.places)]
        if new:
            self.places += new
            self.place = self.places.index(new[0])
            line = _("the LAN says table {table} answers at {address} now; trying there")
            say(line.format(table=table_id.hex()[:12], address=self.where()))
        return time.monotonic() - began
