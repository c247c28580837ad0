"""The hard player (docs/bots.md): the normal player's move unless an SO-ISMCTS
search over determinized views (engine/bots/search.py) is confident of a
better one. This module builds the player and its budget (`make_player`,
`play`); the search, which moves it compares (narrowing.py), the rewards
(rewards.py) and the playout policies (playout.py) have their own modules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Literal

from ..determinize import Determinizer, Inconsistent
from ..games.briscola import BriscolaState
from ..state import Action
from . import normal
from .inference import Inference
from .narrowing import ROOT_CANDIDATES, discard_candidates, thin_bids, thin_calls
from .playout import NORMAL_PLAYOUT, FullView, Policy, as_policy, heuristic_action, playout_policy
from .rewards import reward_function
from .rollout import briscola_finish, playout
from .search import (
    BRISCOLA_STEPS,
    CONFIDENCE,
    DEFAULT,
    DEFAULT_STEPS,
    EXPAND_AFTER,
    EXPLORATION,
    FAST_STEPS,
    PLAY_STEPS,
    SAMPLE_STEPS,
    TREE_PLAYS,
    LeafMaker,
    Node,
    best_action,
    search,
)
from .stateview import Player, View, seat_of

__all__ = [
    "BRISCOLA_STEPS",
    "CONFIDENCE",
    "DEFAULT",
    "DEFAULT_ANCHOR",
    "DEFAULT_INFERENCE",
    "DEFAULT_ITERATIONS",
    "DEFAULT_PLAYOUT",
    "DEFAULT_SECONDS",
    "DEFAULT_STEPS",
    "EXPAND_AFTER",
    "EXPLORATION",
    "FAST_STEPS",
    "NORMAL_PLAYOUT",
    "PLAY_STEPS",
    "ROOT_CANDIDATES",
    "SAMPLE_STEPS",
    "TREE_PLAYS",
    "FullView",
    "LeafMaker",
    "Node",
    "as_listed",
    "as_policy",
    "best_action",
    "briscola_finish",
    "discard_candidates",
    "heuristic_action",
    "make_player",
    "normal",
    "normal_is_exact",
    "play",
    "playout",
    "playout_policy",
    "reward_function",
    "search",
    "thin_bids",
    "thin_calls",
]

DEFAULT_ITERATIONS = 1000
"""At most this many iterations a move (the steps end the search first but
in the last tricks)."""
DEFAULT_SECONDS = 2.0
"""A safety net only (wall-clock seconds a move), far above what the
steps cost: it ends the search if a loaded machine makes them last."""
DEFAULT_ANCHOR: Literal["normal"] = "normal"
"""The move kept unless the search is confident of a better one: the normal
player's."""
DEFAULT_INFERENCE = False
"""Determinizations drawn uniformly by default: weighting them by the others'
last plays (engine/bots/inference.py) won nothing clear in Briscola for two
for what its replays cost (docs/bots.md)."""
DEFAULT_PLAYOUT = "normal"
"""The normal player plays the playouts: about ten times slower than this
module's heuristic, and stronger for the same time (Briscola for two, against
the normal player, bench/arena.py)."""


