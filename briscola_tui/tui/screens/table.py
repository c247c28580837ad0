"""The table: my hand and what I may do, the trick, trump, whose turn; then
roles, stock, score and the log. Reads only the seat view and its events;
the protocol and the computer players run in a worker thread, which tells the
screen what happened by messages (`Moved`, `Finished`, `Failed`).

What shows is in widgets of its own: the header (`widgets.header`), the seats
(`widgets.seats`), the log, the hand, and one picker for each kind of decision
(`widgets.play`, `.discard`, `.options` with `.number`, `.callgrid`); the screen
shows the picker the decision needs (none while it waits), passes it the keys,
and writes its prompt and keys, or what the table waits for.

The controller is a `controller.TableController` (`OfflineTable`, or the
network's `NetTable`): `advance(action, moved)` -> a `controller.Result`,
`snapshot()` -> (view, new events), `over`, `hands` (hands asked for),
`deadline()` -> (seat, seconds left) or None, `status` (a line such as
"reconnecting"), `save_problem` and `ticking`."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import RichLog, Static

from engine.cards import Card
from engine.view import SeatView
from protocol.events import (
    Acted,
    Complained,
    Event,
    HandScored,
    HandVoid,
    MonteShown,
    Refused,
    RoleShown,
    SecretRole,
    StoppedEarly,
    TimedOut,
    TrickTaken,
)

from ...language import _
from ...notes import Note
from ...render import render, worth
from ...tables.controller import Result, TableController
from ..frame import Marks, frame_of, shown_hand
from ..widgets.callgrid import GridPicker
from ..widgets.cards import Style
from ..widgets.choices import DIGITS
from ..widgets.discard import DiscardPicker
from ..widgets.hand import Hand
from ..widgets.header import TableHeader
from ..widgets.literal import literal
from ..widgets.options import OptionsPicker
from ..widgets.picker import CARD_KINDS, Mode, Picker, key_line
from ..widgets.play import PlayPicker
from ..widgets.seats import SeatsPanel, is_you, seat_name

THINKING_DELAY = 0.3
"""Seconds before "X is thinking..." shows (a quick computer player shows nothing)."""
BOLD = (RoleShown, SecretRole, HandScored, HandVoid, TimedOut)
"""Events whose line the log writes in bold: a role, a secret, a hand's verdict, a time-out."""
BELL_WAIT = 1.0
"""My turn comes after a wait longer than this (seconds since my last move, or since the table
started waiting: the deal, the others' moves): the terminal bell rings, with the setting "bell"
on, for a player in another window. A turn that follows my own move at once stays silent."""


