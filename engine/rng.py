"""`Rng`: the random source the engine is handed.

The engine may not import `random` (tests/test_layers.py): whoever drives it
passes a source in, a `random.Random` at the table, the benches and the
computer players. These protocols name what the engine calls of it.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Shuffler(Protocol):
    """What sampling a deal needs (engine/determinize.py, engine/assignment.py)."""

    def randrange(self, stop: int, /) -> int: ...
    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


class Rng(Shuffler, Protocol):
    """What the engine calls of a random source: a `random.Random` is one."""

    def choice(self, seq: Sequence[T], /) -> T: ...
    def sample(self, population: Sequence[T], k: int, /) -> list[T]: ...
