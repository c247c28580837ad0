"""What a user installs: the wheel and the sdist hold every file the program reads.

`pip install .` (the README's first command) installs the wheel; a file the
program opens at run time (the screens' .tcss stylesheets) that the package
data leaves out makes `briscola` die on its first screen. The wheel and the sdist
are built as pip builds them (PEP 517, in isolation) and compared with the
source packages file by file.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("briscola_tui", "engine", "protocol")


def source_files() -> set[str]:
    """Every file of the source packages, relative to the root (no bytecode)."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(path.relative_to(ROOT).as_posix())
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


def test_the_wheel_holds_every_file_of_the_packages(built):
    (wheel,) = built.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(source_files() - names)
    assert not missing, f"the wheel lacks {missing}"
    assert any(name.endswith("screens/table.tcss") for name in names)
    assert "briscola_tui/locale/it/LC_MESSAGES/briscola.po" in names


def test_the_sdist_holds_every_file_of_the_packages(built):
    (sdist,) = built.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    missing = sorted(source_files() - names)
    assert not missing, f"the sdist lacks {missing}"


def test_every_stylesheet_a_screen_names_exists():
    """A CSS_PATH with no file beside it would fail only when that screen opens."""
    import importlib
    import inspect

    from textual.screen import Screen

    checked = 0
    for path in sorted((ROOT / "briscola_tui" / "tui" / "screens").glob("*.py")):
        module = importlib.import_module(f"briscola_tui.tui.screens.{path.stem}")
        for _, screen in inspect.getmembers(module, inspect.isclass):
            css = getattr(screen, "CSS_PATH", None)
            if issubclass(screen, Screen) and screen.__module__ == module.__name__ and isinstance(css, str):
                assert (path.parent / css).is_file(), f"{screen.__name__} names {css}, not found"
                checked += 1
    assert checked >= 8


def test_version_is_the_projects():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for command in (["briscola"], [sys.executable, "-m", "briscola_tui"]):
        executable = [str(Path(sys.executable).parent / "briscola")] if command == ["briscola"] else command
        done = subprocess.run([*executable, "--version"], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"briscola {version}"


def test_python_dash_m_runs_the_same_command():
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "verify", "--help"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0
    assert done.stdout.startswith("usage: briscola verify ")


def test_the_user_guide_installs_as_the_readme_does():
    def first_command(path: Path) -> str:
        return re.findall(r"```sh\n(.*?)\n```", path.read_text(), re.S)[0].strip()

    readme = first_command(ROOT / "README.md")
    assert readme == "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/briscola"
    assert first_command(ROOT / "docs" / "user-guide.md") == readme


def test_ci_runs_the_readmes_test_command_as_written():
    test_command = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)[1].strip()
    assert test_command.endswith(".venv-test/bin/python -m pytest")
    # Its own venv: run while a game from the first command is open, it must not reinstall the
    # game's packages under it (the game crashed on the next module it imported).
    game_venv = re.findall(r"python3 -m venv (\S+) ", (ROOT / "README.md").read_text())[0]
    assert game_venv == ".venv" and f" {game_venv}/" not in test_command and f"venv {game_venv} " not in test_command
    assert test_command in (ROOT / ".ci" / "run").read_text().splitlines()
