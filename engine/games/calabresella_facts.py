"""The facts of a Calabresella hand as types: what a seat may know of it
(`CalabresellaObservation`), the sides of its play, and its result so far and once played out
(the replay file's `result`, in one place both ways)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..facts import Observation, PlayView, Result, Role, Side, Sides, common_from_json, leader_of, others


@dataclass(frozen=True)
class CalabresellaObservation(Observation):
    """What a seat may know of a Calabresella hand beside its cards: the dealer, the soloist once
    the auction is over (None before), its contract, and the card a chiamo called."""

    soloist: int | None = None


@dataclass(frozen=True)
class CalabresellaSoFar(Result):
    """A hand past its auction: the soloist and its contract (None until chosen)."""

    soloist: int
    contract: str | None

    def json(self) -> dict[str, object]:
        return {"soloist": self.soloist, "contract": self.contract}


@dataclass(frozen=True)
class CalabresellaResult(Result):
    """A hand played out: the soloist, its contract (`chiamo`, `solo`, `solissimo`) and raise
    (`none`, `dividete`, `scegliete`), its thirds (the monte and the last trick's 3 with them
    if theirs), whether it made 18, and the multiplier (2 cappotto, 3 stramazzo)."""

    soloist: int
    contract: str
    raised: str
    soloist_thirds: int
    success: bool
    multiplier: int

    def json(self) -> dict[str, object]:
        return {
            "soloist": self.soloist,
            "contract": self.contract,
            "raise": self.raised,
            "soloist_thirds": self.soloist_thirds,
            "success": self.success,
            "multiplier": self.multiplier,
        }

    def rated_sides(self, players: int, sides: Sequence[Sequence[int]]) -> Sides:
        """The soloist against the two others."""
        return ((self.soloist,), others(players, (self.soloist,)))


def play_sides(view: PlayView) -> tuple[Side, ...]:
    """The soloist against the defenders, once the auction is over."""
    soloist = leader_of(view.roles, Role.SOLOIST)
    if soloist is None:
        return ()
    rest = others(view.players, (soloist,))
    points = view.captured
    return Side("soloist", (soloist,), points[soloist]), Side("defenders", rest, sum(points[s] for s in rest))


def result_from_json(data: dict) -> Result:
    """The result `json()` wrote; KeyError or ValueError when it is none."""
    common = common_from_json(data)
    if common is not None:
        return common
    soloist = int(data["soloist"])
    if "success" not in data:
        contract = data["contract"]
        return CalabresellaSoFar(soloist, None if contract is None else str(contract))
    return CalabresellaResult(
        soloist=soloist,
        contract=str(data["contract"]),
        raised=str(data["raise"]),
        soloist_thirds=int(data["soloist_thirds"]),
        success=bool(data["success"]),
        multiplier=int(data["multiplier"]),
    )
