"""The games, one module each, behind one registry.

`GAMES` is what everything outside the rules knows of a game — its name,
titles, table sizes, fixed teams — as plain data, one `GameInfo` per game in
the order the lists show them. Reading it loads no rules: the command line's
`--help` lists the games from it. Each game's class reads its own entry
(`name`, `PLAYERS`), and `make` (or `GameInfo.load`) imports the game's module
only when a game is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game


@dataclass(frozen=True)
class GameInfo:
    """One game as the command line, the forms and the screens name it."""

    name: str
    """The game's name on the command line (`--game`), the wire and in files; its module's name."""
    title: str
    """Its full name, as a table's or a form's heading shows it: "Briscola Chiamata"."""
    short: str
    """Its name in a list (the resume menu, the stored transcripts): "Chiamata"."""
    players: tuple[int, ...]
    """The table sizes the rule book allows, smallest first (`Game.PLAYERS`)."""
    default_players: int
    """The table size when none is given."""
    teams: tuple[int, ...] = ()
    """The table sizes played by two fixed teams of alternate seats (partners), known from the start."""
    rules: str = ""
    """`module:Class` of its rules under `engine.games`."""
    point_unit: str = "point"
    """What its card points count in: "point", or "third" (a third of a point; its state's `POINT_UNIT`)."""

    def load(self) -> type[Game]:
        """The game's class (imports its module)."""
        module, _, cls = self.rules.partition(":")
        return getattr(import_module(f"{__name__}.{module}"), cls)


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo("briscola", "Briscola", "Briscola", (2, 3, 4, 6), 2, teams=(4, 6), rules="briscola:Briscola"),
        GameInfo("chiamata", "Briscola Chiamata", "Chiamata", (5,), 5, rules="chiamata:Chiamata"),
        GameInfo(
            "calabresella",
            "Calabresella",
            "Calabresella",
            (3,),
            3,
            rules="calabresella:Calabresella",
            point_unit="third",
        ),
    )
}


def make(name: str, players: int | None = None, options: dict | None = None) -> Game:
    """Build a game by name. `players` defaults to the game's default table."""
    from ..game import OptionError

    info = GAMES.get(name)
    if info is None:
        raise OptionError("unknown game {name} (games: {games})", name=repr(name), games=", ".join(GAMES))
    return info.load()(info.default_players if players is None else players, options)
