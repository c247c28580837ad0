"""Game knowledge lives with the game: every game of the engine's registry has its presentation
(briscola_tui/games/), and nothing else in the product branches on a game by its name or its
state's class."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from briscola_tui.games import PLAIN, PRESENTATIONS, presentation
from briscola_tui.games.base import Presentation
from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "briscola_tui"
GAME_NAMES = frozenset(GAMES)

ALLOWED = ("briscola_tui/tools/play_cheats.py", "briscola_tui/ledger/facts.py")
"""Files that may name a game: the cheating seats `briscola selfplay --cheat` plays, whose lax views
subclass each game's own state (a cheat is made against one game's rules); the ledger's one filter
by the game a person asks for (`facts.played`: a choice of theirs, not a rule of the game)."""


def test_every_game_of_the_engine_has_its_presentation():
    assert set(PRESENTATIONS) == set(GAMES)
    for name, each in PRESENTATIONS.items():
        assert isinstance(each, Presentation) and each.name == name
        assert presentation(name) is each
        assert each.rules, f"{name}: no rules in short"
        assert sorted(each.rank_order()) == sorted("A234567JQK")
    assert presentation("no such game") is PLAIN and presentation(None) is PLAIN


def is_game(node: ast.expr) -> bool:
    """`x.game`, `game`, or `game.name`: a game named, about to be compared."""
    if isinstance(node, ast.Name):
        return node.id == "game"
    if isinstance(node, ast.Attribute):
        return node.attr == "game" or (node.attr == "name" and is_game(node.value))
    return False


def game_literals(node: ast.AST) -> list[str]:
    """The games' names written as string literals in `node`."""
    return [
        inner.value
        for inner in ast.walk(node)
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str) and inner.value in GAME_NAMES
    ]


def branches(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of each place that tells a game by its name or its state's class: a game
    compared (`view.game == ...`, `game.name != ...`), a game's name compared, tested for
    membership, passed or used as a key, and `isinstance(x, ...State)`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops) and any(map(is_game, sides)):
                found.append((node.lineno, "a game compared"))
            found += [(node.lineno, f"{name!r} compared") for name in game_literals(node)]
        elif isinstance(node, ast.Dict):
            keys = [key for key in node.keys if key is not None]
            found += [(node.lineno, f"{name!r} as a key") for key in keys for name in game_literals(key)]
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2:
                classes = [n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)]
                found += [(node.lineno, f"isinstance of {c}") for c in classes if c.endswith("State")]
            # (argparse's `prog="briscola"` names the program, not the game)
            arguments = [*node.args, *(keyword.value for keyword in node.keywords if keyword.arg != "prog")]
            found += [
                (node.lineno, f"{name!r} passed")
                for argument in arguments
                if isinstance(argument, ast.Constant)
                for name in game_literals(argument)
            ]
    return found


def scanned() -> list[Path]:
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if "games" not in path.relative_to(PACKAGE).parts[:1]
        and not path.relative_to(ROOT).as_posix().startswith(ALLOWED)
    ]


@pytest.mark.slow
def test_nothing_outside_the_games_package_branches_on_a_game():
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in scanned()
        for line, what in branches(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert bad == []


def test_the_scan_sees_each_kind_of_branch():
    source = """
if view.game == "chiamata": pass
if game.name != other: pass
if v.game in ("briscola", "calabresella"): pass
RULES = {"briscola": 1}
sort_hand(cards, "calabresella")
if isinstance(state, ChiamataState): pass
TITLE = "briscola"
"""
    found = sorted(branches(ast.parse(source)))
    assert found == [
        (2, "'chiamata' compared"),
        (2, "a game compared"),
        (3, "a game compared"),
        (4, "'briscola' compared"),
        (4, "'calabresella' compared"),
        (5, "'briscola' as a key"),
        (6, "'calabresella' passed"),
        (7, "isinstance of ChiamataState"),
    ]
    assert any(path.name == "summary.py" for path in scanned())
