"""This data folder's identity key (`identity.key`): the person who plays from it.

It certifies the person's seat at every table, and every computer seat the person runs
("normal, run by Ada"); the club ledger reads it as "me" (docs/user-guide.md, "The club
ledger").
"""

from __future__ import annotations

from pathlib import Path

from protocol.identity import Identity, KeyFileError

from ..language import _
from .folders import data_dir, own_file


def identity_path() -> Path:
    return data_dir() / "identity.key"


class NotAKey(OSError):
    """The identity key's file is there but holds no key; its words name the file."""


def own_identity() -> Identity:
    """The data folder's identity key, made the first time it is asked for (OSError if it
    cannot be read or written, NotAKey if the file holds no key: said in one line)."""
    try:
        return Identity.load_or_create(own_file(identity_path()))
    except KeyFileError as error:
        raise NotAKey(_("{why}; the file is left as it is").format(why=error)) from None


def known_identity() -> bytes | None:
    """The public half of the data folder's identity key; None if there is none yet (or it
    cannot be read): nothing is made."""
    path = identity_path()
    try:
        return Identity.load(own_file(path)).public_bytes if path.exists() else None
    except (OSError, KeyFileError):
        return None
