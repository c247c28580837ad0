"""Cards and actions as the screen writes them: the suit as a glyph (or its
letter in ASCII) beside the rank, never colour alone; colours (two or four)
only on top of the letter or glyph, and none under NO_COLOR."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

from rich.cells import get_character_cell_size

from engine.cards import SUIT_GLYPHS, SUIT_NAMES, Card
from engine.state import Action

from ...engine_words import action_words, suit_word
from ...games import presentation
from ...games.base import sort_cards
from ...language import _, current

GLYPHS = "".join(SUIT_GLYPHS.values()) + "┌┐└┘│─←▲✓·–…"
RANK_NAMES = {
    "italian": {
        "A": "Asso",
        "2": "Due",
        "3": "Tre",
        "4": "Quattro",
        "5": "Cinque",
        "6": "Sei",
        "7": "Sette",
        "J": "Fante",
        "Q": "Cavallo",
        "K": "Re",
    },
    "french": {
        "A": "Ace",
        "2": "Two",
        "3": "Three",
        "4": "Four",
        "5": "Five",
        "6": "Six",
        "7": "Seven",
        "J": "Jack",
        "Q": "Queen",
        "K": "King",
    },
}
FRENCH_RANKS_IN_ITALIAN = {**RANK_NAMES["italian"], "Q": "Donna"}
"""The French deck's ranks in Italian words (the Queen is Donna, not Cavallo)."""
RED = "#ee2222"
"""Hearts and diamonds: a red given as RGB, so that it stays red at every colour depth. (The
ANSI "red" goes through the theme's palette first, whose red is a pinkish #f4005f, and a
16-colour terminal (TERM=xterm) then shows that as magenta.)"""
TWO_COLOURS = {"H": RED, "D": RED, "S": "", "C": ""}
FOUR_COLOURS = {"S": "", "H": RED, "D": "dodger_blue1", "C": "green3"}


ASCII_MARKS = {
    **{glyph: suit for suit, glyph in SUIT_GLYPHS.items()},
    "·": "-",
    "•": "*",
    "…": ".",
    "–": "-",
    "—": "-",
    "←": "<",
    "→": ">",
    "↑": "^",
    "↓": "v",
    "▲": "^",
    "▼": "v",
    "▶": ">",
    "◀": "<",
    "✓": "*",
    "✔": "*",
    "×": "x",
    "≥": ">",
    "≤": "<",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "█": "#",
    "▐": "[",  # a check box: ▐X▌
    "▌": "]",
}
"""The 7-bit stand-in of a mark that Textual or the app draws (the rest: `ascii_text`)."""


@lru_cache(maxsize=4096)
def ascii_text(text: str) -> str:
    """`text` in 7-bit characters, cell for cell (each character is replaced by as many as the
    cells it takes): box lines as `+ - |`, blocks (the ends of a scroll bar) as blanks, the marks
    of ASCII_MARKS, a letter with an accent as the letter (é: e), anything else as `?`."""
    if text.isascii():
        return text
    out = []
    for char in text:
        if char.isascii():
            out.append(char)
            continue
        width = get_character_cell_size(char)
        out.append((_ascii_char(char) * width)[:width])
    return "".join(out)


def _ascii_char(char: str) -> str:
    if char in ASCII_MARKS:
        return ASCII_MARKS[char]
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):  # ─ │ ┌ ╭ ┼ ╴ ...
        lines = name.removeprefix("BOX DRAWINGS ").split()
        if " AND " in name or {"ARC", "DIAGONAL"} & set(lines):
            return "+"
        return "|" if {"VERTICAL", "UP", "DOWN"} & set(lines) else "-"
    if 0x2580 <= ord(char) <= 0x259F:  # block elements: ▁ ▂ ... ▇ ▊ ▎ ▔ of scroll bars and borders
        return " "
    if unicodedata.category(char) == "Zs":  # a no-break space and its kin
        return " "
    base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return base[:1] or "?"


def can_show_glyphs(encoding: str | None) -> bool:
    """True when `encoding` can write the suit glyphs and box lines."""
    try:
        GLYPHS.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def sort_hand(cards: Iterable[Card], game: str, options: Mapping[str, object] | None = None) -> tuple[Card, ...]:
    """A hand as the table shows it: by suit, then by rank, highest first."""
    return sort_cards(cards, presentation(game).rank_order(options))


class Style:
    """How to write cards and marks: glyphs or plain ASCII, colours, suit names."""

    def __init__(self, ascii: bool = False, four_colour: bool = False, names: str = "french", colour: bool = True):
        self.ascii, self.four_colour, self.names, self.colour = ascii, four_colour, names, colour
        self.arrow = "<-" if ascii else "←"
        self.dot = "-" if ascii else "·"
        self.dash = "-" if ascii else "–"
        self.ellipsis = "..." if ascii else "…"
        self.cursor = "^" if ascii else "▲"
        self.tick = "*" if ascii else "✓"
        self.times = "x" if ascii else "×"
        self.box = ("+--+", "|", "+--+") if ascii else ("┌──┐", "│", "└──┘")

    def card(self, card: Card | None) -> str:
        if card is None:
            return "??"
        return str(card) if self.ascii else card.rank + SUIT_GLYPHS[card.suit]

    def colour_of(self, card: Card | None) -> str:
        """The rich style of a card's suit ("" when colour is off)."""
        if card is None or not self.colour:
            return ""
        return (FOUR_COLOURS if self.four_colour else TWO_COLOURS)[card.suit]

    def suit(self, suit: str | None) -> str:
        if suit is None:
            return _("none")
        mark = suit if self.ascii else SUIT_GLYPHS[suit]
        return f"{mark} {self.suit_name(suit)}"

    def suit_name(self, suit: str) -> str:
        """The suit in words: the Italian names as they are, the French ones in the current
        language ("spades", "picche")."""
        italian, french = SUIT_NAMES[suit]
        return italian if self.names == "italian" else suit_word(french)

    def card_name(self, card: Card | None) -> str:
        """The card in words, as the language and the suit names ask: 'Ace of spades',
        'Asso di Spade' (Italian suits, in either language), 'Asso di picche'."""
        if card is None:
            return _("a hidden card")
        if self.names == "italian":  # the Italian deck's names, in every language
            return f"{RANK_NAMES['italian'][card.rank]} di {self.suit_name(card.suit)}"
        if current() == "en":
            return f"{RANK_NAMES['french'][card.rank]} of {self.suit_name(card.suit)}"
        rank = FRENCH_RANKS_IN_ITALIAN[card.rank]
        return f"{rank} di {self.suit_name(card.suit)}"

    def cards(self, cards: Iterable[Card | None]) -> str:
        return " ".join(self.card(c) for c in cards)

    def action(self, action: Action, names: tuple[str, ...] = ()) -> str:
        return action_words(action, self.card, deck=self.names)
