"""`briscola host`: one table on the network, over asyncio.

The host process runs the sans-IO `protocol.host.Host` (it orders and signs
entries), keeps the transcript file (each entry fsynced before it is
relayed), relays every entry to every connection, and runs its own computer
players in-process. Each connection first does the handshake
(`protocol/handshake.py`): a player proves the key it plays with and is
given a seat; a spectator only reads. Everything that can be slow or
hostile is bounded: connections (a small pool for those in their handshake,
with a share per address; a seat's own key always gets back in), frame size,
the handshake, the message rate of each key (a spectator's: its address's,
kept across reconnections), each connection's queue of frames in bytes, and
each connection's backlog of entries to read. Nothing of a closed connection
stays (`stats` counts what is held; hidden `--stats-seconds` prints it).

CPU-heavy protocol work (checking a shuffle, an audit, a computer player's
turn) runs in a worker thread, so the event loop keeps answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import random
import secrets
import socket
import struct
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass, field

from protocol import handshake as hs
from protocol.channel import WRONG_CODE, Channel, Exchange, Tampered, WrongCode
from protocol.codec import MAX_FRAME, FrameReader, frame
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.host import Dropped, Host
from protocol.local import replacement_seat
from protocol.session import TableSession
from protocol.transcript import HOST, Signed, entry_hash, parse_header

from ..render import HEADLESS, render
from ..wording import count
from .thinking import think

try:
    import fcntl
    import termios
except ImportError:  # not on Windows: the pool only counts what asyncio has read there
    fcntl = termios = None  # type: ignore[assignment]

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


@dataclass
class Limits:
    max_connections: int = 256  # connections past their handshake; a player (it holds a seat) is let in past it
    handshaking: int = 128  # connections still in their handshake, from every address together
    quiet_per_address: int = 32  # of those, from one address and not a byte sent yet (past it the oldest goes)
    handshake_grace: float = 1.0  # a full pool makes room by closing a handshake at least this old
    busy_seconds: float = 1.0  # how long a connection refused for load is told to wait before it tries again
    listen_backlog: int = 256  # connections the kernel holds until the host accepts them (a burst past it waits)
    send_buffer: int = 32_768  # the kernel's send buffer for one connection (and as much again buffered
    # by asyncio): past that a stalled reader's cursor stops, and `backlog` counts how far behind it falls
    handshake_seconds: float = 10.0
    messages_per_second: float = 50.0  # per key (a spectator's: per address), across its reconnections
    burst: int = 400
    penalty_seconds: float = 30.0  # a key (or address) that ran out of messages is kept out this long
    buckets: int = 4_096  # rate buckets remembered at once (refilled ones are forgotten first)
    queue_bytes: int = 65_536  # frames other than entries queued for one connection: past it, it is closed
    close_seconds: float = 2.0  # a connection the host closed is cut if its reader has not taken the rest by then
    stats_seconds: float | None = None  # print `stats` this often (tests and bench/host_memory.py)
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


class Busy(Exception):
    """Refused for load, not for what the peer is or did: it is told (a `busy` frame) to try
    again `seconds` later, and the client does."""

    def __init__(self, reason: str, seconds: float):
        super().__init__(reason)
        self.reason, self.seconds = reason, seconds


@dataclass
class Bucket:
    """The messages a key (a spectator's address) may still send: `tokens`, refilled since
    `stamp`; one that ran dry is kept out until `until`."""

    tokens: float
    stamp: float
    until: float = 0.0


def peer_address(peer) -> str:
    """The address a connection comes from, as the handshake pool's shares and the wrong
    codes' limit count it: an IPv4 address (an IPv4-mapped IPv6 one too), an IPv6 address
    by its /64 (one host's, as a network hands them out)."""
    try:
        address = ipaddress.ip_address(peer[0].split("%")[0])
    except (TypeError, ValueError, IndexError):
        return "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Frames(FrameReader):
    """A connection's frame reader, which counts what it was fed."""

    fed = 0

    def feed(self, data: bytes) -> None:
        self.fed += len(data)
        super().feed(data)


def _waiting_bytes(sock) -> int:
    """Bytes received on a socket that nobody has read yet (0 where that cannot be asked)."""
    if fcntl is None:
        return 0
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, bytes(4)))[0]
    except (OSError, ValueError):
        return 0


