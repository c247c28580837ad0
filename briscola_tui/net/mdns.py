"""The LAN's multicast DNS (DNS-SD over mDNS), through python-zeroconf: the one module that
sends multicast. `Advertiser` announces a host's table (net/announcement.py's record),
refreshes it and withdraws it; `Browser` keeps the tables heard on the LAN, bounded.

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

from ..language import _
from .addresses import interface_addresses
from .announcement import SERVICE, Announcement, properties, read

logging.getLogger("zeroconf").addHandler(logging.NullHandler())
logging.getLogger("zeroconf").propagate = False  # (its warnings would draw over the app)

MAX_TABLES = 256
"""Tables a browser keeps at once (past it, a flood of records is not kept: the tables
already heard stay)."""
MAX_LOOKUPS = 16
"""Records a browser asks for at once (the rest wait for the next time they are announced)."""
LOOKUP_MS = 3000
SERIAL = "n"
"""The text record's key for the announcement's serial: it grows with every change, and a
browser keeps the highest it has heard (an answer queued before a change can arrive after
the change's own announcement)."""


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


def serial_of(record: dict[bytes, bytes | None]) -> int:
    """The serial in a text record heard (0 where there is none, or no number)."""
    value = record.get(SERIAL.encode()) or b""
    return int(value) if value.isdigit() and len(value) <= 20 else 0


class Advertiser:
    """A table's announcement on the LAN, from `start` until `close` (its goodbye)."""

    def __init__(self, addresses: list[str]) -> None:
        self.addresses = addresses
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
            properties={**properties(a), SERIAL: str(self.serial)},
            server=f"briscola-{label}.local.",
        )

    async def start(self, a: Announcement) -> None:
        """Announce `a` (MulticastRefused, or an OSError of the system's, when it cannot be).
        The name holds the table's random id, so no other responder claims it: no probing."""
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


class Browser:
    """The tables announced on the LAN, as they come and go: `tables()` the newest first,
    `changed()` called (on the loop) whenever the list changes."""

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self.changed = changed
        self.seen: dict[str, Seen] = {}
        self.lookups: set[asyncio.Task] = set()
        self.zeroconf: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None

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

    def tables(self) -> list[Seen]:
        return sorted(self.seen.values(), key=lambda s: s.heard, reverse=True)

    async def close(self) -> None:
        for task in self.lookups:
            task.cancel()
        if self.browser is not None:
            await self.browser.async_cancel()
        if self.zeroconf is not None:
            await self.zeroconf.async_close()
        self.browser = self.zeroconf = None

    def _heard(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.seen.pop(name, None) is not None:
                self.changed()
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
        """The table `info` describes, kept (the newest `MAX_TABLES`), unless it is none this version can use."""
        if info.port is None:
            return
        announcement = read(info.properties, info.port)
        addresses = tuple(info.parsed_addresses(IPVersion.V4Only))[:8]
        if announcement is None or not addresses:
            return
        before = self.seen.get(name)
        if before is None and len(self.seen) >= MAX_TABLES:
            return  # (a flood of records does not push out the tables already heard)
        serial = serial_of(info.properties)
        if before is not None and serial < before.serial:
            return  # (an older announcement, heard after a newer one)
        heard = before.heard if before is not None else time.monotonic()
        self.seen[name] = Seen(announcement, addresses, heard, serial)
        if before is None or before.announcement != announcement or before.addresses != addresses:
            self.changed()
