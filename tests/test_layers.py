"""The layer rules (docs/architecture.md): imports only point up.

engine/ is pure (stdlib and itself; no randomness outside engine/bots);
protocol/ is sans-IO (no asyncio, no textual); neither imports the product.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) for every import in a file; relative imports as '.name'."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(("." * node.level + (node.module or ""), node.lineno))
            else:
                found.append((node.module, node.lineno))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            found.append(("__import__()", node.lineno))
        elif isinstance(node, ast.Attribute) and node.attr == "import_module":
            found.append(("importlib.import_module()", node.lineno))
    return found


def sources(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no sources under {package}/"
    return files


def top(module: str) -> str:
    return module.split(".")[0]


def test_engine_imports_only_the_standard_library_and_itself():
    bad = []
    for path in sources("engine"):
        for module, line in imports(path):
            if module.startswith("."):
                continue
            if top(module) in sys.stdlib_module_names or top(module) == "engine":
                continue
            bad.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert bad == []


def test_engine_relative_imports_stay_inside_engine():
    for path in sources("engine"):
        depth = len(path.relative_to(ROOT / "engine").parts) - 1  # 0 for engine/x.py
        for module, line in imports(path):
            if module.startswith("."):
                level = len(module) - len(module.lstrip("."))
                assert level <= depth + 1, f"{path}:{line}: {module} leaves engine/"


FORBIDDEN_IN_ENGINE = {"random", "secrets", "os", "socket", "asyncio", "subprocess", "time", "threading"}


def test_engine_has_no_randomness_or_io_outside_bots():
    bad = []
    for path in sources("engine"):
        if "bots" in path.relative_to(ROOT / "engine").parts:
            continue
        for module, line in imports(path):
            if top(module) in FORBIDDEN_IN_ENGINE or module in ("__import__()", "importlib.import_module()"):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert bad == []


@pytest.mark.parametrize("package", ["engine", "protocol"])
def test_engine_and_protocol_never_import_the_product(package):
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sources(package)
        for module, line in imports(path)
        if top(module) in ("briscola_tui", "textual", "asyncio")
    ]
    assert bad == []


def test_engine_does_not_import_protocol():
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sources("engine")
        for module, line in imports(path)
        if top(module) == "protocol"
    ]
    assert bad == []


def test_the_scan_sees_imports():
    """The checks are not vacuous: the scanner finds what is there."""
    found = {m for path in sources("engine") for m, _ in imports(path)}
    assert "__future__" in found and ".cards" in found
    assert any(top(m) == "cryptography" for path in sources("protocol") for m, _ in imports(path))
