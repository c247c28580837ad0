"""Network play in the app: the table screen's controller over the network
client (`net.client.Client`), and for the person who hosts, the table server
(`net.server.TableServer`) in the same process.

Everything network runs on its own asyncio loop in a background thread, so
the protocol's CPU work (already pushed to worker threads by the client and
the server) never runs on the UI's loop. The person's seat, when there is
one, is a `Client` like a joiner's, even in the hosting process (it connects
to its own server on the loopback address): one code path, the same
reconnecting, the same seat store on disk.

The loop thread publishes, after each entry it takes in, a `SeatView`, the
lines the client said and a `Lobby` (plain data) under a lock, and calls the
watchers the UI gave (`watch`): the lobby screen posts itself a message from
there, so it redraws when the table changes, and only then. The table
screen's worker thread waits in `advance` for the person's turn, a hand's
audit or the end, exactly as with `offline.OfflineTable`.
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

from ..language import _
from ..net.addresses import addresses
from ..net.client import Client, Options
from ..net.commands import person_name
from ..net.hosting import Hosting
from ..net.reaching import ANOTHER_TABLE
from ..notes import Note, Said
from ..os_errors import os_error_words
from ..render import render, seat_names
from .controller import Lobby, Result
from .lobby_data import table_lobby
from .screen_person import ScreenPerson
from .table_listener import TableListener

LOG_LINES = 40
CLOSING_WAIT = 1.0
"""Seconds to wait, after a hand's audit, for the entry that may close the table."""


class NetError(RuntimeError):
    """The table cannot go on for this client (refused, unreachable, stopped on a bad entry)."""


