"""tmux, for the tests that play in a real terminal (tests/test_tui_tmux.py,
test_offline_resume.py).

Each test process (each pytest-xdist worker) talks to a tmux server of its own, on a
socket in a temporary folder (`tmux -S`), started with the test's temporary HOME
(tests/conftest.py): never the user's server or their ~/.tmux.conf. The server and
its folder go when the process ends. The sessions are named after the worker and a
random part."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import time
import uuid

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
_folder: str | None = None


def socket() -> str:
    """This process's tmux socket (its folder made, and its clean-up registered, on first use)."""
    global _folder
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix=f"briscola-tests-tmux-{WORKER}-")
        atexit.register(_remove, _folder)
    return os.path.join(_folder, "socket")


def _remove(folder: str) -> None:
    subprocess.run(["tmux", "-S", os.path.join(folder, "socket"), "kill-server"], capture_output=True, timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


def tmux(*args, check=True) -> str:
    return subprocess.run(
        ["tmux", "-S", socket(), *args], capture_output=True, text=True, timeout=10, check=check
    ).stdout


def session_name(prefix: str) -> str:
    """A session name no other test, worker or run uses."""
    return f"{prefix}-{WORKER}-{uuid.uuid4().hex[:8]}"


def capture(name: str) -> str:
    """What the session's pane shows now."""
    return tmux("capture-pane", "-p", "-t", name, check=False)


def play_cards_until(name: str, text: str, end: float) -> str:
    """Play the first card (1, Enter) at each "Play a card" until the pane shows `text` or the
    deadline `end` (time.monotonic) passes; the pane as last seen. The pane is read every 0.1 s,
    and after each card only once it has changed (the card gone down; again after 2 s without a
    change), so that a card is never asked for twice on a pane not yet redrawn."""
    screen = capture(name)
    while text not in screen and time.monotonic() < end:
        if "Play a card" in screen:
            tmux("send-keys", "-t", name, "1", "Enter")
            asked, again = screen, min(end, time.monotonic() + 2)
            while screen == asked and time.monotonic() < again:
                time.sleep(0.05)
                screen = capture(name)
            continue
        time.sleep(0.1)
        screen = capture(name)
    return screen
