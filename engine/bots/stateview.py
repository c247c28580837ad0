"""`StateView`: the minimal view a player is given (engine.bots' module doc),
built from an engine State view of one seat. Its own module so that the
players' parts (the inference of engine/bots/inference.py) can build one
without importing the package of every player."""

from __future__ import annotations

from ..state import Action, State


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
