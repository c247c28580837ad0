"""tmux, for the tests that play in a real terminal (tests/test_tui_tmux.py,
test_offline_resume.py)."""

from __future__ import annotations

import subprocess


def tmux(*args, check=True) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=10, check=check).stdout
