"""Computer players.

A player is a function `play(view, rng) -> Action`: given what one seat
sees and a `random.Random`, it returns one of the seat's legal actions. It
must not keep state between calls nor change `view`; everything it may use
is in the view:

- `view.seat`: the seat it plays (None only in a spectator's view, which no
  player is given: `stateview.seat_of` reads it);
- `view.legal`: the seat's legal actions, a tuple (a lazy sequence in a
  playout), non-empty when it must act;
- `view.state`: a fresh clone of the seat's engine State view
  (`viewer == seat`) at each access: its own cards, what has been shown,
  the other hands as counts of unknown cards. A player may change its copy
  freely; the view stays as it was. (None only between hands:
  `engine.determinize.state_of` reads it.)

`engine.determinize.determinize(view, rng)` samples a full state consistent
with a view, for players that simulate.

The table's view object (`engine.view.SeatView`) offers these attributes
and more; `StateView` is the minimal one, built from an engine State view, so tests
and the engine alone can drive players. `PLAYERS` names every player;
`get(name)` finds one. The levels, from weakest: `random`, `easy`,
`normal`, `hard` (docs/bots.md).
"""

from __future__ import annotations

from . import easy, hard, normal, random
from .stateview import Player as Player  # re-exported: engine.bots.Player
from .stateview import StateView as StateView  # re-exported: engine.bots.StateView
from .stateview import View as View  # re-exported: engine.bots.View

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
