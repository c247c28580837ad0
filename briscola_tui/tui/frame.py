"""What the table screen shows at one moment: a function of the seat's view and the
screen's own UI state, computed in one place (`frame_of`) and painted by the screen
(`screens.table.TableScreen.paint`) into every widget at every update.

No widget keeps a copy of game state that an event must update: the hand, each seat's
count, the trick on the table, the header and the sides' totals all come from the view
given; the events only add log lines and short-lived marks (a notice). No textual here:
a test can compute a frame from a view and compare it with what the widgets draw."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.cards import Card
from engine.view import SeatView

from ..tables.controller import TableUpdate
from .widgets.cards import sort_hand

THINKING_DELAY = 0.3
"""Seconds before "X is thinking..." shows (a quick computer player shows nothing)."""


@dataclass(frozen=True)
class Marks:
    """The screen's own state beside the view: what it marks, not what the game is."""

    thinking: int | None = None  # the seat shown thinking (after THINKING_DELAY), or None
    away: frozenset[int] = frozenset()  # seats with no connection now
    clock: tuple[int, int] | None = None  # (seat, whole seconds left) of the seat on the clock
    status: str = ""  # the table's status line (the connection lost and being made again)
    notice: str = ""  # one line worth seeing now (the partner revealed, the monte shown)
    picker_draws_hand: bool = False  # the picker showing draws the hand itself


@dataclass(frozen=True)
class Frame:
    """What the table screen shows at one moment: the view (the header and the seats draw the
    counts, the trick and the sides from it), my hand as shown, and the screen's marks."""

    view: SeatView
    hand: tuple[Card, ...]  # my cards as shown: by suit and rank, numbered from 1 (none for a spectator)
    hand_shown: bool  # the plain hand row shows (not to a spectator; not while a picker draws it)
    marks: Marks


def marks_of(update: TableUpdate, moving_for: float, notice: str, picker_draws_hand: bool) -> Marks:
    """The marks of `update` now: the seat moving, shown thinking once it has moved for
    `THINKING_DELAY` (`moving_for` seconds) if a computer player plays it (a person's turn
    shows as their turn); the clock's whole seconds left; the status; the screen's `notice`."""
    moving, deadline = update.moving, update.deadline
    thinking = moving if moving in update.computers and moving_for >= THINKING_DELAY else None
    return Marks(
        thinking=thinking,
        away=update.away,
        clock=(deadline[0], max(0, int(deadline[1] - time.monotonic()))) if deadline else None,
        status=update.status or "",
        notice=notice,
        picker_draws_hand=picker_draws_hand,
    )


def frame_of(view: SeatView, marks: Marks) -> Frame:
    """What shows for `view` with the screen's `marks`."""
    spectator = view.seat is None
    return Frame(
        view=view,
        hand=() if spectator else shown_hand(view),
        hand_shown=not spectator and not marks.picker_draws_hand,
        marks=marks,
    )


def shown_hand(view: SeatView) -> tuple[Card, ...]:
    """The seat's hand in the order the table shows it (the numbers the keys choose by)."""
    return sort_hand(view.hand, view.game, view.options)
