"""A discard: my hand with a tick under each card chosen and the cursor. A
card's number (1 to 17: two digits from 10, see `picker.NUMBER_WAIT`) or a
click toggles it (and moves to it), Space toggles the card under the
cursor, the arrows move; Enter discards once exactly as many are chosen as
asked."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import reactive

from engine.cards import Card
from engine.view import SeatView

from ...language import _, n_, p_
from .hand import Hand
from .picker import Mode, Outcome, Picker


class DiscardPicker(Picker):
    MODE = Mode.DISCARD
    SHOWS_HAND = True

    chosen: reactive[frozenset[int]] = reactive(frozenset(), always_update=True, init=False)
    """The cards chosen, by their index in the hand."""

    def compose(self) -> ComposeResult:
        yield Hand(self.style_)

    def start(self, view: SeatView, hand: tuple[Card, ...]) -> None:
        super().start(view, hand)
        self.chosen, self.cursor = frozenset(), 0

    def watch_chosen(self) -> None:
        self.draw()

    def draw(self) -> None:
        self.query_one(Hand).show(self.hand, (), self.cursor, self.chosen)

    @property
    def count(self) -> int:
        """How many cards to discard."""
        return len(self.decision.legal[0].cards)

    def prompt(self) -> Text:
        return Text(
            _("Discard {n} ({chosen} chosen): {numbers} or Space, Enter").format(
                n=self.count, chosen=len(self.chosen), numbers=self.numbers(self.style_.dash)
            )
            + f"{self.card_note(self.cursor)}{self.typing()}",
            "bold",
        )

    def keys(self) -> tuple[tuple[str, str], ...]:
        return (
            (self.numbers(), _("toggle")),
            (_("arrows"), p_("key", "move")),
            ("Space", _("toggle")),
            ("Enter", _("discard")),
        )

    def _toggle(self, i: int) -> None:
        self.chosen ^= {i}
        self.cursor = i

    @property
    def numbered(self) -> int:
        return len(self.hand)

    def what(self) -> str:
        return n_("card", "cards", 1)

    def preview(self, n: int) -> None:
        self.cursor = n - 1  # (toggled once no second digit comes)

    def number(self, n: int) -> None:
        self._toggle(n - 1)

    def move(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)

    def space(self) -> None:
        self.chosen ^= {self.cursor}

    def confirm(self) -> Outcome:
        cards = {self.hand[i] for i in self.chosen}
        action = next((a for a in self.decision.legal if set(a.cards) == cards), None)
        if action is None:
            short = self.count - len(cards)
            if short > 0:
                more = _("choose {n} more").format(n=short)
            else:
                more = _("untick {n} (Space, or its number)").format(n=-short)
            self.refuse(
                _("The discard is exactly {n} cards; {chosen} chosen: {more}").format(
                    n=self.count, chosen=len(cards), more=more
                )
            )
        return action

    def on_hand_clicked(self, event: Hand.Clicked) -> None:
        event.stop()
        self.drop()
        self._toggle(event.index)
        self.post_message(self.Done(self, None))
