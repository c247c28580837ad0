"""The host's ordering: submissions in, entries out, one at a time, into the transcript.

`Ordering` takes each message submitted (by a connection's player, or by one of the host's
own computer players, `Bot`), has `protocol.host.Host` order and sign it, stores the entry
(the transcript file fsyncs it) before it is relayed, lets the host's players answer, gives
a seat a time-out left empty to a computer player (`--bots-replace`), and sees when the
table is over (or has played the hands it was started for). Its `lock` is held while
anything is ordered: the clock's time-outs and each connection's welcome take it too.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.state import Action
from protocol.errors import ProtocolError
from protocol.events import Event
from protocol.host import Dropped, Flooding, Host, Ordered, Oversized
from protocol.local import replacement_seat
from protocol.reasons import Reason
from protocol.session import TableSession
from protocol.stale import FLOOD_DROPS
from protocol.transcript import Signed, parse_header

from ..files.storage import TranscriptFile
from ..language import N_, _
from .connection import Conn
from .relay import Relay
from .thinking import think


@dataclass
class Bot:
    """A computer player the host runs itself."""

    session: TableSession
    player: Callable[..., Action]  # (engine.bots.Player, given a SeatView)
    rng: random.Random
    owed: list = field(default_factory=list)  # what it must send once the table runs (after a restart)


BOT_NAMES = N_("a name such as cpu1 (cpu and a digit) is kept for the host's computer players: choose another")


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


class Ordering:
    """Orders the messages of one table. `reserved` (seat -> the connection that will join it)
    is the admission's; `say` and `tell` (an event, in words) are the console; `tell_away`
    says which seats are away, if that changed."""

    def __init__(
        self,
        host: Host,
        log: TranscriptFile,
        relay: Relay,
        *,
        bots: dict[int, Bot],
        hands: int | None,
        replace_with_bot: Callable[..., Action] | None,
        replacement: Callable[[int, list[bytes]], tuple[TableSession, list[bytes]]] = replacement_seat,
        reserved: dict[int, Conn],
        say: Callable[[str], None],
        tell: Callable[[Event], None],
        tell_away: Callable[[], bool],
    ) -> None:
        self.host, self.log, self.relay = host, log, relay
        self.bots, self.hands, self.reserved = bots, hands, reserved
        self.replace_with_bot = replace_with_bot  # a player function, or None
        self.replacement = replacement  # (seat, entries) -> its session and what it owes (kept on disk by the host)
        self.say, self.tell, self.tell_away = say, tell, tell_away
        self.lock = asyncio.Lock()
        self.finished = asyncio.Event()
        self.since = time.monotonic()  # when the last entry was stored (the clock's turns start there)
        self.pending: deque = deque()
        self.strikes: dict[int | None, int] = {}  # per seat: messages dropped in a row since one past its no-op bounds

    @property
    def session(self) -> TableSession:
        return self.host.session

    async def order(self, conn: Conn | None, signed: bytes) -> None:
        """Order one message, then whatever the host's own players answer (under `lock`)."""
        self.pending.append((conn, signed))
        await self.drain()

    async def drain(self) -> None:
        """Order every pending message and let the host's players move, until
        nothing is left to do; then see whether the table is over.

        Whether it is over is seen first, too: a host restarted (or a time-out entered)
        right after a hand's last reveal closes a table started for that many hands before
        it orders anything of the next hand."""
        await self._check_end()
        while not self.finished.is_set():
            while self.pending and not self.finished.is_set():
                await self.replace_absent()  # before a player's own key could take its seat back
                source, message = self.pending.popleft()
                await self._submit(source, message)
            if self.finished.is_set():
                break
            for bot in self.bots.values():
                if bot.session.my_turn():
                    action = await think(bot.player, bot.session.seat_view(), bot.rng)
                    self.pending.extend((None, m) for m in bot.session.act(action).messages)
            await self.replace_absent()  # a seat the last entry left empty (a cheat evicted), with no clock
            if not self.pending:
                break
        await self._check_end()
        if self.finished.is_set():
            self.pending.clear()  # the table is over: nothing more is ordered

    async def _submit(self, source: Conn | None, message: bytes) -> None:
        if source is not None and not self._signed_by(source, message):
            self.relay.close(source, Reason.of("other-signer"))
            return
        if source is not None and _joins_as_a_bot(message):
            self.relay.close(source, Reason.of("bot-join"))
            return
        try:
            ordered = await asyncio.to_thread(self._order_and_keep, message, source)
        except Dropped as error:
            if source is not None:
                self._dropped(source, error)
            return
        if source is not None:
            self.strikes.pop(source.seat, None)  # it sent something the table takes: no flooder
        if ordered.refused is not None:
            self.say(
                _("refused a message of seat {seat}: {reason} (kept as evidence)").format(
                    seat=ordered.refused.culprit, reason=ordered.refused.reason
                )
            )
        await self.append(ordered.entry, kept=True)
        await self._check_end()

    def _order_and_keep(self, message: bytes, source: Conn | None) -> Ordered:
        """In a worker thread: the host orders the message (checking it) and the entry is
        stored, in one trip away from the loop."""
        ordered = self.host.submit(message, source)
        self.log.append(ordered.entry)
        return ordered

    def _dropped(self, source: Conn, error: Dropped) -> None:
        """Say a message dropped, naming its connection; refuse one whose sender broke the
        bounds no client breaks: a message too large to keep as evidence, or no-ops past the
        seat's bounds again and again (a flooder)."""
        self.say(_("dropped a message from {source}: {reason}").format(source=source, reason=error.reason))
        if isinstance(error, Oversized):
            self.relay.close(source, Reason.of("too-large"), refuse=True)
        elif self._strike(source.seat, error) >= FLOOD_DROPS:
            self.relay.close(source, Reason.of("flooding"), refuse=True)

    def _strike(self, seat: int | None, error: Dropped) -> int:
        """Count a drop against a seat that went past its no-op bounds (from that drop on, until
        one of its messages is ordered); how many in a row."""
        if isinstance(error, Flooding) or seat in self.strikes:
            self.strikes[seat] = self.strikes.get(seat, 0) + 1
        return self.strikes.get(seat, 0)

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

    async def append(self, data: bytes, kept: bool = False) -> None:
        """Store (unless `kept` already), then relay, an entry; the host's own players take it in."""
        if not kept:
            await asyncio.to_thread(self.log.append, data)
        for event in self.host.events:
            self.tell(event)
        self.host.events.clear()
        self.tell_away()  # a join, or a seat given to a computer player, changes who can be away
        self.since = time.monotonic()
        self.relay.publish(data)
        for bot in self.bots.values():
            update = await asyncio.to_thread(bot.session.receive, data)
            self.pending.extend((None, m) for m in update.messages)

    async def _check_end(self) -> None:
        """The series is over, or the table has played the hands it was started for (scored
        ones: a void hand is played again, and a redeal, everybody having passed, is no hand played): close it (before anything of the next hand is ordered)."""
        session = self.session
        if session.phase in ("over", "aborted"):
            self.finished.set()
        elif (
            self.hands is not None
            and sum(not o.result.redeal for o in session.outcomes) >= self.hands
            and session.phase == "commit"
            and session.hand is not None
            and not session.hand.commits
        ):
            self.pending.clear()
            # in the transcript, as a code: each reader writes it in its own language
            await self.append(self.host.close(Reason.of("hands-played", hands=self.hands).wire()))
            self.pending.clear()
            self.finished.set()

    async def start_bots(self) -> None:
        async with self.lock:
            for bot in self.bots.values():
                self.pending.extend((None, m) for m in [*bot.owed, *bot.session.start().messages])
                bot.owed = []
            await self.drain()

    async def replace_absent(self) -> None:
        """With --bots-replace, a computer player takes every seat left empty by a time-out;
        its join is ordered first (so the seat's old key, still connected, does not take it back)."""
        if self.replace_with_bot is None or self.session.phase != "seating":
            return
        entries = None
        for seat in sorted(self.session.absent):
            holder = self.reserved.get(seat)
            if seat in self.bots or (holder is not None and holder.key != self.session.keys.get(seat)):
                continue  # a new key came to take it (table rule `retake`)
            assert self.host.transcript is not None  # (the host opened the table)
            entries = entries or [e.encode() for e in self.host.transcript.entries]
            session, owed = await asyncio.to_thread(self.replacement, seat, entries)
            self.bots[seat] = Bot(session, self.replace_with_bot, random.Random())
            self.say(_("a computer player takes seat {seat}").format(seat=seat))
            for conn in list(self.relay.conns.values()):
                if conn.seat == seat:
                    self.relay.close(conn, Reason.of("seat-given"), refuse=True)  # final
            self.pending.extendleft((None, m) for m in reversed(owed))
