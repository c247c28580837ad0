"""An error in words, as the product shows it: an operating system's without its number."""

from __future__ import annotations


def os_error_words(error: BaseException) -> str:
    """ "No space left on device" for an `OSError` that has its words, else the whole error
    (a `ValueError` from a file that is not what it should be, say)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
