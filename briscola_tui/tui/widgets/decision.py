"""The bottom of the table: my hand, the picker the decision asked of me needs (none
while the table goes on), the prompt and the key bar. The table screen passes it the keys
and paints it from its frame; a decision taken comes back as a `Decided` message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from engine.view import SeatView

from ..frame import Frame
from .callgrid import GridPicker
from .cards import Style
from .discard import DiscardPicker
from .faces import SMALL, Face
from .hand import Hand
from .literal import literal
from .options import OptionsPicker
from .picker import CARD_KINDS, Mode, Outcome, Picker, key_line
from .play import PlayPicker


class DecisionArea(Vertical):
    DEFAULT_CSS = "DecisionArea { height: auto; }"

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.style_ = style
        self.picker: Picker | None = None  # the decision asked of me (None: the table goes on)

    @property
    def mode(self) -> Mode:
        """What is asked of me: the picker's mode, or WAIT."""
        return self.picker.MODE if self.picker is not None else Mode.WAIT

    def compose(self) -> ComposeResult:
        s = self.style_
        yield Hand(s, id="hand")  # while no picker shows the hand
        yield PlayPicker(s)
        yield DiscardPicker(s)
        yield OptionsPicker(s)
        yield GridPicker(s)
        yield Static(id="prompt")
        yield Static(id="keys")

    def ask(self, view: SeatView, hand: tuple) -> Picker:
        """The picker for the decision `view` asks of me, started on my hand as shown."""
        kinds = {a.kind for a in view.legal}
        if kinds & set(CARD_KINDS):
            picker: Picker = self.query_one(PlayPicker)
        elif kinds == {"discard"}:
            picker = self.query_one(DiscardPicker)
        elif kinds == {"call"} and len(view.legal) > 9:
            picker = self.query_one(GridPicker)
        else:
            picker = self.query_one(OptionsPicker)
        picker.start(view, hand)
        return picker

    def show_picker(self, picker: Picker | None) -> None:
        """Show `picker` (with the picker it was opened from) and no other; None: the plain hand."""
        self.picker = picker
        shown = [picker, *picker.ancestors] if picker is not None else []
        for each in self.query(Picker):
            each.set_shown(each in shown)

    def paint(self, frame: Frame, waiting: str, coach: bool, face: Face = SMALL, centre: int | None = None) -> None:
        """The hand (unless the picker draws it), the prompt and the keys, for `frame`; `waiting`:
        what the table waits for, while it asks nothing of me; `coach`: the coach may advise;
        `face`: the largest card face the hand may take, `centre` the column its cards centre on
        (the table's layout)."""
        for each in self.query(Hand):
            each.allow(face, centre)
        hand = self.query_one("#hand", Hand)
        hand.display = frame.hand_shown
        if self.picker is None or not self.picker.SHOWS_HAND:
            hand.show(frame.hand)
        self.show_controls(waiting, coach)

    def show_controls(self, waiting: str, coach: bool) -> None:
        """The prompt and the keys: the picker's, or what the table waits for."""
        prompt = self.query_one("#prompt", Static)
        if self.picker is not None:
            prompt.update(self.picker.error or self.picker.prompt())
        else:
            prompt.update(literal(waiting))
        keys = self.picker.keys() if self.picker is not None else ()
        self.query_one("#keys", Static).update(key_line(keys, coach=coach and self.picker is not None))

    def say(self, text: str | Text) -> None:
        """A line in the prompt's place (before the first view, or when the table stopped)."""
        self.query_one("#prompt", Static).update(text)

    # --- keys: passed on to the picker showing ---------------------------------------

    def key(self, press: Callable[[Picker], Outcome], digit: bool = False) -> Outcome:
        """A key for the picker showing (none: nothing comes of it); any key but a digit first
        takes a digit waiting for a second alone."""
        if self.picker is None:
            return None
        self.picker.error = None
        outcome = None if digit else self.picker.flush()
        return outcome if outcome is not None else press(self.picker)

    def cancel(self) -> Outcome:
        """Escape: forget a digit typed, else the picker's own cancel."""
        if self.picker is not None and self.picker.typed is not None:
            self.picker.drop()
            return None
        return self.picker.cancel() if self.picker is not None else None
