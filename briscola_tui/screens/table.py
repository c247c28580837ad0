"""The table: my hand and what I may do, the trick, trump, whose turn; then
roles, stock, score and the log. Reads only the seat view and its events;
the protocol and the computer players run in a worker thread."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, RichLog, Static

from ..widgets.cards import Style
from ..widgets.choices import Choice, Choices
from ..widgets.hand import Hand

TITLES = {"briscola": "Briscola", "chiamata": "Briscola Chiamata", "calabresella": "Calabresella"}
CARD_KINDS = ("play", "return")


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


class TableScreen(Screen):
    CSS_PATH = "table.tcss"
    AUTO_FOCUS = None  # keys go to the screen; the target Input takes focus only when asked
    BINDINGS = [
        *[Binding(str(d), f"digit({d})", show=False) for d in range(1, 10)],
        Binding("left,h", "move(-1)", show=False),
        Binding("right,l", "move(1)", show=False),
        Binding("up,k", "move(-1)", show=False),
        Binding("down,j", "move(1)", show=False),
        Binding("enter", "confirm", show=False),
        Binding("space", "space", show=False),
        Binding("t", "last_trick", show=False),
        Binding("s", "score", show=False),
        Binding("question_mark", "help", show=False),
        Binding("escape", "cancel", show=False),
    ]

    def __init__(self, controller, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.style_ = style
        self.view = None
        self.mode = "wait"  # wait, card, choose, discard, target
        self.cursor = 0
        self.chosen: set[int] = set()
        self.items: list[Choice] = []
        self.group: Choice | None = None
        self.thinking: int | None = None
        self.over = False
        self.note = ""

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="top"):
            yield Static(id="seats")
            log = RichLog(id="log", wrap=True, markup=False)
            log.can_focus = False
            yield log
        yield Hand(self.style_, id="hand")
        yield Choices(id="choices")
        yield Input(id="target", type="integer")
        yield Static(id="prompt")
        yield Static(id="keys")

    def on_mount(self) -> None:
        target = self.query_one("#target", Input)
        target.display = target.can_focus = False
        self.set_focus(None)
        self.query_one("#choices", Choices).display = False
        self.query_one("#prompt", Static).update("dealing by mental poker" + self.style_.ellipsis)
        self.advance()

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
        view, events = ctrl.snapshot()
        app.call_from_thread(self.finished, view, events, result)

    def failed(self, text: str) -> None:
        self.over = True
        self.query_one("#prompt", Static).update(Text(f"The table stopped: {text}", "bold"))

    def finished(self, view, events, result: str) -> None:
        self.show(view, events, None)
        if result == "turn":
            self._start_turn()
        else:
            self.over = result == "over" or self.controller.over
            from .summary import SummaryScreen

            self.app.push_screen(SummaryScreen(view, self.style_, final=self.over), self._summary_closed)

    def _summary_closed(self, _=None) -> None:
        if self.over:
            self.app.table_over()
        else:
            self.query_one("#log", RichLog).clear()
            self.advance()

    # --- showing ------------------------------------------------------------------

    def who(self, seat) -> str:
        names = self.view.names if self.view else ()
        return names[seat] if seat is not None and 0 <= seat < len(names) else f"seat {seat}"

    def show(self, view, events, thinking) -> None:
        self.view, self.thinking = view, thinking
        log = self.query_one("#log", RichLog)
        for event in events:
            log.write(self.style_.text(event.text, view.names))
        self._render_table()
        self._render_controls()

    def _render_table(self) -> None:
        v, s = self.view, self.style_
        header = Text(f" {TITLES.get(v.game, v.game)}")
        if v.hand_number is not None or v.hands_played:
            number = (v.hand_number + 1) if v.hand_number is not None else v.hands_played
            total = f" of {self.controller.hands}" if self.controller.hands else ""
            header.append(f" {s.dot} hand {number}{total}")
        if v.scores:
            if v.players == 2:
                header.append(f" {s.dot} you {v.scores[0]} {s.dash} {v.scores[1]} {self.who(1)}")
            else:
                header.append(f" {s.dot} your score {v.scores[0]}")
        right = []
        if v.trump is not None:
            right.append(f"trump {s.suit(v.trump)}" + (f" {s.card(v.faceup)}" if v.faceup else ""))
        if v.stock is not None:
            right.append(f"stock {v.stock}")
        if v.contract:
            right.append(v.contract)
        if v.called is not None:
            right.append(f"called {s.card(v.called)}")
        tail = "  ".join(right) + " "
        width = max(self.size.width, 40)
        header.append(" " * max(1, width - len(header.plain) - len(tail)) + tail)
        self.query_one("#header", Static).update(header)

        lines = Text()
        trick = {}
        if v.trick and v.trick_leader is not None:
            for i, card in enumerate(v.trick):
                trick[(v.trick_leader + i) % v.players] = card
        last_bid = {}
        if v.phase == "auction":
            for a in v.auction:
                last_bid[a.seat] = s.action(a)
        order = [*range(1, v.players), 0] if v.seat == 0 else range(v.players)
        for seat in order:
            roles = ", ".join(v.roles.get(seat, ()))
            size = v.hand_sizes[seat] if seat < len(v.hand_sizes) else 0
            mine = seat == v.seat
            line = Text(f" {self.who(seat):<6} {size:>2} card{'s' if size != 1 else ' '}  {roles:<12.12}")
            if seat in trick:
                line.append(f" {s.card(trick[seat]):>3} ", "bold")
            else:
                line.append(f" {last_bid.get(seat, ''):<4.14} " if seat in last_bid else "     ")
            if seat == self.thinking:
                line.append(f" {s.arrow} thinking{s.ellipsis}", "italic")
            elif v.turn == seat and v.table_phase == "play":
                line.append(f" {s.arrow} " + ("your turn" if mine else "turn"), "bold")
            lines.append(line)
            lines.append("\n")
        if not v.trick and v.tricks:
            t = v.tricks[-1]
            cards = ", ".join(f"{self.who((t.leader + i) % v.players)} {s.card(c)}" for i, c in enumerate(t.cards))
            lines.append(f"\n last trick: {cards}\n   {s.arrow} {self.who(t.winner)} takes {t.points}", "dim")
        self.query_one("#seats", Static).update(lines)

    def _start_turn(self) -> None:
        v = self.view
        kinds = {a.kind for a in v.legal}
        self.chosen, self.group = set(), None
        if kinds & set(CARD_KINDS):
            self.mode = "card"
            self.items = [Choice(self.style_.action(a, v.names), a) for a in v.legal if a.kind not in CARD_KINDS]
            playable = [a.card for a in v.legal if a.kind in CARD_KINDS]
            self.cursor = min((v.hand.index(c) for c in playable if c in v.hand), default=0)
        elif kinds == {"discard"}:
            self.mode = "discard"
            self.cursor = 0
        else:
            self.mode = "choose"
            self.items = choices_of(v, self.style_)
            self.cursor = 0
        self._render_controls()

    def _render_controls(self) -> None:
        v, s = self.view, self.style_
        hand = self.query_one("#hand", Hand)
        choices = self.query_one("#choices", Choices)
        target = self.query_one("#target", Input)
        prompt = self.query_one("#prompt", Static)
        keys = self.query_one("#keys", Static)
        if v is None:
            return
        n = len(v.hand)
        target.display = target.can_focus = self.mode == "target"
        if self.mode != "target" and self.focused is target:
            self.set_focus(None)
        if self.mode == "card":
            playable = [a.card for a in v.legal if a.kind in CARD_KINDS]
            hand.show(v.hand, playable, self.cursor)
            choices.show(self.items, cursor=-1, first=n + 1, title="or:" if self.items else "")
            verb = "Return a card" if "return" in {a.kind for a in v.legal} else "Play a card"
            led = ""
            if v.trick and v.trick_leader is not None:
                led = f"{self.who(v.trick_leader)} led {s.card(v.trick[0])}. "
            prompt.update(Text(f"{led}{verb}: 1{s.dash}{min(n, 9)}, Enter", "bold"))
            keys.update(f" ? help   1-{min(n, 9)} choose   Enter play   t last trick   s score   ctrl+q quit")
        elif self.mode == "discard":
            count = len(v.legal[0].cards)
            hand.show(v.hand, (), self.cursor, self.chosen)
            choices.show([])
            prompt.update(Text(f"Discard {count} cards: digits or Space toggle ({len(self.chosen)} chosen), "
                               f"Enter confirms", "bold"))
            keys.update(" ? help   1-9 toggle   Space toggle   Enter discard   ctrl+q quit")
        elif self.mode in ("choose", "target"):
            hand.show(v.hand)
            choices.show(self.items, self.cursor, 1, title=self._phase_title())
            if self.mode == "target":
                low, high = min(self.group.targets), max(self.group.targets)
                prompt.update(Text(f"Enter a target from {low} to {high}, then Enter (Escape: back)", "bold"))
            else:
                prompt.update(Text(f"{self._phase_title()}: 1{s.dash}{min(len(self.items), 8)}, Enter", "bold"))
            keys.update(" ? help   digits choose   arrows move   Enter confirm   s score   ctrl+q quit")
        else:
            hand.show(v.hand)
            choices.show([])
            if self.thinking is not None:
                prompt.update(f"{self.who(self.thinking)} is thinking{s.ellipsis}")
            elif v.table_phase != "play":
                prompt.update(f"{v.table_phase}: the mental-poker deal goes on{s.ellipsis}")
            else:
                prompt.update("")
            keys.update(" ? help   t last trick   s score   ctrl+q quit")

    def _phase_title(self) -> str:
        return {"auction": "Your bid", "call": "Call a card", "raise": "Raise", "take": "Take from the monte"}.get(
            self.view.phase or "", "Choose")

    # --- keys -------------------------------------------------------------------------

    def _act(self, action) -> None:
        self.mode = "wait"
        self.advance(action)

    def action_digit(self, d: int) -> None:
        v = self.view
        if self.mode == "card":
            n = len(v.hand)
            if d <= n:
                self.cursor = d - 1
            else:
                i = self.query_one("#choices", Choices).on_page(d)
                if i is not None:
                    self._act(self.items[i].action)
                    return
        elif self.mode == "discard":
            if d <= len(v.hand):
                self.chosen ^= {d - 1}
                self.cursor = d - 1
        elif self.mode == "choose":
            i = self.query_one("#choices", Choices).on_page(d)
            if i is not None:
                self.cursor = i
        self._render_controls()

    def action_move(self, step: int) -> None:
        if self.mode in ("card", "discard") and self.view.hand:
            self.cursor = (self.cursor + step) % len(self.view.hand)
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
            card = v.hand[self.cursor] if self.cursor < len(v.hand) else None
            action = next((a for a in v.legal if a.kind in CARD_KINDS and a.card == card), None)
            if action is None:
                self.query_one("#prompt", Static).update(Text(f"{self.style_.card(card)} may not be played now "
                                                              "(you must follow suit)", "bold"))
                return
            self._act(action)
        elif self.mode == "discard":
            cards = {v.hand[i] for i in self.chosen}
            action = next((a for a in v.legal if set(a.cards) == cards), None)
            if action is None:
                count = len(v.legal[0].cards)
                self.query_one("#prompt", Static).update(Text(
                    f"Choose exactly {count} cards to discard ({len(cards)} chosen)", "bold"))
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

    @on(Hand.Clicked)
    def _clicked_card(self, event: Hand.Clicked) -> None:
        if self.mode == "card":
            if self.cursor == event.index:
                self.action_confirm()
            else:
                self.cursor = event.index
                self._render_controls()
        elif self.mode == "discard":
            self.chosen ^= {event.index}
            self.cursor = event.index
            self._render_controls()

    @on(Choices.Clicked)
    def _clicked_choice(self, event: Choices.Clicked) -> None:
        if self.mode == "card":
            self._act(self.items[event.index].action)
        elif self.mode == "choose":
            if self.cursor == event.index:
                self.action_confirm()
            else:
                self.cursor = event.index
                self._render_controls()

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

        v = self.view
        if v is None:
            return
        rows = "\n".join(f"  {self.who(s):<6} {v.scores[s] if s < len(v.scores) else 0:>4}" +
                         (f"   card points this hand {v.captured[s]}" if s < len(v.captured) else "")
                         for s in range(v.players))
        self.app.push_screen(InfoScreen("Score", f"Hands played: {v.hands_played}\n\n{rows}"))

    def action_help(self) -> None:
        from .dialogs import HELP, InfoScreen

        self.app.push_screen(InfoScreen("Keys", HELP))
