"""A spectator's side of the table's broadcast (net/fanout.py): the messages heard since before
it connected, opened with the key its host gave it, and taken in order from the entry it
holds next (its host lets its connection go once it has the key). A message that does not
open, one missed (the relay drops what a slow reader cannot take) or replayed, or a broadcast
silent past SILENT_SECONDS, ends it as a lost connection: the spectator connects again and
resumes from its transcript's head, as after any drop."""

from __future__ import annotations

import asyncio
from typing import Protocol

from protocol import broadcast
from protocol import handshake as hs
from protocol.errors import ProtocolError

from ..language import _


class Heard(Protocol):
    """The broadcast's messages as they come (a subscription made before the connection)."""

    async def next(self) -> bytes:
        """The next message (ConnectionError once some were dropped: the reader was too slow)."""
        ...

    def close(self) -> None: ...


SILENT_SECONDS = 20.0
"""A broadcast that says nothing this long has lost its host (it says who is away every 5 s)."""


class Watching:
    def __init__(self, heard: Heard) -> None:
        self.heard = heard
        self.opener: broadcast.Opener | None = None

    def keyed(self, key: bytes, table_id: bytes) -> None:
        """The host gave the broadcast's key: entries after the welcome's come this way."""
        self.opener = broadcast.Opener(key, table_id)

    @property
    def on(self) -> bool:
        return self.opener is not None

    async def frame(self, held: int) -> tuple[str, list]:
        """The next frame for a spectator holding `held` entries, from the broadcast (its
        connection is let go once it has the key); a broadcast silent SILENT_SECONDS, or that
        skips a message, ends it as a lost connection."""
        try:
            return await asyncio.wait_for(self.next(held), SILENT_SECONDS)
        except TimeoutError:
            raise ConnectionError(_("the table's broadcast went silent")) from None

    async def next(self, held: int) -> tuple[str, list]:
        """The next frame for a spectator holding `held` entries: (kind, fields), as the
        connection would have given it; an entry it holds already is passed over."""
        while True:
            found = self._frame(await self.heard.next(), held)
            if found is not None:
                return found

    def _frame(self, message: bytes, held: int) -> tuple[str, list] | None:
        assert self.opener is not None  # (keyed)
        try:
            stored, payload = self.opener.open(message)
            kind, fields = hs.parse(payload)
        except ProtocolError:
            raise ConnectionError(_("the table's broadcast came changed or out of order")) from None
        if kind == "entry":
            index = stored - 1
            if index < held:
                return None  # (it came by the connection, before the welcome's end)
            if index > held:
                raise ConnectionError(_("an entry of the table's broadcast was missed"))
        return kind, fields

    def close(self) -> None:
        self.heard.close()
