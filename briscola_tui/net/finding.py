"""Finding tables on the LAN from a command: the tables heard in a few seconds (`briscola
tables`), the plates in use (a host picks another), the table a join code names (`briscola
join 42-7q8r2k`). Each listens in a thread of its own (a caller may be on a loop already,
the app's) and returns once it knows, or when its time is up: a hard deadline, whatever
arrives (the thread closing the listener after it is left to end by itself)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..language import _
from .joincode import plate_of
from .mdns import Browser, MulticastRefused, Seen, refusal

LIST_SECONDS = 2.0
"""How long `briscola tables` listens."""
FIND_SECONDS = 4.0
"""How long a code is looked for before multicast is taken not to reach here."""
PLATE_SECONDS = 0.4
"""How long a host listens for the plates in use before it picks one."""
SETTLE_SECONDS = 1.5
"""Once a code's table is heard, how long to listen for another answering to it (an impostor
copying its plate is a candidate too: the browser asks again a second after its first
question, which a responder may have missed)."""
AGAIN_SECONDS = 2.0
"""How long a client that lost its host listens for where its table answers now."""
GRACE_SECONDS = 0.25
"""Past its time, how long a listener is waited for before what it heard is taken as it is."""
CLOSE_SECONDS = 1.0
"""How long a listener is given to close (in its thread, once its answer is in)."""


class NotFound(Exception):
    """No table found for a code: why, in words."""


@dataclass
class _Heard:
    """What a listening thread has heard so far, and whether it is over (or why it failed)."""

    tables: list[Seen] = field(default_factory=list)
    error: BaseException | None = None
    over: threading.Event = field(default_factory=threading.Event)


def _listen(seconds: float, done: Callable[[list[Seen]], bool]) -> list[Seen]:
    """The tables heard within `seconds`, or as soon as `done(tables)` (MulticastRefused, or
    an OSError of the system's, when nothing can be heard here). Returns within `seconds` +
    `GRACE_SECONDS` whatever arrives: the listener runs in a daemon thread, which is not
    waited for past that (nor at the process's exit)."""
    why = refusal()
    if why is not None:
        raise MulticastRefused(why)
    heard = _Heard()
    deadline = time.monotonic() + seconds

    async def listen() -> None:
        browser = Browser()
        await browser.start()
        try:
            while time.monotonic() < deadline:
                heard.tables = browser.tables()
                if done(heard.tables):
                    break
                await asyncio.sleep(0.05)
            heard.tables = browser.tables()
        finally:
            heard.over.set()
            await asyncio.wait_for(browser.close(), CLOSE_SECONDS)

    def run() -> None:
        try:
            asyncio.run(listen())
        except Exception as error:  # (said to the caller, unless it has its answer already)
            if not heard.over.is_set():
                heard.error = error
        finally:
            heard.over.set()

    threading.Thread(target=run, name="briscola-lan", daemon=True).start()
    heard.over.wait(max(deadline + GRACE_SECONDS - time.monotonic(), 0))
    if heard.error is not None:
        raise heard.error
    return list(heard.tables)


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


def places_of(table_id: bytes, seconds: float = AGAIN_SECONDS) -> list[tuple[str, int]]:
    """Where the LAN says table `table_id` answers now: every address its key signed, with its
    port (none, where nothing can be heard or nothing is announced for it)."""
    if refusal() is not None:
        return []
    wanted = table_id.hex()
    try:
        tables = _listen(seconds, lambda tables: any(s.announcement.table == wanted for s in tables))
    except OSError:
        return []
    return [(address, s.announcement.port) for s in tables if s.announcement.table == wanted for address in s.addresses]


def find_code(code: str, seconds: float = FIND_SECONDS) -> list[Seen]:
    """The tables announced with `code`'s plate, one or more (NotFound, saying why and what
    to do instead). Several are candidates: the code decides (candidates.py)."""
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
    if not found:
        line = _(
            "no table on the LAN answers to {plate} after {seconds:g} s: multicast may not reach here "
            "(WSL2, a guest Wi-Fi, an SSH tunnel)"
        )
        raise NotFound(line.format(plate=plate, seconds=seconds))
    return found
