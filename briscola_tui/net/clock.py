"""The host's clock: turn deadlines and time-outs.

`Clock.run` looks four times a second, with a time limit only, under the ordering's lock: a
seat played from afar that has owed a message for `time_limit` seconds since the last
entry times out (the entry's event says "seat N timed out"); while the table seats its
players again after one, `--bots-replace` gives the seats left empty to computer players.
"""

from __future__ import annotations

import asyncio
import time

from protocol.errors import LocalProtocolError

from .ordering import Ordering


class Clock:
    """Times the turns of `ordering`'s table: `time_limit` seconds a turn (None: no limit)."""

    def __init__(self, ordering: Ordering, time_limit: float | None):
        self.ordering, self.time_limit = ordering, time_limit

    async def run(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            if self.time_limit is None:
                continue
            async with self.ordering.lock:
                await self._tick(self.time_limit)

    async def _tick(self, time_limit: float) -> None:
        ordering = self.ordering
        session = ordering.session
        _, owing = ordering.host.owing()
        remote = sorted(s for s in owing if s >= 0 and s not in ordering.bots)
        if session.phase == "seating" and ordering.replace_with_bot is not None:
            await ordering.replace_absent()
            await ordering.drain()
            return
        if not remote or session.phase in ("join", "seating", "over", "aborted"):
            return
        if time.monotonic() - ordering.since < time_limit:
            return
        seat = remote[0]
        try:  # the entry's event says "seat N timed out"
            await ordering.append(ordering.host.time_out(seat))
        except LocalProtocolError:
            return
        await ordering.drain()
