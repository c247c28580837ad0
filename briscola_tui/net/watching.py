"""A spectator's side of the table's broadcast (net/fanout.py): the messages heard since before
it connected, opened with the key its host gave it, and taken in order from the entry it
holds next. A message that does not open, one missed (the relay drops what a slow reader
cannot take) or replayed, ends the connection: the spectator connects again and resumes from
its transcript's head, as after any drop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from protocol import broadcast
from protocol import handshake as hs
from protocol.errors import ProtocolError

from ..language import _


class Heard(Protocol):
    """The broadcast's messages as they come (a subscription made before the connection)."""

    async def next(self) -> bytes:
        """The next message (ConnectionError once some were dropped: the reader was too slow)."""
        ...

    def ready(self) -> bytes | None:
        """The next message if one has come, else None (ConnectionError as `next`)."""
        ...

    def close(self) -> None: ...


class Watching:
    def __init__(self, heard: Heard) -> None:
        self.heard = heard
        self.opener: broadcast.Opener | None = None
        self.link_read: asyncio.Future[tuple[str, list]] | None = None  # the connection's next frame, read meanwhile

    def keyed(self, key: bytes, table_id: bytes) -> None:
        """The host gave the broadcast's key: entries after the welcome's come this way."""
        self.opener = broadcast.Opener(key, table_id)

    @property
    def on(self) -> bool:
        return self.opener is not None

    async def frame(self, read: Callable[[], Coroutine[Any, Any, tuple[str, list]]], held: int) -> tuple[str, list]:
        """The next frame for a spectator holding `held` entries, from the broadcast, while its
        connection is read (`read`) meanwhile: the connection's goodbye or end comes once what
        the broadcast brought before it is taken."""
        while True:
            if self.link_read is None:
                self.link_read = asyncio.ensure_future(read())
            if self.link_read.done():
                found = self.ready(held)
                if found is None:
                    read_now, self.link_read = self.link_read, None
                    return read_now.result()  # (a goodbye, the end: raised)
                return found
            cast = asyncio.ensure_future(self.next(held))
            done, _pending = await asyncio.wait({self.link_read, cast}, return_when=asyncio.FIRST_COMPLETED)
            if cast in done:
                return cast.result()
            cast.cancel()

    async def next(self, held: int) -> tuple[str, list]:
        """The next frame for a spectator holding `held` entries: (kind, fields), as the
        connection would have given it; an entry it holds already is passed over."""
        while True:
            found = self._frame(await self.heard.next(), held)
            if found is not None:
                return found

    def ready(self, held: int) -> tuple[str, list] | None:
        """As `next`, of what has come already (None: nothing more has)."""
        while (message := self.heard.ready()) is not None:
            found = self._frame(message, held)
            if found is not None:
                return found
        return None

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
        if self.link_read is not None:
            self.link_read.cancel()
            self.link_read = None
        self.heard.close()
