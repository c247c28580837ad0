"""The tables `briscola host` serves, kept as they go, so that the same command run again
(after the host was killed, its terminal lost, the machine restarted) takes its table up
again: the same table, the same join code, the same port when it is free.

In the user's data folder, `hosted/COMMAND.json` (mode 0o600) for each command: COMMAND
names the options that make the table (`command_key`: game, players, hands, port, address,
computer players, rules, and whether the join code was given, generated or none), and the
file holds the table's id, its transcript, the port it last listened on and the command
that takes it up by its transcript. The join code itself is never in it: the host keeps
each table's code in `codes/TABLE.code` (mode 0o600). A record goes once its table is over
(a finished table is not taken up again), and `--new` replaces it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from ..options import HostOptions
from . import atomic, folders

RECORD_VERSION = 1


def code_kind(options: HostOptions) -> str:
    """How the command gives the join code: "open" (none), "given" (--code) or "generated"."""
    if options.open:
        return "open"
    return "given" if options.code else "generated"


def command_key(options: HostOptions) -> str:
    """What makes two `briscola host` commands the same table's, as a file name: the options
    that shape the table (not the join code's value, nor --name, --headless or --ascii)."""
    words = {
        "game": options.game,
        "players": options.players,
        "hands": options.hands,
        "port": options.port,
        "bind": options.bind,
        "code": code_kind(options),
        "bots": options.bots,
        "level": options.level,
        "bots_replace": options.bots_replace,
        "coach": options.coach,
        "time_limit": options.time_limit,
        "option": sorted([str(name), repr(value)] for name, value in options.option),
    }
    return hashlib.sha256(json.dumps(words, sort_keys=True).encode()).hexdigest()[:24]


@dataclass(frozen=True)
class HostedTable:
    """One command's unfinished table."""

    key: str
    """`command_key` of the command that hosts it."""
    table: str
    """The table's id, in hex."""
    transcript: str
    port: int
    """The port it last listened on (0: not yet listening)."""
    game: str
    players: int
    again: str
    """The `briscola host --transcript ...` command that takes it up (no code in it)."""

    @property
    def path(self) -> Path:
        return record_path(self.key)

    def listening(self, port: int, again: str) -> HostedTable:
        """The same table, listening on `port` now, taken up by `again` (saved)."""
        record = HostedTable(**{**asdict(self), "port": port, "again": again})
        record.save()
        return record

    def save(self) -> None:
        data = {"version": RECORD_VERSION, **asdict(self)}
        atomic.replace_file(record_path(self.key), json.dumps(data).encode())


def record_path(key: str) -> Path:
    return folders.subfolder("hosted") / f"{key}.json"


def _read(path: Path) -> HostedTable | None:
    """The record at `path`, or None for one that is missing, unreadable or not this version's."""
    try:
        data = json.loads(folders.read_own(path).decode())
        if not isinstance(data, dict) or data.pop("version", None) != RECORD_VERSION:
            return None
        return HostedTable(**data)
    except (OSError, ValueError, TypeError):
        return None


def kept(options: HostOptions) -> HostedTable | None:
    """The unfinished table of this command, if one is kept."""
    return _read(record_path(command_key(options)))


def others(options: HostOptions) -> list[HostedTable]:
    """The unfinished tables other commands host from this data folder (at most three, newest first)."""
    mine = command_key(options)
    paths = sorted(folders.subfolder("hosted").glob("*.json"), key=_changed, reverse=True)
    found = [_read(p) for p in paths if p.stem != mine and not p.is_symlink()]
    return [record for record in found if record is not None][:3]


def _changed(path: Path) -> float:
    """When the record at `path` last changed (0 for one gone meanwhile)."""
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return 0.0


def forget(table: bytes) -> None:
    """Table `table` is over (or given up): no command takes it up again."""
    for path in folders.subfolder("hosted").glob("*.json"):
        record = _read(path)
        if record is not None and record.table == table.hex():
            path.unlink(missing_ok=True)