@dataclass
class Conn:
    """One network connection, and what it has proved."""

    number: int
    writer: asyncio.StreamWriter
    role: str = "?"
    seat: int | None = None
    key: bytes = b""
    channel: Channel | None = None  # after the key exchange: every frame either way is sealed
    queue: deque = field(default_factory=deque)  # (entries written first, frame, status): the handshake, away...
    queued: int = 0  # bytes in `queue`
    address: str = "?"  # where it comes from (`peer_address`)
    opened: float = 0.0  # when it was accepted
    reader: asyncio.StreamReader | None = None
    frames: Frames | None = None
    heard: bool = False  # a byte came from it (it is not a connection that only holds a slot)
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
        self.tell = lambda event: self.say(render(event, HEADLESS))  # an event, in words
        self.limits = limits or Limits()
        self.guesses = Guesses(guesses or GuessLimits())
        self.report: asyncio.TimerHandle | None = None  # when the wrong codes are summed up next
        self.conns: dict[int, Conn] = {}
        self.handshaking: dict[int, Conn] = {}  # those of `conns` still in their handshake, oldest first
        self.buckets: OrderedDict[object, Bucket] = OrderedDict()  # a player's key or a spectator's address ->
        # what it may still send (kept when it disconnects: a reconnection does not refill it)
        self.load_refusals = 0  # connections refused or closed for load (said only in `stats`)
        self.closing = False  # the host is stopping: connections still being accepted are cut
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
        server = await asyncio.start_server(
            self._connected, bind, port, limit=MAX_FRAME + 4, backlog=self.limits.listen_backlog
        )
        addresses = [s.getsockname() for s in server.sockets]
        if on_listen is not None:
            on_listen(addresses)
        clock = asyncio.create_task(self._clock())
        stats = asyncio.create_task(self._print_stats()) if self.limits.stats_seconds else None
        await self.start_bots()
        try:
            await self.finished.wait()
            await self._linger()
        finally:
            clock.cancel()
            if stats is not None:
                stats.cancel()
            self._say_guesses()  # what the next report would have said
            for conn in list(self.conns.values()):
                self._send(conn, hs.bye(self._ending()))
            await self._flush(0.5)
            server.close()
            self.closing = True  # a connection accepted from now on is cut at once
            for conn in list(self.conns.values()):
                conn.closed = True  # the host ends it: its handler does not report it as lost
                conn.writer.transport.abort()  # after `_flush`: what a stalled reader did not take is dropped
            await self._handlers_done(1.0)
        cheat = any(v.cheats for v in self.session.verdicts)  # one evicted (--bots-replace) and the table went on
        return 0 if self.session.phase == "over" and not cheat else 3

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
        handler = asyncio.current_task()
        if handler is not None:
            self.handlers.add(handler)
            handler.add_done_callback(self.handlers.discard)  # however it ends (a refusal too), it is let go
        if self.closing:  # accepted as the host stops (its handler would outlive the loop)
            writer.transport.abort()
            return
        self.numbers += 1
        frames = Frames()
        conn = Conn(self.numbers, writer, address=peer_address(writer.get_extra_info("peername")))
        conn.opened, conn.reader, conn.frames = time.monotonic(), reader, frames
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        writer.transport.set_write_buffer_limits(high=self.limits.send_buffer)
        try:
            self._make_room(conn)
        except Busy as busy:
            self._busy(conn, busy)
            return
        self.conns[conn.number] = conn
        self.handshaking[conn.number] = conn
        writer_task = asyncio.create_task(self._writer(conn))
        try:
            try:
                await asyncio.wait_for(self._handshake(conn, reader, frames), self.limits.handshake_seconds)
            except Busy as busy:  # the pool of connections is full, or this key is kept out for now
                self._busy(conn, busy, quiet=conn.seat is None)
                return
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
            self.handshaking.pop(conn.number, None)
            for seat, holder in list(self.reserved.items()):
                if holder is conn:
                    del self.reserved[seat]
            self._tell_away()
            await asyncio.sleep(0)
            writer_task.cancel()
            writer.close()
            self._cut_later(conn)

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
                self._send(conn, hs.away(away), status="away")
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

    # --- admission -------------------------------------------------------------------------

    def _make_room(self, conn: Conn) -> None:
        """Room in the pool of handshakes for a new connection (Busy if there is none). The pool
        holds `handshaking` connections, and those of one address that have sent nothing yet are
        at most `quiet_per_address`: past it, the oldest of them is closed (busy), so an outsider
        holding idle connections cannot keep anyone from that address out, however many it opens.
        A full pool closes the oldest quiet connection of any address, else the oldest older
        than `handshake_grace` (one that sends too slowly: a real client's handshake takes a few
        milliseconds); else the newcomer itself is told to try again."""
        limits = self.limits
        quiet = [c for c in self.handshaking.values() if c.address == conn.address and self._quiet(c)]
        if len(quiet) >= limits.quiet_per_address:
            self._busy(quiet[0], Busy("the host is busy: too many idle connections from your address", 1.0))
        if len(self.handshaking) < limits.handshaking:
            return
        victim = next((c for c in self.handshaking.values() if self._quiet(c)), None)
        if victim is None:
            old = time.monotonic() - limits.handshake_grace
            victim = next((c for c in self.handshaking.values() if c.opened <= old), None)
        if victim is None:
            raise Busy("the host is busy: too many connections in their handshake", limits.busy_seconds)
        self._busy(victim, Busy("the host is busy: too many connections in their handshake", limits.busy_seconds))

    @staticmethod
    def _quiet(conn: Conn) -> bool:
        """Nothing has come from this connection yet (not even bytes still unread)."""
        if conn.heard:
            return False
        reader = conn.reader
        buffered = len(getattr(reader, "_buffer", b"")) if reader is not None else 0  # read by asyncio, not yet by us
        sock = conn.writer.get_extra_info("socket")
        if (conn.frames is not None and conn.frames.fed) or buffered or (sock is not None and _waiting_bytes(sock)):
            conn.heard = True
        return not conn.heard

    def _admit(self, conn: Conn) -> None:
        """Its handshake done, a connection joins those that read the table (Busy if it may not
        now). They are at most `max_connections`, but a player is let in past that: it holds a seat
        (its key's, or one kept for it), so there are as many as seats. A key (a spectator's
        address) that ran out of messages is kept out until its time is up; each spectator's
        connection is one message of its address."""
        now = time.monotonic()
        bucket = self._bucket(conn, now)
        if bucket.until > now:
            raise Busy("too many messages: kept out for now", bucket.until - now)
        if conn.role == "spectator" and not self._spend(bucket, now):
            raise Busy("too many connections from your address: kept out for now", bucket.until - now)
        if conn.seat is None and self._reading() >= self.limits.max_connections:
            raise Busy("the host has too many connections", self.limits.busy_seconds)
        self.handshaking.pop(conn.number, None)

    def _busy(self, conn: Conn, busy: Busy, quiet: bool = True) -> None:
        """Close a connection for load, telling it when to try again (one out of the pool of
        handshakes is not said on the console: `stats` counts them)."""
        self.load_refusals += 1
        self.handshaking.pop(conn.number, None)
        self._close(conn, busy.reason, busy=busy.seconds, quiet=quiet)

    def _cut_later(self, conn: Conn) -> None:
        """A connection the host closes is gone within `close_seconds`, even if its reader never
        takes what was still buffered for it (closing waits for that). Only such a one waits:
        the others (nothing buffered) are closed already, and keep nothing alive meanwhile."""
        transport = conn.writer.transport
        if transport.is_closing() and not transport.get_write_buffer_size():
            return
        with contextlib.suppress(RuntimeError):  # the loop is closing
            asyncio.get_running_loop().call_later(self.limits.close_seconds, transport.abort)

    def _reading(self) -> int:
        """Connections past their handshake and still open (not those closed and not yet gone)."""
        return sum(1 for c in self.conns.values() if c.welcomed and not c.closed)

    def stats(self) -> str:
        """What the host holds for its connections, in one line."""
        conns = list(self.conns.values())
        reading = self._reading()
        return (
            f"stats: {reading} connections past the handshake, {len(self.handshaking)} in it, "
            f"{len(conns) - reading - len(self.handshaking)} closing; {len(self.handlers)} handlers; "
            f"{sum(c.queued for c in conns)} bytes queued (at most {max((c.queued for c in conns), default=0)} "
            f"for one); {len(self.buckets)} rate buckets; {self.load_refusals} refused or closed for load"
        )

    async def _print_stats(self) -> None:
        while True:
            await asyncio.sleep(self.limits.stats_seconds or 1.0)
            self.say(self.stats())

    # --- the handshake ---------------------------------------------------------------

    async def _handshake(self, conn: Conn, reader, frames: FrameReader) -> None:
        kind, fields = hs.parse(await self._read_frame(reader, frames))
        if kind != "hello":
            raise RemoteProtocolError("a connection starts with hello")
        source = conn.address
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
        self._admit(conn)
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
            self._send(conn, hs.away(self.told_away), status="away")

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
        if hello.key in session.banned:
            raise RemoteProtocolError("this key was evicted from this table for cheating (watch it instead)")
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
        """One message of this connection's key, from a bucket that outlives the connection:
        `burst` at once, then `messages_per_second`. A key that runs dry is closed and kept out
        for `penalty_seconds`, whatever it reconnects."""
        now = time.monotonic()
        bucket = self._bucket(conn, now)
        if not self._spend(bucket, now):
            raise RemoteProtocolError(f"too many messages: kept out for {self.limits.penalty_seconds:g} s")

    def _bucket(self, conn: Conn, now: float) -> Bucket:
        """The bucket of this connection's key (a player's) or address (a spectator's)."""
        who: object = conn.key if conn.role == "player" else ("address", conn.address)
        bucket = self.buckets.get(who)
        if bucket is None:
            if len(self.buckets) >= self.limits.buckets:
                self._forget_buckets(now)
            bucket = self.buckets[who] = Bucket(float(self.limits.burst), now)
        self.buckets.move_to_end(who)
        return bucket

    def _spend(self, bucket: Bucket, now: float) -> bool:
        """Take one message from `bucket`; False (and it is kept out) if none is left."""
        limits = self.limits
        bucket.tokens = min(float(limits.burst), bucket.tokens + (now - bucket.stamp) * limits.messages_per_second)
        bucket.stamp = now
        if bucket.tokens < 1:
            bucket.until = now + limits.penalty_seconds
            return False
        bucket.tokens -= 1
        return True

    def _forget_buckets(self, now: float) -> None:
        """Room for one more bucket: forget those that have refilled (a new one is the same),
        else the one used least recently."""
        limits = self.limits
        for who, bucket in list(self.buckets.items()):
            full = bucket.tokens + (now - bucket.stamp) * limits.messages_per_second >= limits.burst
            if full and bucket.until <= now:
                del self.buckets[who]
        while len(self.buckets) >= limits.buckets:
            self.buckets.popitem(last=False)

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
            await self._replace_absent()  # a seat the last entry left empty (a cheat evicted), with no clock
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
            self.tell(event)
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

    def _send(self, conn: Conn, data: bytes, status: str | None = None) -> None:
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
            self._close(conn, "too slow to read the table")
            return
        conn.wake.set()

    @staticmethod
    def _unqueue(conn: Conn) -> bytes:
        _, framed, _ = conn.queue.popleft()
        conn.queued -= len(framed)
        return framed

    async def _writer(self, conn: Conn) -> None:
        """Write to one reader at its own pace: its frames, then the stored entries from its
        cursor on (a slow reader costs the table nothing but its place in the list)."""
        try:
            while True:
                if conn.queue and conn.cursor >= conn.queue[0][0]:
                    data = self._unqueue(conn)  # the goodbye comes after the entries stored before it
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

    def _close(
        self, conn: Conn, reason: str, refuse: bool = False, quiet: bool = False, busy: float | None = None
    ) -> None:
        """Say goodbye and close: `bye` (the client may come back), `refuse` (it may not), or with
        `busy`, a refusal for load: the client tries again that many seconds later."""
        if conn.closed:
            return
        if not quiet:
            what = "refusing" if refuse else "closing" if busy is None else "turning away"
            self.say(f"{what} {conn}: {reason}")
        if busy is not None:
            last = hs.busy(reason, busy)
        else:
            last = hs.refuse(reason) if refuse else hs.bye(reason)
        try:
            conn.writer.write(self._wire(conn, frame(last)))
        except (ConnectionError, RuntimeError):
            pass
        conn.closed = True
        conn.writer.close()
        self._cut_later(conn)
