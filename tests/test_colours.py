"""The suits' colours at every colour depth a terminal may have: hearts and diamonds red, and
the four-colour deck four colours, in 16 colours (TERM=xterm) as in 256 and in true colour.
Each colour goes the way the app sends it: Textual's filter turning ANSI colours into the
theme's RGB (as `BriscolaApp` runs, with the dark theme's ANSI palette), then the downgrade
the terminal's colour system asks for."""

from __future__ import annotations

import pytest
from rich.color import Color, ColorSystem, ColorType
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual._ansi_theme import MONOKAI
from textual.color import Color as TextualColor
from textual.filter import ANSIToTruecolor

from briscola_tui.tui.widgets.cards import FOUR_COLOURS, TWO_COLOURS

DEPTHS = [ColorSystem.STANDARD, ColorSystem.EIGHT_BIT, ColorSystem.TRUECOLOR]


def shown(colour: str, depth: ColorSystem) -> Color:
    """The colour a terminal of `depth` is sent for a suit of `colour`."""
    segment = Segment("x", RichStyle.parse(colour))
    (filtered,) = ANSIToTruecolor(MONOKAI).apply([segment], TextualColor(0, 0, 0))
    assert filtered.style is not None and filtered.style.color is not None
    return filtered.style.color.downgrade(depth)


STANDARD_HUES = {1: "red", 9: "red", 2: "green", 10: "green", 4: "blue", 12: "blue", 5: "magenta", 13: "magenta"}


def hue(colour: Color) -> str:
    """The colour's name as a player would say it."""
    if colour.type is ColorType.STANDARD:
        return STANDARD_HUES.get(colour.number or 0, f"ansi {colour.number}")
    r, g, b = colour.get_truecolor()
    if r > 150 and g < 90 and b < 90:
        return "red"
    if r > 150 and b > 150 and g < 90:
        return "magenta"
    if b > 150 and r < 90:
        return "blue"
    if g > 120 and r < 90 and b < 90:
        return "green"
    return f"{r},{g},{b}"


@pytest.mark.parametrize("depth", DEPTHS, ids=lambda d: d.name)
@pytest.mark.parametrize("suit", "HD")
def test_hearts_and_diamonds_are_red_at_every_depth(suit, depth):
    colour = shown(TWO_COLOURS[suit], depth)
    assert hue(colour) == "red", colour


@pytest.mark.parametrize("depth", DEPTHS, ids=lambda d: d.name)
def test_the_four_colour_deck_keeps_four_colours(depth):
    coloured = {suit: hue(shown(FOUR_COLOURS[suit], depth)) for suit in "HDC"}
    assert coloured == {"H": "red", "D": "blue", "C": "green"}
    assert FOUR_COLOURS["S"] == TWO_COLOURS["S"] == ""  # spades in the terminal's own colour


def test_the_ansi_red_of_the_theme_would_be_magenta_in_16_colours():
    """Why the colours are RGB: the check above fails for the ANSI name."""
    assert hue(shown("red", ColorSystem.STANDARD)) == "magenta"
