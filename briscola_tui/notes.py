"""What a node says beside the table's events (a network client's word, a resumed game):
data like `protocol.events`, one frozen type per kind, and `Note` their union.
`render.render` writes each in words."""

from __future__ import annotations

from dataclasses import dataclass

from protocol.audit import Culprit


@dataclass(frozen=True)
class AtTable:
    """This node sits at (or watches, `seat` None) table `table` (its id in hex) of `game`."""

    seat: int | None
    table: str
    game: str


@dataclass(frozen=True)
class SoFar:
    """Who sits where: `names` on `seats`, and how many hands were scored before."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    scored: int = 0


@dataclass(frozen=True)
class Away:
    """A seat has no connection now (`name`, if known)."""

    seat: int
    name: str | None = None


@dataclass(frozen=True)
class Back:
    """A seat that was away is back."""

    seat: int
    name: str | None = None


@dataclass(frozen=True)
class HostBack:
    """The connection to the host, lost, is up again: the table goes on."""


def away_changes(before: tuple[int, ...], now: tuple[int, ...], names: dict[int, str]) -> list[Away | Back]:
    """The seats gone away and come back between two words of the host on who is away."""
    gone = [Away(seat, names.get(seat)) for seat in now if seat not in before]
    return [*gone, *(Back(seat, names.get(seat)) for seat in before if seat not in now)]


@dataclass(frozen=True)
class Stopping:
    """This node stops, and why; the seat (or "host") named, if one is."""

    reason: str
    culprit: int | str | None = None


@dataclass(frozen=True)
class TableStopped:
    """The table stopped, naming these."""

    culprits: tuple[Culprit, ...]


@dataclass(frozen=True)
class TableOver:
    """The table is over: the final scores, and why the host closed it (if it said)."""

    scores: tuple[int, ...]
    reason: str | None = None


@dataclass(frozen=True)
class Resumed:
    """A game resumed from disk: in `hand` (from 0), or after `scored` hands."""

    hand: int | None = None
    scored: int = 0


@dataclass(frozen=True)
class Said:
    """Words of the app's own or an error's, written as they are."""

    text: str


Note = AtTable | SoFar | Away | Back | HostBack | Stopping | TableStopped | TableOver | Resumed | Said
"""Everything a node says beside the events."""
