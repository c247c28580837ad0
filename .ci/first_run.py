"""CI's first step: the README's first command, exactly as written, as a new user runs it.

It reads the first ```sh block of README.md (the install-and-run command), runs it
with bash in a real terminal (a tmux session at 80x24, TERM=xterm-256color), waits
for the home screen, presses ctrl+q and requires exit status 0. Then it checks that
the non-editable install holds every file of the source packages (a stylesheet left
out of the package data fails here, even one the home screen does not read).

    python3 .ci/first_run.py          # from the repository's root; exit 0 when all is well

Every wait has a deadline, and the tmux session is killed on the way out.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("briscola_tui", "engine", "protocol")
HOME_SCREEN = "Dealt by mental poker"  # the line under the home screen's title
INSTALL_SECONDS = 600  # a fresh venv and every dependency from the package index
QUIT_SECONDS = 20


def readme_command(number: int) -> str:
    """The README's Nth ```sh block (0: install and run the game)."""
    blocks = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    return blocks[number].strip()


def tmux(*args: str, check: bool = True) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=10, check=check).stdout


def fail(what: str, screen: str) -> None:
    print(f"first run: {what}; the terminal showed:\n{screen}", file=sys.stderr)
    sys.exit(1)


def run_in_terminal(command: str, scratch: Path) -> None:
    """Run `command` in tmux at 80x24 until the home screen shows, quit with ctrl+q."""
    name = f"briscola-ci-{uuid.uuid4().hex[:8]}"
    status = scratch / "status"
    home = scratch / "home"  # no settings or games of anyone's
    home.mkdir()
    shell = f"cd {shlex.quote(str(ROOT))} && {command}; echo $? > {shlex.quote(str(status))}; sleep 60"
    env = f"TERM=xterm-256color LANG=C.UTF-8 HOME={shlex.quote(str(home))}"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", f"env {env} bash -c {shlex.quote(shell)}")
    try:
        screen = wait_for_screen(name, HOME_SCREEN, INSTALL_SECONDS, status)
        print(f"first run: the home screen is up at 80x24:\n{screen}")
        tmux("send-keys", "-t", name, "C-q")
        end = time.monotonic() + QUIT_SECONDS
        while not status.exists() or not status.read_text().strip():
            if time.monotonic() > end:
                fail(f"ctrl+q did not end the program within {QUIT_SECONDS} s", capture(name))
            time.sleep(0.2)
        code = status.read_text().strip()
        if code != "0":
            fail(f"the command exited {code}", capture(name))
    finally:
        tmux("kill-session", "-t", name, check=False)


def capture(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name, check=False)


def wait_for_screen(name: str, text: str, seconds: float, status: Path) -> str:
    end = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < end:
        screen = capture(name)
        if text in screen:
            time.sleep(0.5)  # the first frame is drawn; let it settle
            return capture(name)
        if status.exists():
            fail(f"the command ended (status {status.read_text().strip()}) before the home screen", screen)
        time.sleep(0.5)
    fail(f"no home screen within {seconds:.0f} s", screen)
    return screen


def installed_files_missing() -> list[str]:
    """Source files of the packages that the venv's non-editable install lacks."""
    python = ROOT / ".venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import briscola_tui, os; print(os.path.dirname(os.path.dirname(briscola_tui.__file__)))"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
        cwd="/",  # not the source tree: the installed package
    ).stdout.strip()
    if Path(site).resolve() == ROOT:
        return ["(the venv imports briscola_tui from the source tree: not a non-editable install)"]
    missing = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.is_dir() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            relative = path.relative_to(ROOT)
            if not (Path(site) / relative).is_file():
                missing.append(str(relative))
    return missing


def main() -> int:
    command = readme_command(0)
    print(f"first run: {command}")
    with tempfile.TemporaryDirectory() as scratch:
        run_in_terminal(command, Path(scratch))
    missing = installed_files_missing()
    if missing:
        print("first run: the installed package lacks " + ", ".join(missing), file=sys.stderr)
        return 1
    print("first run: the home screen showed, ctrl+q exited 0, and the install holds every package file")
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
