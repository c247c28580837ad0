"""What the pickers have in common. A picker shows one kind of decision (a card
to play, cards to discard, one of some options, a card out of the deck, a
number) and takes the keys the table screen passes on: each key method returns
what came of it, an action to send, another picker to show, or None (still
deciding). A click in it, or a number entered, comes back as a `Done` message
with the same. Its `prompt()` says what to do (or `error`, what was refused) and
`keys()` the keys it takes, which `key_line` writes into the key bar.

Numbers: whatever a picker numbers (the cards of a hand, then any other
choice; the options of a list) is chosen by its number, 1 to 99, typed in
digits. When a first digit may begin a longer number (1 with 10 or more
numbered, as a Calabresella hand of 12 to 17 cards), it waits `NUMBER_WAIT`
seconds for a second digit: "1" "2" is 12, "1" alone is 1 once the wait is
over or as soon as another key comes (Enter after "1" takes 1). Meanwhile
the cursor is on number 1 already and the prompt shows the digit typed."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from rich.text import Text
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer

from engine.cards import Card
from engine.refusal import why_illegal
from engine.state import Action
from engine.view import SeatView

from ...language import N_, _
from ...render import refusal
from .cards import Style

CARD_KINDS = ("play", "return")
"""The actions that put a card of the hand on the table."""
PHASE_TITLES = {
    "auction": N_("Your bid"),
    "call": N_("Call a card"),
    "raise": N_("Raise the monte?"),
    "take": N_("Take from the monte (scegliete)"),
    "exchange": N_("Exchange"),
}
"""Marked here, translated where shown (`phase_title`)."""
HELP, QUIT = ("?", N_("help")), ("ctrl+q", N_("quit"))
TABLE_KEYS = (("t", N_("last trick")), ("s", N_("score")))
"""Keys the table takes whatever the decision; written after the picker's own as far as the line has room.
What each key does is marked here and translated by `key_line`."""
COACH_KEY = ("h", N_("hint"))
"""The coach's key, in the bar when the coach may advise on a decision of mine."""
NUMBER_WAIT = 1.0
"""Seconds a first digit waits for a second one, when it may begin a longer number."""
KEY_LINE_WIDTH = 80
"""The key bar fits 80 columns: the table's keys go first, the last trick, then the coach, then the score."""


class Mode(StrEnum):
    """What the table screen asks of me now: the picker showing (WAIT: none)."""

    WAIT = "wait"
    CARD = "card"
    DISCARD = "discard"
    CHOOSE = "choose"
    TARGET = "target"
    GRID = "grid"


def key_line(keys: tuple[tuple[str, str], ...], coach: bool = False) -> str:
    """The key bar: help, `keys` (key, what it does, already in the current language), the
    table's keys as far as 80 columns allow (with `coach`, the coach's too), quit. Where they
    do not all fit, the last trick goes first, then the coach, then the score."""
    (help_key, help_what), (quit_key, quit_what) = HELP, QUIT
    table = [(key, _(what)) for key, what in TABLE_KEYS + ((COACH_KEY,) if coach else ())]
    for drop in ("t", "h", "s", None):
        line = " " + "   ".join(
            f"{key} {what}" for key, what in ((help_key, _(help_what)), *keys, *table, (quit_key, _(quit_what)))
        )
        if len(line) <= KEY_LINE_WIDTH:
            break
        table = [(key, what) for key, what in table if key != drop]
    return line


def phase_title(view: SeatView) -> str:
    """What the options (or the grid) are for: "Your bid", "Call a card"...; "Choose" otherwise."""
    kinds = {a.kind for a in view.legal}
    if view.phase == "call" and "call" not in kinds:
        return _("Choose")
    title = PHASE_TITLES.get(view.phase or "")
    return _(title) if title is not None else _("Choose")


