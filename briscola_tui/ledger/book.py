"""The club ledger: verified tables in, ratings and statistics out.

`Ledger.add` takes transcript files (this machine's, or any a friend sends): each is read
(bounded), hashed, and verified once (a hash already verified is not again, and a file whose
size and time are as when it was last read is not read again); a table is kept
once however many copies arrive; copies of one table that disagree are a fork, and the table
is refused with every copy. A file that does not verify is refused, named with the reason,
and changes nothing. The store is written once per `add`, whole (store.py).

`Ledger.book` rebuilds the ratings and the people from the kept tables alone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from protocol.identity import fingerprint

from ..files.folders import data_dir
from ..language import _
from . import store
from .check import Refused, Unfinished, check, file_hash, read_bounded
from .facts import Hand, Table, played
from .ratings import Ratings, rate

LOCAL_FOLDERS = ("transcripts",)
"""Where this machine's transcripts are, under the data folder (the host's, each seat's copy,
the offline tables')."""


@dataclass
class Added:
    """What an `add` did: files verified now, tables new, copies already kept, files refused
    (path, why), the tables refused as forks now, and the transcripts of tables not ended yet
    passed over (`add(quiet=True)`)."""

    verified: int = 0
    tables: int = 0
    copies: int = 0
    refused: list[tuple[Path, str]] = field(default_factory=list)
    forks: list[str] = field(default_factory=list)
    unfinished: list[Path] = field(default_factory=list)  # (only when asked to pass over them quietly)


@dataclass(frozen=True)
class Person:
    """A player: an identity key (hex), every name it was seen under (latest first), and the
    level when it is a computer player's."""

    key: str
    names: tuple[str, ...]
    level: str = ""

    @property
    def fingerprint(self) -> str:
        """The first 8 characters of the key's fingerprint (`briscola verify` shows 16)."""
        return fingerprint(bytes.fromhex(self.key))[:8]

    @property
    def label(self) -> str:
        if self.level:
            return self.level
        return " / ".join(self.names) if self.names else self.key[:8]


@dataclass
class Book:
    """The ledger rebuilt: tables in the order played, every hand with its table, the people
    and the ratings."""

    tables: list[Table]
    hands: list[tuple[Table, Hand]]
    persons: dict[str, Person]
    ratings: Ratings


