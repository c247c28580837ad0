"""The facts of a Briscola Chiamata hand as types: what a seat may know of it
(`ChiamataObservation`), the sides of its play, and its result so far and once played out (the
replay file's `result`, in one place both ways)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..facts import Observation, PlayView, Result, Role, Side, Sides, common_from_json, leader_of, others


@dataclass(frozen=True)
class ChiamataObservation(Observation):
    """What a seat may know of a Chiamata hand beside its cards: the dealer, trump, the card
    called, the caller once the auction is over, and the caller's partner (`alone`: the caller
    called its own card) only once this seat can tell: it holds the called card, or the card
    has been played. Never the partner a seat cannot know."""

    caller: int | None = None
    partner: int | None = None
    alone: bool = False


UNKNOWN = "unknown"
"""The replay format's partner while the seat whose view it is cannot tell it."""


@dataclass(frozen=True)
class ChiamataSoFar(Result):
    """A hand in its play: the caller, the partner (None: alone, or not known to this view:
    `partner_known`), trump, the card called and the target."""

    caller: int
    partner: int | None
    partner_known: bool
    trump: str
    called: Card
    target: int

    def json(self) -> dict[str, object]:
        return {
            "caller": self.caller,
            "partner": self.partner if self.partner_known else UNKNOWN,
            "trump": self.trump,
            "called": str(self.called),
            "target": self.target,
        }


@dataclass(frozen=True)
class ChiamataResult(Result):
    """A hand played out: the caller, its partner (None: the caller called its own card),
    trump, the card called, the target, the caller's side's card points, whether they made
    the target, and the multiplier (2 for all the tricks or none)."""

    caller: int
    partner: int | None
    trump: str
    called: Card
    target: int
    side_points: int
    success: bool
    multiplier: int

    def json(self) -> dict[str, object]:
        return {
            "caller": self.caller,
            "partner": self.partner,
            "trump": self.trump,
            "called": str(self.called),
            "target": self.target,
            "side_points": self.side_points,
            "success": self.success,
            "multiplier": self.multiplier,
        }

    @property
    def side(self) -> tuple[int, ...]:
        """The caller's side: the caller and its partner (the caller alone without one)."""
        return tuple(sorted({self.caller} | ({self.partner} if self.partner is not None else set())))

    def rated_sides(self, players: int, sides: Sequence[Sequence[int]]) -> Sides:
        """The caller and partner (the caller alone, when it called its own card) against the rest."""
        return (self.side, others(players, self.side))


def play_sides(view: PlayView) -> tuple[Side, ...]:
    """The caller and partner against the others, the points "?" (None) until this seat knows
    the partner: the called card played, or held by this seat (the caller's own: alone)."""
    n, points, roles = view.players, view.captured, view.roles
    leader = leader_of(roles, Role.CALLER)
    if leader is None:
        return ()
    partner = leader_of(roles, Role.PARTNER)
    alone = Role.ALONE in roles[leader]
    if partner is None and not alone and view.called is not None and view.called in view.hand:
        # The called card is in my hand: I know the side before the others do.
        if view.seat == leader:
            alone = True
        else:
            partner = view.seat
    if partner is None and not alone:
        return Side("caller", (leader,), None, partner_known=False), Side("defenders", (), None)
    side = (leader,) if partner is None else (leader, partner)
    rest = others(n, side)
    return (
        Side("caller", side, sum(points[s] for s in side), partner=partner, alone=alone),
        Side("defenders", rest, sum(points[s] for s in rest)),
    )


def result_from_json(data: dict) -> Result:
    """The result `json()` wrote; KeyError or ValueError when it is none."""
    common = common_from_json(data)
    if common is not None:
        return common
    partner = data["partner"]
    caller, trump, called, target = (
        int(data["caller"]),
        str(data["trump"]),
        Card.parse(data["called"]),
        int(data["target"]),
    )
    if "success" not in data:
        known = partner != UNKNOWN
        return ChiamataSoFar(
            caller, int(partner) if known and partner is not None else None, known, trump, called, target
        )
    return ChiamataResult(
        caller=caller,
        partner=None if partner is None else int(partner),
        trump=trump,
        called=called,
        target=target,
        side_points=int(data["side_points"]),
        success=bool(data["success"]),
        multiplier=int(data["multiplier"]),
    )
