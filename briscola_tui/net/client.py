"""`briscola join` and `briscola watch`: a seat or a spectator over the network.

A client connects to the host, does the handshake (`protocol/handshake.py`:
SPAKE2 over the join code, then every frame sealed with the keys it gave,
`protocol/channel.py`), receives the transcript and runs its own `TableSession` over it: it checks
every entry itself, and sends what its seat owes. Its identity key, its
seat's secrets (`FileSeatStore`) and its copy of the transcript live in the
user's data folder, written before they are needed; so a client whose
connection drops reconnects by itself, and one killed and started again with
the same command takes its seat back where it was.

Whoever runs a client hears from it through a `Listener` (lines, events,
notes, the connection coming and going, the table changing) and answers for
a person's seat through a `Person`. Headless (`briscola join --headless`),
the listener prints lines and the person is the `Keyboard`: one action label
per line on standard input. The app's network table
(`briscola_tui.tables.network`) gives its own listener and person, the screen.
"""

from __future__ import annotations

import asyncio
import random
from functools import partial

from engine.labels import labels
from engine.state import Action
from protocol import handshake as hs
from protocol.channel import Channel, Exchange, WrongCode
from protocol.codec import FrameReader, frame
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.events import Event
from protocol.identity import Identity
from protocol.reasons import Reason
from protocol.session import TableSession
from protocol.tableid import derived
from protocol.transcript import HOST

from .. import notes
from ..engine_words import protocol_error_words, reason_words
from ..files.storage import TranscriptFile
from ..language import _
from ..render import seat_names
from . import reaching
from .asking import Asking, NotAMove, move_of
from .carrier import CarriedPlaces
from .link import Link
from .listener import Keyboard, Listener, Person
from .places import Places
from .reaching import FIRST_CONTACT_SECONDS, Busy, Distrusted, Options, Refused, exit_status, refusal, why
from .seat_copy import final, held, holding, rebuild, recent_host_keys, seated, so_far, this_hand, unconfirmed
from .thinking import think
from .watching import Watching


