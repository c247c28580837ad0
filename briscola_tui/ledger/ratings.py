"""Ratings with openskill's Plackett-Luce model: one per person per game family.

Each rated hand, in the order the tables were played, moves the ratings of everyone at it:
Briscola's sides (one seat alone, or the teams of 4 and 6), Chiamata's caller and partner
against the other three (the caller alone against four), Calabresella's soloist against
the two. The scale starts at 1500 with an uncertainty (sigma) of 500 that narrows as hands
are played; a computer player's level is rated as a person is, so "you play like normal"
has a meaning. A void hand (a cheat, a seat timed out) rates nobody.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from .facts import Hand, Table

START = 1500.0
SPREAD = 500.0


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The rating people compare (the mean)."""
        return round(self.mu)

    @property
    def sure(self) -> float:
        """A cautious estimate (mean less three sigmas): what a league is ordered by among equals."""
        return self.mu - 3 * self.sigma


@dataclass
class Ratings:
    """Each (person, family)'s rating now, its history (one value after each hand it played)
    and how many rated hands it played."""

    now: dict[tuple[str, str], Rating] = field(default_factory=dict)
    history: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    hands: dict[tuple[str, str], int] = field(default_factory=dict)
    changes: list[tuple[Table, Hand, dict[str, tuple[float, float]]]] = field(default_factory=list)

    def of(self, person: str, family: str) -> Rating:
        return self.now.get((person, family), Rating(START, SPREAD))


def model() -> PlackettLuce:
    return PlackettLuce(mu=START, sigma=SPREAD, beta=SPREAD / 2, tau=SPREAD / 300)


def rate(hands: Iterable[tuple[Table, Hand]]) -> Ratings:
    """The ratings after every rated hand of `hands`, taken in the order given."""
    ratings, skill = Ratings(), model()
    players: dict[tuple[str, str], object] = {}
    for table, hand in hands:
        if not hand.rated:
            continue
        family = table.game
        teams = [sorted({hand.seats[s].person for s in side}) for side in hand.sides]
        before = {p: ratings.of(p, family).mu for team in teams for p in team}
        objects = [[_player(players, skill, (p, family)) for p in team] for team in teams]
        after = skill.rate(objects, ranks=list(hand.ranks))
        for team, rated in zip(teams, after):
            for person, new in zip(team, rated):
                key = (person, family)
                players[key] = new
                ratings.now[key] = Rating(new.mu, new.sigma)
                ratings.history.setdefault(key, []).append(new.mu)
                ratings.hands[key] = ratings.hands.get(key, 0) + 1
        ratings.changes.append((table, hand, {p: (before[p], ratings.now[(p, family)].mu) for p in before}))
    return ratings


def _player(players: dict, skill: PlackettLuce, key: tuple[str, str]) -> Any:  # (an openskill rating)
    found = players.get(key)
    if found is None:
        found = players[key] = skill.rating()
    return found
