"""Computer players.

A player is a function `play(view, rng) -> Action`: given what one seat
sees and a `random.Random`, it returns one of the seat's legal actions. It
must not keep state between calls nor change `view`; everything it may use
is in the view:

- `view.seat`: the seat it plays;
- `view.legal`: the seat's legal actions, a tuple, non-empty when it must act;
- `view.state`: a fresh clone of the seat's engine State view
  (`viewer == seat`) at each access: its own cards, what has been shown,
  the other hands as counts of unknown cards. A player may change its copy
  freely; the view stays as it was.

`engine.determinize.determinize(view, rng)` samples a full state consistent
with a view, for players that simulate.

The table's view object (`engine.view.SeatView`) offers these attributes
and more; `StateView` is the minimal one, built from an engine State view, so tests
and the engine alone can drive players. `PLAYERS` names every player;
`get(name)` finds one. The levels, from weakest: `random`, `easy`,
`normal`, `hard` (docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol

from ..state import Action, State
from . import easy, hard, normal, random


class View(Protocol):
    """What a player is given (attributes only)."""

    seat: int
    legal: tuple[Action, ...]
    state: State


Player = Callable[[View, Random], Action]
"""`play(view, rng) -> Action`."""


class StateView:
    """A `View` built from an engine State view of `seat`."""

    __slots__ = ("seat", "legal", "_state")

    def __init__(self, state: State, seat: int):
        if state.viewer != seat:
            who = "the full state" if state.viewer is None else f"seat {state.viewer}'s view"
            raise ValueError(f"a player of seat {seat} may see only seat {seat}'s view, not {who}")
        self.seat = seat
        self._state = state.clone()
        self.legal: tuple[Action, ...] = tuple(state.legal_actions()) if state.current_player() == seat else ()

    @property
    def state(self) -> State:
        """A fresh copy of the seat's engine view."""
        return self._state.clone()

    def __repr__(self) -> str:
        return f"<StateView seat {self.seat} {self._state!r} legal={len(self.legal)}>"


PLAYERS: dict[str, Player] = {
    "random": random.play,  # a uniformly random legal move
    "easy": easy.play,  # a few simple rules (engine/bots/easy.py)
    "normal": normal.play,  # a rule-based player per game (engine/bots/normal/, a module per game)
    "hard": hard.play,  # SO-ISMCTS over determinized views, its default budget (engine/bots/hard.py)
}


def get(name: str) -> Player:
    """The player called `name`; ValueError names the known ones."""
    try:
        return PLAYERS[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r} (players: {', '.join(sorted(PLAYERS))})") from None
