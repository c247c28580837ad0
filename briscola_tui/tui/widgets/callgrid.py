"""A card to call out of the whole deck (the Calabresella call): the deck as a
grid under its title, one row per suit, the cards that may not be called
dimmed. The arrows move (up and down: a suit), Enter or a second click calls
the card under the cursor."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult

from engine.cards import Card
from engine.state import Action
from engine.view import SeatView

from ...games import presentation
from ...language import _, p_
from .cards import Style
from .grid import CardGrid
from .picker import Mode, Outcome, Picker, phase_title


class GridPicker(Picker):
    MODE = Mode.GRID

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(style, **kwargs)
        self.calls: dict = {}  # the card: the action that calls it

    def compose(self) -> ComposeResult:
        yield CardGrid(self.style_)

    def start(self, view: SeatView, hand: tuple[Card, ...]) -> None:
        super().start(view, hand)
        self.calls = {a.card: a for a in view.legal}
        self.cursor = 0

    def draw(self) -> None:
        v = self.decision
        self.query_one(CardGrid).show(
            presentation(v.game).rank_order(v.options), self.calls, self.cursor, title=phase_title(v)
        )

    @property
    def card(self) -> Card:
        """The card under the cursor."""
        return self.query_one(CardGrid).cells[self.cursor]

    def prompt(self) -> Text:
        s = self.style_
        prompt = _("{title}: arrows move, Enter calls").format(title=phase_title(self.decision))
        own = presentation(self.decision.game).own_call_words() if self.card in self.decision.hand else ""
        return Text(f"{prompt}   {s.cursor} {s.card_name(self.card)}" + (f" ({own})" if own else ""), "bold")

    def keys(self) -> tuple[tuple[str, str], ...]:
        return ((_("arrows"), p_("key", "move")), ("Enter", _("call")), (_("click"), _("a card")))

    def move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.query_one(CardGrid).cells)

    def move_row(self, step: int) -> None:
        grid = self.query_one(CardGrid)
        self.cursor = (self.cursor + step * grid.columns) % len(grid.cells)

    def confirm(self) -> Outcome:
        action = self.calls.get(self.card)
        if action is None:
            self.refuse_action(
                Action(self.seat, "call", card=self.card),
                _("{card} may not be called").format(card=self.style_.card(self.card)),
            )
        return action

    def on_card_grid_clicked(self, event: CardGrid.Clicked) -> None:
        event.stop()
        self.post_message(self.Done(self, self.pick(event.index)))
