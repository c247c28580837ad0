"""Network play in the app: the table screen's controller over the network
client (`net.client.Client`), and for the person who hosts, the table server
(`net.server.TableServer`) in the same process.

Everything network runs on its own asyncio loop in a background thread, so
the protocol's CPU work (already pushed to worker threads by the client and
the server) never runs on the UI's loop. The person's seat, when there is
one, is a `Client` like a joiner's, even in the hosting process (it connects
to its own server on the loopback address): one code path, the same
reconnecting, the same seat store on disk.

The loop thread publishes whenever the table changed (an entry taken in, a line
said, the connection lost or back, a seat away or back): a `Lobby` (plain data)
for the lobby screen, which `watch` tells so that it redraws then and only then,
and, once the table screen has opened the table (`open`), a `TableUpdate` posted
to it: the seat's view, the events since the last one and the marks. The screen
answers with `act` (the person's decision, handed to the loop thread). No
thread waits for the table: the screen draws what it is given when it is given.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace

from engine.state import Action
from engine.view import SeatView
from protocol.events import Event
from protocol.identity import Identity
from protocol.session import TableSession

from ..language import _
from ..net.addresses import addresses
from ..net.carrier import Carrier
from ..net.client import Client, Options
from ..net.hosting import Hosting, cannot_listen
from ..net.reaching import ANOTHER_TABLE
from ..notes import Note, Said
from ..render import render, seat_names
from .controller import Lobby, TableUpdate
from .lobby_data import table_lobby
from .screen_person import ScreenPerson
from .table_listener import TableListener

LOG_LINES = 40
EVENTS_KEPT = 500
"""The most events kept for the table screen before it opens the table (the lobby's joins and
leaves; a hand has fewer than 200): the oldest go first."""
CLOSING_WAIT = 1.0
"""Seconds a hand's summary waits, after the hand's audit, for the entry that may close the table
(the summary then says the table is over)."""


class NetTable:
    """A networked table for the app: a seat (or a spectator), and the hosted table when
    hosting. `start()` runs it on a background thread; `stop()` ends it."""

    def __init__(
        self,
        options: Options,
        identity: Identity | None = None,
        hosting: Hosting | None = None,
        carrier: Carrier | None = None,
        club: str = "",
    ):
        self.options, self.identity, self.hosting = options, identity, hosting
        self.carrier = carrier  # what carries the connections, if not TCP (a club): closed at the end
        self.club = club  # the club the table goes through, as `--club` names it ("": none)
        self.role = "host" if hosting is not None else options.role
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.client: Client | None = None
        self.person = ScreenPerson(self.publish)
        self.exit_status: int | None = None
        self._main_task: asyncio.Task | None = None
        self._lock = threading.Lock()  # the lobby, the watchers and the post, which the UI's thread reads
        self._events: deque[Event | Note] = deque(maxlen=EVENTS_KEPT)  # (the loop thread's: since the last update)
        self._log: deque[str] = deque(maxlen=LOG_LINES)
        self._lobby = Lobby(self.role, status=_("connecting"))
        self._watchers: list[Callable[[], None]] = []
        self._post: Callable[[TableUpdate], None] | None = None  # the table screen's, once it opened the table
        self._last: TableUpdate | None = None  # the last update posted (one that changes nothing is not)
        self._shown: int | None = None  # hands audited that the screen was told of (None: not opened yet)
        self._hand_due = False  # a hand's audit waited CLOSING_WAIT: its summary is due now
        self._hand_timer: asyncio.TimerHandle | None = None
        self._link: str | None = None
        self._failed: str | None = None
        self._over = False
        self._listening: tuple[str, ...] = ()  # where friends join the host's table (set once it listens)
        if hosting is not None and carrier is not None:  # (through a club: the table's id names it there)
            self._listening = (hosting.table_id.hex(),)
        self._client_line = ""  # the last thing the client said (why it stopped, when it does)
        self.entry_at = time.monotonic()  # when the last entry arrived
        self.gone = False
        """The client was at the table and stopped for good: the host cannot be reached in its
        --retry time, or serves another table now (the app closes, saying why)."""

    @property
    def hands(self) -> int | None:
        """The hands the table was asked for (None: the whole series): the host's own, or the
        table rule `hands` its first message carries (None until a seat or a spectator has it,
        and at a table hosted by a version that did not say)."""
        if self.hosting is not None:
            return self.hosting.server.hands
        session = self.client.session if self.client is not None else None
        hands = session.rules.get("hands") if session is not None else None
        return hands if isinstance(hands, int) and not isinstance(hands, bool) and hands > 0 else None

    # --- the network thread ----------------------------------------------------------

    def start(self) -> NetTable:
        self.thread = threading.Thread(target=self._run, name="briscola-network", daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        loop = self.loop = asyncio.new_event_loop()
        try:
            self._main_task = loop.create_task(self._main())
            loop.run_until_complete(self._main_task)
        except asyncio.CancelledError:
            pass
        except Exception as error:  # shown in the lobby or on the table, never a silent stop
            self._fail(_("the network client stopped: {kind}: {error}").format(kind=type(error).__name__, error=error))
            raise
        finally:
            _cancel_the_rest(loop)
            if self.hosting is not None:
                self.hosting.close()
            loop.close()

    async def _main(self) -> None:
        hosting, server_task = self.hosting, None
        try:
            if hosting is not None:
                server_task = await self._serve(hosting)
                if server_task is None:
                    return
            client = self.client = Client(self.options, TableListener(self), self.identity, self.person)
            self.exit_status = await client.run()
            self._ended(client)
            if hosting is not None and server_task is not None:
                await asyncio.wait_for(asyncio.shield(server_task), hosting.server.limits.linger_seconds + 5)
        except TimeoutError:
            pass
        finally:
            if server_task is not None and not server_task.done():
                server_task.cancel()
                await asyncio.gather(server_task, return_exceptions=True)
            if self.carrier is not None:
                await self.carrier.close()

    async def _serve(self, hosting: Hosting) -> asyncio.Task[int] | None:
        """Start the table server; None (and the lobby says why) when it cannot listen."""
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def listening(sockets: list[tuple[str, int]]) -> None:
            ready.set_result(sockets[0][1] if sockets else 0)  # (none through a club)

        task = asyncio.create_task(hosting.server.run(hosting.bind, hosting.port, listening, hosting.fallback))
        await asyncio.wait([task, ready], return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            error = task.exception()
            self._fail(cannot_listen(hosting.port, error or OSError(), "app"))
            return None
        port = ready.result()
        hosting.listening_on(port)
        self.options.port = port
        if self.carrier is None:
            self._listening = tuple(addresses(hosting.bind, port))
        self.publish()
        return task

    def _ended(self, client: Client) -> None:
        status, session = self.exit_status, client.session
        if session is not None and session.phase in ("over", "aborted"):
            self._over = True
        elif status != 0:
            said = self._client_line
            self._link = None  # no longer trying: the failure says why it stopped
            # (1 with the client not ended: its --retry time ran out; ended, it stopped on a bad entry)
            self.gone = session is not None and (status == ANOTHER_TABLE or status == 1 and client.ended is None)
            self._fail(said or _("the client stopped (status {status})").format(status=status))
        else:
            self._over = True
        self.publish()

    def _fail(self, why: str) -> None:
        self._failed = why
        self.publish()

    def stop(self, timeout: float = 10.0) -> None:
        """End the table here (the seat's store and transcript stay on disk: the same command resumes)."""
        loop, task = self.loop, self._main_task
        if loop is not None and task is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop has just closed
                pass
        if self.thread is not None:
            self.thread.join(timeout)

    # --- what the network thread tells ---------------------------------------------

    def client_said(self, line: str, retrying: bool = False) -> None:
        self._log.append(line)
        if not retrying and "; trying again" not in line:  # the client's own retry chatter
            self._client_line = line
        self._events.append(Said(line))
        self.publish()

    def client_noted(self, note: Note) -> None:
        """A note of the client's (who sits where, who went, why it stopped): the log keeps its
        words, the screen the note (written with the seats' names)."""
        line = render(note)
        self._log.append(line)
        self._client_line = line
        self._events.append(note)
        self.publish()

    def client_told(self, event: Event) -> None:
        """An event of the table: the log keeps its words, the screen the event."""
        session = self.client.session if self.client is not None else None
        line = render(event, names=seat_names(session.names, session.players) if session is not None else ())
        self._log.append(line)
        self._client_line = line
        self._events.append(event)

    def host_said(self, line: str) -> None:
        self._log.append(line)
        with self._lock:
            self._lobby = replace(self._lobby, log=tuple(self._log), announced=self._announced())
        self._tell_watchers()

    def _where(self) -> str:
        """Where the client connects: HOST:PORT, or the club that carries the table."""
        return self.carrier.label if self.carrier is not None else f"{self.options.address}:{self.options.port}"

    def _announced(self) -> bool:
        announcing = self.hosting.server.announcing if self.hosting is not None else None
        return announcing is not None and announcing.announced

    def link(self, trouble: str | None) -> None:
        """The connection is up (None), or lost and being made again."""
        self._link = trouble
        self.publish()

    def publish(self) -> None:
        """Called on the network thread whenever the table changed: the lobby as it is now, and
        for the table screen (once it opened the table) an update."""
        session = self.client.session if self.client is not None else None
        if session is not None and session.phase in ("over", "aborted"):
            self._over = True
        lobby = self._lobby_of(self.client)
        with self._lock:
            self._lobby = lobby
            post = self._post
        self._tell_watchers()
        if post is not None and session is not None and session.table is not None:
            update = self._update(session)
            if update.events or replace(update, events=()) != self._last:
                self._last = replace(update, events=())
                post(update)

    def _update(self, session: TableSession) -> TableUpdate:
        """The seat's view now, the events since the last update and the marks around them."""
        assert self.client is not None  # (a session is the client's)
        view = session.seat_view()
        events = tuple(self._events)
        self._events.clear()
        computers = frozenset(s.seat for s in self._lobby.seats if s.computer)
        playing = view.turn != view.seat and view.table_phase == "play" and self._link is None
        return TableUpdate(
            view,
            events,
            moving=view.turn if playing else None,  # nobody moves while the host is gone
            asked=self.person.awaiting(self.client),
            hand_over=self._hand_over(session),
            over=self._over,
            failed=self._failed,
            status=self._link,
            away=frozenset(self.client.away),
            computers=computers,
            deadline=self._deadline(view, session, computers),
            coach_allowed=bool(session.rules.get("coach")),
        )

    def _hand_over(self, session: TableSession) -> bool:
        """A hand audited since the last one the screen was told of, once its closing entry came
        (the table over) or `CLOSING_WAIT` went by without one: its summary is due now."""
        if self._shown is None or len(session.verdicts) <= self._shown:
            return False
        if not (self._over or self._hand_due or self._failed is not None) and self._wait_for_closing():
            return False
        if self._hand_timer is not None:
            self._hand_timer.cancel()
        self._shown, self._hand_due, self._hand_timer = self._shown + 1, False, None
        return True

    def _wait_for_closing(self) -> bool:
        """Give the entry that may close the table `CLOSING_WAIT` to come; False if it cannot
        come any more (the loop has ended)."""
        if self._hand_timer is None:
            if self.loop is None or self.loop.is_closed():
                return False
            self._hand_timer = self.loop.call_later(CLOSING_WAIT, self._hand_waited)
        return True

    def _hand_waited(self) -> None:
        self._hand_timer, self._hand_due = None, True
        self.publish()

    def _deadline(self, view: SeatView, session: TableSession, computers: frozenset[int]) -> tuple[int, float] | None:
        """The seat the time limit runs for and when it ends, when one runs (the host's own
        computer players are never timed out)."""
        limit = session.rules.get("time_limit")
        if not limit or view.table_phase in ("join", "seating", "over", "aborted"):
            return None
        owing = [view.turn] if view.table_phase == "play" else sorted(view.awaited)
        owing = [s for s in owing if s is not None and s not in computers]
        return (owing[0], self.entry_at + limit) if owing else None

    def watch(self, changed: Callable[[], None]) -> None:
        """Call `changed()` (on the network thread: it must not block) whenever the lobby or the
        table changes; `unwatch` to stop."""
        with self._lock:
            self._watchers.append(changed)

    def unwatch(self, changed: Callable[[], None]) -> None:
        with self._lock:
            if changed in self._watchers:
                self._watchers.remove(changed)

    def _tell_watchers(self) -> None:
        with self._lock:
            watchers = list(self._watchers)
        for changed in watchers:
            changed()

    def _lobby_of(self, client: Client | None) -> Lobby:
        session = client.session if client is not None else None
        status = self._link or (
            _("connected") if session is not None else _("connecting to {address}").format(address=self._where())
        )
        connection = Lobby(
            role=self.role,
            status=status,
            trouble=self._link is not None or session is None,
            failed=self._failed,
            log=tuple(line for line in self._log if line != self._failed),  # why it stopped: said once, as failed
            code=self.hosting.code if self.hosting is not None else None,
            level=self.hosting.level if self.hosting is not None else "",
            addresses=self._listening or (self._where(),),
            announced=self._announced(),
            club=self.club,
        )
        if client is None or session is None or session.table is None:
            return connection
        bots = set(self.hosting.server.bots) if self.hosting is not None else set()
        return table_lobby(connection, session, client.seat, client.away, bots)

    # --- what the UI calls (its own thread) -----------------------------------------

    def lobby(self) -> Lobby:
        with self._lock:
            return self._lobby

    @property
    def plays_itself(self) -> bool:
        """`briscola join --bot`: a computer player plays the seat."""
        return self.options.player is not None

    @property
    def game(self) -> str:
        return self._lobby.game

    @property
    def players(self) -> int:
        return self._lobby.players

    @property
    def over(self) -> bool:
        return self._over

    def open(self, post: Callable[[TableUpdate], None]) -> None:
        """The table screen takes over: the table as it is now, then an update at every change.
        Hands audited before are not news (the lobby, or a seat taken back, saw them)."""
        with self._lock:
            self._post = post
        self._on_loop(self._opened)

    def _opened(self) -> None:
        session = self.client.session if self.client is not None else None
        self._shown = len(session.verdicts) if session is not None else 0
        self._last = None
        self.publish()

    def act(self, action: Action) -> None:
        """The person's decision, handed to the network thread (which publishes the move)."""
        self._on_loop(lambda: self.person.deliver(action))

    def go_on(self) -> None:
        """Nothing to do: the network table never waits for a summary to be seen."""

    def close(self) -> None:
        """The table screen is gone: no more updates (the table runs on until `stop`)."""
        with self._lock:
            self._post = None

    def _on_loop(self, call: Callable[[], None]) -> None:
        """Run `call` on the network thread; at once here if that thread has ended (nothing
        else touches the table then)."""
        loop = self.loop
        try:
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(call)
                return
        except RuntimeError:  # the loop has just closed
            pass
        if self.thread is None or not self.thread.is_alive():
            call()


def _cancel_the_rest(loop: asyncio.AbstractEventLoop) -> None:
    """Tasks the client left behind when it was stopped (a read, the person's answer)."""
    rest = asyncio.all_tasks(loop)
    for task in rest:
        task.cancel()
    if rest:
        loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
