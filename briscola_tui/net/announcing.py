"""A hosted table's announcement on the LAN, kept true while the table takes players: made
from the table as it stands (`announcement_of`), sent when the host listens, sent again
when a seat fills or a spectator comes or goes, and every `REANNOUNCE_SECONDS` all the same
(so that a browser tells a live table from a dead one), withdrawn when the table stops
taking anyone (its series over, or the host stopping). mdns.py sends it, signed by the
table key."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.text import MAX_NAME
from protocol.identity import Identity
from protocol.session import TableSession
from protocol.tableid import table_id_of

from ..language import _
from .announcement import Announcement
from .joincode import plate_of
from .mdns import REANNOUNCE_SECONDS, Advertiser, announced_on, multicast_off

REFRESH_SECONDS = 1.0
"""How often the table is looked at for a change to announce."""


def loopback(bind: str) -> bool:
    """Whether `bind` is this machine's loopback only (127.0.0.1, ::1, localhost)."""
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return bind == "localhost"


@dataclass
class Announcing:
    """What a host announces: its name, its join code's plate, the address it listens on."""

    bind: str
    host_name: str
    code: str | None
    say: Callable[[str], None]
    announced: bool = False  # on the LAN now

    def announcement(
        self, session: TableSession, table_id: bytes, key: bytes, port: int, watching: int
    ) -> Announcement:
        """The table as it stands, hosted with the table key `key` (public)."""
        assert session.table is not None  # (the host opened it, or took it up again)
        names = session.names
        return Announcement(
            game=session.table.game,
            players=session.players,
            seated=tuple(names[seat] for seat in range(session.players) if names.get(seat)),
            spectators=True,
            host=(self.host_name or socket.gethostname())[:MAX_NAME],
            table=table_id.hex(),
            port=port,
            plate=plate_of(self.code or ""),
            watching=watching,
            key=key.hex(),
        )

    async def run(self, now: Callable[[], Announcement], identity: Identity) -> None:
        """Announce `now()`, signed by the table key `identity`, and keep it true until
        cancelled, then withdraw it; a table that cannot be announced is said in a line and
        served all the same."""
        addresses = announced_on(self.bind)
        if multicast_off():  # (asked for none)
            return
        if not addresses:
            if loopback(self.bind):  # (said: friends on the LAN would look for it in vain)
                line = _(
                    "not announced on the LAN: it listens on {bind} only, which no other machine can "
                    "reach (friends on the LAN cannot see it nor join it); for them, listen on every "
                    "interface (the default) or on a LAN address"
                )
                self.say(line.format(bind=self.bind))
            return
        advertiser = Advertiser(addresses, identity)
        sent = now()
        if sent.table != table_id_of(identity.public_bytes).hex():  # (a record of it would be refused)
            self.say(_("not announced on the LAN: this table's id is not its key's fingerprint (an older table)"))
            return
        try:
            await advertiser.start(sent)
        except OSError as error:
            self.say(_("not announced on the LAN: {why}").format(why=error.strerror or error))
            return
        self.announced = True
        self.say(self._announced(sent))
        last = time.monotonic()
        try:
            while True:
                await asyncio.sleep(REFRESH_SECONDS)
                current = now()
                if current != sent or time.monotonic() - last >= REANNOUNCE_SECONDS:
                    await advertiser.update(current)
                    sent, last = current, time.monotonic()
        finally:
            self.announced = False
            await asyncio.shield(advertiser.close())

    def _announced(self, sent: Announcement) -> str:
        if sent.plate is None:
            return _("announced on the LAN: it is in the list of `briscola join` and `briscola tables`")
        line = _("announced on the LAN: join with the code alone: {command}")
        return line.format(command=f"briscola join {self.code}")
