"""A clear screen when the audit names a cheat, a seat times out or the table
stops: who, why, and what it means for the hand. Enter goes on."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from protocol.audit import ABSENT

from ...render import render, render_hand
from ..widgets.cards import Style
from ..widgets.literal import literal

MEANING = {
    "cheat": "The audit checked every card, shuffle and key of the hand and found this seat breaking the "
    "rules or the protocol. The hand is void: it scores nothing.",
    "timeout": "This seat did not send what it owed in time. The hand cannot go on without it.",
    "stopped": "The table stopped: a node could not go on.",
}


def problem_lines(view, problems, style: Style) -> list[tuple[str, str]]:
    """(what happened, what it means) for each problem, and for a void hand."""
    names = view.names
    out = []
    for event in problems:
        kind = "timeout" if event.kind == "timeout" else "cheat" if event.kind == "verdict" else "stopped"
        out.append((render(event, style, names), MEANING[kind]))
    last = view.last_hand
    if last is not None and not last.ok and not any(e.kind == "verdict" for e in problems):
        kind = "timeout" if any(c.kind == ABSENT for c in last.culprits) else "cheat"
        out.append((f"Hand {last.number + 1} void: " + render_hand(last, style, names), MEANING[kind]))
    return out


class VerdictScreen(ModalScreen):
    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("enter,space,escape", "close", show=False)]

    def __init__(self, view, problems, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view, self.problems, self.style_ = view, tuple(problems), style

    def compose(self) -> ComposeResult:
        text = Text()
        for what, meaning in problem_lines(self.view, self.problems, self.style_):
            text.append(literal(what, "bold")).append("\n")  # a reason from the table: one line
            text.append(meaning + "\n\n")
        with Vertical(id="dialog", classes="alert"):
            yield Static("The table names a problem", id="title")
            yield Static(text, id="body")
            yield Static("Enter: go on", id="hint")

    def action_close(self) -> None:
        self.dismiss()