class Picker(Vertical):
    """One decision. Subclasses set MODE, compose their widgets, and override `start`,
    `prompt`, `keys` and the key methods they take."""

    DEFAULT_CSS = "Picker { height: auto; }"
    MODE: ClassVar[Mode]
    SHOWS_HAND: ClassVar[bool] = False
    """True when the picker draws the hand itself (the screen's plain hand is hidden)."""

    cursor = reactive(0, always_update=True, init=False)
    """The item under the cursor (a card of the hand, an option, a cell of the grid)."""

    class Done(Message):
        """Input the picker took by itself (a click, a number entered), and its `outcome`:
        an action, a picker to show, or None."""

        def __init__(self, picker: Picker, outcome: Outcome) -> None:
            super().__init__()
            self.picker, self.outcome = picker, outcome

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.style_ = style
        self.view: SeatView | None = None
        self.hand: tuple[Card, ...] = ()
        self.error: Text | None = None  # what was refused, shown instead of the prompt until the next key
        self.typed: int | None = None  # a first digit waiting for a second (see NUMBER_WAIT)
        self._wait: Timer | None = None  # its timer
        self._before = 0  # the cursor before it

    def start(self, view: SeatView, hand: tuple[Card, ...]) -> None:
        """A new decision: `view` the seat view, `hand` my cards as shown (numbered from 1)."""
        self.drop()
        self.view, self.hand, self.error = view, hand, None

    @property
    def decision(self) -> SeatView:
        """The seat view of the decision shown: `start` sets it before the picker shows or takes a key."""
        if self.view is None:
            raise RuntimeError("a picker is used before its decision started")
        return self.view

    @property
    def seat(self) -> int:
        """My seat, the one deciding (a spectator has no decisions)."""
        seat = self.decision.seat
        if seat is None:
            raise RuntimeError("a spectator has no decision to show")
        return seat

    def set_shown(self, shown: bool) -> None:
        """Shown, or hidden, by the screen."""
        if not shown:
            self.drop()
        self.display = shown

    def watch_cursor(self) -> None:
        self.draw()

    def draw(self) -> None:
        """Show the decision as it stands in the picker's widgets."""

    def prompt(self) -> Text:
        raise NotImplementedError  # pragma: no cover - each picker has its own

    def keys(self) -> tuple[tuple[str, str], ...]:
        return ()

    def numbers(self, dash: str = "-") -> str:
        """The numbers the digits name, as the prompt and the key bar write them: "1-17"."""
        return f"1{dash}{self.numbered}" if self.numbered > 1 else "1"

    def typing(self) -> str:
        """The prompt's note of a first digit waiting for a second: "   1… (or 10–17)"."""
        if self.typed is None:
            return ""
        s = self.style_
        high = min(self.numbered, self.typed * 10 + 9)
        return "   " + _("{typed}{ellipsis} (or {low}{dash}{high})").format(
            typed=self.typed, ellipsis=s.ellipsis, low=self.typed * 10, dash=s.dash, high=high
        )

    def refuse(self, text: str) -> None:
        """Say why the key did nothing (until the next one)."""
        self.error = Text(text, "bold")

    def refuse_action(self, action: Action, what: str) -> None:
        """Refuse `action` (not legal now), saying why in the rules' words: "7♠ may not be played: ..."
        (`what`: in the current language already)."""
        reason = why_illegal(self.view.state, action) if self.view is not None else None
        names = self.view.names if self.view is not None else ()
        if reason:
            self.refuse(_("{what}: {reason}").format(what=what, reason=refusal(reason, self.style_, names)))
        else:
            self.refuse(_("{what} now").format(what=what))

    def card_note(self, cursor: int) -> str:
        """The card under the cursor in words (Asso di Spade), when there is one."""
        if 0 <= cursor < len(self.hand):
            return f"   {self.style_.cursor} {self.style_.card_name(self.hand[cursor])}"
        return ""

    # --- keys: each returns an action, a picker to show, or None ---------------------

    @property
    def numbered(self) -> int:
        """How many things the digits number (0: the digits choose nothing)."""
        return 0

    def number(self, n: int) -> Outcome:
        """Number `n` (1..numbered) chosen: what comes of it."""
        return None

    def preview(self, n: int) -> None:
        """A first digit `n` waits for a second: show number `n` meanwhile (the cursor on it)."""

    def what(self) -> str:
        """What the numbers name, for a refusal ("card", "choice"), in the current language."""
        return _("choice")

    def digit(self, d: int) -> Outcome:
        """A digit typed: a number chosen, or the first of two (see NUMBER_WAIT)."""
        if self.typed is not None:
            n = self.typed * 10 + d
            self.drop()
            if n <= self.numbered:
                return self.number(n)
            self.cursor = self._before  # (as it was before the first digit)
            self.refuse(self._no_such(n))
            return None
        if not 1 <= d <= self.numbered:
            self.refuse(self._no_such(d))
            return None
        if d * 10 <= self.numbered:
            self.typed, self._before = d, self.cursor
            self._wait = self.set_timer(NUMBER_WAIT, self._waited)
            self.preview(d)
            return None
        return self.number(d)

    def _no_such(self, n: int) -> str:
        """The refusal of a number that names nothing: "There is no card 12: type 1–9"."""
        return _("There is no {what} {n}: type {numbers}").format(
            what=self.what(), n=n, numbers=self.numbers(self.style_.dash)
        )

    def flush(self) -> Outcome:
        """A first digit still waiting is taken alone (another key came): what comes of it."""
        if self.typed is None:
            return None
        n = self.typed
        self.drop()
        return self.number(n)

    def drop(self) -> None:
        """Forget a first digit waiting."""
        if self._wait is not None:
            self._wait.stop()
        self.typed, self._wait = None, None

    def _waited(self) -> None:
        """No second digit came: the first is the number."""
        self._wait = None
        if self.typed is not None:
            self.post_message(self.Done(self, self.flush()))

    def move(self, step: int) -> Outcome:
        return None

    def move_row(self, step: int) -> Outcome:
        """Up and down: one step as left and right, unless the picker has rows."""
        return self.move(step)

    def space(self) -> Outcome:
        return self.confirm()

    def confirm(self) -> Outcome:
        return None

    def cancel(self) -> Outcome:
        return None

    def pick(self, index: int) -> Outcome:
        """A click on an item: the first selects it, a second on the same one confirms."""
        self.drop()
        if self.cursor == index:
            return self.confirm()
        self.cursor = index
        return None


Outcome = Action | Picker | None
"""What came of a key or a click in a picker: an action to send, another picker to show, or None
(still deciding)."""
