"""Options to choose among (a bid, a call, a raise, what to take from the monte):
a numbered list under its title, in columns, all on one page (from 10 on, a
number is two digits: see `picker.NUMBER_WAIT`). A number or the arrows move, Enter (or a second click) takes the option under
the cursor; the bids with a target are one option, which asks for the number
(a `NumberPicker` under the list). A call the Chiamata two rule offers is
marked "(two rule)", and one line under the list says what the rule is."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from engine.cards import SUIT_GLYPHS, Card
from engine.view import SeatView

from ...games import presentation
from ...language import _, p_
from .cards import Style
from .choices import Choice, Choices
from .number import NumberPicker
from .picker import Mode, Outcome, Picker, phase_title

ONE_PAGE = 99
"""The options are never paged: each has its number (up to 99; the most there are is 16, the takes)."""


RULE_WIDTH = 80
"""The two rule's line fits the 80 columns of the table."""


def two_rule_line(view: SeatView, style: Style) -> str:
    """The two rule in one line, when it offers a call: what it is, and what comes of it."""
    calls = presentation(view.game).two_rule_calls(view)
    if not calls:
        return ""
    twos = " ".join(style.card(Card("2", c.suit)) for c in calls)
    cards = _(" or ").join(style.card(c) for c in calls)
    suit = calls[0].suit if style.ascii else SUIT_GLYPHS[calls[0].suit]
    which = _("lowest {suit} you lack").format(suit=suit) if len(calls) == 1 else _("lowest you lack")
    forms = (
        _(" Two rule: you hold {twos}, so you may call {cards}, the {which}: its holder is your partner"),
        _(" Two rule: you hold {twos}, so call {cards} ({which}): its holder partners you"),
        _(" Two rule: you hold {twos}: call {cards} ({which}), to partner its holder"),
        _(" Two rule: call {cards} ({which} of a 2 you hold): its holder partners you"),
    )
    lines = tuple(form.format(twos=twos, cards=cards, which=which) for form in forms)
    return next((line for line in lines if len(line) <= RULE_WIDTH), min(lines, key=len))


def choices_of(view: SeatView, style: Style) -> list[Choice]:
    """The legal actions as numbered choices; bids with a target grouped into one (a number to enter)."""
    items: list[Choice] = []
    groups: dict[str | None, Choice] = {}
    game = presentation(view.game)
    rule_calls, own = game.two_rule_calls(view), game.own_call_words()
    for action in view.legal:
        if action.kind == "bid" and action.target is not None:
            group = groups.get(action.rank)
            if group is None:
                group = groups[action.rank] = Choice("")
                items.append(group)
            group.targets.append(action.target)
            group.actions.append(action)
        else:
            rule = _(" (two rule)") if action.kind == "call" and action.card in rule_calls else ""
            if action.kind == "call" and own and action.card in view.hand:
                rule = f" ({own})"
            items.append(Choice(style.action(action, view.names) + rule, action))
    for rank, group in groups.items():
        low, high = min(group.targets), max(group.targets)
        what = _("bid the 2 with a target") if rank == "2" else _("bid a target")
        group.text = f"{what} ({low}{style.dash}{high}){style.ellipsis}"
    return items


class OptionsPicker(Picker):
    MODE = Mode.CHOOSE

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(style, **kwargs)
        self.items: list[Choice] = []

    def compose(self) -> ComposeResult:
        choices = Choices(id="choices")
        choices.page_size_max = ONE_PAGE  # every option numbered: 10 and on in two digits
        yield choices
        yield Static(id="rule")  # the two rule, when it offers a call
        yield NumberPicker(self.style_)

    def start(self, view: SeatView, hand: tuple[Card, ...]) -> None:
        super().start(view, hand)
        self.items = choices_of(view, self.style_)
        self.cursor = 0

    def draw(self) -> None:
        self.query_one(Choices).show(self.items, self.cursor, 1, title=phase_title(self.decision))
        rule = two_rule_line(self.decision, self.style_)
        line = self.query_one("#rule", Static)
        line.display = bool(rule)
        line.update(Text(rule, "italic"))

    def prompt(self) -> Text:
        prompt = _("{title}: {numbers}, Enter").format(
            title=phase_title(self.decision), numbers=self.numbers(self.style_.dash)
        )
        return Text(prompt + self.typing(), "bold")

    def keys(self) -> tuple[tuple[str, str], ...]:
        return ((self.numbers(), _("choose")), (_("arrows"), p_("key", "move")), ("Enter", _("confirm")))

    @property
    def numbered(self) -> int:
        return len(self.items)

    def preview(self, n: int) -> None:
        self.cursor = n - 1

    def number(self, n: int) -> None:
        self.cursor = n - 1

    def move(self, step: int) -> None:
        if self.items:
            self.cursor = (self.cursor + step) % len(self.items)

    def confirm(self) -> Outcome:
        if not self.items:
            return None
        item = self.items[self.cursor]
        if item.as_action is not None:
            return item.as_action
        number = self.query_one(NumberPicker)
        number.ask(self, item)
        return number

    def on_choices_clicked(self, event: Choices.Clicked) -> None:
        event.stop()
        if not self.query_one(NumberPicker).display:  # (while a number is asked for, the list stays as it is)
            self.post_message(self.Done(self, self.pick(event.index)))
