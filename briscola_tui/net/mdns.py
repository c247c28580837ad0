"""The LAN's multicast DNS (DNS-SD over mDNS), through python-zeroconf: the one module that
sends multicast. `Advertiser` announces a host's table (net/announcement.py's record, signed
by the table key), refreshes it and withdraws it; `Browser` keeps the tables heard on the
LAN, bounded: by the table's id, which only a record signed by the table's key may name, so
that every service name announcing one table is one table (its addresses the union of those
validly signed), and a table not heard for `EXPIRE_SECONDS` is dropped (a host killed without
its goodbye).

Nothing is sent where `refusal()` says no: with BRISCOLA_NO_MULTICAST set (a person who
wants no part in it), or in a test outside a private network namespace (the tests' guard:
tests/conftest.py names the namespace they run in, and this refuses to multicast from it,
writing who tried in the guard's log, which fails the test run)."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from zeroconf import DNSQuestionType, InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from protocol.identity import Identity

from ..language import _
from .addresses import interface_addresses
from .announcement import MAX_ADDRESSES, SERVICE, Announcement, Record, read, signed

logging.getLogger("zeroconf").addHandler(logging.NullHandler())
logging.getLogger("zeroconf").propagate = False  # (its warnings would draw over the app)

MAX_TABLES = 256
"""Tables a browser keeps at once (past it, a flood of records is not kept: the tables
already heard stay)."""
MAX_LOOKUPS = 16
"""Records a browser asks for at once (the rest wait for the next time they are announced)."""
LOOKUP_MS = 3000
MAX_NAMES = 2 * MAX_TABLES
"""Service names a browser follows at once (several may announce one table)."""
REANNOUNCE_SECONDS = 10.0
"""How often a host announces its table again when nothing changed (with a new serial, so
that every browser hears it afresh)."""
EXPIRE_SECONDS = 30.0
"""A table not heard for this long is dropped from a browser's list (its host gone without a
goodbye: killed, or its machine off the LAN); three announcements missed."""
SWEEP_SECONDS = 1.0
"""How often a browser looks for tables not heard for `EXPIRE_SECONDS`."""


class MulticastRefused(OSError):
    """No multicast here: `refusal()`'s reason."""


def multicast_off() -> bool:
    """The person asked for no multicast at all (BRISCOLA_NO_MULTICAST set): nothing is
    announced, nothing looked for."""
    return bool(os.environ.get("BRISCOLA_NO_MULTICAST"))


