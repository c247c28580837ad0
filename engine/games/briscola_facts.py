"""The facts of a Briscola hand as types: what a seat may know of it (`BriscolaObservation`)
and its result (the replay file's `result`, in one place both ways)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..facts import Observation, Result, Sides, common_from_json


@dataclass(frozen=True)
class BriscolaObservation(Observation):
    """What a seat may know of a Briscola hand beside its cards: the dealer, trump, the face-up
    card while it lies under the stock, and how many cards are left to draw."""


@dataclass(frozen=True)
class BriscolaResult(Result):
    """A hand played out: the winning side (its index in the game's sides: the seat, or the team
    whose first seat is 0 or 1; None for a draw, or when no single player wins the hand of 3),
    the trump suit, each side's card points, and the seat that declared a black hand."""

    winner: int | None
    trump: str
    side_points: tuple[int, ...]
    black_hand: int | None = None

    def json(self) -> dict[str, object]:
        out: dict[str, object] = {"winner": self.winner, "trump": self.trump, "side_points": list(self.side_points)}
        if self.black_hand is not None:
            out["black_hand"] = self.black_hand
        return out

    def rated_sides(self, players: int, sides: Sequence[Sequence[int]]) -> Sides:
        """The game's fixed sides: each seat alone, or the teams."""
        return tuple(tuple(side) for side in sides)


def result_from_json(data: dict) -> Result:
    """The result `json()` wrote; KeyError or ValueError when it is none."""
    common = common_from_json(data)
    if common is not None:
        return common
    black = data.get("black_hand")
    return BriscolaResult(
        winner=_seat_or_none(data["winner"]),
        trump=str(data["trump"]),
        side_points=tuple(int(p) for p in data["side_points"]),
        black_hand=_seat_or_none(black),
    )


def _seat_or_none(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"not a seat: {value!r}")
    return value
