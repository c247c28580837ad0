"""The host's fan-out: every stored entry, and every other frame, to every connection.

`Relay` holds the stored entries as the frames relayed (`frames`: each reader reads them
from its own cursor, so a slow one costs the table nothing but its place in the list) and
each connection's queue of other frames (the handshake, `away`, the goodbye), bounded in
bytes; a reader too far behind, or with too much queued, is closed. It writes to each
connection at its pace (`writer`, one task each), seals what goes to one with a channel,
and says goodbye and closes (`close`), cutting within `close_seconds` one that does not
take the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from protocol import handshake as hs
from protocol.codec import frame
from protocol.errors import ProtocolError
from protocol.reasons import Reason

from ..engine_words import reason_words
from ..language import _
from .connection import Conn, Limits
from .fanout import Fanout


def coded(error: ProtocolError) -> Reason:
    """A protocol error as the reason sent to the peer: its code, or (an error the protocol
    gives only in English words: a frame that does not parse) `malformed` with those words."""
    return error.coded or Reason.of("malformed", detail=error.reason[:120])


class Relay:
    """Entries and frames to the connections in `conns` (the host's, by number); `say` is the console."""

    def __init__(self, limits: Limits, frames: list[bytes], conns: dict[int, Conn], say: Callable[[str], None]) -> None:
        self.limits, self.conns, self.say = limits, conns, say
        self.frames = frames
        """Every stored entry as the frame relayed to readers (each reads from its own cursor)."""
        self.told_away: tuple[int, ...] = ()  # the seats last said to have no connection
        self.fanout: Fanout | None = None  # the spectators' broadcast, through a carrier that fans out

    def publish(self, data: bytes) -> None:
        """A new stored entry, for every reader past its welcome (one still in its handshake
        starts from the stored entries), and once for the spectators on the broadcast; one too
        far behind is closed."""
        self.frames.append(frame(hs.entry(data)))
        if self.fanout is not None:
            self.fanout.send(hs.entry(data), len(self.frames))
        for conn in list(self.conns.values()):
            if conn.welcomed and not conn.closed and conn.until is None:
                if conn.behind(len(self.frames)) > self.limits.backlog:
                    self.close(conn, Reason.of("too-slow"))
                else:
                    conn.wake.set()

    def welcome(self, conn: Conn, table_id: bytes, start: int) -> None:
        """The connection's welcome; from then on it reads the stored entries from `start`. Called
        under the ordering's lock: no entry is relayed before the welcome, none twice."""
        stored = len(self.frames)
        self.send(conn, hs.welcome(table_id, -1 if conn.seat is None else conn.seat, stored - start))
        conn.cursor, conn.base = start, stored
        conn.returning = start > 0
        conn.welcomed = True
        if conn.role == "spectator" and self.fanout is not None:  # the rest by the broadcast
            conn.until = stored
            self.send(conn, hs.watch(self.fanout.key))
        conn.wake.set()

    def tell_away(self, away: tuple[int, ...]) -> bool:
        """Say to every connection past its welcome which seats are `away`, if that changed;
        True if it did."""
        if away == self.told_away:
            return False
        self.told_away = away
        if self.fanout is not None:
            self.fanout.send(hs.away(away), len(self.frames))
        for conn in list(self.conns.values()):
            if conn.welcomed and conn.until is None:
                self.send(conn, hs.away(away), status="away")
        return True

    def beat(self) -> None:
        """Who is away, said again on the broadcast (its spectators' sign that the host lives)."""
        if self.fanout is not None:
            self.fanout.send(hs.away(self.told_away), len(self.frames))

    def say_end(self, reason: Reason) -> None:
        """The table's end, to the spectators on the broadcast (before each connection's goodbye)."""
        if self.fanout is not None:
            self.fanout.send(hs.bye(reason), len(self.frames))

    def send(self, conn: Conn, data: bytes, status: str | None = None) -> None:
        """A frame that is not an entry (the handshake, the goodbye), after what it has been sent.
        `status` names a frame of which only the latest matters (`away`): one of that kind still
        queued is dropped for it. A reader with more than `queue_bytes` queued is closed."""
        if conn.closed:
            return
        if status is not None:
            for item in conn.queue:
                if item[2] == status:
                    conn.queue.remove(item)
                    conn.queued -= len(item[1])
                    break
        framed = frame(data)
        conn.queue.append((len(self.frames) if conn.welcomed else 0, framed, status))
        conn.queued += len(framed)
        if conn.queued > self.limits.queue_bytes:
            self.close(conn, Reason.of("too-slow"))
            return
        conn.wake.set()

    @staticmethod
    def _unqueue(conn: Conn) -> bytes:
        _, framed, _ = conn.queue.popleft()
        conn.queued -= len(framed)
        return framed

    async def writer(self, conn: Conn) -> None:
        """Write to one reader at its own pace: its frames, then the stored entries from its
        cursor on (a slow reader costs the table nothing but its place in the list). If writing
        fails for any reason but the connection's, it is said and the connection is closed
        (its client comes back): a writer never dies without a word."""
        try:
            await self._write(conn)
        except (ConnectionError, asyncio.CancelledError):
            return
        except Exception as error:  # our own bug: said, never a silent table
            self.failed(conn, error)

    def failed(self, conn: Conn, error: Exception) -> None:
        """Writing to `conn` failed on our side: say what failed, and close it (it may come back)."""
        what = f"{type(error).__name__}: {error}"
        self.say(_("could not relay to {conn}: {error}").format(conn=conn, error=what))
        self.close(conn, Reason.of("relay-failed"), quiet=True)

    async def _write(self, conn: Conn) -> None:
        """The writer's loop (`writer`)."""
        while True:
            if conn.until is not None and conn.cursor >= conn.until and not conn.queue:
                self._hand_over(conn)  # (everything else comes by the broadcast)
                return
            if conn.queue and conn.cursor >= min(conn.queue[0][0], self._end(conn)):
                data = self._unqueue(conn)  # the goodbye comes after the entries stored before it
            elif self._left_for(conn):
                data = self.frames[conn.cursor]
                conn.cursor += 1
            else:
                conn.wake.clear()
                await conn.wake.wait()
                continue
            conn.link.write(self._wire(conn, data))
            await conn.link.drain()

    def _hand_over(self, conn: Conn) -> None:
        """A spectator on the broadcast has its entries up to its welcome and the broadcast's key:
        its connection is let go (quietly: it was not lost), and the host keeps nothing of it,
        whatever the audience."""
        conn.closed = True
        conn.link.close()
        self.cut_later(conn)

    @staticmethod
    def _wire(conn: Conn, framed: bytes) -> bytes:
        """A frame as it goes to this connection: sealed once it has a channel. Sealed just
        before it is written, so each direction's frame counter follows the order on the wire."""
        if conn.channel is None:
            return framed
        return frame(conn.channel.seal(framed[4:]))

    def _left_for(self, conn: Conn) -> bool:
        return conn.welcomed and conn.cursor < self._end(conn)

    def _end(self, conn: Conn) -> int:
        """The stored entries this connection is to read (those past `until` go by the broadcast)."""
        return len(self.frames) if conn.until is None else min(conn.until, len(self.frames))

    def reading(self) -> int:
        """Connections past their handshake and still open (not those closed and not yet gone)."""
        return sum(1 for c in self.conns.values() if c.welcomed and not c.closed)

    def broadcast_readers(self) -> int:
        """Of those, the spectators whose entries come by the broadcast."""
        if self.fanout is None:
            return 0
        return sum(1 for c in self.conns.values() if c.welcomed and not c.closed and c.until is not None)

    async def flush(self, seconds: float) -> None:
        """Give the connections still open up to `seconds` to take what is queued for them."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(
            not c.closed and (c.queue or self._left_for(c) or c.link.buffered()) for c in self.conns.values()
        ):
            await asyncio.sleep(0.005)

    def close(
        self, conn: Conn, reason: Reason, refuse: bool = False, quiet: bool = False, busy: float | None = None
    ) -> None:
        """Say goodbye and close: `bye` (the client may come back), `refuse` (it may not), or with
        `busy`, a refusal for load: the client tries again that many seconds later. The reason
        goes as its code (the client writes it in its own language), and is said on the console
        in the host's."""
        if conn.closed:
            return
        if not quiet:
            if refuse:
                line = _("refusing {conn}: {reason}")
            elif busy is None:
                line = _("closing {conn}: {reason}")
            else:
                line = _("turning away {conn}: {reason}")
            self.say(line.format(conn=conn, reason=reason_words(reason)))
        if busy is not None:
            last = hs.busy(reason, busy)
        else:
            last = hs.refuse(reason) if refuse else hs.bye(reason)
        try:
            conn.link.write(self._wire(conn, frame(last)))
        except (ConnectionError, RuntimeError, ProtocolError):
            pass  # gone, or (a writer that failed: `failed`) not even the goodbye could be sealed
        conn.closed = True
        conn.link.close()
        self.cut_later(conn)

    def cut_later(self, conn: Conn) -> None:
        """A connection the host closes is gone within `close_seconds`, even if its reader never
        takes what was still buffered for it (closing waits for that). Only such a one waits:
        the others (nothing buffered) are closed already, and keep nothing alive meanwhile."""
        link = conn.link
        if link.is_closing() and not link.buffered():
            return
        with contextlib.suppress(RuntimeError):  # the loop is closing
            asyncio.get_running_loop().call_later(self.limits.close_seconds, link.abort)
