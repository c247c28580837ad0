"""The ledger's own file: every verified table's facts, which file hashes were verified, and
the tables refused as forks.

It is `<data folder>/ledger/ledger.json`, replaced whole in one rename (`files.atomic`): a
reader, or a ledger opened after a kill -9 mid-write, finds the old or the new whole file.
Beside it, two caches written the same way (`load_cache`): the files refused before and each
file's size, time and hash when last read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..files.atomic import replace_file
from ..files.folders import subfolder
from ..language import _
from ..os_errors import os_error_words
from .facts import Table, table_from_json, table_to_json

FORMAT = "briscola-ledger"
VERSION = 1


class StoreError(ValueError):
    """The ledger's file cannot be read; it is left as it is."""


@dataclass
class State:
    """`tables` by table id; `files`: each verified file's hash -> the table id it holds;
    `forks`: the table ids whose copies disagree (each refused, as any later copy)."""

    tables: dict[str, Table] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    forks: set[str] = field(default_factory=set)


def default_path() -> Path:
    return subfolder("ledger") / "ledger.json"


def encode(state: State) -> bytes:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "tables": [table_to_json(t) for _id, t in sorted(state.tables.items())],
        "files": dict(sorted(state.files.items())),
        "forks": sorted(state.forks),
    }
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(raw: bytes) -> State:
    """The state in `raw`; ValueError (and its kin) if it is not a ledger file of this version."""
    data = json.loads(raw)
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError("not a ledger file of this version")
    tables = [table_from_json(t) for t in data["tables"]]
    files = data["files"]
    if not isinstance(files, dict):
        raise ValueError("files: expected an object")
    return State({t.table_id: t for t in tables}, {str(k): str(v) for k, v in files.items()}, set(data["forks"]))


def load(path: Path) -> State:
    """The ledger at `path` (an empty one if there is none yet); StoreError if it cannot be read."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return State()
    except OSError as error:
        raise StoreError(
            _("cannot read the ledger {path}: {why}").format(path=path, why=os_error_words(error))
        ) from None
    try:
        return decode(raw)
    except (ValueError, KeyError, TypeError):
        raise StoreError(
            _("{path} is not a ledger this version can read; it is left as it is").format(path=path)
        ) from None


def save(path: Path, state: State) -> None:
    """Replace the ledger's file with `state`, whole, in one rename."""
    replace_file(path, encode(state))


def load_cache(path: Path, name: str) -> dict:
    """A cache kept beside the ledger (`refused.json`: the files refused before, by hash;
    `seen.json`: each file's size, time and hash when last read). Not the ledger: one that
    cannot be read is empty, and the files are read again."""
    try:
        data = json.loads(path.with_name(name).read_bytes())
        if not isinstance(data, dict):
            return {}
        return {str(k): list(v) for k, v in data.items() if isinstance(v, list) and len(v) >= 2}
    except (OSError, ValueError):
        return {}


def save_cache(path: Path, name: str, data: dict) -> None:
    replace_file(path.with_name(name), json.dumps(dict(sorted(data.items())), ensure_ascii=False).encode("utf-8"))
