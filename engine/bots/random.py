"""The random player: a uniformly random legal move."""

from __future__ import annotations

from random import Random

from ..state import Action
from .stateview import View


def play(view: View, rng: Random) -> Action:
    """One of `view.legal`, each equally likely."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to play now")
    return rng.choice(legal)
