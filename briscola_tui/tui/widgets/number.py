"""A number to enter: the target of a bid, typed in a box under the options it
was chosen from; Enter checks it against the targets the bid allows (one out of
range is refused, and said), Escape goes back to the options."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Input

from ...language import _
from .cards import Style
from .choices import Choice
from .picker import Mode, Outcome, Picker


class NumberPicker(Picker):
    MODE = Mode.TARGET

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(style, **kwargs)
        self.back: Picker | None = None  # the options it was opened from
        self.group = Choice("")  # the bid: its targets, and the action for each

    def compose(self) -> ComposeResult:
        target = Input(id="target", type="integer")
        target.can_focus = False  # (only while a number is asked for: never by Tab)
        yield target

    def set_shown(self, shown: bool) -> None:
        super().set_shown(shown)
        self.query_one(Input).can_focus = shown

    def ask(self, back: Picker, group: Choice) -> None:
        """Ask for one of `group`'s targets, under `back` (the options picker)."""
        self.start(back.decision, back.hand)
        self.back, self.group = back, group
        target = self.query_one(Input)
        target.value, target.can_focus = "", True
        target.focus()

    @property
    def bounds(self) -> tuple[int, int]:
        return min(self.group.targets), max(self.group.targets)

    def prompt(self) -> Text:
        low, high = self.bounds
        return Text(
            _("Type a target from {low} to {high}, then Enter (Escape: back)").format(low=low, high=high), "bold"
        )

    def keys(self) -> tuple[tuple[str, str], ...]:
        return self.back.keys() if self.back is not None else ()

    def cancel(self) -> Outcome:
        return self.back

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            value = int(event.value)
        except ValueError:
            value = None
        if value not in self.group.targets:
            low, high = self.bounds
            beaten: list[int] = (
                [a.target for a in self.view.auction if a.target is not None] if self.view is not None else []
            )
            why = ""
            if beaten and value is not None and value <= max(beaten):
                why = _(" (a bid must beat the {n} bid so far)").format(n=max(beaten))
            typed = _("Nothing typed") if value is None else _("{value} may not be bid").format(value=value)
            self.refuse(
                _("{typed}: a target is a number from {low} to {high}").format(typed=typed, low=low, high=high) + why
            )
            self.post_message(self.Done(self, None))
            return
        self.post_message(self.Done(self, self.group.actions[self.group.targets.index(value)]))
