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

from engine.actions import Action
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
    sent: Action | None = None  # my decision, sent and not yet in a view given: its cards are going out


@dataclass(frozen=True)
class Frame:
    """What the table screen shows at one moment: the view (the header and the seats draw the
    counts, the trick and the sides from it), my hand as shown, and the screen's marks."""

    view: SeatView
    hand: tuple[Card, ...]  # my cards as shown: by suit and rank, numbered from 1 (none for a spectator)
    hand_shown: bool  # the plain hand row shows (not to a spectator; not while a picker draws it)
    marks: Marks


class Sending:
    """My decision sent and the view it answered: its mark (`Marks.sent`) stays until a view
    that has moved on (its history or hand another) says what came of it."""

    def __init__(self) -> None:
        self.action: Action | None = None
        self.view: SeatView | None = None

    def send(self, action: Action, view: SeatView | None) -> None:
        self.action, self.view = (action, view) if view is not None else (None, None)

    def seen(self, view: SeatView | None) -> None:
        """A view given (None: asked again, as after a decision refused): the mark goes once it moved on."""
        before = self.view
        if view is None or before is None or (view.history, view.hand_number) != (before.history, before.hand_number):
            self.action, self.view = None, None


def marks_of(
    update: TableUpdate, moving_for: float, notice: str, picker_draws_hand: bool, sent: Action | None = None
) -> Marks:
    """The marks of `update` now: the seat moving, shown thinking once it has moved for
    `THINKING_DELAY` (`moving_for` seconds) if a computer player plays it (a person's turn
    shows as their turn); the clock's whole seconds left; the status; the screen's `notice`
    and my decision `sent`."""
    moving, deadline = update.moving, update.deadline
    thinking = moving if moving in update.computers and moving_for >= THINKING_DELAY else None
    return Marks(
        thinking=thinking,
        away=update.away,
        clock=(deadline[0], max(0, int(deadline[1] - time.monotonic()))) if deadline else None,
        status=update.status or "",
        notice=notice,
        picker_draws_hand=picker_draws_hand,
        sent=sent,
    )


def frame_of(view: SeatView, marks: Marks) -> Frame:
    """What shows for `view` with the screen's `marks` (my hand without the cards of a decision
    sent: they are on their way out)."""
    spectator = view.seat is None
    going = going_out(marks.sent)
    return Frame(
        view=view,
        hand=() if spectator else tuple(c for c in shown_hand(view) if c not in going),
        hand_shown=not spectator and not marks.picker_draws_hand,
        marks=marks,
    )


def shown_hand(view: SeatView) -> tuple[Card, ...]:
    """The seat's hand in the order the table shows it (the numbers the keys choose by)."""
    return sort_hand(view.hand, view.game, view.options)


def going_out(action: Action | None) -> frozenset[Card]:
    """The cards `action` takes out of my hand: the card played or returned, the cards discarded."""
    if action is None or action.kind not in ("play", "return", "discard"):
        return frozenset()
    return frozenset(c for c in (action.card, *action.cards) if c is not None)
