"""The table controllers: what the table screen (`tui.screens.table.TableScreen`)
calls and reads, whether the table runs in this process (`offline.OfflineTable`)
or over the network (`network.NetTable`), and what the lobby screen reads before
a network table's first hand (`LobbyController`). A controller posts each change
of the table to the screen as a `TableUpdate` (from a thread of its own); no
textual import here: the controllers know nothing of the screen."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from engine.state import Action
from engine.view import SeatView
from protocol.events import Event

from ..notes import Note


@dataclass(frozen=True)
class TableUpdate:
    """What the table screen shows, posted by the controller each time the table changed: the
    person's view, what happened since the last update, and the marks around it. Plain data: the
    screen draws it and keeps nothing else of the table."""

    view: SeatView
    events: tuple[Event | Note, ...] = ()
    """What happened since the last update, in order (the log's lines, the notice's marks)."""
    moving: int | None = None
    """The seat whose move the table waits for, when it is not the person's (a computer player
    thinking, or a person's turn); None: nobody's, or the table stands still (the host gone)."""
    asked: bool = False
    """The person must decide now: the decision `view.legal` describes."""
    hand_over: bool = False
    """A hand has been audited: its summary is due (set on one update per hand)."""
    over: bool = False
    """The table is over (the hands asked for, the series, or stopped on a problem)."""
    failed: str | None = None
    """Why the table cannot go on here (the controller raised, the client stopped)."""
    status: str | None = None
    """A line above the seats: the connection lost and being made again."""
    away: frozenset[int] = frozenset()
    """Seats with no connection now."""
    computers: frozenset[int] = frozenset()
    """Seats a computer player plays: their turn shows as thinking, a person's as their turn."""
    deadline: tuple[int, float] | None = None
    """The seat a time limit runs for, and when it ends (`time.monotonic()`)."""
    coach_allowed: bool = False
    """The person may ask the coach: always against the computer; at a network table only if its
    host allows it (table rule `coach`)."""
    save_problem: str = ""
    """Why the game could not be kept on disk ("" when it is, or nothing keeps it)."""


def merged(earlier: TableUpdate, later: TableUpdate) -> TableUpdate:
    """Two updates as one: the later's table, both updates' events (a screen that held the
    earlier one unseen loses nothing of it)."""
    return replace(later, events=earlier.events + later.events, hand_over=earlier.hand_over or later.hand_over)


class Mailbox:
    """Updates from a controller's thread for the screen's: at most one waits, and those that
    come meanwhile merge into it, so a busy table (or a slow terminal) cannot fill the screen's
    queue. `notify` (it must not block) is called when one starts waiting."""

    def __init__(self, notify: Callable[[], None]) -> None:
        self._notify = notify
        self._lock = threading.Lock()
        self._waiting: TableUpdate | None = None

    def put(self, update: TableUpdate) -> None:
        with self._lock:
            first = self._waiting is None
            self._waiting = update if self._waiting is None else merged(self._waiting, update)
        if first:
            self._notify()

    def take(self) -> TableUpdate | None:
        """The update waiting (None: taken already)."""
        with self._lock:
            update, self._waiting = self._waiting, None
        return update


class TableController(Protocol):
    """A table as the table screen drives it: `open` it with a `post` that takes every update
    (from any thread: it must not block), answer its decisions with `act`, `go_on` after a
    hand's summary, `close` when the screen goes."""

    @property
    def hands(self) -> int | None:
        """Hands asked for (None: the series plays to its end)."""
        ...

    @property
    def plays_itself(self) -> bool:
        """A computer player plays the person's seat (`briscola join --bot`): the table screen
        shows the play and never waits for a key between hands."""
        ...

    @property
    def game(self) -> str:
        """The game's name (the help screen's, before the first view)."""
        ...

    def open(self, post: Callable[[TableUpdate], None]) -> None:
        """Post the table as it is now, and again at every change, until `close`."""
        ...

    def act(self, action: Action) -> None:
        """The person's decision (the one the last update asked for)."""
        ...

    def go_on(self) -> None:
        """The hand's summary was seen: the next hand may start (against the computer, it waits
        for this; a network table goes on by itself)."""
        ...

    def close(self) -> None:
        """The screen is going away: no more updates."""
        ...


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    name: str  # "" while the seat is free
    fingerprint: str  # of the key that holds it ("" while free)
    computer: bool
    me: bool
    away: bool = False  # taken by a player who has no connection now


@dataclass(frozen=True)
class Lobby:
    """What the lobby shows: plain data, published by the network thread."""

    role: str  # host, player or spectator
    game: str = ""
    players: int = 0
    seats: tuple[LobbySeat, ...] = ()
    waiting: str = ""  # who the table waits for, in words
    code: str | None = None  # the join code (only the host shows it)
    level: str = ""  # the level of the host's computer players (only the host knows it)
    addresses: tuple[str, ...] = ()  # where friends join (host), or where we connected
    announced: bool = False  # the table is announced on the LAN: its code alone finds it (host)
    club: str = ""  # the club the table goes through, as `--club` names it ("": none; the addresses: the table's id)
    status: str = ""  # connected, connecting, the connection lost and being made again
    trouble: bool = False  # the connection is not up
    coach: bool | None = None  # the table rule `coach`: the host allows the coach (None: not known yet)
    started: bool = False  # a hand is on (or the table is over): the table screen takes over
    failed: str | None = None  # why this table cannot go on
    log: tuple[str, ...] = ()


class LobbyController(Protocol):
    """A network table before its first hand, as the lobby screen reads it."""

    def lobby(self) -> Lobby:
        """What the lobby shows now (plain data; any thread)."""
        ...

    def watch(self, changed: Callable[[], None]) -> None:
        """Call `changed()` whenever the lobby changes (from another thread: it must not block)."""

    def unwatch(self, changed: Callable[[], None]) -> None:
        """No more calls to `changed`."""

    def stop(self) -> None:
        """Leave the table (blocks until the network is done: run it in a worker)."""
