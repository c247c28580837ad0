"""An error in words: `os_errors.os_error_words`."""

import errno

from briscola_tui.os_errors import os_error_words


def test_an_os_error_is_said_by_its_words_without_its_number():
    error = OSError(errno.ENOSPC, "No space left on device", "/tmp/x")
    assert os_error_words(error) == "No space left on device"


def test_an_error_without_words_of_the_system_is_said_whole():
    assert os_error_words(OSError("no such table")) == "no such table"
    assert os_error_words(ValueError("not a transcript")) == "not a transcript"
