"""Small modal screens: help, the last trick, scores, rules, quitting."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

HELP = """\
1-9          choose a card or a numbered choice
arrows, h l  move between cards and choices
Enter, Space play the card or confirm the choice
             (a discard: digits or Space toggle a card,
             Enter confirms the right number of cards)
Escape       back (leave a number entry, close this)
t            the last trick
s            the scores
?            this help
ctrl+q       quit (asks first during a game)

Click a card to choose it; click it again to play it."""

RULES = """\
Briscola (2, 3, 4 or 6 players): 40 Italian cards, 120 points in all
(A 11, 3 10, K 4, Q 3, J 2). Each player holds 3 cards; the card face up
under the stock names trump. No need to follow suit: the highest trump
wins the trick, else the highest card of the suit led. The winner draws
first. More than 60 points wins the hand. With 4 or 6 players, partners
sit opposite.

Briscola Chiamata (5 players): 8 cards each, an auction on a rank (or
points); the winner calls a card: its holder is the secret partner.
Trump is the called card's suit; caller and partner need more than 60.

Calabresella (3 players): 12 cards each, 4 in the monte; an auction of
chiamo, solo, solissimo; the soloist plays against the two others and
needs more than half the points (counted in thirds).

The full rules as the engine plays them: docs/rules.md."""


class InfoScreen(ModalScreen):
    """A titled text; Escape, Enter, q or ? close it."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape,enter,space,q,question_mark,t,s", "close", show=False)]

    def __init__(self, title: str, text: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.title_, self.text = title, text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_, id="title")
            with VerticalScroll(id="body"):
                yield Static(self.text)
            yield Static("Escape or Enter: close", id="hint")

    def action_close(self) -> None:
        self.dismiss()


class ConfirmQuit(ModalScreen[bool]):
    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("y,ctrl+q", "answer(True)", show=False),
                Binding("n,escape,enter", "answer(False)", show=False)]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static("Quit", id="title")
            yield Static("Leave the game in progress?\n\ny or ctrl+q: quit   n or Escape: stay")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
