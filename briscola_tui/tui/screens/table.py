"""The table: the header, the seats around the trick, the log, my hand and what I may
decide. It shows the seat's view it is given: `paint` turns the view and the screen's own
marks (`tui.frame`) into every widget at every update, and the events only add log lines
and the notice. The controller (`tables.controller.TableController`: offline, or the
network's) runs in a worker thread and posts what happened (`Moved`, `Finished`, `Failed`);
the decision area (`widgets.decision`) shows the picker a decision needs and takes the keys."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from engine.cards import Card
from engine.view import SeatView
from protocol.events import (
    PROBLEMS,
    Event,
    HandScored,
    HandVoid,
    MonteShown,
    RoleShown,
    SecretRole,
    TimedOut,
)

from ...language import _
from ...notes import Note
from ...render import render
from ...tables.controller import Result, TableController
from ..frame import Frame, Marks, frame_of, shown_hand
from ..notice import Notice
from ..shell import Shell
from ..widgets.cards import Style
from ..widgets.choices import DIGITS
from ..widgets.decision import DecisionArea
from ..widgets.header import TableHeader
from ..widgets.literal import literal
from ..widgets.picker import Mode, Picker
from ..widgets.seats import SeatsPanel
from ..widgets.tablelog import TableLog
from .table_coach import advice_for, advice_text, coach_refusal
from .table_keys import TableKeys
from .table_layout import layout_for
from .table_words import hand_tricks, waiting_words

if TYPE_CHECKING:
    from engine.bots.coach import Advice

THINKING_DELAY = 0.3
"""Seconds before "X is thinking..." shows (a quick computer player shows nothing)."""
BOLD = (RoleShown, SecretRole, HandScored, HandVoid, TimedOut)
"""Events whose line the log writes in bold: a role, a secret, a hand's verdict, a time-out."""
BELL_WAIT = 1.0
"""My turn comes after a wait longer than this (seconds since my last move, or since the table
started waiting: the deal, the others' moves): the terminal bell rings, with the setting "bell"
on, for a player in another window. A turn that follows my own move at once stays silent."""


