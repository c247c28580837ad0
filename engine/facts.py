"""The facts of a hand as types, never a dict read by key: what a hand gave (`Result`, one
frozen type per game, defined beside the game in `engine/games/`) and the roles a seat plays
(`Role`).

A result is data. `json()` is its `result` object in the replay file (docs/replay.md), key
for key in the order the format has always written it, and the game's `result_from_json`
reads it back: the one place the type and the format meet. `rated_sides` is which seats win
or lose together in the hand, as a rating reads it: a fact of the game, asked by the ledger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

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
    final: ClassVar[bool] = False
    """The result of a hand played out (not a redeal, not a hand under way)."""

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
