"""Words for people: a game's title and short name, a count with its noun, a list in
words, an option as -o takes it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from engine.games import GAMES

from .language import N_, _, n_


class _Words(Mapping[str, str]):
    """A table of words read in the current language when they are looked up (the language
    can change after import): `TITLES["chiamata"]` is `_("Briscola Chiamata")`."""

    def __init__(self, words: Mapping[str, str]) -> None:
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        return _(self._words[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


TITLES: Mapping[str, str] = _Words({name: info.title for name, info in GAMES.items()})
"""Each game's full name, as headings show it (the table, the lobby, the replay viewer), in the
current language (the words are listed in `engine_words.GAME_WORDS`)."""
SHORT_NAMES: Mapping[str, str] = _Words({name: info.short for name, info in GAMES.items()})
"""Each game's name in a list (the resume menu, the stored transcripts)."""
JOINS = {"and": N_("{items} and {last}"), "or": N_("{items} or {last}")}
"""The last two items of a list, joined ("a, b and c"; "2, 3, 4 or 6")."""


def count(n: int, one: str, several: str = "") -> str:
    """`n` and its noun: "1 hand", "3 hands", "2 entries" (`several` when the plural is not `one` + s),
    in the current language ("1 mano", "3 mani"). The nouns must be literal strings, for the catalogue."""
    return f"{n} {n_(one, several or one + 's', n)}"


def listing(items: Iterable[str], last: str = "and") -> str:
    """Items in words: "a, b and c" (`last` "or": "2, 3, 4 or 6")."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    join = _(JOINS[last]) if last in JOINS else "{items} " + last + " {last}"
    return join.format(items=", ".join(items[:-1]), last=items[-1])


def option(name: str, value: object) -> str:
    """`name=value` as `-o NAME=VALUE` takes it: `black_hand=false`, `match=2`."""
    return f"{name}={str(value).lower() if isinstance(value, bool) else value}"


def sitting(names: Iterable[str]) -> str:
    """Who sits at a table: "Dave sits", "Ada and Bo sit", "nobody sits yet" (the tables on
    the LAN: the names said apart from the seats free, never read as the free seats')."""
    names = list(names)
    if not names:
        return _("nobody sits yet")
    return n_("{names} sits", "{names} sit", len(names)).format(names=listing(names))


def seats_free(free: int) -> str:
    """A table's seats free: "2 seats free", or "full" (the tables on the LAN)."""
    return count(free, "seat free", "seats free") if free else _("full")


def spectators(allowed: bool, watching: int) -> str:
    """Who watches a table: "1 spectator", or "closed to spectators" (the tables on the LAN)."""
    return count(watching, "spectator") if allowed else _("closed to spectators")


def table_label(game: str, n: int) -> str:
    """A game at a table size: "Briscola, 4 players (partners)" (the host form, the tables on the LAN)."""
    if n in GAMES[game].teams:
        return _("{game}, {n} players (partners)").format(game=TITLES[game], n=n)
    return _("{game}, {n} players").format(game=TITLES[game], n=n)
