"""A user's folders in a temporary folder: what tests/conftest.py gives every test
(and the module-scoped fixtures that start processes give themselves), so that no
test reads or writes the real user's settings, data, caches or runtime files."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

REAL_HOMES = frozenset(
    str(Path(home).resolve()) for home in (os.environ.get("HOME"), pwd.getpwuid(os.getuid()).pw_dir) if home
)
"""The user's own home folder: $HOME as the test run started, and the account's (read
when this module is first imported, before any fixture has moved HOME)."""

VARIABLES = (
    "HOME",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
    "XDG_RUNTIME_DIR",
    "BRISCOLA_HOME",
)


def layout(folder: Path) -> dict[str, Path]:
    """Each variable of VARIABLES, inside `folder` (where a freshly made account has them)."""
    return {
        "HOME": folder,
        "XDG_DATA_HOME": folder / ".local" / "share",
        "XDG_CONFIG_HOME": folder / ".config",
        "XDG_STATE_HOME": folder / ".local" / "state",
        "XDG_CACHE_HOME": folder / ".cache",
        "XDG_RUNTIME_DIR": folder / "run",
        "BRISCOLA_HOME": folder / "briscola",
    }


def point_home_at(monkeypatch: pytest.MonkeyPatch, folder: Path) -> dict[str, Path]:
    """Set every variable of VARIABLES to its place in `folder` (undone with `monkeypatch`);
    processes started meanwhile inherit them. The runtime folder exists, mode 0o700, as
    the XDG specification asks; the others are made by whoever writes to them."""
    places = layout(folder)
    places["XDG_RUNTIME_DIR"].mkdir(mode=0o700, parents=True, exist_ok=True)
    for name, place in places.items():
        monkeypatch.setenv(name, str(place))
    monkeypatch.setenv("LANGUAGE", "en")  # the words the tests expect, whatever the machine's locale
    return places


def terminal_env() -> str:
    """The variables of VARIABLES as they are now, as `NAME=value ...` for an `env` command
    line (a tmux pane starts from the tmux server's environment, not the test's)."""
    return " ".join(f"{name}={os.environ[name]}" for name in (*VARIABLES, "LANGUAGE") if name in os.environ)