class NetTable:
    """A networked table for the app: a seat (or a spectator), and the hosted table when
    hosting. `start()` runs it on a background thread; `stop()` ends it."""

    def __init__(self, options: Options, identity: Identity | None = None, hosting: Hosting | None = None):
        self.options, self.identity, self.hosting = options, identity, hosting
        self.role = "host" if hosting is not None else options.role
        self.hands = hosting.server.hands if hosting is not None else None
        self.save_problem = ""  # the seat's store and transcript problems are the client's to say
        self.ticking = True  # a clock runs, the connection comes and goes: the screen redraws at every tick
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.client: Client | None = None
        self.person = ScreenPerson(self.publish)
        self.exit_status: int | None = None
        self._main_task: asyncio.Task | None = None
        self._changed = threading.Condition()
        self._view: SeatView | None = None
        self._events: list[Event | Note] = []
        self._log: deque[str] = deque(maxlen=LOG_LINES)
        self._lobby = Lobby(self.role, status=_("connecting"))
        self._awaiting = False
        self._verdicts = 0
        self._shown: int | None = None  # hands audited when the table opened (older ones are not news)
        self._version = 0
        self._link: str | None = None
        self._failed: str | None = None
        self._over = False
        self._interrupted = False  # the screen waiting in `advance` is gone (the app is closing)
        self._listening: tuple[str, ...] = ()
        self._client_line = ""  # the last thing the client said (why it stopped, when it does)
        self.entry_at = time.monotonic()  # when the last entry arrived
        self._time_limit: int | None = None  # seconds a seat has to send what it owes (the table's rules)
        self._coach = False  # the table rule `coach`: the host allows the coach
        self._watchers: list[Callable[[], None]] = []
        self.gone = False
        """The client was at the table and stopped for good: the host cannot be reached in its
        --retry time, or serves another table now (the app closes, saying why)."""

    @classmethod
    def hosting_table(cls, args, identity: Identity) -> NetTable:
        """Host the table `args` describe (the `briscola host` options) and take a seat at it."""
        from ..net.commands import prepare_host

        lines: list[str] = []
        hosting = prepare_host(args, lines.append)
        name = person_name(args.name or "")  # (prepare_host checked it)
        options = Options(_loopback(args.bind), 0, "player", name, hosting.code or "", 0, None)
        table = cls(options, identity, hosting)
        hosting.server.say = table.host_said
        # The table's events are told once, by the seat's own client (from the transcript it reads,
        # in its words: "you"): the host telling them too wrote each line twice in the lobby.
        hosting.server.tell = lambda event: None
        for line in lines:
            table.host_said(line)
        return table

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

    async def _serve(self, hosting: Hosting) -> asyncio.Task[int] | None:
        """Start the table server; None (and the lobby says why) when it cannot listen."""
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def listening(sockets: list[tuple[str, int]]) -> None:
            ready.set_result(sockets[0][1])

        task = asyncio.create_task(hosting.server.run(hosting.bind, hosting.port, listening, hosting.fallback))
        await asyncio.wait([task, ready], return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            error = task.exception()
            why = os_error_words(error) if error is not None else None
            self._fail(_("cannot listen on port {port}: {why}").format(port=hosting.port, why=why))
            return None
        port = ready.result()
        hosting.listening_on(port)
        self.options.port = port
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
        with self._changed:
            self._events.append(Said(line))

    def client_noted(self, note: Note) -> None:
        """A note of the client's (who sits where, who went, why it stopped): the log keeps its
        words, the screen the note (written with the seats' names)."""
        line = render(note)
        self._log.append(line)
        self._client_line = line
        with self._changed:
            self._events.append(note)

    def client_told(self, event: Event) -> None:
        """An event of the table: the log keeps its words, the screen the event."""
        session = self.client.session if self.client is not None else None
        line = render(event, names=seat_names(session.names, session.players) if session is not None else ())
        self._log.append(line)
        self._client_line = line
        with self._changed:
            self._events.append(event)

    def host_said(self, line: str) -> None:
        self._log.append(line)
        with self._changed:
            self._lobby = replace(self._lobby, log=tuple(self._log), announced=self._announced())
        self._tell_watchers()

    def _announced(self) -> bool:
        announcing = self.hosting.server.announcing if self.hosting is not None else None
        return announcing is not None and announcing.announced

    def link(self, trouble: str | None) -> None:
        """The connection is up (None), or lost and being made again."""
        self._link = trouble
        self.publish()

    def publish(self) -> None:
        """Called on the network thread whenever the table changed: what the UI may read now."""
        session = self.client.session if self.client is not None else None
        awaiting = self.client is not None and self.person.awaiting(self.client)
        view = session.seat_view() if session is not None and session.table is not None else None
        lobby = self._lobby_of(self.client)
        with self._changed:
            self._view = view or self._view
            self._lobby = lobby
            self._awaiting = awaiting
            if session is not None:
                self._time_limit = session.rules.get("time_limit")
                self._coach = bool(session.rules.get("coach"))
                self._over = self._over or session.phase in ("over", "aborted")
                self._verdicts = len(session.verdicts)
                if self._shown is None:
                    self._shown = self._verdicts
            self._version += 1
            self._changed.notify_all()
        self._tell_watchers()

    def watch(self, changed: Callable[[], None]) -> None:
        """Call `changed()` (on the network thread: it must not block) whenever the lobby or the
        table changes; `unwatch` to stop."""
        with self._changed:
            self._watchers.append(changed)

    def unwatch(self, changed: Callable[[], None]) -> None:
        with self._changed:
            if changed in self._watchers:
                self._watchers.remove(changed)

    def _tell_watchers(self) -> None:
        with self._changed:
            watchers = list(self._watchers)
        for changed in watchers:
            changed()

    def _lobby_of(self, client: Client | None) -> Lobby:
        session = client.session if client is not None else None
        status = self._link or (
            _("connected")
            if session is not None
            else _("connecting to {address}").format(address=f"{self.options.address}:{self.options.port}")
        )
        connection = Lobby(
            role=self.role,
            status=status,
            trouble=self._link is not None or session is None,
            failed=self._failed,
            log=tuple(line for line in self._log if line != self._failed),  # why it stopped: said once, as failed
            code=self.hosting.code if self.hosting is not None else None,
            level=self.hosting.level if self.hosting is not None else "",
            addresses=self._listening or (f"{self.options.address}:{self.options.port}",),
            announced=self._announced(),
        )
        if client is None or session is None or session.table is None:
            return connection
        bots = set(self.hosting.server.bots) if self.hosting is not None else set()
        return table_lobby(connection, session, client.seat, client.away, bots)

    # --- what the UI reads (any thread) ----------------------------------------------

    @property
    def coach_allowed(self) -> bool:
        """The host allows the coach at this table (table rule `coach`, `briscola host --coach`)."""
        with self._changed:
            return self._coach

    def lobby(self) -> Lobby:
        with self._changed:
            return self._lobby

    def snapshot(self) -> tuple[SeatView, list[Event | Note]]:
        """The seat's view now, and what was said since the last snapshot."""
        with self._changed:
            events, self._events = self._events, []
            view = self._view
        assert view is not None  # the table screen takes over once the table has opened (a view)
        return view, events

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

    def computers(self) -> frozenset[int]:
        """The seats the lobby shows as computer players (the host's own, and `join --bot` seats)."""
        with self._changed:
            return frozenset(s.seat for s in self._lobby.seats if s.computer)

    def away(self) -> tuple[int, ...]:
        """The seats the host says have no connection now (their player left or was cut off)."""
        client = self.client
        return client.away if client is not None else ()

    @property
    def status(self) -> str | None:
        """A line for the table screen while the connection is being made again."""
        return self._link

    def deadline(self) -> tuple[int, float] | None:
        """The seat the time limit runs for and the seconds it has left, when one runs (the
        host's own computer players are never timed out)."""
        with self._changed:
            view, limit, lobby = self._view, self._time_limit, self._lobby
        if not limit or view is None or view.table_phase in ("join", "seating", "over", "aborted"):
            return None
        computers = {s.seat for s in lobby.seats if s.computer}
        owing = [view.turn] if view.table_phase == "play" else sorted(view.awaited)
        owing = [s for s in owing if s is not None and s not in computers]
        if not owing:
            return None
        return owing[0], limit - (time.monotonic() - self.entry_at)

    def advance(self, action: Action | None = None, moved: Callable[[int | None], None] | None = None) -> Result:
        """Send the person's action (if any), then wait until it is the person's turn (TURN), a hand
        has been audited (HAND), the table is over (OVER) or the wait was interrupted
        (STOPPED); `moved(seat)` at every change in between (seat: whose turn it is, None when it
        is nobody's or ours)."""
        if action is not None:
            self._answer(action)
        seen = -1
        while True:
            with self._changed:
                while self._version == seen and not self._interrupted:
                    self._changed.wait(0.5)
                if self._interrupted:
                    return Result.STOPPED
                seen = self._version
                if self._shown is not None and self._verdicts > self._shown:
                    self._shown += 1
                    if not self._over:  # the entry after a hand's audit may close the table: the summary says so
                        self._wait_for_news(seen, CLOSING_WAIT)
                    return Result.HAND
                if self._over:
                    return Result.OVER
                if self._failed is not None:
                    raise NetError(self._failed)
                if self._awaiting:
                    return Result.TURN
                view = self._view
            if moved is not None and view is not None:
                # Nobody is thinking while the host is gone: the status line says what is going on.
                playing = view.turn != view.seat and view.table_phase == "play" and self._link is None
                moved(view.turn if playing else None)

    def _wait_for_news(self, seen: int, timeout: float) -> None:
        """Wait (holding `_changed`) until the table changes after version `seen`, `timeout` at most."""
        self._changed.wait_for(lambda: self._version > seen, timeout)

    def interrupt(self) -> None:
        """Make a waiting `advance` return Result.STOPPED now (and any later one at once): the screen that
        waits is going away, and the app cannot close while a thread of it waits."""
        with self._changed:
            self._interrupted = True
            self._changed.notify_all()

    def _answer(self, action: Action) -> None:
        with self._changed:
            self._awaiting = False

        assert self.loop is not None  # the person answers a turn the running table asked for
        self.loop.call_soon_threadsafe(self.person.deliver, action)


def _loopback(bind: str) -> str:
    """Where the hosting process's own seat connects to its server."""
    return {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(bind, bind)


def _cancel_the_rest(loop: asyncio.AbstractEventLoop) -> None:
    """Tasks the client left behind when it was stopped (a read, the person's answer)."""
    rest = asyncio.all_tasks(loop)
    for task in rest:
        task.cancel()
    if rest:
        loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
