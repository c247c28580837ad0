"""The table: the header, the seats around the trick, the log, my hand and what I may
decide. The controller (`tables.controller.TableController`: offline, or the network's)
posts a `TableUpdate` at every change of the table, from its own thread; the screen draws
each one it is given (`take`): `paint` turns the update's view and marks, with the screen's
own (`tui.frame`), into every widget, and the events only add log lines and the notice. It
polls nothing: a timer only moves what time moves (the thinking mark, a clock). The
decision area (`widgets.decision`) shows the picker the update asks for and takes the keys;
a decision goes back to the controller (`act`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events, getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from engine.cards import Card
from engine.state import Action
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
from ...tables.controller import Mailbox, TableController, TableUpdate, merged
from ..frame import Marks, Sending, frame_of, marks_of, shown_hand
from ..notice import Notice
from ..shell import Shell
from ..widgets.cards import Style
from ..widgets.choices import DIGITS
from ..widgets.decision import DecisionArea
from ..widgets.header import TableHeader
from ..widgets.literal import literal
from ..widgets.picker import Mode, Outcome, Picker
from ..widgets.seats import SeatsPanel
from ..widgets.tablelog import TableLog
from .table_coach import advice_for, advice_text, coach_refusal
from .table_dialogs import last_trick_dialog, score_dialog
from .table_layout import layout_for
from .table_words import hand_tricks, toasts, waiting_words

if TYPE_CHECKING:
    from engine.bots.coach import Advice

BOLD = (RoleShown, SecretRole, HandScored, HandVoid, TimedOut)
"""Events whose line the log writes in bold: a role, a secret, a hand's verdict, a time-out."""
BELL_WAIT = 1.0
"""My turn comes after a wait longer than this (seconds since my last move, or since the table
started waiting: the deal, the others' moves): the terminal bell rings, with the setting "bell"
on, for a player in another window. A turn that follows my own move at once stays silent."""