def refusal() -> str | None:
    """Why this process may not send multicast (None: it may)."""
    if multicast_off():
        return _("BRISCOLA_NO_MULTICAST is set")
    guarded = os.environ.get("BRISCOLA_TEST_NETNS")
    if guarded and _namespace() == guarded:
        log = os.environ.get("BRISCOLA_TEST_MULTICAST_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as file:
                file.write(" ".join(sys.argv) + "\n")
        return "a test may send multicast only inside a private network namespace"
    return None


def _namespace() -> str:
    """This process's network namespace ("" where there are none)."""
    try:
        return os.readlink("/proc/self/ns/net")
    except OSError:
        return ""


def announced_on(bind: str) -> list[str]:
    """The addresses a table listening on `bind` is announced on: every LAN address for the
    wildcard, `bind` itself for an IPv4 address of an interface, none for loopback (nobody
    else could reach it) or an IPv6 address (announced over IPv4 only)."""
    if bind in ("", "0.0.0.0", "::"):
        return interface_addresses()
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return []
    return [] if address.is_loopback or address.version != 4 else [bind]


def _open(interfaces: list[str]) -> AsyncZeroconf:
    why = refusal()
    if why is not None:
        raise MulticastRefused(why)
    return AsyncZeroconf(interfaces=interfaces or InterfaceChoice.All, ip_version=IPVersion.V4Only)


class Advertiser:
    """A table's announcement on the LAN, signed by the table key `identity`, from `start`
    until `close` (its goodbye)."""

    def __init__(self, addresses: list[str], identity: Identity) -> None:
        self.addresses = addresses[:MAX_ADDRESSES]
        self.identity = identity
        self.zeroconf: AsyncZeroconf | None = None
        self.info: AsyncServiceInfo | None = None
        self.serial = 0

    def _info(self, a: Announcement) -> AsyncServiceInfo:
        label = a.table[:16]
        self.serial = max(self.serial + 1, time.time_ns() // 1_000_000)  # (a restarted host's are later too)
        return AsyncServiceInfo(
            SERVICE,
            f"{label}.{SERVICE}",
            addresses=[ipaddress.ip_address(x).packed for x in self.addresses],
            port=a.port,
            properties=signed(a, self.addresses, self.serial, self.identity),
            server=f"briscola-{label}.local.",
        )

    async def start(self, a: Announcement) -> None:
        """Announce `a` (MulticastRefused, or an OSError of the system's, when it cannot be).
        The name holds the table's id (its key's fingerprint), so no honest responder claims it: no probing."""
        self.zeroconf = _open(self.addresses)
        self.info = self._info(a)
        await (await self.zeroconf.async_register_service(self.info, cooperating_responders=True))

    async def update(self, a: Announcement) -> None:
        """Announce `a` in `start`'s place. Returns once its announcements are sent, so that
        no older announcement goes out after a newer one."""
        if self.zeroconf is not None:
            self.info = self._info(a)
            await (await self.zeroconf.async_update_service(self.info))

    async def close(self) -> None:
        """Withdraw the table (a goodbye: browsers drop it at once) and stop."""
        zeroconf, self.zeroconf = self.zeroconf, None
        if zeroconf is None:
            return
        if self.info is not None:
            await asyncio.wait_for(await zeroconf.async_unregister_service(self.info), 2.0)
        await zeroconf.async_close()


@dataclass(frozen=True)
class Seen:
    """A table heard on the LAN: its announcement, where it answers, when it was first heard."""

    announcement: Announcement
    addresses: tuple[str, ...]
    heard: float  # time.monotonic()
    serial: int = 0  # the announcement's, which grows with every change


@dataclass(frozen=True)
class Named:
    """What one service name said last, checked: its record and when it was heard."""

    record: Record
    last: float  # time.monotonic()


def table_of(named: list[Named], first: float) -> Seen:
    """One table from what the service names announcing it said: the fields of the newest
    serial, the addresses of them all (the newest first, at most `MAX_ADDRESSES`)."""
    newest = max(named, key=lambda n: n.record.serial).record
    addresses: list[str] = []
    for n in sorted(named, key=lambda n: n.record.serial, reverse=True):
        addresses += [a for a in n.record.addresses if a not in addresses]
    return Seen(newest.announcement, tuple(addresses[:MAX_ADDRESSES]), first, newest.serial)


class Browser:
    """The tables announced on the LAN, as they come and go: `tables()` the newest first,
    `changed()` called (on the loop) whenever the list changes. A table is its verified id:
    the service names that announce it are followed apart (`names`) and their records merged."""

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self.changed = changed
        self.names: dict[str, Named] = {}  # service name: what it said last, checked
        self.seen: dict[str, Seen] = {}  # table id (hex): the table
        self.first: dict[str, float] = {}  # table id: when it was first heard
        self.lookups: set[asyncio.Task] = set()
        self.zeroconf: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None
        self.sweeper: asyncio.Task | None = None

    async def start(self) -> None:
        """Listen (MulticastRefused, or an OSError of the system's, when it cannot).

        Every question asks for a multicast answer (QM). zeroconf's first question would
        ask for a unicast one (QU), sent to port 5353 of this machine; where several
        programs share that port (a host and a joiner on one machine, two joiners) the
        system hands it to one of them, perhaps not this one, and the next question is
        a second later."""
        self.zeroconf = _open([])
        self.browser = AsyncServiceBrowser(
            self.zeroconf.zeroconf, [SERVICE], handlers=[self._heard], question_type=DNSQuestionType.QM
        )
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def tables(self) -> list[Seen]:
        return sorted(self.seen.values(), key=lambda s: s.heard, reverse=True)

    async def close(self) -> None:
        for task in [*self.lookups, *([self.sweeper] if self.sweeper is not None else [])]:
            task.cancel()
        if self.browser is not None:
            await self.browser.async_cancel()
        if self.zeroconf is not None:
            await self.zeroconf.async_close()
        self.browser = self.zeroconf = self.sweeper = None

    def _heard(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self._forget([name])
            return
        info = AsyncServiceInfo(service_type, name)
        if info.load_from_cache(zeroconf):  # (the announcement brought every record with it)
            self._keep(name, info)
        elif len(self.lookups) < MAX_LOOKUPS:
            task = asyncio.get_running_loop().create_task(self._look_up(service_type, name))
            self.lookups.add(task)
            task.add_done_callback(self.lookups.discard)

    async def _look_up(self, service_type: str, name: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        assert self.zeroconf is not None
        if await info.async_request(self.zeroconf.zeroconf, LOOKUP_MS, question_type=DNSQuestionType.QM):
            self._keep(name, info)

    def _keep(self, name: str, info: AsyncServiceInfo) -> None:
        """What `info` says, kept when it is a record this version can use, signed by its
        table's key (the newest `MAX_TABLES` tables, `MAX_NAMES` names)."""
        record = read(info.properties, info.port) if info.port is not None else None
        if record is None or record.via:  # (a club's record says no place on the LAN)
            return
        self.hear(name, record, time.monotonic())

    def hear(self, name: str, record: Record, now: float) -> None:
        """A checked record heard from service `name` at `now`: its table kept or updated."""
        table = record.announcement.table
        before = self.names.get(name)
        if before is not None and before.record.announcement.table == table and record.serial < before.record.serial:
            return  # (an older announcement, heard after a newer one)
        if before is None and len(self.names) >= MAX_NAMES:
            return  # (a flood of names does not push out the tables already heard)
        if table not in self.seen and len(self.seen) >= MAX_TABLES:
            return  # (a flood of tables does not push out those already heard)
        others = [other for other, n in self.names.items() if other != name and n.record.announcement.table == table]
        if before is None and len(others) >= MAX_ADDRESSES:  # (one table under many names: the freshest kept)
            del self.names[min(others, key=lambda other: self.names[other].last)]
        self.names[name] = Named(record, now)
        if before is not None and before.record.announcement.table != table:
            self._merge(before.record.announcement.table)  # (the name now announces another table)
        self._merge(table)

    def _forget(self, names: list[str]) -> None:
        """Service names gone (a goodbye, or not heard for `EXPIRE_SECONDS`): their tables
        merged again from the names left, or dropped with none left."""
        tables = {self.names.pop(name).record.announcement.table for name in names if name in self.names}
        for table in tables:
            self._merge(table)

    def _merge(self, table: str) -> None:
        """The table `table` again from the names announcing it (dropped where none does)."""
        named = [n for n in self.names.values() if n.record.announcement.table == table]
        before = self.seen.get(table)
        if not named:
            self.seen.pop(table, None)
            self.first.pop(table, None)
            if before is not None:
                self.changed()
            return
        first = self.first.setdefault(table, time.monotonic())
        now = table_of(named, first)
        self.seen[table] = now
        if before is None or before.announcement != now.announcement or before.addresses != now.addresses:
            self.changed()

    def expire(self, now: float) -> None:
        """Drop what has not been heard for `EXPIRE_SECONDS` (a host killed without a goodbye)."""
        self._forget([name for name, n in self.names.items() if now - n.last > EXPIRE_SECONDS])

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.expire(time.monotonic())
