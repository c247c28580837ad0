"""Small modal screens: help, the last trick, scores, rules, quitting, deleting an unfinished game."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...games import PRESENTATIONS
from ...language import N_, _
from ..widgets.literal import literal

HELP = N_("""\
1-9          choose a card or a numbered choice
10, 11...    two digits: 1 then 2 is 12 (a 1 waits a
             second for a second digit)
arrows, l    move between cards and choices
Enter, Space play the card or confirm the choice
             (a discard: digits or Space toggle a card,
             Enter confirms the right number of cards)
Escape       back (leave a number entry, close this)
t            the last trick
h            the coach: what hard would play, and each
             choice's chance of winning the hand
s            the scores
?            this help
ctrl+q       quit (asks first during a game)

Click a card to choose it; click it again to play it.""")
"""The keys (translated with `_` where shown: `help_keys`)."""


def paragraph(text: str) -> str:
    """Lines of source joined into one paragraph, which the dialog wraps at its own width (lines
    broken at 76 columns here came out ragged in a 60-column dialog)."""
    return " ".join(text.split())


RULES_SOURCE = {game: each.rules for game, each in PRESENTATIONS.items()}
"""Each game's rules in short, as lines of source (translated with `_` where shown)."""
FULL_RULES = N_("The full rules as the engine plays them: docs/rules.md.")
GAME_RULES = {game: paragraph(text) for game, text in RULES_SOURCE.items()}
"""Each game's rules as one paragraph, in English (`game_rules` says them in the current language)."""

RULES = "\n\n".join(GAME_RULES.values()) + "\n\n" + FULL_RULES


def help_keys() -> str:
    """The keys, in the current language."""
    return _(HELP)


def game_rules(game: str) -> str | None:
    """The rules of `game` in one paragraph, in the current language (None for no such game)."""
    return paragraph(_(RULES_SOURCE[game])) if game in RULES_SOURCE else None


def all_rules() -> str:
    """Every game's rules, then where the full rules are, in the current language."""
    return "\n\n".join(paragraph(_(text)) for text in RULES_SOURCE.values()) + "\n\n" + _(FULL_RULES)


def help_text(game: str | None) -> str:
    """The keys, then the rules of `game` (all games when None), in the current language."""
    rules = game_rules(game or "") or all_rules()
    return f"{help_keys()}\n\n{rules}"


class InfoScreen(ModalScreen):
    """A titled text; Escape, Enter, q or ? close it."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape,enter,space,q,question_mark,t,s,h", "close", show=False)]

    def __init__(self, title: str, text: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title_, self.text = title, text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_, id="title")
            with VerticalScroll(id="body"):
                yield Static(literal(self.text, keep="\n"))  # seats' names in it: never markup
            yield Static(_("Escape or Enter: close"), id="hint")

    def action_close(self) -> None:
        self.dismiss()


class ConfirmQuit(ModalScreen[bool]):
    """Leave a game in progress? `kept` says how to take it up again."""

    CSS_PATH = "dialogs.tcss"
    FITS_ANY_TERMINAL = True  # shown over the app's TooSmall: ctrl+q there asks this
    BINDINGS = [Binding("y,ctrl+q", "answer(True)", show=False), Binding("n,escape,enter", "answer(False)", show=False)]

    def __init__(self, kept: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kept = kept

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static(_("Quit"), id="title")
            yield Static(
                _("Leave the game in progress?") + f"\n{self.kept}\n\n" + _("y or ctrl+q: quit   n or Escape: stay")
            )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ConfirmDelete(ModalScreen[bool]):
    """Delete an unfinished game against the computer? (`label`: the game as the menu lists it)"""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("y", "answer(True)", show=False), Binding("n,escape,enter", "answer(False)", show=False)]

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Delete an unfinished game"), id="title")
            yield Static(
                literal(self.label).append(
                    "\n\n"
                    + _(
                        "It can no longer be resumed: its keys and secrets are deleted. "
                        "Its transcript stays for the replay viewer."
                    )
                    + "\n\n"
                    + _("y: delete   n or Escape: keep it")
                )
            )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
