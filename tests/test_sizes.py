"""No module over `MAX_MODULE_LINES` lines and no function over `MAX_FUNCTION_LINES` in the packages of `PACKAGES`.

A module that grows past the limit holds more than one responsibility: split
it by what each part owns. A function past the limit does more than one thing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PACKAGES = ("engine", "protocol", "briscola_tui")
"""The packages held to the limits (directories under the repository root)."""

MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60


def modules(packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    return sorted(path for name in packages for path in (ROOT / name).rglob("*.py"))


def long_modules(paths: list[Path], limit: int = MAX_MODULE_LINES) -> list[str]:
    """ "path: lines" for each module of `paths` over `limit` lines."""
    found = []
    for path in paths:
        lines = len(path.read_text().splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return found


def long_functions(paths: list[Path], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """ "path:line name: lines" for each function of `paths` over `limit` lines (its
    decorators left out, its docstring counted)."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None  # set by ast.parse
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines} lines")
    return found


def test_no_module_is_too_long():
    assert long_modules(modules()) == []


@pytest.mark.slow
def test_no_function_is_too_long():
    assert long_functions(modules()) == []


def test_the_packages_have_modules():
    assert all(any((ROOT / name).rglob("*.py")) for name in PACKAGES)
