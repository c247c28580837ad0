"""`briscola host`: one table on the network, over asyncio.

The host process runs the sans-IO `protocol.host.Host` (it orders and signs
entries), keeps the transcript file (each entry fsynced before it is
relayed), relays every entry to every connection, and runs its own computer
players in-process. Each connection first does the handshake
(`protocol/handshake.py`): a player proves the key it plays with and is
given a seat; a spectator only reads. Everything that can be slow or
hostile is bounded: connections, frame size, the handshake, a per-connection
message rate, and each connection's backlog of entries to read.

CPU-heavy protocol work (checking a shuffle, an audit, a computer player's
turn) runs in a worker thread, so the event loop keeps answering.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import random
import secrets
import socket
import time
from collections import Counter, deque
from dataclasses import dataclass, field

from protocol import handshake as hs
from protocol.channel import WRONG_CODE, Channel, Exchange, Tampered, WrongCode
from protocol.codec import MAX_FRAME, FrameReader, frame
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.host import Dropped, Host
from protocol.local import replacement_seat
from protocol.session import TableSession
from protocol.transcript import HOST, Signed, entry_hash, parse_header

from ..wording import count
from .thinking import think

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


@dataclass
class Limits:
    max_connections: int = 256
    send_buffer: int = 32_768  # the kernel's send buffer for one connection (and as much again buffered
    # by asyncio): past that a stalled reader's cursor stops, and `backlog` counts how far behind it falls
    handshake_seconds: float = 10.0
    messages_per_second: float = 50.0
    burst: int = 400
    backlog: int = 5_000  # new entries one reader may be behind before it is dropped as too slow
    linger_seconds: float = (
        10.0  # once the table is over, how long a seat that is away may take to come back for its end
    )


@dataclass
class GuessLimits:
    """How fast one address may try join codes: `free` wrong codes at once, then one more
    each `seconds` (a token bucket; a right code gives its token back). Wrong codes are not
    said one by one on the console: the first is, then `report_seconds` later one line sums
    up every wrong code and refused try since it."""

    free: int = 5
    seconds: float = 10.0
    report_seconds: float = 60.0
    addresses: int = 4096  # the most addresses remembered at once (those with tries left are forgotten first)


class TooManyGuesses(RemoteProtocolError):
    """This address has no try left for now."""


class Guesses:
    """Wrong join codes per source address: IPv4 addresses one by one, IPv6 by /64 (one
    host's share of a network), so an attacker with many addresses of one network is one source."""

    def __init__(self, limits: GuessLimits, clock=time.monotonic):
        self.limits = limits
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # source -> (tries left, when counted)
        self.wrong: Counter = Counter()  # wrong codes since the last report, per source
        self.held = 0  # tries refused since the last report (no try left)
        self.told = False  # the first wrong code since the last report was said at once

    @staticmethod
    def source(peer) -> str:
        try:
            address = ipaddress.ip_address(peer[0].split("%")[0])
        except (TypeError, ValueError, IndexError):
            return "?"
        if isinstance(address, ipaddress.IPv6Address):
            if address.ipv4_mapped is not None:
                return str(address.ipv4_mapped)
            return str(ipaddress.IPv6Network((address, 64), strict=False))
        return str(address)

    def _tries(self, source: str) -> float:
        tries, stamp = self.buckets.get(source, (float(self.limits.free), 0.0))
        now = self.clock()
        return min(float(self.limits.free), tries + (now - stamp) / self.limits.seconds)

    def wait(self, source: str) -> float:
        """Seconds until `source` may try a code (0: now)."""
        tries = self._tries(source)
        return 0.0 if tries >= 1 else (1 - tries) * self.limits.seconds

    @property
    def pending(self) -> bool:
        """Something to sum up at the next report."""
        return bool(self.wrong or self.held)

    def hold(self, source: str) -> str:
        """A try refused: `source` has none left. The refusal's reason."""
        self.held += 1
        return f"too many wrong codes from your address; wait {math.ceil(self.wait(source))} s"

    def take(self, source: str) -> bool:
        """Spend one try of `source` (before its code is checked); False if none is left."""
        tries = self._tries(source)
        if tries < 1:
            return False
        if source not in self.buckets and len(self.buckets) >= self.limits.addresses:
            self._forget()
        self.buckets[source] = (tries - 1, self.clock())
        return True

    def give_back(self, source: str) -> None:
        """The code was right: that try is not counted."""
        if source in self.buckets:
            tries = self._tries(source) + 1
            if tries >= self.limits.free:
                del self.buckets[source]
            else:
                self.buckets[source] = (tries, self.clock())

    @property
    def window(self) -> str:
        seconds = self.limits.report_seconds
        return "a minute" if seconds == 60 else f"{seconds:g} s"

    def wrong_code(self, source: str) -> str | None:
        """Count a wrong code; the line to say now if it is the first since the last report
        (the others wait for the report)."""
        self.wrong[source] += 1
        if self.told:
            return None
        self.told = True
        return f"a wrong join code from {source} (any more are summed up in {self.window})"

    def _forget(self) -> None:
        """Room for one more source: forget those with every try back, else the one with the most."""
        self._forget_full()
        if len(self.buckets) >= self.limits.addresses:
            del self.buckets[max(self.buckets, key=self._tries)]

    def report(self) -> str | None:
        """One line for the wrong codes and refused tries since the last report (None if there
        were none, or only the wrong code said at once)."""
        wrong, held, self.wrong, self.held = self.wrong, self.held, Counter(), 0
        told, self.told = self.told, False
        self._forget_full()
        total = sum(wrong.values())
        if not held and total <= (1 if told else 0):  # nothing, or only the one said at once
            return None
        window = "minute" if self.limits.report_seconds == 60 else self.window
        code = "wrong join code" if total == 1 else "wrong join codes"
        if len(wrong) == 1:
            [(source, n)] = wrong.items()
            line = f"{n} {code} from {source} in the last {window}"
        elif wrong:
            top = wrong.most_common(3)
            line = f"{total} {code} in the last {window}: " + ", ".join(f"{n} from {s}" for s, n in top)
            if len(wrong) > 3:
                line += f" and {total - sum(n for _, n in top)} from {len(wrong) - 3} other addresses"
        else:
            return f"{count(held, 'try', 'tries')} refused in the last {window}: too many wrong codes"
        if held:
            line += f"; {count(held, 'more try', 'more tries')} refused (too many wrong codes)"
        return line

    def _forget_full(self) -> None:
        for source in [s for s in self.buckets if self._tries(s) >= self.limits.free]:
            del self.buckets[source]


@dataclass
class Conn:
    """One network connection, and what it has proved."""

    number: int
    writer: asyncio.StreamWriter
    role: str = "?"
    seat: int | None = None
    key: bytes = b""
    channel: Channel | None = None  # after the key exchange: every frame either way is sealed
    queue: deque = field(default_factory=deque)  # (entries written first, frame): the handshake, the goodbye
    tokens: float = 0.0
    stamp: float = 0.0
    closed: bool = False
    welcomed: bool = False  # it has its welcome: it reads the stored entries from its cursor on
    returning: bool = False  # it came back holding part of the transcript (it resumes, not starts)
    cursor: int = 0  # the next stored entry to write to it
    base: int = 0  # the entries stored when it was welcomed (its catch-up is not held against it)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def behind(self, stored: int) -> int:
        """New entries this reader has not taken yet."""
        return stored - max(self.cursor, self.base)

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else self.role
        return f"connection {self.number} ({who})"


@dataclass
class Bot:
    """A computer player the host runs itself."""

    session: TableSession
    player: object
    rng: random.Random
    owed: list = field(default_factory=list)  # what it must send once the table runs (after a restart)


BOT_NAMES = "a name such as cpu1 (cpu and a digit) is kept for the host's computer players: choose another"


def bot_name(seat: int) -> str:
    """The name of a computer player the host runs: short enough for the table's seat column."""
    return f"cpu{seat}"


def is_bot_name(name: str) -> bool:
    """A name kept for the host's computer players (a person may not take one: the
    lobby shows such a seat as a computer player)."""
    name = name.strip()
    return len(name) == 4 and name[:3].lower() == "cpu" and name[3].isdigit()


def _joins_as_a_bot(message: bytes) -> bool:
    """A join message (from a connection, not the host's own players) under a bot's name."""
    try:
        header, body = parse_header(Signed.decode(message).payload)
    except ProtocolError:
        return False  # the host drops it, naming the connection
    return header.kind == "join" and len(body) > 1 and isinstance(body[1], str) and is_bot_name(body[1])


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


class TableServer:
    """Serves one table until its series ends (or it is closed)."""

    def __init__(
        self,
        host: Host,
        log,
        *,
        code: str | None,
        bots: dict[int, Bot],
        time_limit: float | None,
        replace_with_bot: object | None,
        hands: int | None,
        say,
        limits: Limits | None = None,
        guesses: GuessLimits | None = None,
    ):
        self.host, self.log, self.code = host, log, code
        self.bots = bots
        self.time_limit = time_limit
        self.replace_with_bot = replace_with_bot  # a player function, or None
        self.hands = hands
        self.say = say
        self.limits = limits or Limits()
        self.guesses = Guesses(guesses or GuessLimits())
        self.report: asyncio.TimerHandle | None = None  # when the wrong codes are summed up next
        self.conns: dict[int, Conn] = {}
        self.reserved: dict[int, Conn] = {}  # seat -> the connection that will join it
        self.numbers = 0
        self.lock = asyncio.Lock()
        self.finished = asyncio.Event()
        self.waiting_since = time.monotonic()
        self.pending: deque = deque()
        self.handlers: set[asyncio.Task] = set()  # one per connection, awaited before `run` returns
        self.frames: list[bytes] = [frame(hs.entry(e.encode())) for e in host.transcript.entries]
        """Every stored entry as the frame relayed to readers (each reads from its own cursor)."""
        self.told_away: tuple[int, ...] = ()  # the seats last said to have no connection
        self.collected: set[int] = set()  # seats whose client said bye holding the table's end
        self.watchers_away = 0  # spectators whose connection was lost while the table was played
        self.said_bye = asyncio.Event()  # set when a seat joins `collected` (or a spectator is back)

    @property
    def session(self) -> TableSession:
        return self.host.session

    # --- serving ------------------------------------------------------------------

    async def run(self, bind: str, port: int, on_listen=None) -> int:
        server = await asyncio.start_server(self._connected, bind, port, limit=MAX_FRAME + 4)
        addresses = [s.getsockname() for s in server.sockets]
        if on_listen is not None:
            on_listen(addresses)
        clock = asyncio.create_task(self._clock())
        await self.start_bots()
        try:
            await self.finished.wait()
            await self._linger()
        finally:
            clock.cancel()
            self._say_guesses()  # what the next report would have said
            for conn in list(self.conns.values()):
                self._send(conn, hs.bye(self._ending()))
            await self._flush(0.5)
            server.close()
            for conn in list(self.conns.values()):
                conn.closed = True  # the host ends it: its handler does not report it as lost
                conn.writer.transport.abort()  # after `_flush`: what a stalled reader did not take is dropped
            await self._handlers_done(1.0)
        return 0 if self.session.phase == "over" else 3

    async def _handlers_done(self, seconds: float) -> None:
        """Let each connection's handler end by itself (its reader sees the close), rather than
        be cancelled when the loop stops."""
        current = asyncio.current_task()
        left = [t for t in self.handlers if t is not current and not t.done()]
        if left:
            await asyncio.wait(left, timeout=seconds)

    async def _flush(self, seconds: float) -> None:
        """Give the connections still open up to `seconds` to take what is queued for them."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(
            not c.closed and (c.queue or self._left_for(c) or c.writer.transport.get_write_buffer_size())
            for c in self.conns.values()
        ):
            await asyncio.sleep(0.005)

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
                self.say(f"waiting up to {self.limits.linger_seconds:g} s for {self._missing(remote)} to read the end")
                told = True
            self.said_bye.clear()
            try:
                await asyncio.wait_for(self.said_bye.wait(), 0.25)
            except TimeoutError:
                pass

    def _missing(self, remote: set[int]) -> str:
        missing = [f"seat {s}" for s in sorted(remote - self.collected)]
        if self.watchers_away:
            missing.append(count(self.watchers_away, "spectator"))
        return " and ".join(missing)

    def _ending(self) -> str:
        session = self.session
        if session.closed:
            return f"the host closed the table: {session.closed}"
        if session.phase == "over":
            return f"the series is over; scores {session.series.scores}"
        return "the table stopped"

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.numbers += 1
        conn = Conn(self.numbers, writer, tokens=self.limits.burst, stamp=time.monotonic())
        self.handlers.add(asyncio.current_task())
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        writer.transport.set_write_buffer_limits(high=self.limits.send_buffer)
        if len(self.conns) >= self.limits.max_connections:
            await self._refuse(conn, "the host has too many connections")
            return
        self.conns[conn.number] = conn
        frames = FrameReader()
        writer_task = asyncio.create_task(self._writer(conn))
        try:
            try:
                await asyncio.wait_for(self._handshake(conn, reader, frames), self.limits.handshake_seconds)
            except ProtocolError as refusal:
                # A wrong code, a seat taken, a bad proof, bytes that are no hello: say "refuse", which
                # the client does not retry (a "bye" would have it reconnect again and again).
                self._refused(conn, refusal)
                return
            await self._serve(conn, reader, frames)
        except TimeoutError:
            self._close(conn, "no handshake in time")
        except (ProtocolError, ConnectionError, asyncio.IncompleteReadError) as error:
            self._count_watcher_away(conn, error)
            self._close(conn, getattr(error, "reason", None) or "connection lost")
        finally:
            self.conns.pop(conn.number, None)
            for seat, holder in list(self.reserved.items()):
                if holder is conn:
                    del self.reserved[seat]
            self._tell_away()
            await asyncio.sleep(0)
            writer_task.cancel()
            writer.close()
            self.handlers.discard(asyncio.current_task())

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
        away = self.away()
        if away == self.told_away or self.session.phase in ("over", "aborted"):
            return False
        self.told_away = away
        for conn in list(self.conns.values()):
            if conn.welcomed:
                self._send(conn, hs.away(away))
        return True

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

    async def _read_frame(self, reader, frames: FrameReader, conn: Conn | None = None) -> bytes:
        """The next frame's payload; opened (its integrity checked) once `conn` has a channel."""
        while True:
            data = frames.next_frame()
            if data is not None:
                if conn is not None and conn.channel is not None:
                    return conn.channel.open(data)
                return data
            chunk = await reader.read(65536)
            if not chunk:
                raise ConnectionError("closed")
            frames.feed(chunk)

    async def _refuse(self, conn: Conn, reason: str) -> None:
        try:
            conn.writer.write(frame(hs.refuse(reason)))
            await conn.writer.drain()
        except ConnectionError:
            pass
        conn.writer.close()

    # --- the handshake ---------------------------------------------------------------

    async def _handshake(self, conn: Conn, reader, frames: FrameReader) -> None:
        kind, fields = hs.parse(await self._read_frame(reader, frames))
        if kind != "hello":
            raise RemoteProtocolError("a connection starts with hello")
        source = self.guesses.source(conn.writer.get_extra_info("peername"))
        if self.guesses.wait(source) > 0:  # before any work: a guesser out of tries costs nothing
            raise self._held(source)
        table_id = self.host.table_id
        exchange = await asyncio.to_thread(self._exchange, fields[1], table_id)
        conn.writer.write(frame(hs.exchange(table_id, exchange.message)))  # in the clear, as the confirmations
        kind, fields = hs.parse(await self._read_frame(reader, frames))
        if kind != "confirm":
            raise RemoteProtocolError("expected the key confirmation")
        if not self.guesses.take(source):  # one try per code checked, taken before it is checked
            raise self._held(source)
        try:
            exchange.check(fields[0])
        except WrongCode:
            if (line := self.guesses.wrong_code(source)) is not None:
                self.say(line)
            self._report_later()
            hint = " (this table is open: join it without --code)" if self.code is None else ""
            raise WrongCode(WRONG_CODE + hint) from None
        self.guesses.give_back(source)
        conn.writer.write(frame(hs.confirm(exchange.confirmation())))
        conn.channel = exchange.channel()  # every frame from now on, either way, is sealed
        kind, fields = hs.parse(await self._read_frame(reader, frames, conn))
        if kind != "request":
            raise RemoteProtocolError("expected the client's request")
        hello = hs.parse_hello(fields)
        conn.role = hello.role
        if hello.role == "player" and is_bot_name(hello.name):
            raise RemoteProtocolError(f"{hello.name!r}: {BOT_NAMES}")
        if hello.role == "player":
            nonce = secrets.token_bytes(hs.NONCE_LEN)
            self._send(conn, hs.challenge(nonce))
            kind, fields = hs.parse(await self._read_frame(reader, frames, conn))
            if kind != "proof":
                raise RemoteProtocolError("expected the handshake proof")
            hs.check_proof(hello.key, nonce, table_id, exchange.transcript, fields[0])
            conn.key = hello.key
            conn.seat = self._assign(conn, hello)
        start = self._resume_point(hello)
        async with self.lock:
            stored = len(self.frames)
            self._send(conn, hs.welcome(table_id, -1 if conn.seat is None else conn.seat, stored - start))
            conn.cursor, conn.base = start, stored
            conn.returning = start > 0
            conn.welcomed = True  # under the lock: no entry is relayed before the welcome, none twice
            conn.wake.set()
        self.say(f"{conn} joined" + (f" as {hello.name!r}" if hello.name else ""))
        if not self._tell_away():  # to everyone when it changed; else to this one, which has not heard it
            self._send(conn, hs.away(self.told_away))

    def _exchange(self, theirs: bytes, table_id: bytes) -> Exchange:
        """The host's side of SPAKE2 over the join code (a worker thread: it is pure Python, a few ms)."""
        exchange = Exchange("host", self.code or "")
        exchange.finish(theirs, table_id, hs.VERSION)
        return exchange

    def _refused(self, conn: Conn, error: ProtocolError) -> None:
        """A handshake that failed: refused (the client gives up), but a frame that failed its
        integrity check is only closed (someone on the way changed it: the client may come back).
        Wrong codes are not said one by one: `_report_later` sums them up."""
        if isinstance(error, Tampered):
            self._close(conn, error.reason)
        else:
            self._close(conn, error.reason, refuse=True, quiet=isinstance(error, WrongCode | TooManyGuesses))

    def _held(self, source: str) -> TooManyGuesses:
        refusal = TooManyGuesses(self.guesses.hold(source))
        self._report_later()
        return refusal

    def _report_later(self) -> None:
        """The first wrong code or refused try since the last report: the next report is due
        `report_seconds` from now."""
        if self.report is None and self.guesses.pending:
            self.report = asyncio.get_running_loop().call_later(self.guesses.limits.report_seconds, self._say_guesses)

    def _say_guesses(self) -> None:
        if self.report is not None:
            self.report.cancel()
            self.report = None
        line = self.guesses.report()
        if line is not None:
            self.say(line)

    def _assign(self, conn: Conn, hello) -> int:
        """The seat this key holds, or a free one (the one asked for if free)."""
        session = self.session
        for seat, key in session.keys.items():
            if key == hello.key and seat != HOST:
                self._drop_other(seat, conn)
                return seat
        for seat, holder in list(self.reserved.items()):
            if holder is not conn and holder.key == hello.key:
                # Its join was not ordered yet, and its older connection is stale (a drop the host
                # has not noticed): the seat stays this key's.
                self._close(holder, "the same key connected again")
                self.reserved[seat] = conn
                return seat
        taken = set(session.keys) | set(self.bots) | set(self.reserved)
        if session.phase == "join":
            free = [s for s in range(session.players) if s not in taken]
        elif session.phase == "seating" and session.rules.get("retake"):
            free = [s for s in sorted(session.absent) if s not in self.reserved and s not in self.bots]
        else:
            free = []
        if not free:
            raise RemoteProtocolError("no seat is free at this table (watch it instead)")
        if hello.seat >= 0 and hello.seat not in free:
            raise RemoteProtocolError(f"seat {hello.seat} is taken")
        seat = hello.seat if hello.seat >= 0 else free[0]
        self.reserved[seat] = conn
        return seat

    def _drop_other(self, seat: int, conn: Conn) -> None:
        """A seat's key connects again: its older connection is stale."""
        for other in list(self.conns.values()):
            if other is not conn and other.seat == seat:
                self._close(other, "the same key connected again")

    def _resume_point(self, hello) -> int:
        entries = self.host.transcript.entries
        if 0 < hello.have <= len(entries) and entry_hash(entries[hello.have - 1]) == hello.head:
            return hello.have
        return 0

    # --- after the handshake -------------------------------------------------------------

    async def _serve(self, conn: Conn, reader, frames: FrameReader) -> None:
        while not conn.closed:
            kind, fields = hs.parse(await self._read_frame(reader, frames, conn))
            if kind == "bye":
                if self.session.phase in ("over", "aborted"):
                    self._collect(conn)
                return
            if kind != "submit":
                raise RemoteProtocolError(f"{kind} after the handshake")
            if conn.role != "player":
                raise RemoteProtocolError("a spectator cannot send game messages")
            self._rate(conn)
            async with self.lock:
                await self._order(conn, fields[0])

    def _collect(self, conn: Conn) -> None:
        """A client said bye holding the table's end: a seat, or a spectator that came back."""
        if conn.seat is not None:
            self.collected.add(conn.seat)
        elif conn.returning and self.watchers_away:
            self.watchers_away -= 1
        self.said_bye.set()

    def _rate(self, conn: Conn) -> None:
        now = time.monotonic()
        conn.tokens = min(self.limits.burst, conn.tokens + (now - conn.stamp) * self.limits.messages_per_second)
        conn.stamp = now
        if conn.tokens < 1:
            raise RemoteProtocolError("too many messages")
        conn.tokens -= 1

    async def _order(self, conn: Conn | None, signed: bytes) -> None:
        """Order one message, then whatever the host's own players answer."""
        self.pending.append((conn, signed))
        await self._drain()

    async def _drain(self) -> None:
        """Order every pending message and let the host's players move, until
        nothing is left to do; then see whether the table is over.

        Whether it is over is seen first, too: a host restarted (or a time-out entered)
        right after a hand's last reveal closes a table started for that many hands before
        it orders anything of the next hand."""
        await self._check_end()
        while not self.finished.is_set():
            while self.pending and not self.finished.is_set():
                await self._replace_absent()  # before a player's own key could take its seat back
                source, message = self.pending.popleft()
                await self._submit(source, message)
            if self.finished.is_set():
                break
            for bot in self.bots.values():
                if bot.session.my_turn():
                    action = await think(bot.player, bot.session.seat_view(), bot.rng)
                    self.pending.extend((None, m) for m in bot.session.act(action).messages)
            if not self.pending:
                break
        await self._check_end()
        if self.finished.is_set():
            self.pending.clear()  # the table is over: nothing more is ordered

    async def _submit(self, source: Conn | None, message: bytes) -> None:
        if source is not None and not self._signed_by(source, message):
            self._close(source, "a message signed by another key than the one this connection proved")
            return
        if source is not None and _joins_as_a_bot(message):
            self._close(source, f"a join under {BOT_NAMES}")
            return
        try:
            ordered = await asyncio.to_thread(self.host.submit, message, source)
        except Dropped as error:
            if source is not None:
                self.say(f"dropped a message from {source}: {error.reason}")
            return
        if ordered.refused is not None:
            self.say(
                f"refused a message of seat {ordered.refused.culprit}: {ordered.refused.reason} (kept as evidence)"
            )
        await self._append(ordered.entry)
        await self._check_end()

    def _signed_by(self, conn: Conn, message: bytes) -> bool:
        """May this connection submit this message? Only in the name of the key it proved."""
        try:
            header, body = parse_header(Signed.decode(message).payload)
        except ProtocolError:
            return True  # the host drops it, naming the connection
        if header.kind == "join" and header.sender == conn.seat:
            # Self-certified (the session checks it is signed by the key it brings), and that key
            # must be the one this connection proved.
            return bool(body) and body[0] == conn.key
        return conn.seat == header.sender and self.session.keys.get(header.sender) == conn.key

    async def _append(self, data: bytes) -> None:
        """Store, then relay, an entry; the host's own players take it in."""
        await asyncio.to_thread(self.log.append, data)
        for event in self.host.events:
            self.say(event.text)
        self.host.events.clear()
        self._tell_away()  # a join, or a seat given to a computer player, changes who can be away
        self.waiting_since = time.monotonic()
        self.frames.append(frame(hs.entry(data)))
        for conn in list(self.conns.values()):
            if conn.welcomed and not conn.closed:  # one still in its handshake starts from the stored entries
                if conn.behind(len(self.frames)) > self.limits.backlog:
                    self._close(conn, "too slow to read the table")
                else:
                    conn.wake.set()
        for bot in self.bots.values():
            update = await asyncio.to_thread(bot.session.receive, data)
            self.pending.extend((None, m) for m in update.messages)

    async def _check_end(self) -> None:
        """The series is over, or the table has played the hands it was started for (scored
        ones: a void hand is played again): close it (before anything of the next hand is ordered)."""
        session = self.session
        if session.phase in ("over", "aborted"):
            self.finished.set()
        elif (
            self.hands is not None
            and len(session.outcomes) >= self.hands
            and session.phase == "commit"
            and not session.hand.commits
        ):
            self.pending.clear()
            await self._append(self.host.close(f"the table was started for {count(self.hands, 'hand')}"))
            self.pending.clear()
            self.finished.set()

    async def start_bots(self) -> None:
        async with self.lock:
            for bot in self.bots.values():
                self.pending.extend((None, m) for m in [*bot.owed, *bot.session.start().messages])
                bot.owed = []
            await self._drain()

    # --- time limits ---------------------------------------------------------------------

    async def _clock(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            if self.time_limit is None:
                continue
            async with self.lock:
                await self._tick()

    async def _tick(self) -> None:
        session = self.session
        _, owing = self.host.owing()
        remote = sorted(s for s in owing if s >= 0 and s not in self.bots)
        if session.phase == "seating" and self.replace_with_bot is not None:
            await self._seat_bots()
            return
        if not remote or session.phase in ("join", "seating", "over", "aborted"):
            return
        if time.monotonic() - self.waiting_since < self.time_limit:
            return
        seat = remote[0]
        try:  # the entry's event says "seat N timed out"
            await self._append(self.host.time_out(seat))
        except LocalProtocolError:
            return
        await self._drain()

    async def _seat_bots(self) -> None:
        await self._replace_absent()
        await self._drain()

    async def _replace_absent(self) -> None:
        """With --bots-replace, a computer player takes every seat left empty by a time-out;
        its join is ordered first (so the seat's old key, still connected, does not take it back)."""
        if self.replace_with_bot is None or self.session.phase != "seating":
            return
        entries = None
        for seat in sorted(self.session.absent):
            holder = self.reserved.get(seat)
            if seat in self.bots or (holder is not None and holder.key != self.session.keys.get(seat)):
                continue  # a new key came to take it (table rule `retake`)
            entries = entries or [e.encode() for e in self.host.transcript.entries]
            session, owed = await asyncio.to_thread(replacement_seat, seat, entries)
            self.bots[seat] = Bot(session, self.replace_with_bot, random.Random())
            self.say(f"a computer player takes seat {seat}")
            for conn in list(self.conns.values()):
                if conn.seat == seat:
                    self._close(conn, "your seat was given to a computer player", refuse=True)  # final
            self.pending.extendleft((None, m) for m in reversed(owed))

    # --- writing ---------------------------------------------------------------------------

    def _send(self, conn: Conn, data: bytes) -> None:
        """A frame that is not an entry (the handshake, the goodbye), after what it has been sent."""
        if conn.closed:
            return
        conn.queue.append((len(self.frames) if conn.welcomed else 0, frame(data)))
        conn.wake.set()

    async def _writer(self, conn: Conn) -> None:
        """Write to one reader at its own pace: its frames, then the stored entries from its
        cursor on (a slow reader costs the table nothing but its place in the list)."""
        try:
            while True:
                if conn.queue and conn.cursor >= conn.queue[0][0]:
                    data = conn.queue.popleft()[1]  # the goodbye comes after the entries stored before it
                elif self._left_for(conn):
                    data = self.frames[conn.cursor]
                    conn.cursor += 1
                else:
                    conn.wake.clear()
                    await conn.wake.wait()
                    continue
                conn.writer.write(self._wire(conn, data))
                await conn.writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            return

    @staticmethod
    def _wire(conn: Conn, framed: bytes) -> bytes:
        """A frame as it goes to this connection: sealed once it has a channel. Sealed just
        before it is written, so each direction's frame counter follows the order on the wire."""
        if conn.channel is None:
            return framed
        return frame(conn.channel.seal(framed[4:]))

    def _left_for(self, conn: Conn) -> bool:
        return conn.welcomed and conn.cursor < len(self.frames)

    def _close(self, conn: Conn, reason: str, refuse: bool = False, quiet: bool = False) -> None:
        if conn.closed:
            return
        if not quiet:
            self.say(f"{'refusing' if refuse else 'closing'} {conn}: {reason}")
        try:
            conn.writer.write(self._wire(conn, frame(hs.refuse(reason) if refuse else hs.bye(reason))))
        except (ConnectionError, RuntimeError):
            pass
        conn.closed = True
        conn.writer.close()
