"""Writing a whole file at once, and the one fsync rule every file write follows.

`replace_file` is the only way briscola replaces a file (seat stores, game.json,
settings, join codes, a transcript written whole). It writes to a temporary file
in the target's folder, created with O_EXCL and O_NOFOLLOW (never a file or
symlink someone planted there) and mode 0o600, writes everything, fsyncs it,
renames it over the target (`os.replace`: a symlink at the target is replaced,
not written through) and fsyncs the folder. On any error before the rename the
temporary file is removed and the old file is left as it was.

The fsync rule: data is fsynced before it is given a name (the rename, or the
return of an append), and a new name is made durable by fsyncing its folder;
a reader then sees the old or the new whole file, even after a machine crash.
Appends to a transcript (`storage.TranscriptFile`) are not replacements but
follow the same rule when they sync: the host's file fsyncs every entry before
it is relayed; a peer's copy and an offline table's (`sync_each` off: no entry
has left the process before it is written) are fsynced at the end.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from ..language import _
from .platform import BINARY, PRIVATE, set_mode

_FLAGS = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | PRIVATE | BINARY  # Windows: no newline translation
)
_TRIES = 100


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to the descriptor `fd` (os.write may take only part)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def fsync_folder(path: Path) -> None:
    """Make the name of the file `path` durable: fsync its folder (POSIX; elsewhere a no-op)."""
    if os.name != "posix":
        return
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temporary_name(path: Path) -> Path:
    """A fresh random name next to `path` for the file that will replace it."""
    return path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")


def _create_temporary(path: Path) -> tuple[int, Path]:
    """A new private file next to `path`: (descriptor, name). A name already taken,
    by a file or a symlink, is never opened: another random name is tried."""
    for _try in range(_TRIES):
        tmp = temporary_name(path)
        try:
            fd = os.open(tmp, _FLAGS, 0o600)
        except FileExistsError:
            continue
        return fd, tmp
    raise FileExistsError(_("no free temporary name next to {path}").format(path=path))


def replace_file(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Put `data` in `path` (mode 0o600, whatever the umask, or `mode`: a catalogue in the
    source tree is 0o644) in one rename, fsynced before and after (see the module docstring):
    a reader sees the old or the new whole file. On an error the old file is intact and no
    temporary file is left."""
    path = Path(path)
    fd, tmp = _create_temporary(path)
    try:
        try:
            set_mode(fd, mode)  # the umask may have taken bits away
            write_all(fd, data)  # unbuffered: nothing to flush but the kernel's
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_folder(path)


def move_aside(path: Path, to: Path) -> None:
    """Rename `path` to `to` in one step (a file kept for whoever wants to look at it, out of the
    way of the one written next), the folder fsynced: a crash leaves one of the two names."""
    os.replace(path, to)
    fsync_folder(to)