class Client:
    """One seat (or a spectator) at a networked table. `session_class` builds the seat's
    session (the cheating seats of the tests give theirs)."""

    def __init__(
        self,
        options: Options,
        listener: Listener,
        identity: Identity | None = None,
        person: Person | None = None,
        session_class: type[TableSession] = TableSession,
    ):
        self.options, self.listener, self.identity = options, listener, identity
        self.person: Person = person if person is not None else Keyboard(None, listener.line)
        self.session_class = session_class
        self.asking = Asking(self.person)
        self.receiving = asyncio.Lock()  # held while the session takes an entry in (in a worker thread)
        self.session: TableSession | None = None
        self.seat: int | None = None
        self.table_id: bytes | None = None
        self.log: TranscriptFile | None = None
        self.rng = random.Random()
        self.link: Link | None = None  # to the host, while connected
        self.channel: Channel | None = None  # this connection's, once the key exchange is done
        self.ended: str | None = None
        self.away: tuple[int, ...] = ()  # the seats the host says have no connection
        self._lost = False  # the connection was lost, and that was said (once per loss)
        self.watching: Watching | None = None  # a spectator's broadcast, through a carrier that fans out
        # where the host is tried: there, then where the LAN says; or through the carrier (a club)
        self.places: Places | CarriedPlaces = options.places or Places(options.address, options.port)

    # --- connecting, and connecting again -----------------------------------------------

    async def run(self) -> int:
        delay, waited = 0.2, 0.0
        while self.ended is None:
            try:
                await self._connection()
                delay, waited = 0.2, 0.0
            except reaching.AnotherTable as another:
                self.listener.line(str(another))
                return reaching.ANOTHER_TABLE
            except Distrusted as distrust:
                self.listener.note(notes.Stopping(str(distrust)))
                return 2
            except Refused as refused:
                self.listener.line(refusal(str(refused), self.options.code))
                return 2
            except (ConnectionError, OSError, asyncio.IncompleteReadError, ProtocolError) as error:
                # A host that sends what cannot be read (not a refused entry: `_take` stops on
                # that) is treated as a lost connection: try again, as long as --retry allows.
                if self.ended is not None:
                    break
                if isinstance(error, reaching.Unconfirmed) and self.session is None:
                    self.listener.line(refusal(error.reason, self.options.code))  # never at the table: nothing kept
                    return 2
                if self.session is None and not isinstance(error, Busy):
                    # Never at this table: a host that is not there is said in a few seconds.
                    if waited >= FIRST_CONTACT_SECONDS:
                        self.listener.line(reaching.unreachable(error, self.places.where()))
                        return 1
                elif waited >= self.options.retry_seconds:  # (never at the table: no seat kept to come back to)
                    given_up = reaching.given_up if self.session is not None else reaching.unreachable_at
                    self.listener.line(given_up(self.places.where(), self.options.retry_seconds, error))
                    return 1
                pause = self._pause(error, delay, waited)
                await asyncio.sleep(pause)
                waited += pause
                delay = reaching.next_pause(delay, seated=self.session is not None)
                if self.session is not None and not isinstance(error, Busy):
                    waited += await self.places.next(self.table_id, self.listener.line)
        return exit_status(self.session)

    def _pause(self, error: BaseException, delay: float, waited: float) -> float:
        """How long to wait before the next try, said with what is waited for and how long is left."""
        left = self.options.retry_seconds - waited
        if isinstance(error, Busy):
            # Not before the host says, backing off all the same (a little at random: not all back together).
            pause = min(max(delay, error.seconds) * random.uniform(1.0, 1.25), left)
            line = _("the host is busy ({reason}); trying again in {seconds:.1f} s")  # the reason: the host's
            self.listener.retrying(line.format(reason=why(error), seconds=pause), paced=True)
            return pause
        if self.session is not None and not self._lost:
            self._lost = True  # said once as lost, then as tries
            self.listener.lost(_("connection lost"), error)
            line = _("connection lost ({why}); trying {address} again for up to {seconds:g} s")
            self.listener.retrying(line.format(why=why(error), address=self.places.where(), seconds=left))
        elif self.session is not None:
            self.listener.retrying(reaching.still_trying(self.places.where(), error, left))
        return delay

    async def _connection(self) -> None:
        # a spectator through a carrier that fans out: its broadcast, heard from before it connects
        heard = await self.places.watch() if self.options.role == "spectator" else None
        self.watching = Watching(heard) if heard is not None else None
        try:
            link = await self.places.connect()
            try:
                await self._connected(link)
            finally:
                link.close()
        finally:
            if self.watching is not None:
                self.watching.close()
                self.watching = None

    async def _connected(self, link: Link) -> None:
        self.link, self.channel = link, None
        frames = FrameReader()
        try:
            backlog = await self._handshake(link, frames)
            back, self._lost = self._lost, False
            self.listener.connected()
            if back:
                self.listener.note(notes.HostBack())
            await self._catch_up(backlog)
            self.listener.changed()
            await self._play(link, frames)
            if self.ended is not None:  # the host waits for this before it stops serving the table
                self._send(hs.bye(Reason.of("done")))
                await asyncio.wait_for(link.drain(), 5)
        except asyncio.CancelledError:
            if self.options.role == "spectator":  # it leaves on purpose: the host need not wait for it
                self._send(hs.bye(Reason.of("spectator-left")))
            raise

    async def _read(self, link: Link, frames: FrameReader) -> tuple[str, list]:
        while True:
            data = frames.next_frame()
            if data is not None:
                if self.channel is not None:
                    data = self.channel.open(data)  # a frame changed, replayed or moved on the way: closed
                kind, fields = hs.parse(data)
                if kind == "bye":
                    raise _closed_by_host(fields[0])
                if kind in ("refuse", "busy") and self.channel is None:
                    raise reaching.in_the_clear(kind, fields)  # anyone on the way could have said it
                if kind == "refuse":
                    raise Refused(fields[0])
                if kind == "busy":
                    raise Busy(fields[0], fields[1])
                if kind == "away":
                    self._away(fields[0])
                    continue
                if kind == "watch":
                    if self.watching is None or self.table_id is None:
                        raise RemoteProtocolError("a broadcast's key, where there is no broadcast")
                    self.watching.keyed(fields[0], self.table_id)  # (the next entry comes by the broadcast)
                return kind, fields
            chunk = await link.read()
            if not chunk:
                raise ConnectionError(_("the connection ended without a word from the host"))
            frames.feed(chunk)

    async def _entry(self, link: Link, frames: FrameReader) -> bytes:
        """The host's next frame, which must be an entry."""
        kind = "watch"
        while kind == "watch":
            if self.watching is not None and self.watching.on:
                kind, fields = await self._watched()
            else:
                kind, fields = await self._read(link, frames)
        if kind != "entry":
            raise RemoteProtocolError(f"expected an entry, not {kind}")
        return fields[0]

    async def _watched(self) -> tuple[str, list]:
        """A spectator's next frame from the broadcast (its connection let go: net/fanout.py)."""
        assert self.watching is not None  # (keyed)
        while True:
            kind, fields = await self.watching.frame(held(self.session))
            if kind == "away":
                self._away(fields[0])
            elif kind == "bye":
                raise _closed_by_host(fields[0])
            else:
                return kind, fields

    def _send(self, data: bytes) -> None:
        """A frame to the host: sealed once the key exchange is done (sealed and written in one
        step, so the frame counter follows the order on the wire)."""
        assert self.link is not None  # (connected)
        self.link.write(frame(self.channel.seal(data) if self.channel is not None else data))

    def _away(self, seats: tuple[int, ...]) -> None:
        """The host says which seats have no connection now: say who went and who came back."""
        for note in notes.away_changes(self.away, seats, self.session.names if self.session is not None else {}):
            self.listener.note(note)
        self.away = seats
        self.listener.changed()

    # --- the handshake ---------------------------------------------------------------------

    async def _handshake(self, link: Link, frames: FrameReader) -> list[bytes]:
        opts = self.options
        table_id, binding = await self._exchange(link, frames)
        key = self.identity.public_bytes if self.identity is not None else b""
        have, head = holding(self.session)
        asked = opts.seat if self.seat is None else self.seat  # coming back: the seat it had, no other
        self._send(hs.request(opts.role, key, opts.name, asked, have, head))  # sealed: nobody on the way sees it
        kind, fields = await self._read(link, frames)
        if kind == "challenge" and self.identity is not None:
            self._send(hs.proof(self.identity, fields[0], table_id, binding))
            kind, fields = await self._read(link, frames)
        if kind != "welcome":
            raise RemoteProtocolError(f"expected welcome, not {kind}")
        welcomed, seat, count = fields
        if welcomed != table_id:
            raise RemoteProtocolError("the welcome names another table than the key exchange")
        held = self.seat if self.session is not None else None
        reaching.check_seat(self.options.role, held, None if seat < 0 else seat, asked)
        self.table_id, self.seat = table_id, (None if seat < 0 else seat)
        backlog = []
        for _entry in range(count):
            backlog.append(await self._entry(link, frames))
        return backlog

    async def _exchange(self, link: Link, frames: FrameReader) -> tuple[bytes, bytes]:
        """SPAKE2 over the join code and its key confirmation, in the clear; then this
        connection's channel. The table's id and the exchange's transcript hash."""
        exchange = Exchange("client", self.options.code)
        named = self.identity if self.options.role == "player" else None  # a seat's key spends its own tries
        self._send(hs.hello(exchange.message, named, self._host_keys() if named else []))
        kind, fields = await self._read(link, frames)  # a refusal is Unconfirmed; one for load (busy) is Busy
        if kind != "exchange":
            raise RemoteProtocolError(f"expected the key exchange, not {kind}")
        table_id, theirs = fields
        if self.table_id is not None and table_id != self.table_id:
            if self.places.named_by_lan:  # (as an old record may: not where the table was)
                raise ConnectionError(_("another table answers there"))
            raise reaching.AnotherTable(reaching.another_table(self.places.where(), table_id, self.table_id))
        if self.table_id is None and self.options.table is not None and table_id != self.options.table:
            raise Distrusted(reaching.impostor(self.places.where(), table_id, self.options.table))
        exchange.finish(theirs, table_id, hs.VERSION)
        self._send(hs.confirm(exchange.confirmation()))
        kind, fields = await self._read(link, frames)  # a wrong code: Unconfirmed("wrong join code")
        if kind != "confirm":
            raise RemoteProtocolError(f"expected the host's key confirmation, not {kind}")
        try:
            exchange.check(fields[0])
        except WrongCode:
            if self.places.named_by_lan:  # (whoever answers there now, not the table's host)
                raise ConnectionError(_("the host there did not prove it holds the join code")) from None
            raise Distrusted(
                _("the host did not prove it holds the join code (is someone between you and the host?)")
            ) from None
        self.channel = exchange.channel()
        return table_id, exchange.transcript

    def _host_keys(self) -> list[bytes]:
        """The table keys this player's hello is marked for: its table's, once it holds it; else
        those of the tables it sat at lately (a process started again)."""
        if self.session is not None and HOST in self.session.keys:
            return [self.session.keys[HOST]]
        return recent_host_keys()

    async def _catch_up(self, backlog: list[bytes]) -> None:
        """Take in what the host sent since we last held the table (all of it, the first time)."""
        if self.session is None:
            assert self.table_id is not None  # (welcomed)
            heard: list[Event] = []  # the transcript's events, for the hand so far
            rebuilt = partial(rebuild, backlog, self.table_id, self.seat, self.identity, self.options.name)
            self.log, session, owed = await asyncio.to_thread(
                rebuilt, self.session_class, self.options.person, self.options.bot_level, heard
            )
            if not derived(self.table_id, session.keys.get(HOST, b"")):
                raise Distrusted(_("the host's table id is not its key's fingerprint: this is not the table it names"))
            self.session = session
            self.submit(owed)  # written here, on the event loop's thread (a transport is not thread-safe)
            self.listener.note(seated(session, self.seat, self.table_id))  # "seat 2 at table ...": where it sits
            self._name_seats()
            summary = so_far(session)
            if summary is not None:
                self.listener.note(summary)
            for event in this_hand(heard):  # the hand it finds: the trump, the tricks, the table
                self.listener.event(event)
            self._come_back()  # timed out while it was gone, and nothing more may come before its join
            self._check_over()
            return
        for data in backlog:
            await self._take(data)
        self.submit(unconfirmed(self.session))  # sent before the drop, never ordered: the very same bytes

    def _name_seats(self) -> None:
        session = self.session
        assert session is not None  # (caught up)
        self.listener.named(seat_names(session.names, session.players))

    # --- the table -------------------------------------------------------------------------

    async def _play(self, link: Link, frames: FrameReader) -> None:
        """Take entries as they come; on this seat's turn, decide. A person's seat keeps
        reading the table while it waits for a line (a time-out, or the host closing, is
        seen at once), and asks again only when what it may do has changed."""
        while self.ended is None:
            session = self.session
            assert session is not None  # (caught up)
            if session.my_turn() and self.options.player is not None:
                self._act(await think(self.options.player, session.seat_view(), self.rng))
                continue
            if session.my_turn():
                state = session.seat_view().state
                assert state is not None  # (its turn: a hand in progress)
                self.asking.ask(labels(state))
                answer, data = await self.asking.answer_or_entry(lambda: self._entry(link, frames))
                if data is None:
                    self._answer(answer)
                    continue
            else:
                self.asking.passed()
                data = await self._entry(link, frames)
            await self._take(data)

    def answer_given(self) -> bool:
        """The person has answered, and the answer waits to be taken (after a reconnection)."""
        return self.asking.answer_given()

    def _answer(self, answer: object) -> None:
        """A person's answer on its turn: the move it names (`asking.move_of`), or why it is not one."""
        if answer is None:
            self.listener.line(_("no more input: leaving the table"))
            self.ended = "input closed"
            return
        assert self.session is not None  # (caught up)
        try:
            action = move_of(answer, self.session)
            if action is not None:
                self._act(action)
        except NotAMove as error:
            self.listener.line(_("not a move: {error}").format(error=error))
        except LocalProtocolError as error:
            self.listener.line(_("not a move: {error}").format(error=protocol_error_words(error)))

    def _act(self, action: Action) -> None:
        assert self.session is not None  # (caught up)
        self.submit(self.session.act(action).messages)
        self.listener.changed()

    def submit(self, messages: list[bytes]) -> None:
        """Send messages of this seat's (signed by its session) to the host, to be ordered."""
        for message in messages:
            self._send(hs.submit(message))

    async def _take(self, data: bytes) -> None:
        session = self.session
        assert session is not None  # (caught up)
        try:
            async with self.receiving:  # another task touching the session waits for this
                update = await asyncio.to_thread(session.receive, data)
        except ProtocolError as error:
            culprit = error.culprit if isinstance(error, RemoteProtocolError) else None
            self.listener.note(notes.Stopping(protocol_error_words(error), culprit))
            self.ended = "refused an entry"
            self.listener.took_entry()
            return
        if self.log is not None:
            self.log.append(data)
        self._name_seats()
        for event in update.events:
            self.listener.event(event)
        self.submit(update.messages)
        self._come_back()
        self._check_over()
        self.listener.took_entry()

    def _come_back(self) -> None:
        """Timed out but still here: take the seat back with this key (when the table waits for it)."""
        session, identity = self.session, self.identity
        assert session is not None  # (caught up)
        if (
            self.seat is not None
            and identity is not None
            and session.phase == "seating"
            and self.seat in session.absent
            and session.keys.get(self.seat) == identity.public_bytes
        ):
            messages = session.rejoin().messages
            if messages:
                self.listener.line(_("you were timed out: taking your seat back"))
            self.submit(messages)

    def _check_over(self) -> None:
        """The table is over (a restarted client may find it so): this client is done."""
        session = self.session
        assert session is not None  # (caught up)
        if self.ended is None and session.phase in ("over", "aborted"):
            self.ended = session.phase
            if self.log is not None:
                self.log.sync()
            self.listener.note(final(session))


def _closed_by_host(reason: str) -> ConnectionError:
    """The host's goodbye (over the connection, or on a club's broadcast), as the error the client retries on."""
    return ConnectionError(_("the host closed the connection: {reason}").format(reason=reason_words(reason)))
