"""What a host keeps of each table it serves, apart from its transcript: the table key,
whose fingerprint is the table's id (protocol/tableid.py), and the join code, so that a
restarted host speaks for the same table and takes the same code. Each in a file only its
user can read (`tables/TABLE-host.key`, `codes/TABLE.code`), never in the transcript, a
record or a log; never read through a link someone planted."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from protocol.identity import Identity
from protocol.tableid import table_id_of

from . import atomic
from .folders import data_dir, open_private, own_file, subfolder


def _code_path(table_id: bytes) -> Path:
    return subfolder("codes") / f"{table_id.hex()}.code"


def saved_code(table_id: bytes) -> str | None:
    """The join code kept for table `table_id` (None: none kept)."""
    path = _code_path(table_id)
    try:
        fd = open_private(path, os.O_RDONLY)  # not through a planted symlink: that is no code of ours
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ELOOP):
            return None
        raise
    with os.fdopen(fd) as handle:
        return handle.read(256).strip() or None


def save_code(table_id: bytes, code: str) -> None:
    """Keep table `table_id`'s join code (in a file only its user can read)."""
    atomic.replace_file(_code_path(table_id), code.encode())


def _key_path(table_id: bytes) -> Path:
    return own_file(subfolder("tables") / f"{table_id.hex()}-host.key")


def new_table_key() -> Identity:
    """A new table key, kept under the id it makes: nobody without it can speak for the table."""
    identity = Identity.generate()
    identity.save(_key_path(table_id_of(identity.public_bytes)))
    return identity


def table_key(table_id: bytes) -> Identity:
    """The key table `table_id` was hosted with: its own, or for a table opened before ids
    were derived from keys, this data folder's one host key of those days (`host.key`)."""
    path = _key_path(table_id)
    if path.exists():
        return Identity.load(path)
    return Identity.load_or_create(own_file(data_dir() / "host.key"))
