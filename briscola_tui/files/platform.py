"""What POSIX and Windows differ in when this package opens a file: the flags, and
the calls only POSIX has."""

from __future__ import annotations

import os
import sys

if sys.platform == "win32":
    PRIVATE = 0  # (no symlink to refuse the way O_NOFOLLOW does, no fork to leak into)
    BINARY = os.O_BINARY  # no newline translation
else:
    PRIVATE = os.O_NOFOLLOW | os.O_CLOEXEC  # never through a symlink planted at the path; not inherited
    BINARY = 0


def set_mode(fd: int, mode: int) -> None:
    """The file's permission bits, whatever the umask took away (POSIX; Windows has none to set)."""
    if sys.platform != "win32":
        os.fchmod(fd, mode)


def owned_by_another(status: os.stat_result) -> bool:
    """The file or folder `status` describes belongs to another user (never so on Windows)."""
    if sys.platform == "win32":
        return False
    return status.st_uid != os.getuid()
