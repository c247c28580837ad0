"""The replay viewer: open a stored transcript and step it trick by trick,
as a spectator saw it: only public cards, until the audit at the end of
each hand shows every hand as dealt."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from ...render import render
from ...tools.verify import clean
from ...wording import TITLES
from ..widgets.choices import DIGITS, Choice, Choices
from ..widgets.literal import literal


class OpenReplay(Screen):
    """Choose a transcript: the newest stored ones by number, or a path typed in."""

    CSS_PATH = "replay.tcss"
    BINDINGS = [
        *DIGITS,
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("escape", "back", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text(" Replay a transcript", "bold"), id="replay-title")
        yield Choices(id="replay-files")
        yield Static(" or type a file name, then Enter:", id="replay-or")
        yield Input(id="replay-path", placeholder="path/to/table.bin")
        yield Static(id="replay-error")
        yield Static(" digits or arrows + Enter open   Escape back", id="replay-keys")

    def on_mount(self) -> None:
        from ...tools.replay_steps import describe, stored_transcripts

        self.files = stored_transcripts()
        menu = self.query_one(Choices)
        menu.columns_max = 1
        menu.show(
            [Choice(describe(p)) for p in self.files], 0, 1, "Stored transcripts (newest first):" if self.files else ""
        )
        if not self.files:
            self.query_one("#replay-or", Static).update(" No stored transcript yet; type a file name, then Enter:")
        self.query_one(Input).focus()

    def action_digit(self, d: int) -> None:
        i = self.query_one(Choices).on_page(d)
        if i is not None:
            self.open(self.files[i])

    def action_move(self, step: int) -> None:
        menu = self.query_one(Choices)
        if self.files:
            menu.cursor = (menu.cursor + step) % len(self.files)
            menu.refresh()
            self.query_one(Input).value = str(self.files[menu.cursor])

    @on(Choices.Clicked)
    def _clicked(self, event: Choices.Clicked) -> None:
        self.open(self.files[event.index])

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.open(Path(event.value.strip()).expanduser())
        elif self.files:
            self.open(self.files[self.query_one(Choices).cursor])

    def open(self, path: Path) -> None:
        from ...tools.replay_steps import ReplayError, steps_of

        error = self.query_one("#replay-error", Static)
        error.update(literal(f" reading {path.name}" + self.app.style_.ellipsis))
        try:
            steps = steps_of(path)
        except ReplayError as problem:
            error.update(literal(f" {problem}", "bold"))
            return
        error.update("")
        self.app.push_screen(ReplayScreen(path.name, steps))

    def action_back(self) -> None:
        self.app.pop_screen()


def step_text(steps, k: int, style) -> Text:
    """What step `k` shows: the seats with the trick in front of each, what happened, the audit."""
    from .summary import summary_text

    step = steps[k]
    v = step.view
    out = Text()
    if v.game is None or not v.names:
        out.append(" (the table has not started yet)\n")
    trick = {}
    winner = None
    if step.trick:
        leader, cards, winner, points = step.trick
        trick = {(leader + i) % v.players: card for i, card in enumerate(cards)}
    elif v.trick and v.trick_leader is not None:
        trick = {(v.trick_leader + i) % v.players: card for i, card in enumerate(v.trick)}
    for seat in range(v.players or 0):
        size = v.hand_sizes[seat] if seat < len(v.hand_sizes) else 0
        roles = ",".join(v.roles.get(seat, ()))
        line = f" {v.names[seat]:<8.8} {size:>2} cards  {roles:<14.14}"
        out.append(line)
        if seat in trick:
            out.append(f"[{style.card(trick[seat]):^4}]", f"bold {style.colour_of(trick[seat])}".strip())
            if seat == winner:
                out.append(f" {style.arrow} takes {step.trick[3]}", "bold")
        out.append("\n")
    out.append("\n")
    for event in step.events[-8:]:
        line = clean(render(event, style, v.names))
        out.append(literal(" " + line, "dim" if event.kind == "seated" and event.arrival == "joins" else "")).append(
            "\n"
        )
    if step.failure:
        out.append("\n").append(literal(f" {step.failure}", "bold")).append("\n")
    if step.audited and v.last_hand is not None:
        out.append("\n")
        out.append(summary_text(v, style, final=False))
    return out


class ReplayScreen(Screen):
    CSS_PATH = "replay.tcss"
    BINDINGS = [
        Binding("right,l,n,space,enter", "step(1)", show=False),
        Binding("left,h,p,backspace", "step(-1)", show=False),
        Binding("home,g", "jump(0)", show=False),
        Binding("end,G", "jump(-1)", show=False),
        Binding("down,j", "scroll(1)", show=False),
        Binding("up,k", "scroll(-1)", show=False),
        Binding("escape,q", "back", show=False),
    ]

    def __init__(self, name: str, steps, **kwargs) -> None:
        super().__init__(**kwargs)
        self.name_, self.steps, self.k = name, steps, 0

    def compose(self) -> ComposeResult:
        yield Static(id="replay-header")
        with VerticalScroll(id="replay-body"):
            yield Static(id="replay-step")
        yield Static(
            " right/Space next   left previous   Home/End first/last   up/down scroll   Escape back", id="replay-keys"
        )

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        style = self.app.style_
        step = self.steps[self.k]
        v = step.view
        title = TITLES.get(v.game, v.game or "table")
        hand = f" {style.dot} hand {v.hand_number + 1}" if v.hand_number is not None else ""
        extra = f"  trump {style.suit(v.trump)}" if v.trump else ""
        if v.called is not None:
            extra += f"  called {style.card(v.called)}"
        self.query_one("#replay-header", Static).update(
            literal(
                f" Replay {style.dot} {self.name_} {style.dot} {title}{hand} {style.dot} step {self.k + 1} of "
                f"{len(self.steps)}{extra}",
                "bold",
            )
        )
        self.query_one("#replay-step", Static).update(step_text(self.steps, self.k, style))
        self.query_one("#replay-body", VerticalScroll).scroll_home(animate=False)

    def action_step(self, by: int) -> None:
        self.k = max(0, min(len(self.steps) - 1, self.k + by))
        self._show()

    def action_jump(self, k: int) -> None:
        self.k = k % len(self.steps)
        self._show()

    def action_scroll(self, by: int) -> None:
        self.query_one("#replay-body", VerticalScroll).scroll_relative(y=by, animate=False)

    def action_back(self) -> None:
        self.app.pop_screen()