class TableScreen(TableKeys, Screen[None]):
    app = getters.app(Shell)
    CSS_PATH = "table.tcss"
    AUTO_FOCUS = None  # keys go to the screen; the target Input takes focus only when asked
    BINDINGS = [
        *DIGITS,
        Binding("0", "digit(0)", show=False),  # (the second digit of 10, 20...)
        Binding("left", "move(-1)", show=False),
        Binding("right,l", "move(1)", show=False),
        Binding("up,k", "move_row(-1)", show=False),
        Binding("down,j", "move_row(1)", show=False),
        Binding("enter", "confirm", show=False),
        Binding("space", "space", show=False),
        Binding("t", "last_trick", show=False),
        Binding("s", "score", show=False),
        Binding("h", "coach", show=False),
        Binding("question_mark", "help", show=False),
        Binding("escape", "cancel", show=False),
    ]

    class Moved(Message):
        """A seat moved (the worker's `moved`): the view and the new events; `seat` moves next."""

        def __init__(self, view: SeatView, events: list[Event | Note], seat: int | None) -> None:
            super().__init__()
            self.view, self.events, self.seat = view, events, seat

    class Finished(Message):
        """The table stopped for me: my turn, the hand or the table over (`result`)."""

        def __init__(self, view: SeatView, events: list[Event | Note], result: Result) -> None:
            super().__init__()
            self.view, self.events, self.result = view, events, result

    class Failed(Message):
        """The table raised: `text` says what."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Advised(Message):
        """The coach's advice (from its worker) for the view `view`."""

        def __init__(self, view: SeatView, advice: Advice | str) -> None:
            super().__init__()
            self.view, self.advice = view, advice

    def __init__(self, controller: TableController, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.style_ = style
        self.view: SeatView | None = None  # the seat's view as last given: the state this screen shows
        self.decision = DecisionArea(style, id="decision")  # my hand, the picker, the prompt, the keys
        self.thinking: int | None = None
        self.thinking_since = 0.0
        self.waiting_since = time.monotonic()  # since when the table goes on without me (BELL_WAIT)
        self.over = False
        self.notice = Notice()  # one line worth seeing now: the partner revealed, the monte shown
        self.hand_view: SeatView | None = None  # the last view given in a hand (its tricks, for the summary)
        self.problems: list = []  # events naming a cheat or a time-out this hand
        self.decisions: list[tuple] = []  # this hand's (my view, my action), for the coach's review
        self.advising: SeatView | None = None  # the view the coach thinks about (None: it does not)

    @property
    def picker(self) -> Picker | None:
        """The decision asked of me (None: the table goes on)."""
        return self.decision.picker

    @property
    def mode(self) -> Mode:
        """What is asked of me: the picker's mode, or WAIT."""
        return self.decision.mode

    def compose(self) -> ComposeResult:
        s = self.style_
        yield TableHeader(s, id="header")
        with Horizontal(id="top"):
            yield SeatsPanel(s, id="seats")
            yield TableLog(id="log")
        yield Static(id="notice")
        yield self.decision

    def on_mount(self) -> None:
        self._show_picker(None)
        self.query_one("#notice", Static).display = False
        self.decision.say(_("dealing by mental poker") + self.style_.ellipsis)
        # Time, not the table, moves the thinking mark and the clock: a timer redraws them.
        self.set_interval(0.25, self._tick)
        self.advance()

    def on_unmount(self) -> None:
        """Gone (the app closes, or the table ended): the worker waiting on the table stops waiting."""
        self.controller.interrupt()

    def on_resize(self, event) -> None:
        """Another size: the table laid out for it (`table_layout`), the log's lines wrapped again."""
        self.paint()

    # --- the worker ---------------------------------------------------------------

    def advance(self, action=None) -> None:
        if action is not None and self.view is not None and self.view.legal:
            self.decisions.append((self.view, action))
        self.waiting_since = time.monotonic()
        self._show_picker(None)
        self.run_worker(lambda: self._work(action), thread=True, exclusive=True, group="table")

    def _work(self, action) -> None:
        """In the worker thread: the table goes on until it stops for me; what happens is posted."""
        ctrl = self.controller

        def moved(seat):
            view, events = ctrl.snapshot()
            self.post_message(self.Moved(view, events, seat))

        try:
            result = ctrl.advance(action, moved)
        except Exception as error:  # shown, not raised: the UI stays up
            self.post_message(self.Failed(f"{type(error).__name__}: {error}"))
            return
        if result is Result.STOPPED:  # this screen is gone: nothing to show
            return
        view, events = ctrl.snapshot()
        self.post_message(self.Finished(view, events, result))

    def on_table_screen_moved(self, message: Moved) -> None:
        self.show(message.view, message.events, message.seat)

    def on_table_screen_failed(self, message: Failed) -> None:
        self.over = True
        self.decision.say(literal(_("The table stopped: {why}").format(why=message.text), "bold"))

    def on_table_screen_finished(self, message: Finished) -> None:
        self.finished(message.view, message.events, message.result)

    def finished(self, view, events, result: Result) -> None:
        self.show(view, events, None)
        if result is Result.TURN:
            self._start_turn()
            return
        self.over = result is Result.OVER or self.controller.over
        if self.controller.save_problem:
            self.notice.say(self.controller.save_problem)
            self.paint()
        last = view.last_hand
        if last is None and not self.problems:
            self.app.table_over() if self.over else self.advance()
            return
        if last is not None and last.ok and last.result.redeal and not self.over and not self.problems:
            self._new_hand(_("Everybody passed: the cards are dealt again."), 1)
            self.advance()
            return
        if self.controller.plays_itself and not self.over:
            # A computer player plays this seat: the table goes on without waiting for a key; the
            # hand's result and any problem are in the log already.
            self.problems = []
            self._new_hand()
            self.advance()
            return
        if self.problems or (last is not None and not last.ok):
            from .verdict import VerdictScreen

            problems, self.problems = self.problems, []
            self.app.push_screen(
                VerdictScreen(view, problems, self.style_),
                lambda _=None: self._open_summary(view) if last is not None else self._summary_closed(),
            )
        else:
            self._open_summary(view)

    def _open_summary(self, view) -> None:
        from .summary import SummaryScreen

        played, decisions = hand_tricks(view, self.hand_view), self.decisions if self.controller.coach_allowed else []
        tricks = tuple(map(self.words, played))
        summary = SummaryScreen(view, self.style_, self.over, tricks, view.hand_scores, played, tuple(decisions))
        self.app.push_screen(summary, self._summary_closed)

    def _summary_closed(self, _=None) -> None:
        if self.over:
            self.app.table_over()
        else:
            self._new_hand()
            self.advance()

    def _new_hand(self, notice: str = "", until: int | None = None) -> None:
        """A new hand begins on a clear log: the marks of the last one go."""
        self.query_one(TableLog).clear()
        self.notice.say(notice, until)
        self.decisions, self.hand_view = [], None
        self.paint()

    # --- showing ------------------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        """My cards as shown now, in the order the keys number them."""
        return shown_hand(self.view) if self.view is not None and self.view.seat is not None else ()

    def show(self, view, events, thinking) -> None:
        """A new view of the table and the events since the last: the log gets their lines, the
        notice its marks, and every widget is painted from the view."""
        if thinking is not None and thinking != self.thinking:
            self.thinking_since = time.monotonic()
        self.view, self.thinking = view, thinking
        if view.hand_number is not None:
            self.hand_view = view
        log = self.query_one(TableLog)
        for event in events:
            self._note(event)
            log.add(literal(self.words(event), "bold" if isinstance(event, BOLD) else ""))
        self.paint()

    def words(self, event) -> str:
        """An event (or a note of the app's) as this screen writes it: its cards and suits, seats by name."""
        return render(event, self.style_, self.view.names if self.view else ())

    def _note(self, event: Event | Note) -> None:
        """The mark an event leaves in the notice, and the problems the verdict screen shows."""
        tricks = len(self.view.tricks) if self.view is not None else 0
        cards = self.style_.cards(event.cards) if isinstance(event, MonteShown) else ""
        self.notice.take(event, tricks, self.words, cards)
        if isinstance(event, PROBLEMS) and not (isinstance(event, HandVoid) and not event.culprits):
            self.problems.append(event)

    def _thinking_shown(self) -> int | None:
        """The computer player thinking, once it has thought long enough to say so (a person's
        turn shows as their turn)."""
        thinking = self.thinking
        if thinking is None or thinking not in self.controller.computers():
            return None
        return thinking if time.monotonic() - self.thinking_since >= THINKING_DELAY else None

    def marks(self) -> Marks:
        """The screen's own marks now: who thinks, who is away, the clock, the status, the notice."""
        ctrl = self.controller
        left = ctrl.deadline()
        return Marks(
            thinking=self._thinking_shown(),
            away=frozenset(ctrl.away()),
            clock=(left[0], max(0, int(left[1]))) if left else None,
            status=ctrl.status or "",
            notice=self.notice.text,
            picker_draws_hand=self.picker is not None and self.picker.SHOWS_HAND,
        )

    def paint(self) -> None:
        """Every widget from the view given, the screen's marks and the terminal's size: the one
        place that shows the table."""
        layout = layout_for(self.size.width, self.size.height)
        self.set_class(layout.ring, "-ring")
        log = self.query_one(TableLog)
        if log.styles.width is None or log.styles.width.value != layout.log_width:
            log.styles.width = layout.log_width
        seats = self.query_one(SeatsPanel)
        seats.ring = layout.face if layout.ring else None
        if self.view is None:
            return
        frame = frame_of(self.view, self.marks())
        header = self.query_one(TableHeader)
        header.view, header.hands = frame.view, self.controller.hands or 0
        seats.view, seats.away, seats.status = frame.view, frame.marks.away, frame.marks.status
        seats.thinking, seats.clock = frame.marks.thinking, frame.marks.clock
        notice = self.query_one("#notice", Static)
        notice.display = bool(frame.marks.notice)
        notice.update(literal(" " + frame.marks.notice, "bold"))
        self.decision.paint(frame, self._waiting(frame), self.controller.coach_allowed, layout.face, layout.centre)

    def _tick(self) -> None:
        """Redraw what moves by itself: the thinking mark and a clock."""
        if self.view is not None and self.app.screen is self and (self.thinking is not None or self.controller.ticking):
            self.paint()

    def _start_turn(self) -> None:
        """My turn: the picker for what is asked of me (and the bell, after a wait)."""
        if time.monotonic() - self.waiting_since > BELL_WAIT and self.app.settings.bell:
            self.app.bell()
        assert self.view is not None  # a turn comes with the view that asks it
        self._show_picker(self.decision.ask(self.view, self.hand))

    def _show_picker(self, picker: Picker | None) -> None:
        """Show `picker` (None: the plain hand); the focus leaves a picker no longer shown."""
        self.decision.show_picker(picker)
        if self.focused is not None and (picker is None or picker not in self.focused.ancestors):
            self.set_focus(None)
        self.paint()

    def _waiting(self, frame: Frame) -> str:
        return waiting_words(frame.view, frame.marks, self.style_.ellipsis)

    # --- the coach ----------------------------------------------------------------

    def action_coach(self) -> None:
        """`h`: what the hard player would do now, and what each choice is worth (computed in a
        worker thread; "thinking" meanwhile)."""
        view = self.view
        refusal = coach_refusal(self.controller.coach_allowed, view, self.picker is not None)
        if refusal is not None:
            self._say(refusal)
        elif view is not None and self.advising is not view:
            self.advising = view
            self._say(_("The coach is thinking") + self.style_.ellipsis)
            self.run_worker(
                lambda: self.post_message(self.Advised(view, advice_for(view))),
                thread=True,
                exclusive=True,
                group="coach",
            )

    def _say(self, text: str) -> None:
        self.notice.say(text, len(self.view.tricks) + 1 if self.view is not None else None)
        self.paint()

    def on_table_screen_advised(self, message: Advised) -> None:
        from .dialogs import InfoScreen

        if message.view is not self.advising:
            return
        self.advising = None
        self.notice.say("")
        self.paint()
        if message.view is not self.view or self.picker is None:
            return  # the table went on: the advice is of a decision already taken
        if isinstance(message.advice, str):
            self._say(_("The coach failed: {why}").format(why=message.advice))
            return
        self.app.push_screen(InfoScreen(_("Coach"), advice_text(message.advice, self.style_)))
