"""The table: my hand and what I may do, the trick, trump, whose turn; then
roles, stock, score and the log. Reads only the seat view and its events;
the protocol and the computer players run in a worker thread.

The controller is a `controller.TableController` (`OfflineTable`, or the
network's `NetTable`): `advance(action, moved)` -> a `controller.Result`,
`snapshot()` -> (view, new events), `over`, `hands` (hands asked for),
`deadline()` -> (seat, seconds left) or None, `status` (a line such as
"reconnecting"), `save_problem` and `ticking`."""

from __future__ import annotations

import time

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input, RichLog, Static

from engine.games import GAMES

from ...render import Note, render
from ...tables.controller import Result, TableController
from ...wording import TITLES
from ..widgets.cards import Style, rank_order, sort_hand
from ..widgets.choices import DIGITS, Choice, Choices
from ..widgets.grid import CardGrid
from ..widgets.hand import Hand
from ..widgets.literal import literal

CARD_KINDS = ("play", "return")
THINKING_DELAY = 0.3
"""Seconds before "X is thinking..." shows (a quick computer player shows nothing)."""
SEATS_WIDTH = 52
"""The seats' panel at 80 columns (before the first layout gives its size)."""
PHASE_TITLES = {
    "auction": "Your bid",
    "call": "Call a card",
    "raise": "Raise the monte?",
    "take": "Take from the monte (scegliete)",
    "exchange": "Exchange",
}


def choices_of(view, style: Style) -> list[Choice]:
    """The legal actions as numbered choices; bids with a target grouped into one (a number to enter)."""
    items: list[Choice] = []
    groups: dict = {}
    for action in view.legal:
        if action.kind == "bid" and action.target is not None:
            group = groups.get(action.rank)
            if group is None:
                group = groups[action.rank] = Choice("", None, [], [])
                items.append(group)
            group.targets.append(action.target)
            group.actions.append(action)
        else:
            items.append(Choice(style.action(action, view.names), action))
    for rank, group in groups.items():
        low, high = min(group.targets), max(group.targets)
        what = "bid the 2 with a target" if rank == "2" else "bid a target"
        group.text = f"{what} ({low}{style.dash}{high}){style.ellipsis}"
    return items


def trick_by_seat(view) -> dict:
    """The cards on the table, by the seat that played each."""
    if not view.trick or view.trick_leader is None:
        return {}
    return {(view.trick_leader + i) % view.players: card for i, card in enumerate(view.trick)}