class Ledger:
    """The ledger kept at `path` (the data folder's by default)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state = store.load(path)
        self.refusals: dict[str, tuple[bool, str]] = {
            k: (bool(v[0]), str(v[1])) for k, v in store.load_cache(path, "refused.json").items()
        }
        self.seen: dict[str, list] = store.load_cache(path, "seen.json")  # path -> [size, mtime_ns, hash]

    @classmethod
    def open(cls, path: Path | None = None) -> Ledger:
        return cls(path or store.default_path())

    def local_files(self) -> list[Path]:
        """This machine's transcripts."""
        root = data_dir()
        return sorted(p for name in LOCAL_FOLDERS for p in (root / name).glob("*") if p.is_file())

    def add(self, paths: list[Path], quiet: bool = False) -> Added:
        """Verify and keep each file's table (see the module doc); the store written once.
        `quiet`: a table not ended yet is passed over, not refused (this machine's own)."""
        added, state, refusals, seen = Added(), self.state, len(self.refusals), dict(self.seen)
        before = (len(state.files), len(state.forks), sum(t.time for t in state.tables.values()))
        for path in paths:
            try:
                self._add_one(Path(path), added)
            except Unfinished as why:
                if quiet:
                    added.unfinished.append(Path(path))
                else:
                    added.refused.append((Path(path), str(why)))
            except Refused as why:
                added.refused.append((Path(path), str(why)))
        if (len(state.files), len(state.forks), sum(t.time for t in state.tables.values())) != before:
            store.save(self.path, state)  # (every change adds a file's hash, a fork, or an earlier copy's time)
        if len(self.refusals) != refusals:
            store.save_cache(self.path, "refused.json", {k: list(v) for k, v in self.refusals.items()})
        if self.seen != seen:
            store.save_cache(self.path, "seen.json", self.seen)
        return added

    def _digest(self, path: Path) -> tuple[str, bytes | None]:
        """The file's hash and bytes; only its hash (nothing read) when its size and time are as
        when it was last read and that hash is already known (`seen`)."""
        try:
            status = os.stat(path)
            stamp: list | None = [status.st_size, status.st_mtime_ns]
        except OSError:
            stamp = None
        key = str(path.absolute())
        cached = self.seen.get(key)
        if stamp and cached and len(cached) == 3 and cached[:2] == stamp and self._verified(cached[2]):
            return cached[2], None
        data = read_bounded(path)
        digest = file_hash(data)
        if stamp:
            self.seen[key] = [*stamp, digest]
        return digest, data

    def _verified(self, digest) -> bool:
        return digest in self.state.files or digest in self.refusals

    def _known(self, digest: str, added: Added) -> bool:
        """A file verified before: True for a copy of a kept table; Refused as it was before."""
        state = self.state
        known = state.files.get(digest)
        if known is not None:
            if known in state.forks:
                raise Refused(_("a copy of table {id}, whose copies disagree (a fork)").format(id=known))
            added.copies += 1
            return True
        if digest in self.refusals:  # refused before: verified once, as any file
            unfinished, why = self.refusals[digest]
            raise (Unfinished if unfinished else Refused)(why)
        return False

    def _add_one(self, path: Path, added: Added) -> None:
        digest, data = self._digest(path)
        if self._known(digest, added):
            return
        assert data is not None  # (a hash not read again is a known one)
        state = self.state
        try:
            table = check(data, _written(path))
        except Refused as why:
            self.refusals[digest] = (isinstance(why, Unfinished), str(why))
            raise
        added.verified += 1
        if table.table_id in state.forks:
            state.files[digest] = table.table_id
            raise Refused(_("a copy of table {id}, whose copies disagree (a fork)").format(id=table.table_id))
        kept = state.tables.get(table.table_id)
        state.files[digest] = table.table_id
        if kept is None:
            state.tables[table.table_id] = table
            added.tables += 1
        elif kept.head == table.head:
            if table.time < kept.time:  # the earliest copy says when it was played
                state.tables[table.table_id] = table
            added.copies += 1
        else:
            del state.tables[table.table_id]
            state.forks.add(table.table_id)
            added.forks.append(table.table_id)
            raise Refused(
                _("disagrees with another copy of table {id} (a fork): both are refused").format(id=table.table_id)
            )

    def book(self, game: str | None = None, since: float | None = None, until: float | None = None) -> Book:
        """Everything rebuilt from the kept tables; `game`, `since`, `until` keep only those
        tables (ratings then count only their hands)."""
        tables = sorted(self.state.tables.values(), key=lambda t: (t.time, t.table_id))
        tables = [t for t in tables if _kept(t, game, since, until)]
        hands = [(t, h) for t in tables for h in t.hands]
        return Book(tables, hands, persons(hands), rate(hands))

    rebuild = book


def _kept(table: Table, game: str | None, since: float | None, until: float | None) -> bool:
    return played(table, game) and (since is None or table.time >= since) and (until is None or table.time < until)


def _written(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:  # (read a moment ago)
        return 0.0


def persons(hands: list[tuple[Table, Hand]]) -> dict[str, Person]:
    """Everyone who sat at these hands, with every name seen for each key (latest first)."""
    names: dict[str, list[str]] = {}
    levels: dict[str, str] = {}
    for _table, hand in hands:
        for seat in hand.seats:
            seen = names.setdefault(seat.person, [])
            if seat.name in seen:
                seen.remove(seat.name)
            seen.insert(0, seat.name)
            if seat.level:
                levels[seat.person] = seat.level
    return {key: Person(key, tuple(seen), levels.get(key, "")) for key, seen in names.items()}
