"""The normal player: a rule-based player per game, from the seat's view only.

Each decision is one function of this package, a module per game
(`briscola`, `chiamata`, `calabresella`; `trumps` holds the card play the
two games with a trump share); they read the seat's engine view
(`view.state`) through `heuristics.Table` and never simulate, so a move
costs a fraction of a millisecond. `play` dispatches on the game's state
class. See docs/bots.md for how it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from ...determinize import state_of
from ...games.briscola import BriscolaState
from ...games.calabresella import CalabresellaState
from ...games.chiamata import ChiamataState
from ...state import Action, State
from ..stateview import View, seat_of
from .briscola import (
    LEAD_SAMPLES,
    briscola,
    endgame_card,
    exchange_pays,
    lead_card,
)
from .calabresella import (
    DISCARD_WEIGHTS,
    FEATURES,
    MASTERS_TO_DUCK,
    MONTE_SHARE,
    PRICES,
    RAISE_AT,
    SUCCESS,
    WEIGHTS,
    best_call,
    calab_bid,
    calab_call,
    calab_card,
    calab_card_ev,
    calab_discard,
    calab_raise,
    calab_resource,
    calab_return,
    calab_take,
    calabresella,
    contract_estimate,
    estimate,
    hand_features,
    hand_value,
    p_success,
    soloist_lead,
    suit_tricks,
)
from .chiamata import (
    CHIAMATA_BID,
    CHIAMATA_FEATURES,
    CHIAMATA_SUCCESS,
    CHIAMATA_WEIGHTS,
    LOW_TO_HIGH,
    chiamata,
    chiamata_bid,
    chiamata_call,
    chiamata_features,
    chiamata_points,
)
from .trumps import (
    CLINCH,
    MASTER_TRUMP,
    SPENT,
    TRUMP_BASE,
    TRUMP_STEP,
    best_card,
    card_ev,
    trump_resource,
)

__all__ = [
    "CHIAMATA_BID",
    "CHIAMATA_FEATURES",
    "CHIAMATA_SUCCESS",
    "CHIAMATA_WEIGHTS",
    "CLINCH",
    "DECIDE",
    "DISCARD_WEIGHTS",
    "FEATURES",
    "LEAD_SAMPLES",
    "LOW_TO_HIGH",
    "MASTERS_TO_DUCK",
    "MASTER_TRUMP",
    "MONTE_SHARE",
    "PRICES",
    "SPENT",
    "RAISE_AT",
    "SUCCESS",
    "TRUMP_BASE",
    "TRUMP_STEP",
    "WEIGHTS",
    "best_call",
    "best_card",
    "briscola",
    "calab_bid",
    "calab_call",
    "calab_card",
    "calab_card_ev",
    "calab_discard",
    "calab_raise",
    "calab_resource",
    "calab_return",
    "calab_take",
    "calabresella",
    "card_ev",
    "chiamata",
    "chiamata_bid",
    "chiamata_call",
    "chiamata_features",
    "chiamata_points",
    "contract_estimate",
    "endgame_card",
    "estimate",
    "lead_card",
    "exchange_pays",
    "hand_features",
    "hand_value",
    "p_success",
    "play",
    "soloist_lead",
    "suit_tricks",
    "trump_resource",
]


def play(view: View, rng: Random) -> Action:
    """The normal player's action for `view` (see the module doc)."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to play now")
    if len(legal) == 1:
        return legal[0]
    state = state_of(view)
    return DECIDE[type(state)](state, seat_of(view), legal)


DECIDE: dict[type[State], Callable[[Any, int, Sequence[Action]], Action]] = {  # (each takes its key's state)
    BriscolaState: briscola,
    ChiamataState: chiamata,
    CalabresellaState: calabresella,
}
"""The game's state class -> the normal player of that game."""
