"""`briscola host`: one table on the network, over asyncio.

The host process runs the sans-IO `protocol.host.Host` (it orders and signs
entries), keeps the transcript file (each entry fsynced before it is
relayed), relays every entry to every connection, and runs its own computer
players in-process. Each connection first does the handshake
(`protocol/handshake.py`): a player proves the key it plays with and is
given a seat; a spectator only reads. Everything that can be slow or
hostile is bounded: connections (a small pool for those in their handshake,
with a share per address whatever it sends, and a slot for each seated key that
names itself in its hello; a seat's own key always gets back in), frame size,
the handshake, the message rate of each key (a spectator's: its address's,
kept across reconnections), each connection's queue of frames in bytes, and
each connection's backlog of entries to read. Nothing of a closed connection
stays (`stats` counts what is held; hidden `--stats-seconds` prints it).

`TableServer` assembles the host from its parts, and owns what joins them: it
listens, runs each connection from its handshake to its end, and, once the
table is over, waits for those that have not read the end. The parts:
`admission` (the handshake, the join code, who may connect), `relay` (entries
and frames to every connection), `ordering` (submissions into the transcript,
the host's computer players), `clock` (time-outs), and `connection` (a
connection and the limits on them all).

CPU-heavy protocol work (checking a shuffle, an audit, a computer player's
turn) runs in a worker thread, so the event loop keeps answering.
"""

from __future__ import annotations

import asyncio
import errno
import time
from collections.abc import Callable
from functools import partial

from engine.state import Action
from protocol import handshake as hs
from protocol import reasons
from protocol.codec import FrameReader, frame
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.events import Event
from protocol.host import Host
from protocol.local import replacement_seat
from protocol.reasons import Reason
from protocol.session import TableSession
from protocol.transcript import HOST

from ..files.storage import TranscriptFile
from ..language import _
from ..render import HEADLESS, render, seat_names
from ..wording import count
from .admission import Admission, GuessLimits
from .announcement import Announcement
from .announcing import Announcing
from .carrier import Carrier, Listening
from .clock import Clock
from .connection import Busy, Conn, Frames, Limits, read_frame
from .fanout import BEAT_SECONDS, Fanout
from .link import Link, listen_tcp
from .ordering import Bot, Ordering
from .relay import Relay, coded


