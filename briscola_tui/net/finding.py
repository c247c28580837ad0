"""Finding tables on the LAN from a command: the tables heard in a few seconds (`briscola
tables`), the plates in use (a host picks another), the table a join code names (`briscola
join 42-7q8r2k`). Each listens in a thread of its own (a caller may be on a loop already,
the app's) and returns once it knows, or when its time is up."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ..language import _
from .joincode import plate_of
from .mdns import Browser, Seen, refusal

LIST_SECONDS = 2.0
"""How long `briscola tables` listens."""
FIND_SECONDS = 4.0
"""How long a code is looked for before multicast is taken not to reach here."""
PLATE_SECONDS = 0.4
"""How long a host listens for the plates in use before it picks one."""
SETTLE_SECONDS = 0.3
"""Once a code's table is heard, how long to listen for another answering to it."""


class NotFound(Exception):
    """No table found for a code: why, in words."""


def _listen(seconds: float, done: Callable[[list[Seen]], bool]) -> list[Seen]:
    """The tables heard within `seconds`, or as soon as `done(tables)` (MulticastRefused, or
    an OSError of the system's, when nothing can be heard here)."""

    async def listen() -> list[Seen]:
        browser = Browser()
        await browser.start()
        deadline = time.monotonic() + seconds
        try:
            while not done(browser.tables()) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return browser.tables()
        finally:
            await browser.close()

    with ThreadPoolExecutor(1, thread_name_prefix="briscola-lan") as pool:
        return pool.submit(asyncio.run, listen()).result(timeout=seconds + 10)


def tables_on_lan(seconds: float = LIST_SECONDS) -> list[Seen]:
    """The tables announced on the LAN, newest first (MulticastRefused or OSError: none can be heard)."""
    return _listen(seconds, lambda tables: False)


def plates_in_use(seconds: float = PLATE_SECONDS) -> set[int]:
    """The plates of the tables announced on the LAN now (none, where nothing can be heard)."""
    if refusal() is not None:
        return set()
    try:
        tables = _listen(seconds, lambda tables: False)
    except OSError:
        return set()
    return {s.announcement.plate for s in tables if s.announcement.plate is not None}


def find_code(code: str, seconds: float = FIND_SECONDS) -> Seen:
    """The table announced with `code`'s plate (NotFound, saying why and what to do instead)."""
    plate = plate_of(code)
    assert plate is not None  # (the caller checked that `code` has one)

    def done(tables: list[Seen]) -> bool:  # heard, and no other answering to it since a moment
        return any(s.announcement.plate == plate and time.monotonic() - s.heard > SETTLE_SECONDS for s in tables)

    try:
        tables = _listen(seconds, done)
    except OSError as error:  # (MulticastRefused too: its words are its reason)
        why = error.strerror or str(error)
        raise NotFound(_("tables on the LAN cannot be looked for here: {why}").format(why=why)) from None
    found = [s for s in tables if s.announcement.plate == plate]
    if len(found) > 1:
        hosts = ", ".join(s.announcement.host for s in found)
        raise NotFound(
            _("{n} tables on the LAN answer to {plate} ({hosts})").format(n=len(found), plate=plate, hosts=hosts)
        )
    if not found:
        line = _(
            "no table on the LAN answers to {plate} after {seconds:g} s: multicast may not reach here "
            "(WSL2, a guest Wi-Fi, an SSH tunnel)"
        )
        raise NotFound(line.format(plate=plate, seconds=seconds))
    return found[0]
