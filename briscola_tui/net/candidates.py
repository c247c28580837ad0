"""The tables announcing one plate, and which of them a join code opens (issue 44: a plate is
anyone's to copy). `briscola join 42-3tvbdj` hears every table announced with plate 42; where
there are several, each is asked for the key exchange over the whole code (SPAKE2, as a join
starts: protocol/channel.py), on every address its key signed, and the one that proves it
holds the code, as the table its record names, is joined. The others are impostors: one
answers as another table than its record names (a relay to the real host), or does not prove
the code (it does not know it). Nothing is sent past the key exchange: no key, no name."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from engine.text import visible
from protocol import handshake as hs
from protocol.channel import Exchange, WrongCode
from protocol.codec import FrameReader, frame
from protocol.errors import ProtocolError

from ..language import _
from .connection import read_frame
from .link import Link, connect_tcp
from .mdns import Seen

PROBE_SECONDS = 3.0
"""How long one address is given to answer the key exchange."""
ANSWER_SECONDS = 8.0
"""How long all the candidates are given, at most (an address that never answers is silent)."""
MAX_PROBES = 32
"""Addresses tried at once (a flood of tables with one plate does not open a socket each)."""

OPENS, REFUSED, IMPOSTOR, SILENT = "opens", "refused", "impostor", "silent"
"""What an address did with the code: proved it holds it as the table announced; refused it
(it does not know it, or the code is wrong); answered as another table, or failed its own
proof; answered nothing a host says."""


@dataclass(frozen=True)
class Answer:
    """What one table (`seen`) did with the code at `address` (HOST:PORT)."""

    seen: Seen
    address: str
    verdict: str


Opener = Callable[[], Awaitable[Link]]
"""A way to one place a table may answer at: a TCP connection to an address, or a link through a club."""
Places = Callable[[Seen], list[tuple[str, Opener]]]
"""The places a table is tried at, each said in words (HOST:PORT) and how to reach it."""


def lan_places(seen: Seen) -> list[tuple[str, Opener]]:
    """Every address its key signed, at its port."""
    port = seen.announcement.port
    return [(f"{address}:{port}", partial(connect_tcp, address, port)) for address in seen.addresses]


async def probe(opened: Opener, code: str, table: bytes, seconds: float = PROBE_SECONDS) -> str:
    """The verdict of the host `opened` reaches on `code`, which must answer as `table`."""
    try:
        return await asyncio.wait_for(_exchange(opened, code, table), seconds)
    except (OSError, ProtocolError, asyncio.IncompleteReadError):  # (TimeoutError is an OSError)
        return SILENT


async def _exchange(opened: Opener, code: str, table: bytes) -> str:
    link = await opened()
    try:
        exchange, frames = Exchange("client", code), FrameReader()
        link.write(frame(hs.hello(exchange.message)))
        kind, fields = hs.parse(await read_frame(link, frames))
        if kind == "refuse":
            return REFUSED
        if kind != "exchange":
            return SILENT
        table_id, theirs = fields
        if table_id != table:
            return IMPOSTOR  # (another table answers there: a relay, or a record copied)
        exchange.finish(theirs, table_id, hs.VERSION)
        link.write(frame(hs.confirm(exchange.confirmation())))
        kind, fields = hs.parse(await read_frame(link, frames))
        if kind == "refuse":
            return REFUSED
        if kind != "confirm":
            return SILENT
        try:
            exchange.check(fields[0])
        except WrongCode:
            return IMPOSTOR
        return OPENS
    finally:
        link.close()


async def answers(
    tables: list[Seen], code: str, seconds: float = ANSWER_SECONDS, places: Places = lan_places
) -> list[Answer]:
    """Each table's answer to `code`, every place of each (`places`: on the LAN, every address)
    tried at once (`MAX_PROBES` at a time), within `seconds` in all: once one opens, the others
    are not waited for. A table's answer is the place that opened, else the most telling one
    (an impostor's, a refusal, silence)."""
    gate = asyncio.Semaphore(MAX_PROBES)

    async def one(seen: Seen, where: str, opened: Opener) -> Answer:
        async with gate:
            verdict = await probe(opened, code, bytes.fromhex(seen.announcement.table))
        return Answer(seen, where, verdict)

    tried = {id(seen): places(seen) for seen in tables}
    tasks = [asyncio.ensure_future(one(seen, where, opened)) for seen in tables for where, opened in tried[id(seen)]]
    pending = set(tasks)
    heard: list[Answer] = []
    deadline = asyncio.get_running_loop().time() + seconds
    while pending and not any(a.verdict == OPENS for a in heard):
        left = deadline - asyncio.get_running_loop().time()
        done, pending = await asyncio.wait(pending, timeout=max(left, 0), return_when=asyncio.FIRST_COMPLETED)
        heard += [task.result() for task in done]
        if not done:
            break
    for task in pending:
        task.cancel()
    return [_told(seen, [a for a in heard if a.seen is seen], tried[id(seen)]) for seen in tables]


def _told(seen: Seen, heard: list[Answer], places: list[tuple[str, Opener]]) -> Answer:
    """What `seen` answered, of its places' answers `heard`: the most telling."""
    rank = (OPENS, IMPOSTOR, REFUSED, SILENT)
    best = min(heard, key=lambda a: rank.index(a.verdict), default=None)
    return best or Answer(seen, places[0][0] if places else "?", SILENT)


def chosen(heard: list[Answer]) -> tuple[Answer | None, list[Answer]]:
    """The table the code opens (None: none does), and the others: impostors, where one opens."""
    opens = next((a for a in heard if a.verdict == OPENS), None)
    return opens, [a for a in heard if a is not opens]


def impostors_line(plate: int, others: list[Answer]) -> str:
    """One line naming the tables that answered to `plate` but that the code does not open:
    each address and the host name it claimed, literally."""
    named = ", ".join(
        _("{address} claiming host {host}").format(address=a.address, host=visible(a.seen.announcement.host))
        for a in others
    )
    return _("impostors answer to {plate} too, ignored (the code does not open them): {tables}").format(
        plate=plate, tables=named
    )


def none_opens(plate: int, heard: list[Answer]) -> str:
    """Several tables answer to `plate` and the code opens none of them, in words (each
    address and the host name it claims, literally)."""
    hosts = ", ".join(f"{a.address} ({visible(a.seen.announcement.host)})" for a in heard)
    line = _("{n} tables on the LAN answer to {plate} and none takes this join code ({hosts})")
    return line.format(n=len(heard), plate=plate, hosts=hosts)
