"""Each game as the product shows it, one module a game (the rules are engine's: one module a
game under `engine/games/`). `presentation(game)` is the one place that looks a game up by
its name; the screens and widgets ask the `Presentation` it gives (games/base.py) for what
differs between games: the header's partner and target, whether the seats show card points,
the rank order the hand is sorted in, the summary's lines and unit, the rules in short.

Adding a game to the product: a module here with its `Presentation` (the defaults are plain
Briscola's), listed in PRESENTATIONS."""

from __future__ import annotations

from .base import Presentation
from .briscola import BRISCOLA
from .calabresella import CALABRESELLA
from .chiamata import CHIAMATA

PRESENTATIONS: dict[str, Presentation] = {each.name: each for each in (BRISCOLA, CHIAMATA, CALABRESELLA)}
"""Every game's presentation by its name, in the order the lists show the games."""
PLAIN = Presentation()
"""A game the product does not know (a newer host's): shown as a plain trick game."""


def presentation(game: str | None) -> Presentation:
    """The presentation of `game`, or the plain one for a game not known."""
    return PRESENTATIONS.get(game or "", PLAIN)
