"""`View`, what a player is given (engine.bots' module doc), and `StateView`, the
minimal one, built from an engine State view of one seat. Their own module so
that the players' parts (the inference of engine/bots/inference.py) can build
one without importing the package of every player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Protocol

from ..state import Action, State


class View(Protocol):
    """What a player is given (read-only attributes): the table's `engine.view.SeatView`,
    a `StateView`, or a playout's `engine.bots.playout.FullView`. As at the table, the seat
    is None for a spectator and the state None between hands: a player is asked to move
    only for a seat in a hand, and reads them with `seat_of` and
    `engine.determinize.state_of` (ValueError otherwise)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def legal(self) -> Sequence[Action]: ...  # a tuple, or a sequence built only if read
    @property
    def state(self) -> State | None: ...


Player = Callable[[View, Random], Action]
"""`play(view, rng) -> Action`."""


def seat_of(view: View) -> int:
    """The seat `view` plays; ValueError for a spectator's view."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to play")
    return seat


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
