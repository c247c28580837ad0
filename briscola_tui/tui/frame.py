"""What the table screen shows at one moment: a function of the seat's view and the
screen's own UI state, computed in one place (`frame_of`) and painted by the screen
(`screens.table.TableScreen.paint`) into every widget at every update.

No widget keeps a copy of game state that an event must update: the hand, each seat's
count, the trick on the table, the header and the sides' totals all come from the view
given; the events only add log lines and short-lived marks (a notice). No textual here:
a test can compute a frame from a view and compare it with what the widgets draw."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.view import SeatView

from .widgets.cards import sort_hand


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
