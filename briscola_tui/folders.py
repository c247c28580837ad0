"""The user's data folder: where it is, its locks, and writing whole buffers.

Light on purpose (no protocol, no `cryptography`): the home screen lists the
saved games from here without loading the protocol stack.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to the descriptor `fd` (os.write may take only part)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def replace_file(path: Path, data: bytes) -> None:
    """Put `data` in `path` (mode 0o600) in one rename: a reader sees the old or the new
    whole file. One process writes a game's files (it holds the game's lock)."""
    tmp = path.with_name(f".{path.name}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def data_dir() -> Path:
    """Where briscola keeps a user's files: $BRISCOLA_HOME, else the user's data
    folder as the platform has it (on Linux $XDG_DATA_HOME or ~/.local/share,
    then briscola-tui). Created readable by the user only."""
    home = os.environ.get("BRISCOLA_HOME")
    folder = Path(home) if home else Path(platformdirs.user_data_dir("briscola-tui", appauthor=False))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


_HELD: dict[Path, int] = {}
"""Lock files this process holds (their descriptors stay open until it exits)."""


class InUse(RuntimeError):
    """Another process holds this data folder's lock."""


def hold_lock(name: str) -> None:
    """Hold `<data folder>/<name>.lock` for the life of this process; InUse if another
    process holds it. The operating system lets go of it when the process ends, however
    it ends (a killed process leaves no stale lock)."""
    path = data_dir() / f"{name}.lock"
    if path in _HELD:
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        import fcntl
    except ImportError:  # no flock (Windows): nothing to hold
        os.close(fd)
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise InUse(
            f"another briscola process is playing from {path.parent}; one seat per data "
            f"folder (set BRISCOLA_HOME to another folder to take a second seat from this account)"
        ) from None
    _HELD[path] = fd
