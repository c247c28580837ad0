"""The layer rules (docs/architecture.md): imports only point up.

engine/ is pure (stdlib and itself; no randomness outside engine/bots);
protocol/ is sans-IO (no asyncio, no textual); neither imports the product.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
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


@pytest.mark.parametrize("package", ["engine", "protocol", "briscola_tui"])
def test_the_product_never_imports_research_or_the_benches(package):
    """research/ and bench/ are outside the wheel (issue 45): nothing the wheel holds may need them."""
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sources(package)
        for module, line in imports(path)
        if top(module) in ("research", "bench")
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


# --- the product: textual only in the UI package, and no import circle -----------------

PACKAGES = ("engine", "protocol", "briscola_tui")
UI_PACKAGE = "briscola_tui.tui"
UI_LIBRARIES = ("textual", "rich")


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def typing_only(tree: ast.Module) -> set[int]:
    """The lines of the imports under `if TYPE_CHECKING:`, which never run."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            lines |= {inner.lineno for inner in ast.walk(node) if isinstance(inner, ast.Import | ast.ImportFrom)}
    return lines


def absolute_imports(root: Path, path: Path, typing: bool = True) -> list[tuple[str, int, tuple[str, ...]]]:
    """(module, line, names) for every import in a file, function-local ones included (and,
    unless `typing` is false, those under `if TYPE_CHECKING:`), relative ones made absolute;
    names: what `from module import ...` takes (empty for `import module`)."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = set() if typing else typing_only(tree)
    found = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, node.lineno, tuple(alias.name for alias in node.names)))
    return found


def import_graph(root: Path, packages=PACKAGES, typing: bool = True) -> dict[str, dict[str, int]]:
    """module -> {imported module of the project: line}, over every source file of `packages`.
    `from package import module` is an edge to the module, not to the package's __init__."""
    paths = [p for package in packages for p in sorted((root / package).rglob("*.py"))]
    modules = {module_name(root, p): p for p in paths}
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        edges = graph.setdefault(module, {})
        for imported, line, names in absolute_imports(root, path, typing):
            submodules = [f"{imported}.{n}" for n in names if f"{imported}.{n}" in modules]
            targets = submodules if names and len(submodules) == len(names) else [imported, *submodules]
            for target in targets:
                if target in modules and target != module:
                    edges.setdefault(target, line)
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The import circles: each strongly connected set of two or more modules (Tarjan), sorted.
    A package's own __init__ importing its modules is no circle unless they import it back."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def describe(graph: dict[str, dict[str, int]], group: list[str]) -> str:
    members = set(group)
    return "; ".join(f"{a} -> {b} (line {line})" for a in group for b, line in graph[a].items() if b in members)


def test_no_import_circle():
    """Nothing imports in a circle, typing-only imports included."""
    graph = import_graph(ROOT, typing=True)
    assert [describe(graph, group) for group in circles(graph)] == []


def test_the_ui_package_is_where_textual_is():
    """Not vacuous: the UI package does import textual, and the graph sees the product's edges."""
    graph = import_graph(ROOT)
    assert "briscola_tui.tui.screens.table" in graph["briscola_tui.tui.app"]  # a function-local import
    assert "briscola_tui.tables.network" in graph["briscola_tui.tui.netapp"]
    ui = [p for p in sources("briscola_tui/tui") for m, _ in imports(p) if top(m) == "textual"]
    assert ui


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checks_catch_a_circle_through_a_function_local_import(tmp_path):
    """The circle the app had: app -> home -> forms -> netapp -> app, the last two inside functions."""
    write_tree(
        tmp_path,
        {
            "briscola_tui/__init__.py": "",
            "briscola_tui/tui/__init__.py": "",
            "briscola_tui/tui/app.py": "def go():\n    from .home import Home\n",
            "briscola_tui/tui/home.py": "from . import forms\n",
            "briscola_tui/tui/forms.py": "def submit():\n    from ..tui.netapp import open_lobby\n",
            "briscola_tui/tui/netapp.py": "from .app import BriscolaApp\n",
            "briscola_tui/tui/lone.py": "from .app import go\n",
        },
    )
    graph = import_graph(tmp_path, ("briscola_tui",))
    found = circles(graph)
    assert found == [
        ["briscola_tui.tui.app", "briscola_tui.tui.forms", "briscola_tui.tui.home", "briscola_tui.tui.netapp"]
    ]
    assert "briscola_tui.tui.forms -> briscola_tui.tui.netapp (line 2)" in describe(graph, found[0])


# --- the layers, by import-linter's contracts in pyproject.toml (docs/architecture.md) -----------


