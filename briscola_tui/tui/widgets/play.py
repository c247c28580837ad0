"""The play: my hand with the cards I may play (or return) bold, the others dim,
and the cursor; under it, numbered after the cards, anything else I may do
instead ("or:"). A number moves to a card (or takes an "or" item: the numbers
go on from the cards'), Enter plays the card under the cursor; a click selects a card, a second click plays it."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult

from engine.cards import Card
from engine.state import Action, ActionKind
from engine.view import SeatView

from ...language import _, n_
from .cards import Style
from .choices import Choice, Choices
from .hand import Hand
from .literal import literal
from .options import ONE_PAGE
from .picker import CARD_KINDS, Mode, Outcome, Picker
from .seats import seat_name


class PlayPicker(Picker):
    MODE = Mode.CARD
    SHOWS_HAND = True

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(style, **kwargs)
        self.playable: list = []
        self.items: list[Choice] = []  # the other actions ("or:")

    def compose(self) -> ComposeResult:
        yield Hand(self.style_)
        others = Choices()
        others.page_size_max = ONE_PAGE
        yield others

    def start(self, view: SeatView, hand: tuple[Card, ...]) -> None:
        super().start(view, hand)
        self.items = [Choice(self.style_.action(a, view.names), a) for a in view.legal if a.kind not in CARD_KINDS]
        self.playable = [a.card for a in view.legal if a.kind in CARD_KINDS]
        self.cursor = min((hand.index(c) for c in self.playable if c in hand), default=0)

    def draw(self) -> None:
        self.query_one(Hand).show(self.hand, self.playable, self.cursor)
        self.query_one(Choices).show(
            self.items, cursor=-1, first=len(self.hand) + 1, title=_("or:") if self.items else ""
        )

    def prompt(self) -> Text:
        v, s = self.decision, self.style_
        verb = _("Return a card") if "return" in {a.kind for a in v.legal} else _("Play a card")
        led = ""
        if v.trick and v.trick_leader is not None:
            led = _("{name} led {card}. ").format(name=seat_name(v, v.trick_leader), card=s.card(v.trick[0]))
        return literal(
            _("{led}{verb}: {numbers}, Enter").format(led=led, verb=verb, numbers=self.numbers(s.dash))
            + f"{self.card_note(self.cursor)}{self.typing()}",
            "bold",
        )

    def keys(self) -> tuple[tuple[str, str], ...]:
        return ((self.numbers(), _("choose")), ("Enter", _("play")))

    @property
    def numbered(self) -> int:
        return len(self.hand) + len(self.items)

    def what(self) -> str:
        return _("choice") if self.items else n_("card", "cards", 1)

    def preview(self, n: int) -> None:
        if n <= len(self.hand):
            self.cursor = n - 1

    def number(self, n: int) -> Outcome:
        if n <= len(self.hand):
            self.cursor = n - 1
            return None
        i = self.query_one(Choices).on_page(n)
        return self.items[i].as_action if i is not None else None

    def move(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)

    def confirm(self) -> Outcome:
        card = self.hand[self.cursor] if self.cursor < len(self.hand) else None
        legal = self.decision.legal
        action = next((a for a in legal if a.kind in CARD_KINDS and a.card == card), None)
        if action is None:
            kind: ActionKind = "return" if "return" in {a.kind for a in legal} else "play"
            what = _("{card} may not be returned") if kind == "return" else _("{card} may not be played")
            self.refuse_action(Action(self.seat, kind, card=card), what.format(card=self.style_.card(card)))
        return action

    def on_hand_clicked(self, event: Hand.Clicked) -> None:
        """The first click selects a card, a second on the same one plays it."""
        event.stop()
        self.post_message(self.Done(self, self.pick(event.index)))

    def on_choices_clicked(self, event: Choices.Clicked) -> None:
        event.stop()
        self.post_message(self.Done(self, self.items[event.index].as_action))
