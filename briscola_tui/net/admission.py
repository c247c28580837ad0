"""Who may connect to the host, and how: the handshake and every limit on getting in.

`Admission` keeps the pool of connections still in their handshake (`handshaking`: a
bound for all, a share for each address whatever it sends, the oldest made room for; a
slot for each seated key that names itself, `returning`), runs the
handshake (`protocol/handshake.py`: the join code's key exchange, the request, a player's
proof of its key), gives a player its seat (`reserved` until its join is ordered), and
admits the connection past the handshake (the cap on connections, a key kept out). The
join code is joincode.py's; `Guesses` (guesses.py) limits the wrong codes (and the key exchanges never
finished) of an address, or of a seated key that names itself, and sums them up on the
console; `rate` counts the messages of each key (a spectator's: its address's).
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import Counter
from collections.abc import Callable

from protocol import handshake as hs
from protocol.channel import Exchange, Tampered, WrongCode
from protocol.codec import FrameReader, frame
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.host import Host
from protocol.reasons import Reason
from protocol.returning import shared_key
from protocol.transcript import HOST, entry_hash

from ..language import _
from .buckets import Buckets
from .connection import Busy, Conn, Limits, read_frame
from .guesses import Guesses, GuessLimits, TooManyGuesses
from .ordering import Bot, is_bot_name
from .relay import Relay, coded


def _busiest(conns: list[Conn], newcomer: str) -> list[Conn]:
    """The connections of the address holding the most (the newcomer's own first among equals)."""
    counts = Counter(c.address for c in conns)
    most = max(counts.values())
    address = newcomer if counts.get(newcomer) == most else next(a for a, n in counts.items() if n == most)
    return [c for c in conns if c.address == address]


def _pending(conn: Conn) -> bytes:
    """The first bytes come from a connection that its handler has not read yet (b"" where
    that cannot be asked)."""
    return conn.link.peek(PEEK)


PEEK = 256  # bytes enough for a signed hello's frame


def _quiet(conn: Conn) -> bool:
    """Nothing has come from this connection yet (not even bytes still unread)."""
    if conn.heard:
        return False
    if (conn.frames is not None and conn.frames.fed) or conn.link.unread():
        conn.heard = True
    return not conn.heard


class Admission:
    """Lets connections in to `host`'s table. `bots` are the host's computer players (their
    seats are not free); `reserved` (seat -> the connection that will join it) is shared with
    the ordering; the welcome is given under `lock` (the ordering's); `say` is the console and
    `tell_away` says which seats are away, if that changed. Every limit's time (the tries of
    join codes, the buckets of messages) is read from `clock`."""

    def __init__(
        self,
        host: Host,
        relay: Relay,
        *,
        code: str | None,
        limits: Limits,
        guesses: GuessLimits,
        bots: dict[int, Bot],
        reserved: dict[int, Conn],
        lock: asyncio.Lock,
        say: Callable[[str], None],
        tell_away: Callable[[], bool],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.host, self.relay, self.code, self.limits = host, relay, code, limits
        self.bots, self.reserved, self.lock = bots, reserved, lock
        self.say, self.tell_away = say, tell_away
        self.guesses = Guesses(guesses, clock)
        self.report: asyncio.TimerHandle | None = None  # when the wrong codes are summed up next
        self.handshaking: dict[int, Conn] = {}  # connections still in their handshake, oldest first
        self.returning: dict[bytes, Conn] = {}  # seated key -> its connection in its handshake (not in the pool)
        self.seen: dict[bytes, None] = {}  # the SPAKE2 messages of hellos that named a key (a replay names none)
        self.shared: dict[bytes, bytes | None] = {}  # seat key -> the key it shares with the host (None: none)
        seconds = 1 / limits.messages_per_second if limits.messages_per_second else math.inf
        self.rates = Buckets(  # a player's key or a spectator's address -> what it may still send
            limits.burst, seconds, limits.buckets, forget="oldest", penalty=limits.penalty_seconds, clock=clock
        )  # (kept when it disconnects: a reconnection does not refill it)
        self.load_refusals = 0  # connections refused or closed for load (said only in `stats`)

    # --- the pool of handshakes ----------------------------------------------------------

    def enter(self, conn: Conn) -> None:
        """A new connection joins the pool of handshakes, room made for it. One address holds at
        most `per_address` of the pool, whatever its connections send (and at most
        `quiet_per_address` that sent nothing yet): past it, one of its own goes (busy: one that
        sent nothing, else one whose hello named no seated key, else the oldest), so an outsider
        re-opening connections only ever competes with itself, and a newcomer on its address is
        read long before it would go. A full pool takes its room from the address holding the most. A connection whose hello names a seated key leaves the pool
        for a slot of that key's (`returning`): no address's load reaches it."""
        limits = self.limits
        mine = [c for c in self.handshaking.values() if c.address == conn.address]
        quiet = [c for c in mine if _quiet(c)]
        if len(quiet) >= limits.quiet_per_address:
            self.busy(quiet[0], Busy(Reason.of("busy-idle"), 1.0))
        elif len(mine) >= limits.per_address:
            self.busy(self._first_to_go(mine), Busy(Reason.of("busy-address"), 1.0))
        if len(self.handshaking) >= limits.handshaking:
            victim = self._first_to_go(_busiest(list(self.handshaking.values()), conn.address))
            self.busy(victim, Busy(Reason.of("busy-handshakes"), limits.busy_seconds))
        self.handshaking[conn.number] = conn

    def _first_to_go(self, conns: list[Conn]) -> Conn:
        """Which of one address's handshakes makes room (oldest first): one that has sent nothing,
        else one whose hello named no seated key, else the oldest whose hello, come but not read
        yet, is not signed by a seated key (a returning seat is never pushed out by its address)."""
        for goes in (_quiet, lambda c: c.anonymous, lambda c: not self._names_a_seat(c)):
            found = next((c for c in conns if goes(c)), None)
            if found is not None:
                return found
        return conns[0]

    def _names_a_seat(self, conn: Conn) -> bool:
        """Its hello, come but not read yet, is signed by a seated key (known once it is whole)."""
        if conn.peeked is None:
            frames = FrameReader()
            frames.feed(_pending(conn))
            try:
                data = frames.next_frame()
                if data is None:
                    return False  # not whole yet: it names nobody for now
                kind, fields = hs.parse(data)
            except ProtocolError:
                kind, fields = "", []
            conn.peeked = kind == "hello" and bool(hs.named(fields, self._shared_keys()))
        return conn.peeked

    def _return(self, conn: Conn, key: bytes) -> None:
        """A connection named a seated key (its hello signed by it): out of the pool, into that
        key's slot (an older connection there for the same key goes: the key came back again)."""
        self.handshaking.pop(conn.number, None)
        older = self.returning.get(key)
        if older is not None and older is not conn:
            self.busy(older, Busy(Reason.of("same-key"), 0.0))
        self.returning[key] = conn

    def _out_of_pool(self, conn: Conn) -> None:
        self.handshaking.pop(conn.number, None)
        if conn.named and self.returning.get(conn.named) is conn:  # (a newer connection may hold the key's slot)
            del self.returning[conn.named]

    @property
    def in_handshake(self) -> int:
        return len(self.handshaking) + len(self.returning)

    def leave(self, conn: Conn) -> None:
        """A connection is gone: nothing of it stays (its place in the pool, a seat kept for it);
        a key exchange it began and never finished is counted (`Guesses.unconfirmed`)."""
        self._out_of_pool(conn)
        for seat, holder in list(self.reserved.items()):
            if holder is conn:
                del self.reserved[seat]
        if conn.half is not None:
            self.guesses.unconfirmed(conn.half)
            conn.half = None
            self._report_later()

    def busy(self, conn: Conn, busy: Busy, quiet: bool = True) -> None:
        """Close a connection for load, telling it when to try again (one out of the pool of
        handshakes is not said on the console: `stats` counts them)."""
        self.load_refusals += 1
        self._out_of_pool(conn)
        self.relay.close(conn, busy.reason, busy=busy.seconds, quiet=quiet)

    def _admit(self, conn: Conn) -> None:
        """Its handshake done, a connection joins those that read the table (Busy if it may not
        now). They are at most `max_connections`, but a player is let in past that: it holds a seat
        (its key's, or one kept for it), so there are as many as seats. A key (a spectator's
        address) that ran out of messages is kept out until its time is up; each spectator's
        connection is one message of its address."""
        who = self._spender(conn)
        kept_out = self.rates.kept_out(who)
        if kept_out > 0:
            raise Busy(Reason.of("kept-out"), kept_out)
        if conn.role == "spectator" and not self.rates.spend(who):
            raise Busy(Reason.of("kept-out-address"), self.rates.penalty)
        if conn.seat is None and self._full(conn):
            raise Busy(Reason.of("busy-full"), self.limits.busy_seconds)
        self._out_of_pool(conn)

    def _full(self, conn: Conn) -> bool:
        """No room for one more connection of `conn`'s kind: a spectator on the broadcast (a
        club's), or any other."""
        broadcast = self.relay.broadcast_readers()
        if conn.role == "spectator" and self.relay.fanout is not None:
            return broadcast >= self.limits.max_watching
        return self.relay.reading() - broadcast >= self.limits.max_connections

    # --- messages --------------------------------------------------------------------------

    @staticmethod
    def _spender(conn: Conn) -> object:
        """Whose messages a connection's are: its key's (a player's) or its address's (a spectator's)."""
        return conn.key if conn.role == "player" else ("address", conn.address)

    def rate(self, conn: Conn) -> None:
        """One message of this connection's key, from a bucket that outlives the connection:
        `burst` at once, then `messages_per_second`. A key that runs dry is closed and kept out
        for `penalty_seconds`, whatever it reconnects."""
        if not self.rates.spend(self._spender(conn)):
            raise RemoteProtocolError(Reason.of("kept-out-seconds", seconds=f"{self.limits.penalty_seconds:g}"))

    # --- the handshake ---------------------------------------------------------------------

    async def handshake(self, conn: Conn, frames: FrameReader) -> None:
        kind, fields = hs.parse(await read_frame(conn.link, frames))
        if kind != "hello":
            raise RemoteProtocolError(Reason.of("no-hello"))
        source = conn.address
        who = self._spends(conn, fields)
        if self.guesses.wait(who) > 0:  # before any work: a guesser out of tries costs nothing
            raise self._held(who)
        table_id = self.host.table_id
        exchange = await asyncio.to_thread(self._exchange, fields[1], table_id)
        conn.half = who  # a key exchange begun: counted if it is never finished
        conn.link.write(frame(hs.exchange(table_id, exchange.message)))  # in the clear, as the confirmations
        kind, fields = hs.parse(await read_frame(conn.link, frames))
        if kind != "confirm":
            raise RemoteProtocolError(Reason.of("no-confirm"))
        conn.half = None  # finished: the code is checked (a try)
        if not self.guesses.take(who):  # one try per code checked, taken before it is checked
            raise self._held(who)
        try:
            exchange.check(fields[0])
        except WrongCode:
            if (line := self.guesses.wrong_code(source)) is not None:
                self.say(line)
            self._report_later()
            raise WrongCode(Reason.of("wrong-code-open" if self.code is None else "wrong-code")) from None
        self.guesses.give_back(who)
        conn.link.write(frame(hs.confirm(exchange.confirmation())))
        conn.channel = exchange.channel()  # every frame from now on, either way, is sealed
        kind, fields = hs.parse(await read_frame(conn.link, frames, conn))
        if kind != "request":
            raise RemoteProtocolError(Reason.of("no-request"))
        hello = hs.parse_hello(fields)
        conn.role = hello.role
        if hello.role == "player" and is_bot_name(hello.name):
            raise RemoteProtocolError(Reason.of("bot-name", name=repr(hello.name)))
        if hello.role == "player":
            nonce = secrets.token_bytes(hs.NONCE_LEN)
            self.relay.send(conn, hs.challenge(nonce))
            kind, fields = hs.parse(await read_frame(conn.link, frames, conn))
            if kind != "proof":
                raise RemoteProtocolError(Reason.of("no-proof"))
            hs.check_proof(hello.key, nonce, table_id, exchange.transcript, fields[0])
            if conn.named and conn.named != hello.key:
                raise RemoteProtocolError(Reason.of("other-key"))
            conn.key = hello.key
            conn.seat = self._assign(conn, hello)
        self._admit(conn)
        start = self._resume_point(hello)
        async with self.lock:
            self.relay.welcome(conn, table_id, start)
        if hello.name:
            self.say(_("{conn} joined as {name!r}").format(conn=conn, name=hello.name))
        else:
            self.say(_("{conn} joined").format(conn=conn))
        if not self.tell_away():  # to everyone when it changed; else to this one, which has not heard it
            self.relay.send(conn, hs.away(self.relay.told_away), status="away")

    def _spends(self, conn: Conn, fields: list) -> object:
        """Whose tries a hello spends: a seated key's, when the hello names it (signed, and not
        a hello seen before: a replay names nobody); its address's otherwise. A connection
        naming a seated key takes that key's slot, out of the pool."""
        key = hs.named(fields, self._shared_keys())
        if not key or fields[1] in self.seen:
            conn.anonymous = True
            return conn.address
        self.seen[fields[1]] = None
        if len(self.seen) > self.guesses.limits.addresses:
            del self.seen[next(iter(self.seen))]
        conn.named = key
        self._return(conn, key)
        return ("key", key)

    def _shared_keys(self) -> list[tuple[bytes, bytes]]:
        """Each seated key and the key it shares with the host's table key (returning.py), each
        worked out once."""
        pairs = []
        for key in self._seated():
            if key not in self.shared:
                host = self.host.identity
                self.shared[key] = shared_key(host, key, key, host.public_bytes)
            if (shared := self.shared[key]) is not None:
                pairs.append((key, shared))
        return pairs

    def _seated(self) -> list[bytes]:
        """The keys that hold a seat at this table (not the host's, not one evicted)."""
        session = self.host.session
        return [k for s, k in session.keys.items() if s != HOST and k not in session.banned]

    def _exchange(self, theirs: bytes, table_id: bytes) -> Exchange:
        """The host's side of SPAKE2 over the join code (a worker thread: it is pure Python, a few ms)."""
        exchange = Exchange("host", self.code or "")
        exchange.finish(theirs, table_id, hs.VERSION)
        return exchange

    def refused(self, conn: Conn, error: ProtocolError) -> None:
        """A handshake that failed: refused (the client gives up), but a frame that failed its
        integrity check is only closed (someone on the way changed it: the client may come back).
        Wrong codes are not said one by one: `_report_later` sums them up."""
        reason = coded(error)
        if isinstance(error, Tampered):
            self.relay.close(conn, reason)
        else:
            self.relay.close(conn, reason, refuse=True, quiet=isinstance(error, WrongCode))

    def _held(self, who: object) -> TooManyGuesses:
        refusal = self.guesses.hold(who)
        self._report_later()
        return refusal

    def _report_later(self) -> None:
        """The first wrong code or refused try since the last report: the next report is due
        `report_seconds` from now."""
        if self.report is None and self.guesses.pending:
            self.report = asyncio.get_running_loop().call_later(self.guesses.limits.report_seconds, self.say_guesses)

    def say_guesses(self) -> None:
        """Sum up the wrong codes and refused tries since the last report, now."""
        if self.report is not None:
            self.report.cancel()
            self.report = None
        line = self.guesses.report()
        if line is not None:
            self.say(line)

    # --- seats -----------------------------------------------------------------------------

    def _assign(self, conn: Conn, hello: hs.Hello) -> int:
        """The seat this key holds, or a free one (the one asked for if free)."""
        session = self.host.session
        if hello.key in session.banned:
            raise RemoteProtocolError(Reason.of("evicted"))
        for seat, key in session.keys.items():
            if key == hello.key and seat != HOST:
                self._drop_other(seat, conn)
                return seat
        for seat, holder in list(self.reserved.items()):
            if holder is not conn and holder.key == hello.key:
                # Its join was not ordered yet, and its older connection is stale (a drop the host
                # has not noticed): the seat stays this key's.
                self.relay.close(holder, Reason.of("same-key"))
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
            raise RemoteProtocolError(Reason.of("no-free-seat"))
        if hello.seat >= 0 and hello.seat not in free:
            raise RemoteProtocolError(Reason.of("seat-taken", seat=hello.seat))
        seat = hello.seat if hello.seat >= 0 else free[0]
        self.reserved[seat] = conn
        return seat

    def _drop_other(self, seat: int, conn: Conn) -> None:
        """A seat's key connects again: its older connection is stale."""
        for other in list(self.relay.conns.values()):
            if other is not conn and other.seat == seat:
                self.relay.close(other, Reason.of("same-key"))

    def _resume_point(self, hello: hs.Hello) -> int:
        assert self.host.transcript is not None  # (the host opened the table)
        entries = self.host.transcript.entries
        if 0 < hello.have <= len(entries) and entry_hash(entries[hello.have - 1]) == hello.head:
            return hello.have
        return 0
