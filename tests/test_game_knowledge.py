"""Game knowledge lives with the game: code outside engine/games never asks which game it plays.

`game_questions` reads modules with `ast` and names each place that asks: an
`isinstance` test against a game's state class (`ChiamataState`, ...), a
comparison with a game's name (`game.name == ...`, `.game == ...`), and a
game's name as a literal compared with, or gathered in a set to compare with.
What such code wants to know belongs to the game: a method or a class constant
of its state or its `Game` in engine/games/.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from engine.games import GAMES, make

ROOT = Path(__file__).resolve().parent.parent

SCANNED = ("protocol",)
"""The packages whose modules must not ask which game they play."""

ALLOWED: tuple[str, ...] = ()
"""Modules (paths from the repository root) not held to it: none."""

GAME_NAMES = frozenset(GAMES)


def game_questions(paths: Iterable[Path], allowed: Iterable[str] = ()) -> list[str]:
    """ "path:line: what" for each place in the modules `paths` (files or packages) that asks
    which game it plays; `allowed` lists paths, from the repository root, not read."""
    skip = set(allowed)
    found = []
    for path in _modules(paths):
        name = path.relative_to(ROOT).as_posix()
        if name in skip:
            continue
        tree = ast.parse(path.read_text(), filename=name)
        found += [f"{name}:{line}: {what}" for line, what in _questions(tree)]
    return found


def _modules(paths: Iterable[Path]) -> list[Path]:
    modules: list[Path] = []
    for path in paths:
        modules += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return modules


def _questions(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_state_isinstance(node):
            found.append((node.lineno, "isinstance test against a game's state class"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if not all(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops):
                continue  # `game is not None` asks nothing of the game
            if any(_is_game_name(side) for side in sides):
                found.append((node.lineno, "comparison with the game or its name"))
            elif any(_names_a_game(side) for side in sides):
                found.append((node.lineno, "comparison with a game's name"))
        elif isinstance(node, ast.Set | ast.Call) and _is_game_set(node):
            found.append((node.lineno, "a set of game names"))
    return sorted(found)


def _is_state_isinstance(call: ast.Call) -> bool:
    if not (isinstance(call.func, ast.Name) and call.func.id == "isinstance" and len(call.args) == 2):
        return False
    classes = call.args[1]
    names = classes.elts if isinstance(classes, ast.Tuple) else [classes]
    return any(_dotted_tail(c).endswith("State") and _dotted_tail(c) != "State" for c in names)


def _dotted_tail(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_game_name(node: ast.expr) -> bool:
    """`game.name`, `x.game.name` or `x.game`."""
    if not isinstance(node, ast.Attribute):
        return False
    if node.attr == "game":
        return True
    return node.attr == "name" and _dotted_tail(node.value) == "game"


def _names_a_game(node: ast.expr) -> bool:
    """A game's name as a literal, or a literal tuple, list or set holding one."""
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


def _is_game_set(node: ast.Set | ast.Call) -> bool:
    if isinstance(node, ast.Call):
        called = _dotted_tail(node.func)
        listed = [arg for arg in node.args if isinstance(arg, ast.Tuple | ast.List)]  # a set literal counts itself
        return called in ("set", "frozenset") and any(_names_a_game(arg) for arg in listed)
    return _names_a_game(node)


def test_protocol_does_not_ask_which_game_it_plays():
    assert game_questions([ROOT / name for name in SCANNED], ALLOWED) == []


def test_the_scanner_finds_each_kind_of_question(tmp_path):
    module = tmp_path / "asks.py"
    module.write_text(
        "if isinstance(view, ChiamataState): pass\n"
        "if after.game.name == 'chiamata': pass\n"
        "if state.game == other: pass\n"
        "if name in ('briscola', 'x'): pass\n"
        "GAMES_LIKE_THIS = frozenset({'calabresella'})\n"
        "if isinstance(view, State): pass\n"
        "if self.game is not None: pass\n"
        "ORDER = set(['chiamata'])\n"
        "title = 'briscola'\n"
    )
    tree = ast.parse(module.read_text())
    assert [line for line, _ in _questions(tree)] == [1, 2, 3, 4, 5, 8]


def test_each_game_answers_what_the_protocol_once_asked_its_name():
    """The answers the games give are those the protocol's name tests gave: only Briscola's
    stopper is named from its own seed alone, only a Chiamata call makes a secret partner."""
    for name in GAMES:
        game = make(name)
        state = game.new_hand(0, game.plan(0).deal(game.deck()))
        assert (game.SHARES_ONLY_CAUSE, state.SECRET_PARTNER) == (name == "briscola", name == "chiamata")
