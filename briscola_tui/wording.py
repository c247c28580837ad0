"""Words for people: a game's title and short name, a count with its noun, a list in
words, an option as -o takes it."""

from __future__ import annotations

from collections.abc import Iterable

from engine.games import GAMES

from .language import n_

TITLES = {name: info.title for name, info in GAMES.items()}
"""Each game's full name, as headings show it (the table, the lobby, the replay viewer)."""
SHORT_NAMES = {name: info.short for name, info in GAMES.items()}
"""Each game's name in a list (the resume menu, the stored transcripts)."""


def count(n: int, one: str, several: str = "") -> str:
    """`n` and its noun: "1 hand", "3 hands", "2 entries" (`several` when the plural is not `one` + s),
    in the current language ("1 mano", "3 mani"). The nouns must be literal strings, for the catalogue."""
    return f"{n} {n_(one, several or one + 's', n)}"


def listing(items: Iterable[str], last: str = "and") -> str:
    """Items in words: "a, b and c" (`last` "or": "2, 3, 4 or 6")."""
    items = list(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}" if len(items) > 1 else "".join(items)


def option(name: str, value) -> str:
    """`name=value` as `-o NAME=VALUE` takes it: `black_hand=false`, `match=2`."""
    return f"{name}={str(value).lower() if isinstance(value, bool) else value}"
