"""Many transcripts verified at once: each file's replay is pure CPU work on its bytes
(`check.check`), so a batch is shared among the machine's cores (a process each) rather than
done one after the other. Below PARALLEL_FROM files, or where processes cannot be made, the
files are checked here, in order. Each worker speaks the caller's language (a refusal is
said in words)."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from .. import language
from .check import Refused, check
from .facts import Table

PARALLEL_FROM = 16
"""Files in a batch from which the cores share the work (a worker takes a moment to start)."""
CHUNK = 8
"""Files a worker is given at a time."""

Checked = Table | Refused
"""A file's table, or why it is refused."""


def checked_all(files: list[tuple[bytes, float]]) -> list[Checked]:
    """Each (bytes, written) checked, in the order given: its table, or the Refused it raised."""
    cores = os.cpu_count() or 1
    if len(files) < PARALLEL_FROM or cores < 2:
        return [_checked(item) for item in files]
    # (forkserver: a clean process each, whatever threads the caller runs, as the app does)
    context = multiprocessing.get_context(
        "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    )
    try:
        with ProcessPoolExecutor(cores, mp_context=context, initializer=_speak, initargs=(language.current(),)) as pool:
            return list(pool.map(_checked, files, chunksize=CHUNK))
    except (OSError, RuntimeError):  # (no processes here: one after the other)
        return [_checked(item) for item in files]


def _checked(item: tuple[bytes, float]) -> Checked:
    data, written = item
    try:
        return check(data, written)
    except Refused as why:
        return why


def _speak(code: str) -> None:
    language.choose(code)
