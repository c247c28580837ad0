"""The replay viewer: open a stored transcript and step it trick by trick,
as a spectator saw it: only public cards, until the audit at the end of
each hand shows every hand as dealt."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from protocol.events import Seated

from ...language import _
from ...render import render
from ...tools.verify import clean
from ...wording import TITLES, count
from ..shell import Shell
from ..widgets.choices import DIGITS, Choice, Choices
from ..widgets.literal import literal

if TYPE_CHECKING:
    from engine.view import SeatView

    from ...tools.replay_steps import Step
    from ..widgets.cards import Style


def fit(text: str, width: int, ellipsis: str) -> str:
    """`text` cut to `width` cells, the cut shown by `ellipsis`."""
    return text if len(text) <= width else text[: max(0, width - len(ellipsis))] + ellipsis


def shown_folder(folder: Path) -> str:
    """A folder as the list names it: under the home folder as `~/...`."""
    try:
        return str(Path("~") / folder.relative_to(Path.home()))
    except (ValueError, RuntimeError):
        return str(folder)


class OpenReplay(Screen):
    """Choose a transcript: every stored one, newest first, by number (nine a page, the
    arrows for the rest), or a path typed in."""

    app = getters.app(Shell)

    CSS_PATH = "replay.tcss"
    AUTO_FOCUS = ""  # none (None is the app's: the first field): digits choose, Tab reaches the field
    BINDINGS = [
        *DIGITS,
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "open_chosen", show=False),
        Binding("escape", "back", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text(" " + _("Replay a transcript"), "bold"), id="replay-title")
        yield Static(id="replay-folder")
        yield Choices(id="replay-files")
        yield Static(" " + _("or type a file name, then Enter:"), id="replay-or")
        yield Input(id="replay-path", placeholder=_("path/to/table.bin"))
        yield Static(id="replay-error")
        yield Static(" " + _("digits or arrows + Enter open   Tab type a file name   Escape back"), id="replay-keys")

    def on_mount(self) -> None:
        from ...tools.replay_steps import describe, stored_transcripts, transcripts_folder

        self.files = stored_transcripts()
        folder = self.query_one("#replay-folder", Static)
        # (the folder is the user's own, and a file name is shown as it is)
        if self.files:
            where = shown_folder(transcripts_folder())
            found = count(len(self.files), "transcript")
            folder.update(literal(" " + _("{found} in {where}, newest first:").format(found=found, where=where)))
        else:
            where = shown_folder(transcripts_folder())
            folder.update(literal(" " + _("No stored transcript yet in {where}.").format(where=where)))
        menu = self.query_one(Choices)
        menu.columns_max = 1
        room = max(20, (self.app.size.width or 80) - 10)  # the screen's padding, the number and the cursor
        ellipsis = self.app.style_.ellipsis
        menu.show([Choice(fit(describe(p), room, ellipsis)) for p in self.files], 0, 1)
        if not self.files:
            self.query_one("#replay-or", Static).update(" " + _("Type a file name, then Enter:"))
            self.query_one(Input).focus()

    def action_open_chosen(self) -> None:
        if self.files:
            self.open(self.files[self.query_one(Choices).cursor])

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
        error.update(literal(" " + _("reading {name}").format(name=path.name) + self.app.style_.ellipsis))
        try:
            steps = steps_of(path)
        except ReplayError as problem:
            error.update(literal(f" {problem}", "bold"))
            return
        error.update("")
        self.app.push_screen(ReplayScreen(path.name, steps))

    def action_back(self) -> None:
        self.app.pop_screen()


def hand_text(v: SeatView, seat: int, style: Style) -> Text:
    """A seat's hand as a spectator sees it: the cards it has shown (open hands, the monte it
    took), face up, then a back for each card nobody but the seat has seen."""
    known = v.known_hands[seat] if seat < len(v.known_hands) else ()
    size = v.hand_sizes[seat] if seat < len(v.hand_sizes) else 0
    back = "##" if style.ascii else "\u2592\u2592"
    out = Text()
    for card in known:
        out.append(style.card(card), style.colour_of(card)).append(" ")
    out.append(" ".join([back] * max(0, size - len(known))), "dim")
    out.rstrip()
    return out


def step_text(steps: list[Step], k: int, style: Style) -> Text:
    """What step `k` shows: each seat with its hand as a spectator saw it (the cards shown face
    up, a back for each hidden one) and the card it put on the trick, what happened, the audit."""
    from .summary import summary_text

    step = steps[k]
    v = step.view
    out = Text()
    if v.game is None or not v.names:
        out.append(" " + _("(the table has not started yet)") + "\n")
    trick = {}
    winner = None
    if step.trick:
        leader, cards, winner, points = step.trick
        trick = {(leader + i) % v.players: card for i, card in enumerate(cards)}
    elif v.trick and v.trick_leader is not None:
        trick = {(v.trick_leader + i) % v.players: card for i, card in enumerate(v.trick)}
    seats = range(v.players or 0)
    hands = [hand_text(v, seat, style) for seat in seats]
    roles = [", ".join(v.roles.get(seat, ())) for seat in seats]
    hand_width = max((len(h) for h in hands), default=0)
    role_width = max((len(r) for r in roles), default=0)
    for seat in seats:
        size = v.hand_sizes[seat] if seat < len(v.hand_sizes) else 0
        out.append(literal(f" {v.names[seat]:<8.8}"))
        out.append(f" {size:>2} ")
        out.append(hands[seat]).append(" " * (hand_width - len(hands[seat])))
        out.append(f"  {roles[seat]:<{role_width}}" if role_width else "")
        if seat in trick:
            out.append(f"  [{style.card(trick[seat])}]", f"bold {style.colour_of(trick[seat])}".strip())
            if seat == winner:
                out.append(f" {style.arrow} " + _("takes {points}").format(points=step.trick[3]), "bold")
        out.append("\n")
    out.append("\n")
    for event in step.events[-8:]:
        line = clean(render(event, style, v.names))
        out.append(literal(" " + line, "dim" if isinstance(event, Seated) and event.arrival == "joins" else "")).append(
            "\n"
        )
    if step.failure:
        out.append("\n").append(literal(f" {step.failure}", "bold")).append("\n")
    if step.audited and v.last_hand is not None:
        out.append("\n")
        out.append(summary_text(v, style, final=False))
    return out


def header(step: Step, style: Style, k: int, steps: int) -> str:
    """The viewer's first line: the game, the hand, the step, trump and the called card. The
    hand is the one the step shows: at its audit, the hand audited (the table has moved on to
    the next one by then)."""
    v = step.view
    parts = [TITLES.get(v.game, v.game or _("table"))]
    hand = v.last_hand.number if step.audited and v.last_hand is not None else v.hand_number
    if hand is not None:
        parts.append(_("hand {n}").format(n=hand + 1))
    parts.append(_("step {k} of {steps}").format(k=k + 1, steps=steps))
    if v.trump:
        parts.append(_("trump {suit}").format(suit=style.suit(v.trump)))
    if v.called is not None:
        parts.append(_("called {card}").format(card=style.card(v.called)))
    return f" {style.dot} ".join(parts)


class ReplayScreen(Screen):
    """One transcript step by step: the header (game, hand, step, trump, the called card),
    the file's name under it, the seats and what happened."""

    app = getters.app(Shell)

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

    def __init__(self, name: str, steps: list[Step], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.name_, self.steps, self.k = name, steps, 0

    def compose(self) -> ComposeResult:
        yield Static(id="replay-header")
        yield Static(id="replay-file")
        with VerticalScroll(id="replay-body"):
            yield Static(id="replay-step")
        yield Static(
            " " + _("right/Space next   left previous   Home/End first/last   up/down scroll   Escape back"),
            id="replay-keys",
        )

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        style = self.app.style_
        step = self.steps[self.k]
        width = (self.size.width or self.app.size.width or 80) - 1
        self.query_one("#replay-header", Static).update(
            literal(fit(" " + header(step, style, self.k, len(self.steps)), width, style.ellipsis), "bold")
        )
        self.query_one("#replay-file", Static).update(literal(fit(f" {self.name_}", width, style.ellipsis)))
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
