"""Scores across hands: running totals, dealer rotation, the end of a series.

The game decides what is game-specific (`engine/games/`): when the series
is over (`game.series_over`), who scores together (`game.sides`) and whether
a hand everybody passed is dealt again by the same dealer
(`game.REDEAL_KEEPS_DEALER`). A redeal (`result.redeal`: `{"redeal": true}` in a replay) never
counts as a scored hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import Game
from .state import Outcome


@dataclass
class Series:
    game: Game
    dealer: int
    scores: list[int] = field(default_factory=list)
    hands_scored: int = 0
    hands_played: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.dealer < self.game.players:
            raise ValueError(f"dealer must be a seat 0..{self.game.players - 1}")
        if not self.scores:
            self.scores = [0] * self.game.players

    def record(self, outcome: Outcome) -> None:
        """Add a finished hand's score and move the deal on."""
        if self.is_over():
            raise ValueError("the series is over")
        if not outcome.complete or outcome.score is None:
            raise ValueError("only a finished hand can be recorded")
        self.hands_played += 1
        redeal = outcome.result.redeal
        if not redeal:
            self.hands_scored += 1
            self.scores = [a + b for a, b in zip(self.scores, outcome.score)]
        if not (redeal and self.game.REDEAL_KEEPS_DEALER):
            self.dealer = (self.dealer + 1) % self.game.players

    def is_over(self) -> bool:
        return self.game.series_over(self.scores, self.hands_scored)

    def side_scores(self) -> list[int]:
        """One score per side of `game.sides()`: a team's, or a seat's."""
        return [self.scores[side[0]] for side in self.game.sides()]

    def winners(self) -> list[int]:
        """Seats that share first place (a whole team when sides are teams)."""
        if not self.is_over():
            return []
        totals = self.side_scores()
        best = max(totals)
        return sorted(seat for side, total in zip(self.game.sides(), totals) if total == best for seat in side)
