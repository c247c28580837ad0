"""An error in words, as the product shows it: an operating system's without its number, in
the current language for the errors a player meets (a file not found, a port in use, a host
that does not answer); another as the system says it."""

from __future__ import annotations

import errno

from .language import N_, _

ERRNO_WORDS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    errno.ECONNREFUSED: N_("Connection refused"),
    errno.ECONNRESET: N_("Connection reset by peer"),
    errno.ETIMEDOUT: N_("Connection timed out"),
    errno.EHOSTUNREACH: N_("No route to host"),
    errno.ENETUNREACH: N_("Network is unreachable"),
    errno.EPIPE: N_("Broken pipe"),
}
"""The system's errors a player meets most, in words (the system's own are in its locale's
language, which a program that never sets its locale reads as English)."""


def os_error_words(error: BaseException) -> str:
    """ "No space left on device" for an `OSError` that has its words, else the whole error
    (a `ValueError` from a file that is not what it should be, say)."""
    if isinstance(error, OSError) and error.errno in ERRNO_WORDS:
        return _(ERRNO_WORDS[error.errno])
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
