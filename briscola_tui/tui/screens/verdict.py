"""A clear screen when the audit names a cheat, a seat times out or the table
stops: who, why, and what it means for the hand. Enter goes on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.view import SeatView
from protocol.audit import ABSENT
from protocol.events import Event, HandVoid, TimedOut

from ...language import N_, _
from ...notes import Note
from ...render import render, render_hand
from ..widgets.cards import Style
from ..widgets.literal import literal

MEANING = {
    "cheat": N_(
        "The audit checked every card, shuffle and key of the hand and found this seat breaking the "
        "rules or the protocol. The hand is void: it scores nothing."
    ),
    "timeout": N_("This seat did not send what it owed in time. The hand cannot go on without it."),
    "stopped": N_("The table stopped: a node could not go on."),
}
"""What each kind of problem means (translated with `_` where shown)."""


def problem_lines(view: SeatView, problems: Sequence[Event | Note], style: Style) -> list[tuple[str, str]]:
    """(what happened, what it means) for each problem, and for a void hand."""
    names = view.names
    out = []
    for event in problems:
        kind = "timeout" if isinstance(event, TimedOut) else "cheat" if isinstance(event, HandVoid) else "stopped"
        out.append((render(event, style, names), _(MEANING[kind])))
    last = view.last_hand
    if last is not None and not last.ok and not any(isinstance(e, HandVoid) for e in problems):
        kind = "timeout" if any(c.kind == ABSENT for c in last.culprits) else "cheat"
        void = _("Hand {n} void:").format(n=last.number + 1)
        out.append((f"{void} " + render_hand(last, style, names), _(MEANING[kind])))
    return out


class VerdictScreen(ModalScreen):
    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("enter,space,escape", "close", show=False)]

    def __init__(self, view: SeatView, problems: Sequence[Event | Note], style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view, self.problems, self.style_ = view, tuple(problems), style

    def compose(self) -> ComposeResult:
        text = Text()
        for what, meaning in problem_lines(self.view, self.problems, self.style_):
            text.append(literal(what, "bold")).append("\n")  # a reason from the table: one line
            text.append(meaning + "\n\n")
        with Vertical(id="dialog", classes="alert"):
            yield Static(_("The table names a problem"), id="title")
            yield Static(text, id="body")
            yield Static(_("Enter: go on"), id="hint")

    def action_close(self) -> None:
        self.dismiss()
