"""Scores across hands: running totals, dealer rotation, the end of a series.

Briscola is a match to a number of hands won (or to 12 game points);
Chiamata lasts 10 scored hands (or to a target score) and Calabresella 9.
A hand everybody passed is redealt and does not count: in Chiamata the same
dealer deals again, in Calabresella the next dealer.
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
        redeal = outcome.result.get("redeal", False)
        if not redeal:
            self.hands_scored += 1
            self.scores = [a + b for a, b in zip(self.scores, outcome.score)]
        if not (redeal and self.game.name == "chiamata"):
            self.dealer = (self.dealer + 1) % self.game.players

    def is_over(self) -> bool:
        name, options = self.game.name, self.game.options
        if name == "briscola":
            target = self.game.match_target()
            top = max(self.scores)
            if top < target:
                return False
            leaders = [s for s in self.side_scores() if s == max(self.side_scores())]
            return len(leaders) == 1  # an exact tie at the top plays another hand
        if name == "chiamata" and options["series_target"]:
            return max(self.scores) >= options["series_target"]
        return self.hands_scored >= options["series_hands"]

    def side_scores(self) -> list[int]:
        """Briscola: one score per side (team or player); other games: per seat."""
        if self.game.name == "briscola":
            return [self.scores[side[0]] for side in self.game.sides()]
        return list(self.scores)

    def winners(self) -> list[int]:
        """Seats that share first place (a whole team in team Briscola)."""
        if not self.is_over():
            return []
        if self.game.name == "briscola":
            sides = self.game.sides()
            totals = self.side_scores()
            best = max(totals)
            return sorted(s for side, t in zip(sides, totals) if t == best for s in side)
        best = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == best]