class TableScreen(Screen):
    CSS_PATH = "table.tcss"
    AUTO_FOCUS = None  # keys go to the screen; the target Input takes focus only when asked
    BINDINGS = [
        *DIGITS,
        Binding("left,h", "move(-1)", show=False),
        Binding("right,l", "move(1)", show=False),
        Binding("up,k", "move_row(-1)", show=False),
        Binding("down,j", "move_row(1)", show=False),
        Binding("enter", "confirm", show=False),
        Binding("space", "space", show=False),
        Binding("t", "last_trick", show=False),
        Binding("s", "score", show=False),
        Binding("question_mark", "help", show=False),
        Binding("escape", "cancel", show=False),
    ]

    def __init__(self, controller: TableController, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.style_ = style
        self.view = None
        self.hand: tuple = ()  # my cards as shown: by suit and rank, numbered from 1
        self.mode = "wait"  # wait, card, choose, discard, target, grid (a call out of the whole deck)
        self.cursor = 0
        self.chosen: set[int] = set()
        self.items: list[Choice] = []
        self.group: Choice | None = None
        self.thinking: int | None = None
        self.thinking_since = 0.0
        self.over = False
        self.notice = ""  # one line worth seeing now: the partner revealed, the monte shown
        self.notice_until: int | None = None  # the trick count that clears it (None: something else does)
        self.tricks: list = []  # this hand's tricks as their events told them
        self.monte: tuple = ()  # the monte while it is face up
        self.history: list[tuple] = []  # each audited hand's score change, for the scoreboard
        self.problems: list = []  # events naming a cheat or a time-out this hand

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="top"):
            yield Static(id="seats")
            log = RichLog(id="log", wrap=True, markup=False, min_width=16)
            log.can_focus = False
            yield log
        yield Static(id="notice")
        yield Hand(self.style_, id="hand")
        yield Choices(id="choices")
        yield CardGrid(self.style_, id="grid")
        yield Input(id="target", type="integer")
        yield Static(id="prompt")
        yield Static(id="keys")

    def on_mount(self) -> None:
        target = self.query_one("#target", Input)
        target.display = target.can_focus = False
        self.set_focus(None)
        self.query_one("#choices", Choices).display = False
        self.query_one("#grid", CardGrid).display = False
        self.query_one("#notice", Static).display = False
        self.query_one("#prompt", Static).update("dealing by mental poker" + self.style_.ellipsis)
        self.set_interval(0.25, self._tick)
        self.advance()

    def on_unmount(self) -> None:
        """Gone (the app closes, or the table ended): the worker waiting on the table stops waiting."""
        self.controller.interrupt()

    def on_resize(self, event) -> None:
        """More room than 80 columns: the log takes a third of it."""
        self.query_one("#log", RichLog).styles.width = max(28, event.size.width // 3)
        if self.view is not None:
            self._render_table()

    # --- the worker ---------------------------------------------------------------

    def advance(self, action=None) -> None:
        self.mode = "wait"
        self._render_controls()
        self.run_worker(lambda: self._work(action), thread=True, exclusive=True, group="table")

    def _work(self, action) -> None:
        ctrl, app = self.controller, self.app

        def moved(seat):
            view, events = ctrl.snapshot()
            app.call_from_thread(self.show, view, events, seat)

        try:
            result = ctrl.advance(action, moved)
        except Exception as error:  # shown, not raised: the UI stays up
            app.call_from_thread(self.failed, f"{type(error).__name__}: {error}")
            return
        if result is Result.STOPPED:  # this screen is gone: nothing to show
            return
        view, events = ctrl.snapshot()
        app.call_from_thread(self.finished, view, events, result)

    def failed(self, text: str) -> None:
        self.over = True
        self.query_one("#prompt", Static).update(literal(f"The table stopped: {text}", "bold"))

    def finished(self, view, events, result: Result) -> None:
        self.show(view, events, None)
        if result is Result.TURN:
            self._start_turn()
            return
        self.over = result is Result.OVER or self.controller.over
        if self.controller.save_problem:
            self.notice, self.notice_until = self.controller.save_problem, None
        last = view.last_hand
        if last is not None and (not self.history or self.history[-1][0] != last.number):
            self.history.append((last.number, last.score))
        if last is None and not self.problems:
            self.app.table_over() if self.over else self.advance()
            return
        if last is not None and last.ok and last.result.get("redeal") and not self.over and not self.problems:
            self.query_one("#log", RichLog).clear()
            self.tricks, self.monte = [], ()
            self.notice, self.notice_until = "Everybody passed: the cards are dealt again.", 1
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

        self.app.push_screen(
            SummaryScreen(view, self.style_, final=self.over, tricks=tuple(self.tricks), history=tuple(self.history)),
            self._summary_closed,
        )

    def _summary_closed(self, _=None) -> None:
        if self.over:
            self.app.table_over()
        else:
            self.query_one("#log", RichLog).clear()
            self.tricks, self.monte, self.notice = [], (), ""
            self.advance()

    # --- showing ------------------------------------------------------------------

    def who(self, seat) -> str:
        names = self.view.names if self.view else ()
        return names[seat] if seat is not None and 0 <= seat < len(names) else f"seat {seat}"

    def show(self, view, events, thinking) -> None:
        if thinking is not None and thinking != self.thinking:
            self.thinking_since = time.monotonic()
        self.view, self.thinking = view, thinking
        self.hand = sort_hand(view.hand, view.game, view.options)
        log = self.query_one("#log", RichLog)
        for event in events:
            self._note(event)
            text = self.words(event)
            log.write(literal(text, "bold" if event.kind in ("role", "secret", "verdict", "timeout") else ""))
        self._render_table()
        self._render_controls()

    def words(self, event) -> str:
        """An event (or a note of the app's) as this screen writes it: its cards and suits, seats by name."""
        return render(event, self.style_, self.view.names if self.view else ())

    def _note(self, event) -> None:
        """Remember what the table shows beyond the view: tricks, the monte, a reveal, a problem."""
        s = self.style_
        if isinstance(event, Note):
            return
        if event.kind == "trick":
            self.tricks.append(self.words(event))
            if self.notice_until is not None and len(self.tricks) >= self.notice_until:
                self.notice, self.notice_until = "", None
        elif event.kind == "monte" and event.cards:
            self.monte = tuple(event.cards)
            self.notice = "The monte is shown: " + s.cards(self.monte)
        elif event.kind == "role" and event.role in ("partner", "alone", "soloist"):
            self.notice = self.words(event) + ("!" if event.role == "partner" else "")
            self.notice_until = len(self.tricks) + 2  # seen for the rest of this trick and the next
        elif event.kind == "secret":
            text = self.words(event)
            self.notice = text[0].upper() + text[1:]
        elif event.kind in ("discard", "play") and self.monte:
            self.monte, self.notice = (), ""
        elif event.kind in ("timeout", "stopped", "refused") or (event.kind == "verdict" and bool(event.culprits)):
            self.problems.append(event)

    def _header(self) -> Text:
        v, s = self.view, self.style_
        header = Text(f" {TITLES.get(v.game, v.game)}", "bold")
        if v.hand_number is not None or v.hands_played:
            number = (v.hand_number + 1) if v.hand_number is not None else v.hands_played
            hands = self.controller.hands
            header.append(f" {s.dot} hand {number}" + (f" of {hands}" if hands else ""))
        if v.scores and v.seat is not None:
            if v.players == 2:
                header.append(f" {s.dot} {self.who(0)} {v.scores[0]} {s.dash} {v.scores[1]} {self.who(1)}")
            else:
                header.append(f" {s.dot} your score {v.scores[v.seat]}")
        right = []
        if v.contract:
            right.append(v.contract)
        if v.called is not None:
            right.append(f"called {s.card(v.called)}")
            if v.game == "chiamata" and v.phase == "play":
                partner = [seat for seat, roles in v.roles.items() if "partner" in roles or "alone" in roles]
                right.append(f"partner {self.who(partner[0]) if partner else '?'}")
        if v.trump is not None:
            right.append(f"trump {s.suit(v.trump)}")
        if v.faceup is not None:
            right.append(f"face up {s.card(v.faceup)}")
        if v.stock is not None:
            right.append(f"stock {v.stock}")
        target = self._target_bid()
        if target:
            right.append(f"target {target}")
        tail = "  ".join(right) + " "
        width = max(self.size.width, 40)
        if len(header.plain) + len(tail) + 1 > width:
            tail = "  ".join(r for r in right if not r.startswith("trump")) + " "
            if v.trump is not None:
                tail = f"trump {s.suit(v.trump).split()[0]}  " + tail
        header.append(" " * max(1, width - len(header.plain) - len(tail)) + tail)
        return header

    def _target_bid(self) -> int | None:
        targets = [a.target for a in self.view.auction if a.kind == "bid" and a.target is not None]
        return targets[-1] if targets and self.view.phase != "auction" else None

    def _seat_line(self, seat: int, trick: dict, last_bid: dict, roles_width: int, status: Text) -> Text:
        """One seat: name, cards held, roles, its card on the table (or last bid), points, and its
        status (turn, thinking, away, clock)."""
        v, s = self.view, self.style_
        size = v.hand_sizes[seat] if seat < len(v.hand_sizes) else 0
        line = Text(f" {self.who(seat):<6.6} {size:>2} card{'s' if size != 1 else ' '} ")
        roles = self._roles(seat)
        line.append(f"{roles:<{roles_width}.{roles_width}} ", "bold" if "partner" in roles or "alone" in roles else "")
        if seat in trick:
            card = trick[seat]
            line.append("[")
            line.append(f"{s.card(card):^4}", f"bold {s.colour_of(card)}".strip())
            line.append("]")
        elif seat in last_bid:
            line.append(f"{last_bid[seat]:<6.6}")
        else:
            line.append("      ")
        if self._shows_points(seat):
            line.append(f" {v.captured[seat]:>3}pt", "dim")
        return line + status

    def _roles(self, seat: int) -> str:
        return ",".join((*self.view.roles.get(seat, ()), *(("team",) if seat in self._team() else ())))

    def _shows_points(self, seat: int) -> bool:
        v = self.view
        return v.game in ("briscola", "chiamata") and seat < len(v.captured) and v.phase == "play"

    def _seat_status(self, seat: int) -> Text:
        """What the seat is doing now, at the end of its line: thinking, its turn, what the table awaits
        of it; and its clock."""
        v, s = self.view, self.style_
        status = Text()
        if seat in self.controller.away():
            status.append(f" {s.arrow} away", "bold")
        elif seat == self.thinking and time.monotonic() - self.thinking_since >= THINKING_DELAY:
            status.append(f" {s.arrow} thinking{s.ellipsis}", "italic")
        elif v.turn == seat and v.table_phase == "play":
            status.append(f" {s.arrow} turn", "bold")
        elif v.table_phase not in ("play", "over") and seat in v.awaited:
            status.append(f" {s.arrow} {v.awaited[seat]}", "dim")
        clock = self._clock(seat)
        if clock:
            status.append(f" {clock}", "bold")
        return status

    def _roles_width(self, statuses: dict) -> int:
        """The roles column: 13 wide, or as wide as the longest roles ('dealer,soloist'), as far as
        the line has room beside each seat's status ('thinking...' and a clock): a line never wraps."""
        width = self.query_one("#seats").size.width or SEATS_WIDTH
        fixed = 17 + 1 + 6 + (6 if any(self._shows_points(seat) for seat in statuses) else 0)
        room = width - fixed - max(text.cell_len for text in statuses.values())
        roles = max(len(self._roles(seat)) for seat in statuses)
        return max(0, min(max(roles, 13), room))

    def _team(self) -> set:
        """The other seats of my fixed team (Briscola for 4 or 6: `GameInfo.teams`), known from the start."""
        v = self.view
        info = GAMES.get(v.game or "")
        if v.seat is None or info is None or v.players not in info.teams:
            return set()
        return {seat for seat in range(v.seat % 2, v.players, 2)} - {v.seat}

    def _clock(self, seat: int) -> str:
        left = self.controller.deadline()
        if not left or left[0] != seat:
            return ""
        return f"{max(0, int(left[1]))}s"

    def _render_table(self) -> None:
        v, s = self.view, self.style_
        self.query_one("#header", Static).update(self._header())
        trick = trick_by_seat(v)
        last_bid = {a.seat: s.action(a) for a in v.auction} if v.phase == "auction" else {}
        order = [*range(v.seat + 1, v.players), *range(0, v.seat + 1)] if v.seat is not None else range(v.players)
        lines = Text()
        statuses = {seat: self._seat_status(seat) for seat in order}
        roles_width = self._roles_width(statuses)
        for seat in order:
            lines.append(self._seat_line(seat, trick, last_bid, roles_width, statuses[seat]))
            lines.append("\n")
        status = self.controller.status
        if status:
            lines.append(literal(f" {status}", "bold"))
            lines.append("\n")
        if not v.trick and v.tricks:
            t = v.tricks[-1]
            taker = "you take" if self.who(t.winner) == "you" else f"{self.who(t.winner)} takes"
            lines.append(f" last: {self.who(t.leader)} led {s.cards(t.cards)}, {taker} {t.points}", "dim")
        self.query_one("#seats", Static).update(lines)
        notice = self.query_one("#notice", Static)
        notice.display = bool(self.notice)
        notice.update(literal(" " + self.notice, "bold"))

    def _tick(self) -> None:
        """Redraw what moves by itself: the thinking mark and a clock."""
        if self.view is not None and self.app.screen is self and (self.thinking is not None or self.controller.ticking):
            self._render_table()
            if self.mode == "wait":
                self._render_controls()

    def _start_turn(self) -> None:
        v = self.view
        kinds = {a.kind for a in v.legal}
        self.chosen, self.group = set(), None
        if kinds & set(CARD_KINDS):
            self.mode = "card"
            self.items = [Choice(self.style_.action(a, v.names), a) for a in v.legal if a.kind not in CARD_KINDS]
            playable = [a.card for a in v.legal if a.kind in CARD_KINDS]
            self.cursor = min((self.hand.index(c) for c in playable if c in self.hand), default=0)
        elif kinds == {"discard"}:
            self.mode = "discard"
            self.cursor = 0
        elif kinds == {"call"} and len(v.legal) > 9:
            self.mode = "grid"
            self.items = [Choice(self.style_.action(a, v.names), a) for a in v.legal]
            self.cursor = 0
        else:
            self.mode = "choose"
            self.items = choices_of(v, self.style_)
            self.cursor = 0
        self._render_controls()

    def _card_note(self) -> str:
        """The card under the cursor in words (Asso di Spade), when there is one."""
        if self.mode in ("card", "discard") and 0 <= self.cursor < len(self.hand):
            return f"   {self.style_.cursor} {self.style_.card_name(self.hand[self.cursor])}"
        return ""

    def _render_controls(self) -> None:
        v, s = self.view, self.style_
        if v is None:
            return
        hand = self.query_one("#hand", Hand)
        choices = self.query_one("#choices", Choices)
        target = self.query_one("#target", Input)
        prompt = self.query_one("#prompt", Static)
        keys = self.query_one("#keys", Static)
        n = len(self.hand)
        grid = self.query_one("#grid", CardGrid)
        grid.display = self.mode == "grid"
        target.display = target.can_focus = self.mode == "target"
        if self.mode != "target" and self.focused is target:
            self.set_focus(None)
        if self.mode == "card":
            playable = [a.card for a in v.legal if a.kind in CARD_KINDS]
            hand.show(self.hand, playable, self.cursor)
            choices.show(self.items, cursor=-1, first=n + 1, title="or:" if self.items else "")
            verb = "Return a card" if "return" in {a.kind for a in v.legal} else "Play a card"
            led = ""
            if v.trick and v.trick_leader is not None:
                led = f"{self.who(v.trick_leader)} led {s.card(v.trick[0])}. "
            prompt.update(Text(f"{led}{verb}: 1{s.dash}{min(n, 9)}, Enter{self._card_note()}", "bold"))
            keys.update(f" ? help   1-{min(n, 9)} choose   Enter play   t last trick   s score   ctrl+q quit")
        elif self.mode == "discard":
            count = len(v.legal[0].cards)
            hand.show(self.hand, (), self.cursor, self.chosen)
            choices.show([])
            prompt.update(
                Text(f"Discard {count} ({len(self.chosen)} chosen): digits or Space, Enter{self._card_note()}", "bold")
            )
            keys.update(" ? help   1-9 toggle   arrows move   Space toggle   Enter discard   ctrl+q quit")
        elif self.mode == "grid":
            hand.show(self.hand)
            choices.show([])
            grid.show(
                rank_order(v.game, v.options),
                [i.action.card for i in self.items],
                self.cursor,
                title=self._phase_title(),
            )
            card = grid.cells[self.cursor]
            prompt.update(
                Text(f"{self._phase_title()}: arrows move, Enter calls   {s.cursor} {s.card_name(card)}", "bold")
            )
            keys.update(" ? help   arrows move   Enter call   click a card   s score   ctrl+q quit")
        elif self.mode in ("choose", "target"):
            hand.show(self.hand)
            choices.show(self.items, self.cursor, 1, title=self._phase_title())
            if self.mode == "target":
                low, high = min(self.group.targets), max(self.group.targets)
                prompt.update(Text(f"Type a target from {low} to {high}, then Enter (Escape: back)", "bold"))
            else:
                shown = min(len(self.items), choices.page_size)
                prompt.update(Text(f"{self._phase_title()}: 1{s.dash}{shown}, Enter", "bold"))
            keys.update(" ? help   digits choose   arrows move   Enter confirm   s score   ctrl+q quit")
        else:
            hand.show(self.hand)
            choices.show([])
            if self.thinking is not None and self.thinking in self.controller.away():
                prompt.update(
                    literal(
                        f"{self.who(self.thinking)} is away (no connection): the table waits for them "
                        f"to come back{s.ellipsis}"
                    )
                )
            elif self.thinking is not None and time.monotonic() - self.thinking_since >= THINKING_DELAY:
                prompt.update(literal(f"{self.who(self.thinking)} is thinking{s.ellipsis}"))
            elif v.table_phase not in ("play", "over"):
                waiting = ", ".join(self.who(seat) for seat in sorted(v.awaited) if seat != v.seat)
                prompt.update(
                    literal(
                        f"the mental-poker deal goes on ({v.table_phase})"
                        + (f": waiting for {waiting}" if waiting else "")
                        + s.ellipsis
                    )
                )
            elif v.turn is not None and v.turn != v.seat:
                prompt.update(literal(f"waiting for {self.who(v.turn)}{s.ellipsis}"))
            else:
                prompt.update("")
            keys.update(" ? help   t last trick   s score   ctrl+q quit")

    def _phase_title(self) -> str:
        kinds = {a.kind for a in self.view.legal}
        if self.view.phase == "call" and "call" not in kinds:
            return "Choose"
        return PHASE_TITLES.get(self.view.phase or "", "Choose")

    # --- keys -------------------------------------------------------------------------

    def _act(self, action) -> None:
        self.mode = "wait"
        self.advance(action)

    def action_digit(self, d: int) -> None:
        if self.mode == "card":
            if d <= len(self.hand):
                self.cursor = d - 1
            else:
                i = self.query_one("#choices", Choices).on_page(d)
                if i is not None:
                    self._act(self.items[i].action)
                    return
        elif self.mode == "discard":
            if d <= len(self.hand):
                self.chosen ^= {d - 1}
                self.cursor = d - 1
        elif self.mode == "choose":
            i = self.query_one("#choices", Choices).on_page(d)
            if i is not None:
                self.cursor = i
        self._render_controls()

    def action_move_row(self, step: int) -> None:
        """Up and down: a suit in the call grid, else one step as left and right."""
        if self.mode == "grid":
            grid = self.query_one("#grid", CardGrid)
            self.cursor = (self.cursor + step * grid.columns) % len(grid.cells)
            self._render_controls()
        else:
            self.action_move(step)

    def action_move(self, step: int) -> None:
        if self.mode == "grid":
            self.cursor = (self.cursor + step) % len(self.query_one("#grid", CardGrid).cells)
        elif self.mode in ("card", "discard") and self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
        elif self.mode == "choose" and self.items:
            self.cursor = (self.cursor + step) % len(self.items)
        self._render_controls()

    def action_space(self) -> None:
        if self.mode == "discard":
            self.chosen ^= {self.cursor}
            self._render_controls()
        else:
            self.action_confirm()

    def action_confirm(self) -> None:
        v = self.view
        if self.mode == "card":
            card = self.hand[self.cursor] if self.cursor < len(self.hand) else None
            action = next((a for a in v.legal if a.kind in CARD_KINDS and a.card == card), None)
            if action is None:
                self.query_one("#prompt", Static).update(
                    Text(f"{self.style_.card(card)} may not be played now (you must follow suit)", "bold")
                )
                return
            self._act(action)
        elif self.mode == "discard":
            cards = {self.hand[i] for i in self.chosen}
            action = next((a for a in v.legal if set(a.cards) == cards), None)
            if action is None:
                count = len(v.legal[0].cards)
                self.query_one("#prompt", Static).update(
                    Text(f"Choose exactly {count} cards to discard ({len(cards)} chosen)", "bold")
                )
                return
            self._act(action)
        elif self.mode == "grid":
            card = self.query_one("#grid", CardGrid).cells[self.cursor]
            action = next((i.action for i in self.items if i.action.card == card), None)
            if action is None:
                self.query_one("#prompt", Static).update(Text(f"{self.style_.card(card)} may not be called", "bold"))
                return
            self._act(action)
        elif self.mode == "choose" and self.items:
            item = self.items[self.cursor]
            if item.action is not None:
                self._act(item.action)
            else:
                self.group, self.mode = item, "target"
                self._render_controls()
                target = self.query_one("#target", Input)
                target.value = ""
                target.focus()

    @on(Input.Submitted, "#target")
    def _target(self, event: Input.Submitted) -> None:
        if self.mode != "target" or self.group is None:
            self.set_focus(None)
            return
        try:
            value = int(event.value)
        except ValueError:
            value = None
        if value not in self.group.targets:
            low, high = min(self.group.targets), max(self.group.targets)
            self.query_one("#prompt", Static).update(Text(f"A target is a number from {low} to {high}", "bold"))
            return
        action = self.group.actions[self.group.targets.index(value)]
        self.set_focus(None)
        self._act(action)

    def action_cancel(self) -> None:
        if self.mode == "target":
            self.mode = "choose"
            self.set_focus(None)
            self._render_controls()

    def _pick(self, index: int) -> None:
        """A click on a card or cell: the first selects it, a second on the same one confirms."""
        if self.cursor == index:
            self.action_confirm()
        else:
            self.cursor = index
            self._render_controls()

    @on(Hand.Clicked)
    def _clicked_card(self, event: Hand.Clicked) -> None:
        if self.mode == "card":
            self._pick(event.index)
        elif self.mode == "discard":
            self.chosen ^= {event.index}
            self.cursor = event.index
            self._render_controls()

    @on(CardGrid.Clicked)
    def _clicked_cell(self, event: CardGrid.Clicked) -> None:
        if self.mode == "grid":
            self._pick(event.index)

    @on(Choices.Clicked)
    def _clicked_choice(self, event: Choices.Clicked) -> None:
        if self.mode == "card":
            self._act(self.items[event.index].action)
        elif self.mode == "choose":
            self._pick(event.index)

    def action_last_trick(self) -> None:
        from .dialogs import InfoScreen

        v, s = self.view, self.style_
        if v is None or not v.tricks:
            text = "No trick has been taken yet in this hand."
        else:
            t = v.tricks[-1]
            cards = "\n".join(f"  {self.who((t.leader + i) % v.players):<6} {s.card(c)}" for i, c in enumerate(t.cards))
            text = f"Last trick (led by {self.who(t.leader)}):\n\n{cards}\n\n{self.who(t.winner)} takes it: {t.points} points"
        self.app.push_screen(InfoScreen("Last trick", text))

    def action_score(self) -> None:
        from .dialogs import InfoScreen
        from .summary import scoreboard

        if self.view is not None:
            self.app.push_screen(InfoScreen("Scores", scoreboard(self.view, self.history)))

    def action_help(self) -> None:
        from .dialogs import InfoScreen, help_text

        game = self.view.game if self.view else self.controller.game
        self.app.push_screen(InfoScreen("Help", help_text(game)))
