"""The table controllers: what the table screen (`tui.screens.table.TableScreen`)
calls and reads, whether the table runs in this process (`offline.OfflineTable`)
or over the network (`network.NetTable`), and what the lobby screen reads before
a network table's first hand (`LobbyController`). No textual import here: the
controllers run in worker threads and know nothing of the screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine.state import Action
from engine.view import SeatView
from protocol.events import Event

from ..notes import Note


class Result(Enum):
    """Why `TableController.advance` returned."""

    TURN = "turn"  # the person must decide
    HAND = "hand"  # a hand has been audited
    OVER = "over"  # the table is over
    STOPPED = "stopped"  # `interrupt` was called: the screen waiting is gone


class TableController(Protocol):
    """A table as the table screen drives it. `advance` runs in a worker thread; the
    rest may be read from any thread."""

    hands: int | None
    """Hands asked for (None: the series plays to its end)."""

    save_problem: str
    """Why the game could not be kept on disk ("" when it is, or nothing keeps it)."""

    @property
    def coach_allowed(self) -> bool:
        """The person may ask the coach (`h`, the summary's review): always against the
        computer; at a network table only if its host allows it (table rule `coach`)."""
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

    @property
    def over(self) -> bool:
        """The table is over."""
        ...

    @property
    def status(self) -> str | None:
        """A line for the table screen (the connection lost and being made again), or None."""
        ...

    @property
    def ticking(self) -> bool:
        """The table changes between the screen's looks (a clock, the connection): the screen
        redraws it at every tick."""
        ...

    def advance(self, action: Action | None = None, moved: Callable[[int | None], None] | None = None) -> Result:
        """Act for the person (if `action`), then run or wait until a `Result`; `moved(seat)`
        whenever somebody else is about to move (seat) or has moved (None)."""
        ...

    def snapshot(self) -> tuple[SeatView, list[Event | Note]]:
        """The person's view now, and the events (and notes) since the last snapshot."""
        ...

    def interrupt(self) -> None:
        """Make a waiting `advance` return `Result.STOPPED`: the screen is going away."""
        ...

    def computers(self) -> frozenset[int]:
        """Seats a computer player plays: their turn shows as thinking, a person's as their turn."""
        ...

    def away(self) -> tuple[int, ...]:
        """Seats with no connection now."""
        ...

    def deadline(self) -> tuple[int, float] | None:
        """The seat a time limit runs for and the seconds it has left, or None."""
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
