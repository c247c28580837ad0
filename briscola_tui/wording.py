"""Words for people: a game's short name, a count with its noun, an option as -o takes it."""

from __future__ import annotations

SHORT_NAMES = {"briscola": "Briscola", "chiamata": "Chiamata", "calabresella": "Calabresella"}
"""Each game's name in a list (the resume menu, the stored transcripts)."""


def count(n: int, one: str, several: str = "") -> str:
    """`n` and its noun: "1 hand", "3 hands", "2 entries" (`several` when the plural is not `one` + s)."""
    return f"{n} {one if n == 1 else several or one + 's'}"


def option(name: str, value) -> str:
    """`name=value` as `-o NAME=VALUE` takes it: `black_hand=false`, `match=2`."""
    return f"{name}={str(value).lower() if isinstance(value, bool) else value}"
