"""No test touches the real user's folders (tests/conftest.py, helpers/home.py).

Every test runs with HOME, the XDG folders and BRISCOLA_HOME in a fresh
temporary folder of its own: briscola's data and config folders and the
platform's user folders resolve there, with or without BRISCOLA_HOME; the
processes a test starts inherit them; fixtures of a wider scope than a test
run in a temporary home too. Should the fixtures stop doing so, these fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest
from helpers.home import REAL_HOMES, VARIABLES

from briscola_tui.files import settings
from briscola_tui.files.folders import data_dir


def outside_the_real_home(path: str | Path) -> bool:
    resolved = Path(path).resolve()
    return not any(resolved == Path(home) or resolved.is_relative_to(home) for home in REAL_HOMES)


def test_every_folder_of_the_user_is_a_fresh_temporary_one(own_folders, tmp_path_factory, monkeypatch):
    base = tmp_path_factory.getbasetemp().resolve()
    home = Path(os.environ["HOME"]).resolve()
    assert outside_the_real_home(home) and home.is_relative_to(base), (home, REAL_HOMES)
    assert Path.home().resolve() == home and Path(os.path.expanduser("~")).resolve() == home
    for name in VARIABLES:
        assert Path(os.environ[name]).resolve().is_relative_to(home), (name, os.environ[name])
        assert Path(os.environ[name]) == own_folders[name]
    assert sorted(p.name for p in home.iterdir()) == ["run"]  # nothing of another test's
    # where briscola keeps its files, and where it would without BRISCOLA_HOME
    assert data_dir().resolve().is_relative_to(home) and settings.config_dir().resolve().is_relative_to(home)
    monkeypatch.delenv("BRISCOLA_HOME")
    assert data_dir().resolve().is_relative_to(home) and settings.config_dir().resolve().is_relative_to(home)
    for folder in (
        platformdirs.user_data_dir("briscola-tui"),
        platformdirs.user_config_dir("briscola-tui"),
        platformdirs.user_state_dir("briscola-tui"),
        platformdirs.user_cache_dir("briscola-tui"),
        platformdirs.user_runtime_dir("briscola-tui"),
    ):
        assert Path(folder).resolve().is_relative_to(home), folder


@pytest.mark.parametrize("turn", [1, 2])
def test_what_one_test_writes_another_does_not_see(own_folders, turn):
    home = own_folders["HOME"]
    assert sorted(p.name for p in home.iterdir()) == ["run"]
    (home / ".config").mkdir()
    (home / ".config" / f"written-by-{turn}").write_text("x")
    (data_dir() / f"written-by-{turn}").write_text("x")


def test_a_process_started_by_a_test_inherits_the_folders(own_folders):
    probe = f"import json, os; print(json.dumps({{n: os.environ.get(n) for n in {VARIABLES!r}}}))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == {name: str(place) for name, place in own_folders.items()}


@pytest.fixture(scope="module")
def seen_by_a_module_fixture():
    """What a module-scoped fixture (set up before any test's own folders) sees."""
    return {name: os.environ.get(name) for name in VARIABLES}


def test_fixtures_of_a_wider_scope_run_outside_the_real_home(seen_by_a_module_fixture, own_folders):
    for name, value in seen_by_a_module_fixture.items():
        assert value is not None and outside_the_real_home(value), (name, value)
        assert Path(value) != own_folders[name]  # the session's folders, not this test's
