"""tmux, for the tests that play in a real terminal (tests/test_tui_tmux.py,
test_offline_resume.py).

Each test process (each pytest-xdist worker) talks to a tmux server of its own
(`tmux -L`), started with the test's temporary HOME (tests/conftest.py): never
the user's server or their ~/.tmux.conf; it ends with the last session. The
sessions are named after the worker and a random part."""

from __future__ import annotations

import os
import subprocess
import uuid

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
SOCKET = f"briscola-tests-{WORKER}-{os.getpid()}"


def tmux(*args, check=True) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=10, check=check).stdout


def session_name(prefix: str) -> str:
    """A session name no other test, worker or run uses."""
    return f"{prefix}-{WORKER}-{uuid.uuid4().hex[:8]}"
