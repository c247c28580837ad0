"""The user's data folder: where it is, its private folders and files, its locks.

Light on purpose (no protocol, no `cryptography`): the home screen lists the
saved games from here without loading the protocol stack. Files are replaced
whole by `atomic.replace_file`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from pathlib import Path

import platformdirs

from ..language import _
from .platform import BINARY, PRIVATE, owned_by_another


class UnsafeFolder(OSError):
    """A data folder another user owns: briscola will not keep secrets in it."""


def private_folder(folder: Path) -> Path:
    """`folder`, made if missing (each new level mode 0o700, whatever the umask), and
    readable by this user only: an existing one that others may read or enter is made
    private with a warning on standard error; one another user owns, a symbolic link
    (never followed, nor its target changed) or a path that is not a folder, is refused
    (UnsafeFolder) with a message that says what to do."""
    _make_levels(folder)
    if os.name != "posix":
        _check_folder(folder, os.lstat(folder))
        return folder
    fd = _open_folder(folder)
    try:
        status = os.fstat(fd)
        _check_folder(folder, status)
        _make_private(fd, folder, status)
    finally:
        os.close(fd)
    return folder


def _make_levels(folder: Path) -> None:
    """Make the levels of `folder` that are missing (a link, even a dangling one, is there)."""
    missing = []
    probe = folder
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for level in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(level, 0o700)  # the umask can only take bits away from 0o700


def _open_folder(folder: Path) -> int:
    """A descriptor of `folder` itself, never of what a link there points to."""
    try:
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | PRIVATE)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            _check_folder(folder, os.lstat(folder))  # says which
        raise


def _check_folder(folder: Path, status: os.stat_result) -> None:
    """UnsafeFolder unless `status` is of a folder of this user's."""
    if stat.S_ISLNK(status.st_mode):
        raise link_refused(folder)
    if not stat.S_ISDIR(status.st_mode):
        raise UnsafeFolder(_("{folder} is not a folder (set BRISCOLA_HOME to a folder of yours)").format(folder=folder))
    if owned_by_another(status):
        raise UnsafeFolder(
            _(
                "{folder} belongs to another user; briscola keeps keys and secrets there "
                "(set BRISCOLA_HOME to a folder of yours)"
            ).format(folder=folder)
        )


def link_refused(path: Path) -> UnsafeFolder:
    """The error for a symbolic link where briscola expects a folder or file of its own."""
    return UnsafeFolder(
        _(
            "{path} is a symbolic link; briscola keeps keys and secrets only in folders and files of its own (remove the link)"
        ).format(path=path)
    )


def _make_private(fd: int, folder: Path, status: os.stat_result) -> None:
    """Take away every bit of the folder open at `fd` that lets others in, and say so once."""
    if not stat.S_IMODE(status.st_mode) & 0o077:
        return
    os.fchmod(fd, 0o700)
    if folder not in _WARNED:
        _WARNED.add(folder)
        with contextlib.suppress(OSError, ValueError):
            print(
                _("briscola: {folder} was open to other users (mode {mode}); made it private (700)").format(
                    folder=folder, mode=f"{stat.S_IMODE(status.st_mode):o}"
                ),
                file=sys.stderr,
            )


_WARNED: set[Path] = set()


def data_dir() -> Path:
    """Where briscola keeps a user's files: $BRISCOLA_HOME, else the user's data
    folder as the platform has it (on Linux $XDG_DATA_HOME or ~/.local/share,
    then briscola-tui). Made private (see `private_folder`)."""
    home = os.environ.get("BRISCOLA_HOME")
    folder = Path(home) if home else Path(platformdirs.user_data_dir("briscola-tui", appauthor=False))
    return private_folder(folder)


def subfolder(name: str) -> Path:
    """`<data folder>/<name>`, made private like the data folder."""
    return private_folder(data_dir() / name)


def own_file(path: Path) -> Path:
    """`path`, unless a symbolic link is there (UnsafeFolder): a file of ours is read
    only where it is, never through a link someone planted."""
    if os.path.islink(path):
        raise link_refused(path)
    return path


def read_own(path: Path) -> bytes:
    """The bytes of a file of ours, never read through a symbolic link at `path`
    (UnsafeFolder); FileNotFoundError if there is none."""
    try:
        fd = open_private(path, os.O_RDONLY | BINARY)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise link_refused(path) from None
        raise
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def open_private(path: Path, flags: int) -> int:
    """os.open of a file of ours (mode 0o600 if created) that refuses to follow a symlink
    at `path`: a link planted there would make us write or lock another file."""
    return os.open(path, flags | PRIVATE, 0o600)


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
    try:
        fd = open_private(path, os.O_RDWR | os.O_CREAT)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise UnsafeFolder(
                _("{path} is a symbolic link; briscola locks only a file of its own").format(path=path)
            ) from None
        raise
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
            _(
                "another briscola process is playing from {folder}; one seat per data "
                "folder (set BRISCOLA_HOME to another folder to take a second seat from this account)"
            ).format(folder=path.parent)
        ) from None
    _HELD[path] = fd
