"""A file read only if it is a regular file, and never waited on.

A FIFO, a device or a folder can come out of a friend's archive, or sit where the ledger's own
file should be: opening one for reading may block for ever (a FIFO with no writer) or read
without end (a device). So the file is opened without blocking, and `fstat` on the open
descriptor says what it is before a byte is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO


class NotRegular(OSError):
    """The path is not a regular file (a FIFO, a device, a socket, a folder)."""


class TooLarge(OSError):
    """The file is larger than the reader takes; `size` is its size in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def open_regular(path: Path) -> BinaryIO:
    """The regular file at `path` open for reading; NotRegular (nothing waited on), or the
    OSError of opening it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
    stream = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        stream.close()
        raise NotRegular(path)
    return stream


def read_regular(path: Path, most: int | None = None) -> bytes:
    """The bytes of the regular file at `path` (at most `most`); NotRegular, TooLarge, or the
    OSError of opening or reading it."""
    with open_regular(path) as stream:
        status = os.fstat(stream.fileno())
        if most is not None and status.st_size > most:
            raise TooLarge(status.st_size)
        data = stream.read() if most is None else stream.read(most + 1)
    if most is not None and len(data) > most:
        raise TooLarge(len(data))
    return data
