"""How a state is copied: `clone_function(cls)` builds each state class's `clone`
(`engine.state.State.__init_subclass__` sets it), field by field from the classes' `FIELDS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_LISTS = {
    "hands": "[h[:] for h in self.hands]",
    **{name: f"self.{name}[:]" for name in ("unknown", "trick", "tricks", "captured", "won", "history")},
}
"""The base's mutable fields, as `clone` copies them (a game copies its own in `_clone_extra`)."""


def clone_function(cls: type, doc: str | None) -> Callable[[Any], Any]:
    """`cls.clone`: a new state (`doc` its docstring), each field of `FIELDS` (every class's) set in turn.

    Not by copying `__dict__`: reading an object's `__dict__` turns its attributes
    into a plain dict, and every attribute read and write on it (a playout makes
    thousands) is slower after that; set one by one they stay as `__init__` made
    them. A field a class does not name in `FIELDS` would be lost: tests/test_clone.py
    checks every game's states have exactly the fields named."""
    names = list(dict.fromkeys(name for klass in reversed(cls.__mro__) for name in vars(klass).get("FIELDS", ())))
    lines = ["def clone(self):", "    state = new(cls)"]
    lines += [f"    state.{name} = {_LISTS.get(name, f'self.{name}')}" for name in names]
    lines += ["    self._clone_extra(state)", "    return state"]
    scope: dict = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102 - code built from the classes' own field names
    clone = scope["clone"]
    clone.__doc__ = doc
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    return clone