class TableScreen(Screen[None]):
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

    class Updated(Message):
        """The table changed: an update waits in the mailbox (posted from the controller's thread)."""

    class Advised(Message):
        """The coach's advice (from its worker) for the view `view`."""

        def __init__(self, view: SeatView, advice: Advice | str) -> None:
            super().__init__()
            self.view, self.advice = view, advice

    def __init__(self, controller: TableController, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.style_ = style
        self.mailbox = Mailbox(self._updated)  # the controller's updates, from its thread
        self.shown: TableUpdate | None = None  # the update drawn: the table as last given
        self.held: TableUpdate | None = None  # what came while a hand's end was shown (taken after it)
        self.between_hands = False  # a hand's verdict or summary is on top: updates wait in `held`
        self.decision = DecisionArea(style, id="decision")  # my hand, the picker, the prompt, the keys
        self.thinking_since = 0.0  # since when the seat moving now has been moving
        self.waiting_since = time.monotonic()  # since when the table goes on without me (BELL_WAIT)
        self.over = False
        self.notice = Notice()  # one line worth seeing now: the partner revealed, the monte shown
        self.hand_view: SeatView | None = None  # the last view given in a hand (its tricks, for the summary)
        self.problems: list = []  # events naming a cheat or a time-out this hand
        self.decisions: list[tuple] = []  # this hand's (my view, my action), for the coach's review
        self.advising: SeatView | None = None  # the view the coach thinks about (None: it does not)
        self.sending = Sending()  # my decision sent, until a view that has moved on ("playing 7♠...")

    @property
    def view(self) -> SeatView | None:
        """The seat's view as last given (None before the first update)."""
        return self.shown.view if self.shown is not None else None

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
        self.controller.open(self.mailbox.put)

    def on_unmount(self) -> None:
        """Gone (the app closes, or the table ended): the controller posts no more."""
        self.controller.close()

    def on_resize(self, event: events.Resize) -> None:
        """Another size: the table laid out for it (`table_layout`), the log's lines wrapped again."""
        self.paint()

    # --- what the table says --------------------------------------------------------

    def _updated(self) -> None:
        self.post_message(self.Updated())

    def on_table_screen_updated(self, _message: Updated) -> None:
        update = self.mailbox.take()
        if update is not None:
            self.take(update)

    def take(self, update: TableUpdate) -> None:
        """The table as the controller gives it now: drawn, and what it asks of me asked (a hand's
        end shown first: what comes meanwhile waits for it)."""
        self._toast(update)
        if self.between_hands:
            self.held = update if self.held is None else merged(self.held, update)
            return
        self.show(update)
        if update.failed is not None:
            self.over = True
            self.decision.say(literal(_("The table stopped: {why}").format(why=update.failed), "bold"))
        elif update.hand_over or update.over:
            self._hand_ended(update)
            if update.asked and not (self.between_hands or self.over):  # the next hand asks already
                self._start_turn(update.view)
        elif update.asked:
            self._start_turn(update.view)
        elif self.picker is not None:
            self._show_picker(None)  # the decision was taken (here, or by the seat's computer player)

    def _toast(self, update: TableUpdate) -> None:
        """News while the table is not the screen showing: a toast says it (whatever is on top)."""
        if self.app.screen is not self:  # (against the last update taken, drawn or held)
            for text, severity in toasts(update, self.held or self.shown, self.words):
                self.app.notify(text, markup=False, severity=severity)

    def _hand_ended(self, update: TableUpdate) -> None:
        """A hand audited (its verdict, its summary), or the table over."""
        view = update.view
        self.over = update.over
        if update.save_problem:
            self.notice.say(update.save_problem)
            self.paint()
        last = view.last_hand if update.hand_over else None
        if last is None and not self.problems:
            self.app.table_over() if self.over else self.controller.go_on()
            return
        if last is not None and last.ok and last.result.redeal and not self.over and not self.problems:
            self._new_hand(_("Everybody passed: the cards are dealt again."), 1)
            self.controller.go_on()
            return
        if self.controller.plays_itself and not self.over:
            # A computer player plays this seat: the table goes on without waiting for a key; the
            # hand's result and any problem are in the log already.
            self.problems = []
            self._new_hand()
            self.controller.go_on()
            return
        self.between_hands = True
        if self.problems or (last is not None and not last.ok):
            from .verdict import VerdictScreen

            problems, self.problems = self.problems, []
            self.app.push_screen(
                VerdictScreen(view, problems, self.style_),
                lambda _=None: self._open_summary(view) if last is not None else self._summary_closed(),
            )
        else:
            self._open_summary(view)

    def _open_summary(self, view: SeatView) -> None:
        from .summary import SummaryScreen

        coach = self.shown is not None and self.shown.coach_allowed
        played, decisions = hand_tricks(view, self.hand_view), self.decisions if coach else []
        tricks = tuple(map(self.words, played))
        summary = SummaryScreen(view, self.style_, self.over, tricks, view.hand_scores, played, tuple(decisions))
        self.app.push_screen(summary, self._summary_closed)

    def _summary_closed(self, _: object = None) -> None:
        if self.over:
            self.app.table_over()
            return
        self._new_hand()
        self.between_hands = False
        self.controller.go_on()
        held, self.held = self.held, None
        if held is not None:
            self.take(held)
        elif self.shown is not None and self.shown.asked:  # the next hand asked as this one ended
            self._start_turn(self.shown.view)

    def _new_hand(self, notice: str = "", until: int | None = None) -> None:
        """A new hand begins on a clear log: the marks of the last one go."""
        self.query_one(TableLog).clear()
        self.notice.say(notice, until)
        self.decisions, self.hand_view = [], None
        self.waiting_since = time.monotonic()
        self.paint()

    # --- showing ------------------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        """My cards as shown now, in the order the keys number them."""
        return shown_hand(self.view) if self.view is not None and self.view.seat is not None else ()

    def show(self, update: TableUpdate) -> None:
        """A new update of the table: the log gets its events' lines, the notice their marks, and
        every widget is painted from its view and marks."""
        if update.moving != (self.shown.moving if self.shown is not None else None):
            self.thinking_since = time.monotonic()
        self.shown = update
        view = update.view
        self.sending.seen(view)
        if view.hand_number is not None:
            self.hand_view = view
        log = self.query_one(TableLog)
        for event in update.events:
            self._note(event)
            log.add(literal(self.words(event), "bold" if isinstance(event, BOLD) else ""))
        self.paint()

    def words(self, event: Event | Note) -> str:
        """An event (or a note of the app's) as this screen writes it: its cards and suits, seats by name."""
        return render(event, self.style_, self.view.names if self.view else ())

    def _note(self, event: Event | Note) -> None:
        """The mark an event leaves in the notice, and the problems the verdict screen shows."""
        tricks = len(self.view.tricks) if self.view is not None else 0
        cards = self.style_.cards(event.cards) if isinstance(event, MonteShown) else ""
        self.notice.take(event, tricks, self.words, cards)
        if isinstance(event, PROBLEMS) and not (isinstance(event, HandVoid) and not event.culprits):
            self.problems.append(event)

    def marks(self) -> Marks:
        """The marks of the update shown, with the screen's own (the notice, the picker)."""
        if self.shown is None:
            return Marks(notice=self.notice.text)
        drawn = self.picker is not None and self.picker.SHOWS_HAND
        moving_for = time.monotonic() - self.thinking_since
        return marks_of(self.shown, moving_for, self.notice.text, drawn, self.sending.action)

    def paint(self) -> None:
        """Every widget from the update given, the screen's marks and the terminal's size: the
        one place that shows the table."""
        layout = layout_for(self.size.width, self.size.height)
        self.set_class(layout.ring, "-ring")
        log = self.query_one(TableLog)
        if log.styles.width is None or log.styles.width.value != layout.log_width:
            log.styles.width = layout.log_width
        seats = self.query_one(SeatsPanel)
        seats.ring = layout.face if layout.ring else None
        if self.shown is None:
            return
        frame = frame_of(self.shown.view, self.marks())
        header = self.query_one(TableHeader)
        header.view, header.hands = frame.view, self.controller.hands or 0
        seats.view, seats.away, seats.status = frame.view, frame.marks.away, frame.marks.status
        seats.thinking, seats.clock = frame.marks.thinking, frame.marks.clock
        notice = self.query_one("#notice", Static)
        notice.display = bool(frame.marks.notice)
        notice.update(literal(" " + frame.marks.notice, "bold"))
        waiting = waiting_words(frame.view, frame.marks, self.style_.ellipsis, self.style_)
        self.decision.paint(frame, waiting, self.shown.coach_allowed, layout.face, layout.centre)

    def _tick(self) -> None:
        """Redraw what moves by itself: the thinking mark and a clock."""
        shown = self.shown
        if shown is not None and self.app.screen is self and (shown.moving is not None or shown.deadline):
            self.paint()

    # --- my decisions -------------------------------------------------------------

    def _start_turn(self, view: SeatView) -> None:
        """My turn: the picker for what is asked of me (and the bell, after a wait). A picker that
        shows this very decision already (an update that changed only a mark) is left as it is."""
        picker = self.picker
        if picker is not None and picker.view is not None and picker.view.legal == view.legal:
            return
        if time.monotonic() - self.waiting_since > BELL_WAIT and self.app.settings.bell:
            self.app.bell()
        self.sending.seen(None)  # asked again (a decision refused): my hand as it is
        self._show_picker(self.decision.ask(view, self.hand))

    def _show_picker(self, picker: Picker | None) -> None:
        """Show `picker` (None: the plain hand); the focus leaves a picker no longer shown."""
        self.decision.show_picker(picker)
        if self.focused is not None and (picker is None or picker not in self.focused.ancestors):
            self.set_focus(None)
        self.paint()

    def act(self, action: Action) -> None:
        """My decision, to the controller; the table goes on without me until it asks again."""
        if self.view is not None and self.view.legal:
            self.decisions.append((self.view, action))
        self.sending.send(action, self.view)
        self.waiting_since = time.monotonic()
        self._show_picker(None)
        self.controller.act(action)

    def _answer(self, outcome: Outcome) -> None:
        """What came of a key or a click: an action to send, another picker to show, or
        (None) the same picker, its prompt redrawn."""
        if isinstance(outcome, Picker):
            self._show_picker(outcome)
        elif outcome is not None:
            self.act(outcome)
        else:
            self.paint()

    def _key(self, press: Callable[[Picker], Outcome], digit: bool = False) -> None:
        if self.picker is not None:
            self._answer(self.decision.key(press, digit))

    def action_digit(self, d: int) -> None:
        self._key(lambda picker: picker.digit(d), digit=True)

    def action_move(self, step: int) -> None:
        self._key(lambda picker: picker.move(step))

    def action_move_row(self, step: int) -> None:
        """Up and down: a suit in the call grid, else one step as left and right."""
        self._key(lambda picker: picker.move_row(step))

    def action_space(self) -> None:
        self._key(lambda picker: picker.space())

    def action_confirm(self) -> None:
        self._key(lambda picker: picker.confirm())

    def action_cancel(self) -> None:
        if self.picker is not None:
            self._answer(self.decision.cancel())

    def on_picker_done(self, message: Picker.Done) -> None:
        """A click in the picker showing, or a number entered."""
        if message.picker is self.picker:
            self._answer(message.outcome)

    # --- the dialogs and the coach --------------------------------------------------

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.view, self.style_))

    def action_score(self) -> None:
        if self.view is not None:
            self.app.push_screen(score_dialog(self.view))

    def action_help(self) -> None:
        from .dialogs import InfoScreen, help_text

        game = self.view.game if self.view else self.controller.game
        self.app.push_screen(InfoScreen(_("Help"), help_text(game)))

    def action_coach(self) -> None:
        """`h`: what the hard player would do now, and what each choice is worth (computed in a
        worker thread; "thinking" meanwhile)."""
        view = self.view
        allowed = self.shown is not None and self.shown.coach_allowed
        refusal = coach_refusal(allowed, view, self.picker is not None)
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
