"""Words for people: a count with its noun, singular or plural."""

from __future__ import annotations


def count(n: int, one: str, several: str = "") -> str:
    """`n` and its noun: "1 hand", "3 hands", "2 entries" (`several` when the plural is not `one` + s)."""
    return f"{n} {one if n == 1 else several or one + 's'}"
