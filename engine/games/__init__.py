"""The games, one module each, behind one registry."""

from __future__ import annotations

from ..game import Game, OptionError
from .briscola import Briscola
from .calabresella import Calabresella
from .chiamata import Chiamata

GAMES: dict[str, type[Game]] = {
    "briscola": Briscola,
    "chiamata": Chiamata,
    "calabresella": Calabresella,
}


def make(name: str, players: int | None = None, options: dict | None = None) -> Game:
    """Build a game by name. `players` defaults to the smallest table of that game."""
    cls = GAMES.get(name)
    if cls is None:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return cls(cls.PLAYERS[0] if players is None else players, options)