def make_player(
    iterations: int | None = DEFAULT_ITERATIONS,
    seconds: float | None = DEFAULT_SECONDS,
    playout: str | Policy = DEFAULT_PLAYOUT,
    anchor: Literal["normal"] | Player | None = DEFAULT_ANCHOR,
    confidence: float = CONFIDENCE,
    exploration: float = EXPLORATION,
    steps: int | Literal["default"] | None = DEFAULT,
    expand_after: int | None = EXPAND_AFTER,
    infer: bool | float = DEFAULT_INFERENCE,
    sampler: SamplerMaker | None = None,
    leaf: LeafMaker | None = None,
) -> Player:
    """A hard player with this budget, ending at whichever limit comes first
    (None: no limit of that kind; one at least must be set):
    `iterations` a move, `seconds` of wall-clock time a move, `steps` of
    simulation a move (see `search`; `DEFAULT`: `DEFAULT_STEPS`, or where
    the playouts run on numbers `FAST_STEPS` in Briscola for two,
    `BRISCOLA_STEPS` for three to six, `PLAY_STEPS` in Chiamata and
    Calabresella).

    `playout`: "normal" (the normal player), "heuristic" (engine/bots/playout.py's,
    faster and weaker), "random" (`random_legal`) or a function `(full
    state, rng) -> Action`. `anchor`: a player `(view, rng) -> Action`
    whose move is kept unless the search finds another better by
    `confidence` standard errors ("normal", or None for the plain most
    visited move). `infer`: determinizations drawn by how likely the other
    seats' last plays are under the normal player (inference.py), else
    uniformly; a number instead of True is the modelled chance that a seat
    plays normal's card (1 - a little: the others play as normal does; the
    module's `AGREEMENT` and `LEAD_AGREEMENT` by default). `sampler`, `leaf`:
    hooks for research/ (`SamplerMaker`, search.py's `LeafMaker`), set by no level."""
    if iterations is None and seconds is None and steps is None:
        raise ValueError("give a budget: iterations, seconds or steps")
    policy = playout_policy(playout)
    anchor_player = normal.play if anchor == "normal" else anchor

    def play(view: View, rng: Random) -> Action:
        """The action SO-ISMCTS finds best for `view.seat` within the budget."""
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to play now")
        if len(legal) == 1:
            return legal[0]
        prior = as_listed(anchor_player(view, rng), legal) if anchor_player is not None else None
        if prior is not None and anchor == "normal" and normal_is_exact(view):
            return prior
        draws = sampler_of(view, infer, sampler)
        if draws is None:  # not a view the engine built: nothing to simulate
            return prior if prior is not None else rng.choice(legal)
        root = search(
            draws, seat_of(view), rng, policy, iterations, seconds, exploration, prior, steps, expand_after, leaf
        )
        return best_action(root, legal, confidence)

    play.__doc__ = (
        f"SO-ISMCTS, at most {iterations} iterations, {steps} steps and {seconds} s a move, {playout} playouts."
    )
    return play


SamplerMaker = Callable[[Determinizer], Determinizer | None]
"""Given a view's determinizer, another sampler of its determinizations (None: the usual);
research/holdings.py's `sampler` makes one (docs/bots.md)."""


def sampler_of(
    view: View, infer: bool | float, make_sampler: SamplerMaker | None = None
) -> Determinizer | Inference | None:
    """The determinizations of `view` the search draws (`make_player`'s `infer` and
    `sampler`); None for a view the engine did not build."""
    try:
        determinizer = Determinizer(view)
    except Inconsistent:
        return None
    made = make_sampler(determinizer) if make_sampler is not None else None
    return made or inference_sampler(determinizer, infer)


def inference_sampler(determinizer: Determinizer, infer: bool | float) -> Determinizer | Inference:
    """`make_player`'s `infer` as a sampler of determinizations."""
    if infer is False:
        return determinizer
    if infer is True:
        return Inference(determinizer)
    return Inference(determinizer, agreement=infer, lead_agreement=infer)


def normal_is_exact(view: View) -> bool:
    """Briscola for two with at most the last draw left: the normal player
    searches the rest of the hand exactly (over each way the last face-down
    card can lie), so there is nothing for the search to add."""
    state = view.state
    return (
        isinstance(state, BriscolaState)
        and state.n == 2
        and state.phase == "play"
        and state.pile_left() in (0, 2)
        and all(a.kind == "play" for a in view.legal)
    )


def as_listed(action: Action, legal: Sequence[Action]) -> Action | None:
    """`action` as `legal` lists it (a discard or take in another card order)."""
    if action in legal:
        return action
    if action.cards:
        cards = set(action.cards)
        return next((a for a in legal if a.kind == action.kind and set(a.cards) == cards), None)
    return None


play = make_player()
"""The hard player at the default budget."""
