"""The facts of a hand as types, never a dict read by key: what a hand gave (`Result`, one
frozen type per game, defined beside the game in `engine/games/`), the roles a seat plays
(`Role`), and what a seat may know of the hand now (`Observation`, what a game's
`State.observe` gives: OpenSpiel's observer), with the sides of the play (`Side`).

A result is data. `json()` is its `result` object in the replay file (docs/replay.md), key
for key in the order the format has always written it, and the game's `result_from_json`
reads it back: the one place the type and the format meet. `rated_sides` is which seats win
or lose together in the hand, as a rating reads it: a fact of the game, asked by the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Protocol

from .cards import Card

Sides = tuple[tuple[int, ...], ...]


class Role(StrEnum):
    """A seat's role in a hand (`engine.view.roles_of`), and a side of the seats panel. Its
    value is the word the events and the catalogue key on."""

    DEALER = "dealer"
    CALLER = "caller"  # Chiamata: won the auction
    PARTNER = "partner"  # Chiamata: held the called card (public once it is played)
    ALONE = "alone"  # Chiamata: the caller called its own card
    SOLOIST = "soloist"  # Calabresella: plays alone against the two others
    TEAM = "team"  # Briscola for 4 or 6: my fixed team mate (the seats panel's word only)


LEADING_ROLES = (Role.CALLER, Role.SOLOIST)
"""The roles of the seat a hand's contract belongs to."""


@dataclass(frozen=True)
class Result:
    """What a hand gave. The base is a hand with nothing to say yet (a hand under way, before
    its game has a fact to tell): the replay file's `{}`."""

    redeal: ClassVar[bool] = False
    """Everybody passed: the hand is dealt again, nobody scores."""

    def json(self) -> dict[str, object]:
        """The replay file's `result` object (docs/replay.md)."""
        return {}

    def rated_sides(self, players: int, sides: Sequence[Sequence[int]]) -> Sides:
        """Who won or lost together in the hand, as the club ledger rates it, given the game's
        fixed `sides`: () when the hand rates nobody."""
        return ()


@dataclass(frozen=True)
class Redeal(Result):
    """Everybody passed (Chiamata, Calabresella): the replay file's `{"redeal": true}`."""

    redeal: ClassVar[bool] = True

    def json(self) -> dict[str, object]:
        return {"redeal": True}


NO_RESULT = Result()
REDEAL = Redeal()


def common_from_json(data: dict) -> Result | None:
    """The results every game shares (nothing yet, a redeal), else None."""
    if data == {}:
        return NO_RESULT
    if data == {"redeal": True}:
        return REDEAL
    return None


def others(players: int, side: Sequence[int]) -> tuple[int, ...]:
    """The seats not in `side`."""
    return tuple(s for s in range(players) if s not in side)


Roles = Mapping[int, tuple[Role, ...]]
"""Each seat's public roles in the hand, seats without one left out."""


@dataclass(frozen=True)
class Observation:
    """What one seat (or a spectator) may know of a hand now, beyond the cards it holds and the
    public tricks: the fields every view shows (None: not in this game, or not yet), to which a
    game's own type adds its facts (`engine/games/*_facts.py`). Never another seat's hidden card,
    never a secret partner the seat cannot know."""

    roles: Roles = field(default_factory=dict)
    trump: str | None = None
    faceup: Card | None = None  # the card face up under the stock, while it is there (Briscola)
    stock: int | None = None  # face-down cards left to draw (Briscola)
    called: Card | None = None  # the card called (Chiamata; Calabresella's chiamo)
    contract: str | None = None  # the soloist's contract (Calabresella)


@dataclass(frozen=True)
class Side:
    """Seats that score together in the hand, and the card points (thirds in Calabresella) they
    have taken so far, as one seat can tell them."""

    role: str  # "team" (Briscola for 4 or 6), "caller" or "defenders" (Chiamata), "soloist" or "defenders"
    seats: tuple[int, ...]  # the seats known to be on the side
    points: int | None  # None: not known yet (a Chiamata side while the partner is secret)
    partner: int | None = None  # the caller's side: its partner, once this seat knows it
    alone: bool = False  # the caller's side: the caller called its own card
    partner_known: bool = True  # the caller's side: False while this seat cannot tell the partner


class PlayView(Protocol):
    """What a game reads of a seat's view to tell the sides of the play (`engine.view.SeatView`
    is one): the table size, the points taken, the public roles, the card called, my cards."""

    @property
    def players(self) -> int: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def captured(self) -> tuple[int, ...]: ...
    @property
    def roles(self) -> Roles: ...
    @property
    def called(self) -> Card | None: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...


@dataclass(frozen=True)
class Placed:
    """What a state places off the hands, for determinization: the stock and the monte by deck
    position (None: a face-down card this state does not know), the face-up card, and `fields`,
    the game's own facts two states at one point of a hand agree on (trump, the card called...)."""

    stock: Sequence[Card | None] = ()
    monte: Sequence[Card | None] = ()
    faceup: Card | None = None
    fields: tuple = ()


NO_PLACED = Placed()


def leader_of(roles: Roles, role: Role) -> int | None:
    """The seat with `role` (a caller, a soloist), if any."""
    return next((seat for seat, held in roles.items() if role in held), None)