class TableScreen(Screen):
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

        def __init__(self, view, events, seat) -> None:
            super().__init__()
            self.view, self.events, self.seat = view, events, seat

    class Finished(Message):
        """The table stopped for me: my turn, the hand or the table over (`result`)."""

        def __init__(self, view, events, result: Result) -> None:
            super().__init__()
            self.view, self.events, self.result = view, events, result

    class Failed(Message):
        """The table raised: `text` says what."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Advised(Message):
        """The coach's advice (from its worker) for the view `view`."""

        def __init__(self, view, advice) -> None:
            super().__init__()
            self.view, self.advice = view, advice

    def __init__(self, controller: TableController, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.style_ = style
        self.view: SeatView | None = None  # the seat's view as last given: the state this screen shows
        self.picker: Picker | None = None  # the decision asked of me (None: the table goes on)
        self.thinking: int | None = None
        self.thinking_since = 0.0
        self.waiting_since = time.monotonic()  # since when the table goes on without me (BELL_WAIT)
        self.over = False
        self.notice = ""  # one line worth seeing now: the partner revealed, the monte shown
        self.notice_until: int | None = None  # the trick count that clears it (None: something else does)
        self.notice_monte = False  # the notice is the monte shown: the first card played or discarded clears it
        self.hand_view: SeatView | None = None  # the last view given in a hand (its tricks, for the summary)
        self.problems: list = []  # events naming a cheat or a time-out this hand
        self.decisions: list[tuple] = []  # this hand's (my view, my action), for the coach's review
        self.advising = None  # the view the coach thinks about (None: it does not)

    @property
    def mode(self) -> Mode:
        """What is asked of me: the picker's mode, or WAIT."""
        return self.picker.MODE if self.picker is not None else Mode.WAIT

    def compose(self) -> ComposeResult:
        s = self.style_
        yield TableHeader(s, id="header")
        with Horizontal(id="top"):
            yield SeatsPanel(s, id="seats")
            log = RichLog(id="log", wrap=True, markup=False, min_width=16)
            log.can_focus = False
            yield log
        yield Static(id="notice")
        yield Hand(s, id="hand")  # while no picker shows the hand
        yield PlayPicker(s)
        yield DiscardPicker(s)
        yield OptionsPicker(s)
        yield GridPicker(s)
        yield Static(id="prompt")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self._show_picker(None)
        self.query_one("#notice", Static).display = False
        self.query_one("#hand", Hand).show(())
        self.query_one("#prompt", Static).update(_("dealing by mental poker") + self.style_.ellipsis)
        # Time, not the table, moves the thinking mark and the clock: a timer redraws them.
        self.set_interval(0.25, self._tick)
        self.advance()

    def on_unmount(self) -> None:
        """Gone (the app closes, or the table ended): the worker waiting on the table stops waiting."""
        self.controller.interrupt()

    def on_resize(self, event) -> None:
        """More room than 80 columns: the log takes a third of it, up to the 200 columns the
        table takes at most (table.tcss: wider, it is centred)."""
        self.query_one("#log", RichLog).styles.width = max(28, min(event.size.width, 200) // 3)

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
        self.query_one("#prompt", Static).update(
            literal(_("The table stopped: {why}").format(why=message.text), "bold")
        )

    def on_table_screen_finished(self, message: Finished) -> None:
        self.finished(message.view, message.events, message.result)

    def finished(self, view, events, result: Result) -> None:
        self.show(view, events, None)
        if result is Result.TURN:
            self._start_turn()
            return
        self.over = result is Result.OVER or self.controller.over
        if self.controller.save_problem:
            self.notice, self.notice_until = self.controller.save_problem, None
            self.paint()
        last = view.last_hand
        if last is None and not self.problems:
            self.app.table_over() if self.over else self.advance()
            return
        if last is not None and last.ok and last.result.get("redeal") and not self.over and not self.problems:
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

        played = self._hand_tricks(view)
        summary = SummaryScreen(
            view,
            self.style_,
            final=self.over,
            tricks=tuple(self.words(event) for event in played),
            history=tuple(view.hand_scores),
            played=played,
            decisions=tuple(self.decisions) if self.controller.coach_allowed else (),
        )
        self.app.push_screen(summary, self._summary_closed)

    def _summary_closed(self, _=None) -> None:
        if self.over:
            self.app.table_over()
        else:
            self._new_hand()
            self.advance()

    def _new_hand(self, notice: str = "", until: int | None = None) -> None:
        """A new hand begins on a clear log: the marks of the last one go."""
        self.query_one("#log", RichLog).clear()
        self.notice, self.notice_until, self.notice_monte = notice, until, False
        self.decisions, self.hand_view = [], None
        self.paint()

    def _hand_tricks(self, view) -> tuple:
        """Every trick of the audited hand, as trick events: as the audit replayed them, else
        (no outcome: a void hand) as the last view given in that hand showed them. A node that
        joins or comes back mid-hand is told the hand so far by its view, not by events."""
        last, seen = view.last_hand, self.hand_view
        if last is not None and last.tricks:
            tricks, unit = last.tricks, seen.unit if seen is not None else view.unit
        elif last is not None and seen is not None and seen.hand_number == last.number:
            tricks, unit = seen.tricks, seen.unit
        else:
            return ()
        return tuple(TrickTaken(t.winner, tuple(t.cards), t.points, unit) for t in tricks)

    # --- showing ------------------------------------------------------------------

    def who(self, seat) -> str:
        return seat_name(self.view, seat)

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
        log = self.query_one("#log", RichLog)
        for event in events:
            self._note(event)
            text = self.words(event)
            log.write(literal(text, "bold" if isinstance(event, BOLD) else ""))
        self.paint()

    def words(self, event) -> str:
        """An event (or a note of the app's) as this screen writes it: its cards and suits, seats by name."""
        return render(event, self.style_, self.view.names if self.view else ())

    def _note(self, event: Event | Note) -> None:
        """The short-lived marks an event leaves (a notice), and the problems the verdict screen shows."""
        tricks = len(self.view.tricks) if self.view is not None else 0
        match event:
            case TrickTaken() if self.notice_until is not None and tricks >= self.notice_until:
                self.notice, self.notice_until = "", None
            case MonteShown(cards=cards) if cards:
                self.notice = _("The monte is shown: {cards}").format(cards=self.style_.cards(cards))
                self.notice_monte = True
            case RoleShown(role="partner" | "alone" | "soloist" as role):
                self.notice = self.words(event) + ("!" if role == "partner" else "")
                self.notice_until = tricks + 2  # seen for the rest of this trick and the next
            case SecretRole():
                text = self.words(event)
                self.notice = text[0].upper() + text[1:]
            case Acted(action=action) if action.kind in ("discard", "play") and self.notice_monte:
                self.notice, self.notice_monte = "", False
            case HandVoid(culprits=culprits) if culprits:
                self.problems.append(event)
            case TimedOut() | StoppedEarly() | Refused() | Complained():
                self.problems.append(event)

    def _thinking_shown(self) -> int | None:
        """The seat thinking, once it has thought long enough to say so."""
        if self.thinking is not None and time.monotonic() - self.thinking_since >= THINKING_DELAY:
            return self.thinking
        return None

    def marks(self) -> Marks:
        """The screen's own marks now: who thinks, who is away, the clock, the status, the notice."""
        ctrl = self.controller
        left = ctrl.deadline()
        return Marks(
            thinking=self._thinking_shown(),
            away=frozenset(ctrl.away()),
            clock=(left[0], max(0, int(left[1]))) if left else None,
            status=ctrl.status or "",
            notice=self.notice,
            picker_draws_hand=self.picker is not None and self.picker.SHOWS_HAND,
        )

    def paint(self) -> None:
        """Every widget from the view given and the screen's marks: the one place that shows the table."""
        if self.view is None:
            return
        frame = frame_of(self.view, self.marks())
        header = self.query_one(TableHeader)
        header.view, header.hands = frame.view, self.controller.hands or 0
        seats = self.query_one(SeatsPanel)
        seats.view, seats.away, seats.status = frame.view, frame.marks.away, frame.marks.status
        seats.thinking, seats.clock = frame.marks.thinking, frame.marks.clock
        notice = self.query_one("#notice", Static)
        notice.display = bool(frame.marks.notice)
        notice.update(literal(" " + frame.marks.notice, "bold"))
        hand = self.query_one("#hand", Hand)
        hand.display = frame.hand_shown
        if self.picker is None or not self.picker.SHOWS_HAND:
            hand.show(frame.hand)
        self._show_controls()

    def _tick(self) -> None:
        """Redraw what moves by itself: the thinking mark and a clock."""
        if self.view is not None and self.app.screen is self and (self.thinking is not None or self.controller.ticking):
            self.paint()

    def _start_turn(self) -> None:
        """My turn: the picker for what is asked of me (and the bell, after a wait)."""
        if time.monotonic() - self.waiting_since > BELL_WAIT and self.app.settings.bell:
            self.app.bell()
        v = self.view
        kinds = {a.kind for a in v.legal}
        if kinds & set(CARD_KINDS):
            picker: Picker = self.query_one(PlayPicker)
        elif kinds == {"discard"}:
            picker = self.query_one(DiscardPicker)
        elif kinds == {"call"} and len(v.legal) > 9:
            picker = self.query_one(GridPicker)
        else:
            picker = self.query_one(OptionsPicker)
        picker.start(v, self.hand)
        self._show_picker(picker)

    def _show_picker(self, picker: Picker | None) -> None:
        """Show `picker` (with the picker it was opened from) and no other; None: the plain hand."""
        self.picker = picker
        shown = [picker, *picker.ancestors] if picker is not None else []
        for each in self.query(Picker):
            each.set_shown(each in shown)
        if self.focused is not None and (picker is None or picker not in self.focused.ancestors):
            self.set_focus(None)
        self.paint()

    def _show_controls(self) -> None:
        """The prompt and the keys: the picker's, or what the table waits for."""
        if self.view is None:
            return
        prompt = self.query_one("#prompt", Static)
        if self.picker is not None:
            prompt.update(self.picker.error or self.picker.prompt())
        else:
            prompt.update(self._waiting())
        keys = self.picker.keys() if self.picker is not None else ()
        coach = self.picker is not None and self.controller.coach_allowed
        self.query_one("#keys", Static).update(key_line(keys, coach=coach))

    def _waiting(self):
        """What the table waits for, while it asks nothing of me."""
        v, s = self.view, self.style_
        if self.thinking is not None and self.thinking in self.controller.away():
            away = _("{name} is away (no connection): the table waits for them to come back")
            return literal(away.format(name=self.who(self.thinking)) + s.ellipsis)
        if self._thinking_shown() is not None:
            return literal(_("{name} is thinking").format(name=self.who(self.thinking)) + s.ellipsis)
        if v.table_phase not in ("play", "over"):
            waiting = ", ".join(self.who(seat) for seat in sorted(v.awaited) if seat != v.seat)
            deal = _("the mental-poker deal goes on ({phase})").format(phase=v.table_phase)
            if waiting:
                deal = _("{deal}: waiting for {names}").format(deal=deal, names=waiting)
            return literal(deal + s.ellipsis)
        if v.turn is not None and v.turn != v.seat:
            return literal(_("waiting for {name}").format(name=self.who(v.turn)) + s.ellipsis)
        return ""

    # --- keys: passed on to the picker showing ---------------------------------------

    def _answer(self, outcome) -> None:
        """What came of a key or a click: an action to send, another picker to show, or
        (None) the same picker, its prompt redrawn."""
        if isinstance(outcome, Picker):
            self._show_picker(outcome)
        elif outcome is not None:
            self.advance(outcome)
        else:
            self._show_controls()

    def _key(self, press, digit: bool = False) -> None:
        """A key for the picker; any key but a digit first takes a digit waiting for a second alone."""
        if self.picker is not None:
            self.picker.error = None
            outcome = None if digit else self.picker.flush()
            self._answer(outcome if outcome is not None else press(self.picker))

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
        if self.picker is not None and self.picker.typed is not None:  # Escape forgets a digit typed
            self.picker.drop()
            self._show_controls()
            return
        if self.picker is not None:
            outcome = self.picker.cancel()
            if outcome is not None:
                self._answer(outcome)

    def on_picker_done(self, message: Picker.Done) -> None:
        """A click in the picker showing, or a number entered."""
        if message.picker is self.picker:
            self._answer(message.outcome)

    def action_last_trick(self) -> None:
        from .dialogs import InfoScreen

        v, s = self.view, self.style_
        if v is None or not v.tricks:
            text = _("No trick has been taken yet in this hand.")
        else:
            t = v.tricks[-1]
            cards = "\n".join(f"  {self.who((t.leader + i) % v.players):<6} {s.card(c)}" for i, c in enumerate(t.cards))
            taker = _("you take it: {points}") if is_you(v, t.winner) else _("{name} takes it: {points}")
            took = taker.format(name=self.who(t.winner), points=worth(t.points, v.unit))
            if is_you(v, t.leader):
                led = _("Last trick (led by you):")
            else:
                led = _("Last trick (led by {name}):").format(name=self.who(t.leader))
            text = f"{led}\n\n{cards}\n\n{took}"
        self.app.push_screen(InfoScreen(_("Last trick"), text))

    def action_score(self) -> None:
        from .dialogs import InfoScreen
        from .summary import scoreboard

        if self.view is not None:
            self.app.push_screen(InfoScreen(_("Scores"), scoreboard(self.view, self.view.hand_scores)))

    def action_help(self) -> None:
        from .dialogs import InfoScreen, help_text

        game = self.view.game if self.view else self.controller.game
        self.app.push_screen(InfoScreen(_("Help"), help_text(game)))

    # --- the coach ----------------------------------------------------------------

    def action_coach(self) -> None:
        """`h`: what the hard player would do now, and what each choice is worth (computed in a
        worker thread; "thinking" meanwhile)."""
        v = self.view
        if not self.controller.coach_allowed:
            self._say(_("The host does not allow the coach at this table."))
        elif v is None or self.picker is None or not v.legal:
            self._say(_("The coach advises on your own decisions: it is not your turn."))
        elif self.advising is not v:
            self.advising = v
            self._say(_("The coach is thinking") + self.style_.ellipsis)
            self.run_worker(lambda: self._advise(v), thread=True, exclusive=True, group="coach")

    def _say(self, text: str) -> None:
        self.notice, self.notice_until = text, len(self.view.tricks) + 1 if self.view is not None else None
        self.paint()

    def _advise(self, view) -> None:
        """In the coach's worker thread."""
        import random

        from engine.bots.coach import advise

        try:
            advice = advise(view, random.Random())
        except Exception as error:  # shown, not raised: the table goes on
            advice = f"{type(error).__name__}: {error}"
        self.post_message(self.Advised(view, advice))

    def on_table_screen_advised(self, message: Advised) -> None:
        from ...tools.review import advice_lines
        from .dialogs import InfoScreen

        if message.view is not self.advising:
            return
        self.advising = None
        self.notice, self.notice_until = "", None
        self.paint()
        if message.view is not self.view or self.picker is None:
            return  # the table went on: the advice is of a decision already taken
        if isinstance(message.advice, str):
            self._say(_("The coach failed: {why}").format(why=message.advice))
            return
        self.app.push_screen(InfoScreen(_("Coach"), "\n".join(advice_lines(message.advice, self.style_))))
