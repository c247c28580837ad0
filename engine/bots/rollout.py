"""How the search plays a hand out from a determinization: by a playout policy on
the engine, on card indices where a fast module can (`FAST_PLAYOUTS`), and, in
Briscola for two, by the exact search of its last tricks (`briscola_finish`)."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from types import ModuleType
from typing import TypeVar

from ..games.briscola import Briscola, BriscolaState
from ..games.calabresella import Calabresella
from ..games.chiamata import Chiamata
from ..state import CHANCE, TERMINAL, Rules, State
from . import briscola2, fast_briscola, fast_calabresella, fast_chiamata
from .playout import Policy

Read = TypeVar("Read")

Finish = Callable[[State], list[int] | None]
"""`finish(full state) -> each side's final card points, or None` (`finisher`)."""


def plays_left(state: State) -> int:
    """The cards still to be played in the hand (those in hand and, in
    Briscola, the stock's)."""
    stock = state.pile_left() if isinstance(state, BriscolaState) else 0
    return stock + sum(state.hand_size(s) for s in range(state.n))


def playout(state: State, rng: Random, policy: Policy, finish: Finish | None = None) -> list[int] | None:
    """Finish the hand with `policy`, chance events from the deal; or, once
    `finish(state)` gives the final card points of each side (an exact
    search), stop there and return them."""
    while True:
        turn = state.current_player()
        if turn == TERMINAL:
            return None
        if turn != CHANCE and finish is not None:
            totals = finish(state)
            if totals is not None:
                return totals
        state.apply(state.chance_outcome() if turn == CHANCE else policy(state, rng))


FAST_PLAYOUTS = (briscola2, fast_briscola, fast_chiamata, fast_calabresella)
"""The modules that play the normal player's playouts on card indices, each
for the positions its `supports(state)` accepts."""


def fast_module(game: Rules, state: State) -> ModuleType | None:
    """The module of `FAST_PLAYOUTS` that finishes this game's hands from
    `state` on card indices, or None (then the playouts are the engine's):
    Briscola for two from anywhere (`briscola2`), for three, four and six
    (`fast_briscola`) in the plain game; Chiamata and Calabresella from any
    phase, the play on numbers (`fast_chiamata`, `fast_calabresella`) once
    the engine has played what comes before it."""
    if isinstance(game, (Chiamata, Calabresella)):
        return fast_chiamata if isinstance(game, Chiamata) else fast_calabresella
    for module in (briscola2, fast_briscola):
        if module.supports(state):
            return module
    return None


def fast_playout(
    state: State, rng: Random, policy: Policy, module: ModuleType, rewards: Callable[..., Read], solved: dict
) -> tuple[Read, int]:
    """Finish the hand of full `state` with the normal player (`policy`,
    `NORMAL_PLAYOUT`): on the engine (`state` changed in place) until
    `module` supports the position, then on card indices; (what `rewards`
    reads of the finish (every seat's reward, for hard), steps taken on
    numbers: those on the engine are in `state.history`)."""
    while not module.supports(state):
        turn = state.current_player()
        if turn == TERMINAL:
            return rewards(state), 0
        state.apply(state.chance_outcome() if turn == CHANCE else policy(state, rng))
    if module is briscola2:
        assert isinstance(state, BriscolaState)  # (briscola2 supports it)
        totals, taken = briscola2.playout(state, solved)
        return rewards(state, totals), taken
    final, taken = module.playout(state, solved)
    return rewards(state, None, final), taken


def finisher(game: Rules) -> Finish | None:
    """`finish(full state) -> side points or None` for `playout`: Briscola for
    two only (None for the other games)."""
    if isinstance(game, Briscola) and game.players == 2:
        return briscola_finish
    return None


def briscola_finish(state: State) -> list[int] | None:
    """Briscola for two, every card known, at most the last draw left (the
    winner of the trick draws the face-down card, the other the face-up
    one): each seat's final card points with best play by both, by the
    exact search (`engine/bots/endgame.py`). None earlier, or while a trump
    exchange is still possible."""
    assert isinstance(state, BriscolaState)  # (`finisher` gives it to Briscola for two alone)
    pile = state.pile_left()
    if pile not in (0, 2) or state.phase != "play":
        return None
    draw: tuple[int, ...] = ()
    if pile == 2:
        if state.exchange_card is not None and (state.can_exchange(0) or state.can_exchange(1)):
            return None
        top = state.stock[state.drawn]
        assert top is not None  # a full state: every card known
        draw = (top.index, state.faceup.index)
    hands = [[c.index for c in hand] for hand in state.hands]
    return briscola2.finish(hands, [c.index for c in state.trick], state.leader, state.captured, draw, state)