class TableServer:
    """Serves one table until its series ends (or it is closed)."""

    def __init__(
        self,
        host: Host,
        log: TranscriptFile,
        *,
        code: str | None,
        bots: dict[int, Bot],
        time_limit: float | None,
        replace_with_bot: Callable[..., Action] | None,
        hands: int | None,
        replacement: Callable[[int, list[bytes]], tuple[TableSession, list[bytes]]] = replacement_seat,
        say: Callable[[str], None],
        limits: Limits | None = None,
        guesses: GuessLimits | None = None,
    ) -> None:
        self.host, self.log, self.bots, self.hands, self.say = host, log, bots, hands, say
        self.tell = lambda event: self.say(render(event, HEADLESS, self.names()))  # an event, in words
        self.limits = limits or Limits()
        self.conns: dict[int, Conn] = {}
        assert host.transcript is not None  # (opened, or taken up again from its file)
        self.frames: list[bytes] = [frame(hs.entry(e.encode())) for e in host.transcript.entries]
        """Every stored entry as the frame relayed to readers (each reads from its own cursor)."""
        self.relay = Relay(self.limits, self.frames, self.conns, self._say)
        reserved: dict[int, Conn] = {}  # seat -> the connection that will join it
        self.ordering = Ordering(
            host,
            log,
            self.relay,
            bots=bots,
            hands=hands,
            replace_with_bot=replace_with_bot,
            replacement=replacement,
            reserved=reserved,
            say=self._say,
            tell=self._tell,
            tell_away=self._tell_away,
        )
        self.admission = Admission(
            host,
            self.relay,
            code=code,
            limits=self.limits,
            guesses=guesses or GuessLimits(),
            bots=bots,
            reserved=reserved,
            lock=self.ordering.lock,
            say=self._say,
            tell_away=self._tell_away,
        )
        self.clock = Clock(self.ordering, time_limit)
        self.closing = False  # the host is stopping: connections still being accepted are cut
        self.numbers = 0
        self.handlers: set[asyncio.Task] = set()  # one per connection, awaited before `run` returns
        self.collected: set[int] = set()  # seats whose client said bye holding the table's end
        self.watchers_away = 0  # spectators whose connection was lost while the table was played
        self.said_bye = asyncio.Event()  # set when a seat joins `collected` (or a spectator is back)
        self.announcing: Announcing | None = None  # the table's announcement on the LAN (None: not announced)
        self.carrier: Carrier | None = None  # what carries its connections, if not TCP (a club)

    @property
    def session(self) -> TableSession:
        return self.host.session

    def names(self) -> tuple[str, ...]:
        """The seats' names as the transcript gives them ("seat N" for a seat not taken yet)."""
        session = self.session
        return seat_names(session.names, session.players)

    def _say(self, line: str) -> None:
        """`say`, looked up when a part speaks: tables/network.py sets `say` and `tell` once the
        table is on the screen."""
        self.say(line)

    def _tell(self, event: Event) -> None:
        self.tell(event)

    # --- serving ------------------------------------------------------------------

    async def run(
        self,
        bind: str,
        port: int,
        on_listen: Callable[[list[tuple[str, int]]], None] | None = None,
        fallback: bool = False,
    ) -> int:
        """Serve the table on `bind`:`port` until it ends; its exit status. `fallback`: `port` is
        the one a table taken up listened on before, and another is taken (and said) if it is not free."""
        server: asyncio.Server | Listening
        if self.carrier is not None:  # (through a club: no port of its own)
            server = await self.carrier.listen(self._connected, self.host.table_id.hex())
            publish = await self.carrier.broadcast(self.host.table_id.hex())
            self.relay.fanout = Fanout(publish, self.host.table_id)  # the spectators: one message each, for all
            addresses = []
        else:
            server = await self._listen(bind, port, fallback)
            addresses = [s.getsockname() for s in server.sockets]
        if on_listen is not None:
            on_listen(addresses)
        clock = asyncio.create_task(self.clock.run())
        clock.add_done_callback(self._clock_stopped)
        stats = asyncio.create_task(self._print_stats()) if self.limits.stats_seconds else None
        announcing = self._announce(addresses[0][1] if addresses else 0)
        beat = asyncio.create_task(self._beat()) if self.relay.fanout is not None else None
        await self.ordering.start_bots()
        try:
            await self.ordering.finished.wait()
            await _stopped(announcing)  # (withdrawn: the table takes nobody now)
            await self._linger()
        finally:
            await _stopped(announcing)
            clock.cancel()
            if beat is not None:
                beat.cancel()
            if stats is not None:
                stats.cancel()
            self.admission.say_guesses()  # what the next report would have said
            self.relay.say_end(self._ending())
            for conn in list(self.conns.values()):
                self.relay.send(conn, hs.bye(self._ending()))
            await self.relay.flush(0.5)
            server.close()
            self.closing = True  # a connection accepted from now on is cut at once
            for conn in list(self.conns.values()):
                conn.closed = True  # the host ends it: its handler does not report it as lost
                conn.link.abort()  # after `flush`: what a stalled reader did not take is dropped
            await self._handlers_done(1.0)
        cheat = any(v.cheats for v in self.session.verdicts)  # one evicted (--bots-replace) and the table went on
        return 0 if self.session.phase == "over" and not cheat else 3

    def _announce(self, port: int) -> asyncio.Task | None:
        """Announce the table on the LAN while it takes players (`announcing.py`)."""
        announcing = self.announcing
        if announcing is None:
            return None
        now = partial(self._announcement, announcing, port)
        if self.carrier is not None:  # (listed by the club, not on the LAN)
            return asyncio.create_task(self.carrier.announce(now, self.host.identity, self._say))
        return asyncio.create_task(announcing.run(now, self.host.identity))

    def _announcement(self, announcing: Announcing, port: int) -> Announcement:
        watching = sum(1 for conn in self.conns.values() if conn.role == "spectator")
        return announcing.announcement(
            self.session, self.host.table_id, self.host.identity.public_bytes, port, watching
        )

    async def _listen(self, bind: str, port: int, fallback: bool) -> asyncio.Server:
        limits = self.limits
        listen = partial(listen_tcp, self._connected, backlog=limits.listen_backlog, send_buffer=limits.send_buffer)
        try:
            return await listen(bind, port)
        except OSError as error:
            if not fallback or error.errno != errno.EADDRINUSE:
                raise
        server = await listen(bind, 0)
        line = _(
            "port {port} is taken now: listening on port {new} instead; the players' seats are kept, "
            "and they come back by joining the new address (below)"
        )
        self.say(line.format(port=port, new=server.sockets[0].getsockname()[1]))
        return server

    async def _beat(self) -> None:
        """Who is away, on the broadcast every BEAT_SECONDS (its spectators hold no connection)."""
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            self.relay.beat()

    def _clock_stopped(self, clock: asyncio.Task) -> None:
        """The clock ended by an error (it runs until cancelled): said, never a silent table."""
        if not clock.cancelled() and clock.exception() is not None:
            error = clock.exception()
            self.say(
                _("the clock stopped (no more time-outs): {error}").format(error=f"{type(error).__name__}: {error}")
            )

    async def _handlers_done(self, seconds: float) -> None:
        """Let each connection's handler end by itself (its reader sees the close), rather than
        be cancelled when the loop stops."""
        current = asyncio.current_task()
        left = [t for t in self.handlers if t is not current and not t.done()]
        if left:
            await asyncio.wait(left, timeout=seconds)

    async def _linger(self) -> None:
        """The table is over, but a seat whose connection dropped near the end (or that was
        restarted then, or that finds a restarted host already done) has not read its last
        entries, nor has a spectator whose connection was lost while the table was played.
        Keep serving until every seat played from afar has said bye after the end (a client
        says it once it holds the end), and as many spectators coming back as were lost, for
        `linger_seconds` at most."""
        deadline = time.monotonic() + self.limits.linger_seconds
        remote = {s for s in range(self.session.players) if s not in self.bots}
        told = False
        while (not remote <= self.collected or self.watchers_away) and time.monotonic() < deadline:
            if not told and time.monotonic() > deadline - self.limits.linger_seconds + 1:
                line = _("waiting up to {seconds:g} s for {missing} to read the end")
                self.say(line.format(seconds=self.limits.linger_seconds, missing=self._missing(remote)))
                told = True
            self.said_bye.clear()
            try:
                await asyncio.wait_for(self.said_bye.wait(), 0.25)
            except TimeoutError:
                pass

    def _missing(self, remote: set[int]) -> str:
        missing = [_("seat {seat}").format(seat=s) for s in sorted(remote - self.collected)]
        if self.watchers_away:
            missing.append(count(self.watchers_away, "spectator"))
        return _(" and ").join(missing)

    def _ending(self) -> Reason:
        """Why the table ends, in the bye to every connection: a code, which each client writes
        in its own language."""
        session = self.session
        if session.closed:
            return reasons.read(session.closed) or Reason.of("host-closed")  # (why: the close entry says)
        if session.phase == "over" and session.series is not None:
            return Reason.of("series-over", scores=" ".join(map(str, session.series.scores)))
        return Reason.of("table-stopped")

    async def _connected(self, link: Link) -> None:
        handler = asyncio.current_task()
        if handler is not None:
            self.handlers.add(handler)
            handler.add_done_callback(self.handlers.discard)  # however it ends (a refusal too), it is let go
        if self.closing:  # accepted as the host stops (its handler would outlive the loop)
            link.abort()
            return
        self.numbers += 1
        frames = Frames()
        conn = Conn(self.numbers, link, address=link.peer)
        conn.opened, conn.frames = time.monotonic(), frames
        admission = self.admission
        try:
            admission.enter(conn)
        except Busy as busy:
            admission.busy(conn, busy)
            return
        self.conns[conn.number] = conn
        writer_task = asyncio.create_task(self.relay.writer(conn))
        try:
            try:
                await asyncio.wait_for(admission.handshake(conn, frames), self.limits.handshake_seconds)
            except Busy as busy:  # the pool of connections is full, or this key is kept out for now
                admission.busy(conn, busy, quiet=conn.seat is None)
                return
            except ProtocolError as refusal:
                # A wrong code, a seat taken, a bad proof, bytes that are no hello: say "refuse", which
                # the client does not retry (a "bye" would have it reconnect again and again).
                admission.refused(conn, refusal)
                return
            await self._serve(conn, frames)
        except TimeoutError:
            self.relay.close(conn, Reason.of("no-handshake"))
        except (ProtocolError, ConnectionError, asyncio.IncompleteReadError) as error:
            self._count_watcher_away(conn, error)
            reason = coded(error) if isinstance(error, ProtocolError) else Reason.of("connection-lost")
            # One lost in its handshake is not said: an outsider's connections would fill the console.
            lost_early = not conn.welcomed and not isinstance(error, ProtocolError)
            self.relay.close(conn, reason, quiet=lost_early)
        finally:
            self.conns.pop(conn.number, None)
            admission.leave(conn)
            self._tell_away()
            await asyncio.sleep(0)
            writer_task.cancel()
            link.close()
            self.relay.cut_later(conn)

    def away(self) -> tuple[int, ...]:
        """The seats a player holds (not one of the host's computer players) with no connection."""
        connected = {c.seat for c in self.conns.values() if c.welcomed and not c.closed}
        return tuple(
            seat
            for seat in sorted(self.session.keys)
            if seat != HOST and seat not in self.bots and seat not in connected
        )

    def _tell_away(self) -> bool:
        """Say to every connection which seats are away, if that changed (not once the table is
        over); True if it did."""
        if self.session.phase in ("over", "aborted"):
            return False
        return self.relay.tell_away(self.away())

    def _count_watcher_away(self, conn: Conn, error: Exception) -> None:
        """A spectator lost its connection (not closed by the host, not for breaking the
        protocol) while the table was still played: the end waits for one to come back."""
        if (
            conn.role == "spectator"
            and conn.welcomed
            and not conn.closed
            and not isinstance(error, ProtocolError)
            and self.session.phase not in ("over", "aborted")
        ):
            self.watchers_away += 1

    def stats(self) -> str:
        """What the host holds for its connections, in one line."""
        conns = list(self.conns.values())
        reading = self.relay.reading()
        handshaking = self.admission.in_handshake
        return (
            f"stats: {reading} connections past the handshake, {handshaking} in it, "
            f"{len(conns) - reading - handshaking} closing; {len(self.handlers)} handlers; "
            f"{sum(c.queued for c in conns)} bytes queued (at most {max((c.queued for c in conns), default=0)} "
            f"for one); {len(self.admission.rates)} rate buckets; {self.admission.load_refusals} refused or closed "
            "for load"
        )

    async def _print_stats(self) -> None:
        while True:
            await asyncio.sleep(self.limits.stats_seconds or 1.0)
            self.say(self.stats())

    # --- after the handshake -------------------------------------------------------------

    async def _serve(self, conn: Conn, frames: FrameReader) -> None:
        while not conn.closed:
            kind, fields = hs.parse(await read_frame(conn.link, frames, conn))
            if kind == "bye":
                if self.session.phase in ("over", "aborted"):
                    self._collect(conn)
                return
            if kind != "submit":
                raise RemoteProtocolError(Reason.of("after-handshake", kind=repr(kind[:20])))
            if conn.role != "player":
                raise RemoteProtocolError(Reason.of("spectator-message"))
            self.admission.rate(conn)
            async with self.ordering.lock:
                await self.ordering.order(conn, fields[0])

    def _collect(self, conn: Conn) -> None:
        """A client said bye holding the table's end: a seat, or a spectator that came back."""
        if conn.seat is not None:
            self.collected.add(conn.seat)
        elif conn.returning and self.watchers_away:
            self.watchers_away -= 1
        self.said_bye.set()


async def _stopped(task: asyncio.Task | None) -> None:
    """`task` cancelled and its end awaited (a few seconds at most: a goodbye to send)."""
    if task is not None and not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=3.0)