def lint_imports(cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_every_import_contract_is_kept():
    """The packages in their order (bench and research over the product, over the protocol,
    over the rules), the product's own layers, the network and the tools apart, no network or
    screen I/O in the rules and the protocol, textual and rich in the client alone."""
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 5 kept, 0 broken." in done.stdout, done.stdout


def test_the_contracts_catch_an_import_up_and_textual_outside_the_client(tmp_path):
    """Not vacuous: a tree under the product's contracts where the network imports a table
    controller (up a layer) and a tool (apart), and a controller imports textual."""
    write_tree(
        tmp_path,
        {
            "briscola_tui/__init__.py": "",
            "briscola_tui/net/__init__.py": "",
            "briscola_tui/net/client.py": "from ..tables import offline\nfrom ..tools import verify\n",
            "briscola_tui/tables/__init__.py": "",
            "briscola_tui/tables/offline.py": "def ask():\n    from textual.message import Message\n",
            "briscola_tui/tools/__init__.py": "",
            "briscola_tui/tools/verify.py": "",
            "briscola_tui/tui/__init__.py": "",
            "briscola_tui/tui/app.py": "from textual.app import App\n",
        },
    )
    for part in (
        "cli",
        "cli_parser",
        "cli_net_parser",
        "cli_arguments",
        "cli_club",
        "cli_lan",
        "__main__",
        "ledger",
        "club",
        "files",
        "games",
        "language",
        "po",
    ):
        (tmp_path / "briscola_tui" / f"{part}.py").write_text("")
    for part in (
        "names",
        "options",
        "os_errors",
        "wording",
        "phrases",
        "render",
        "card_styles",
        "notes",
        "engine_words",
        "action_phrases",
    ):
        (tmp_path / "briscola_tui" / f"{part}.py").write_text("")  # (every layer the contracts name)
    contracts = (ROOT / "pyproject.toml").read_text().split("\n[tool.importlinter]\n", 1)[1]
    contracts = contracts.replace('["engine", "protocol", "briscola_tui", "research", "bench"]', '["briscola_tui"]')
    parts = contracts.split("[[tool.importlinter.contracts]]")
    kept = [c for c in parts if 'id = "packages"' not in c and 'id = "sans-io"' not in c]
    (tmp_path / "pyproject.toml").write_text("[tool.importlinter]\n" + "[[tool.importlinter.contracts]]".join(kept))
    done = lint_imports(tmp_path, {**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "briscola_tui.net.client -> briscola_tui.tables.offline" in done.stdout, done.stdout
    assert "briscola_tui.net.client -> briscola_tui.tools.verify" in done.stdout, done.stdout
    assert "briscola_tui.tables.offline -> textual" in done.stdout, done.stdout


DEVELOPERS_ONLY = {"briscola_tui/tools/catalogue.py": "test"}
"""Modules of the wheel that the game never runs (no other module imports them), each with the
extra that declares what it imports: the translators' tool is run from the test venv
(docs/translating.md)."""

OPTIONAL = {"briscola_tui/club/": "club"}
"""Packages of the wheel whose third-party imports an extra declares: the club's (nats-py and
nkeys) is imported only when a club command runs, which says how to install it when missing
(briscola_tui/club/needs.py; docs/dependencies.md)."""


def test_every_package_the_product_imports_is_declared():
    """A third-party import in the wheel's packages is a dependency in pyproject.toml (rich was
    imported in 28 modules and came only through textual); of a module only developers run, a
    dependency of its extra."""
    import tomllib
    from importlib.metadata import packages_distributions

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    def names(specs: list[str]) -> set[str]:
        return {re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in specs}

    declared = names(project["dependencies"])
    ours = set(PACKAGES)
    distributions = packages_distributions()
    missing = set()
    for package in PACKAGES:
        for path in sources(package):
            relative = path.relative_to(ROOT).as_posix()
            extra = DEVELOPERS_ONLY.get(relative) or next(
                (x for p, x in OPTIONAL.items() if relative.startswith(p)), None
            )
            allowed = declared | names(project["optional-dependencies"][extra]) if extra else declared
            for module, line in imports(path):
                name = top(module)
                if module.startswith(".") or name in ours or name in sys.stdlib_module_names or name.startswith("_"):
                    continue
                dists = {d.lower().replace("_", "-") for d in distributions.get(name, [name])}
                if not dists & allowed:
                    missing.add(f"{relative}:{line}: {module} ({', '.join(sorted(dists))})")
    assert sorted(missing) == []


def test_no_module_of_the_game_imports_one_only_developers_run():
    """What DEVELOPERS_ONLY holds stays out of the game: no module of the wheel imports it (its
    dependencies are not installed with the game)."""
    tools = {path.removesuffix(".py").replace("/", ".") for path in DEVELOPERS_ONLY}
    stems = {module.rsplit(".", 1)[1] for module in tools}
    found = []
    for package in PACKAGES:
        for path in sources(package):
            relative = path.relative_to(ROOT).as_posix()
            if relative in DEVELOPERS_ONLY:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    names = {f"{node.module or ''}.{alias.name}" for alias in node.names} | {node.module or ""}
                    if any(n.endswith(tuple(tools)) or n.split(".")[-1] in stems for n in names if n):
                        found.append(f"{relative}:{node.lineno}")
                elif isinstance(node, ast.Import) and any(alias.name in tools for alias in node.names):
                    found.append(f"{relative}:{node.lineno}")
    assert found == []
