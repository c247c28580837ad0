"""The hard player's rewards per game: `reward_function(game)` gives each
seat's reward of a finished playout, about -1..1 (Briscola: the award
difference plus a tenth of the card points; Chiamata and Calabresella: the
hand's score over `SCORE_SCALE`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..games.briscola import Briscola
from ..games.briscola_facts import BriscolaResult
from ..games.briscola_score import two_side_awards
from ..games.calabresella import Calabresella
from ..games.chiamata import Chiamata
from ..state import Rules, State

POINT_WEIGHT = 0.1
"""Weight of the card-point difference in the Briscola reward."""
SCORE_SCALE: dict[type[Rules], float] = {Chiamata: 4.0, Calabresella: 8.0}
"""The score of a hand that makes a reward of 1, by game (the class of the game)."""

Final = tuple[list[int], list[int]]
"""(each seat's score, each seat's card points) of a hand a fast playout finished."""


class Rewards(Protocol):
    """`rewards(final state, side points or None, final=None) -> [reward of each seat]`
    (`reward_function`)."""

    def __call__(
        self, state: State, totals: Sequence[int] | None = None, final: Final | None = None, /
    ) -> list[float]: ...


def reward_function(game: Rules) -> Rewards:
    """`rewards(final state, side points or None, final=None) -> [reward of
    each seat]` for this game (the side points: `playout`'s exact finish,
    the state then not being final; `final`: (each seat's score, each
    seat's card points) of a hand a fast playout finished, the state then
    not being final either: engine/bots/fast_*.py)."""
    n = game.players
    if isinstance(game, Briscola):
        sides = game.sides()
        side_of = [next(i for i, side in enumerate(sides) if s in side) for s in range(n)]
        if n == 3:

            def three_player_rewards(
                state: State, totals: Sequence[int] | None = None, final: Final | None = None
            ) -> list[float]:
                if final is None:
                    out = state.outcome()
                    score, points = out.score, out.points
                    assert score is not None  # the hand is over
                else:
                    score, points = final
                return [score[s] / 3 + POINT_WEIGHT * (points[s] - 40) / 120 for s in range(n)]

            return three_player_rewards
        scoring = game.options["scoring"]
        top = 3 if scoring == "game_points" else 1

        def two_side_rewards(
            state: State, totals: Sequence[int] | None = None, final: Final | None = None
        ) -> list[float]:
            if final is not None:
                score, points = final
                totals = [sum(points[s] for s in side) for side in sides]
                awards = [score[side[0]] for side in sides]
            elif totals is None:
                out = state.outcome()
                result = out.result
                assert isinstance(result, BriscolaResult)  # this Briscola hand is over
                totals = result.side_points
                assert out.score is not None  # the hand is over
                awards = [out.score[side[0]] for side in sides]
            else:
                awards = two_side_awards(list(totals), scoring)[0]
            per_side = [
                (awards[i] - awards[1 - i]) / top + POINT_WEIGHT * (totals[i] - totals[1 - i]) / 120 for i in (0, 1)
            ]
            return [per_side[side_of[s]] for s in range(n)]

        return two_side_rewards
    scale = SCORE_SCALE[type(game)]

    def score_rewards(state: State, totals: Sequence[int] | None = None, final: Final | None = None) -> list[float]:
        scores = state.outcome().score if final is None else final[0]
        assert scores is not None  # the hand is over, or a fast playout finished it
        return [score / scale for score in scores]

    return score_rewards
