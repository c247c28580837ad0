"""The club ledger: verified tables in, ratings and statistics out.

`Ledger.add` takes transcript files (this machine's, or any a friend sends): each is read
(bounded, regular files only), hashed, and verified once (a hash already verified is not
again, and a file whose size and time are as when it was last read is not read again). A
table is the pair (table id, host key), kept once however many copies arrive. Two copies of
one pair that disagree are a fork, a proof that the host key signed two histories: the table
is refused with every copy, and the key named. A copy of a table whose id its host key makes
(protocol/tableid.py) under another key is not that table: it is refused, whichever arrived
first, and changes nothing. A file that does not verify is refused, named with the reason, and
changes nothing. An `add` holds the ledger's lock from reading the store to writing it
(store.py), so adds at once are merged, one after the other.

`Ledger.book` rebuilds the ratings and the people from the kept tables alone, rating only the
hands of the reader's roster (roster.py).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from protocol.identity import fingerprint

from ..files.folders import data_dir
from ..files.identity import known_identity
from ..language import N_, _
from ..wording import count
from . import store
from .check import Refused, Unfinished, file_hash, game_of, read_bounded
from .facts import Hand, Table, asked, id_is_key, played
from .ratings import Ratings, rate
from .roster import Roster, left_out, not_rated, roster_of
from .store import Pair, Refusal, Stamp
from .verifying import Checked, checked_all


@dataclass(frozen=True)
class Read:
    """A file as `add` read it: its hash and its bytes (None: a hash verified before), or why it is refused unread."""

    path: Path
    digest: str = ""
    data: bytes | None = None
    refused: Refused | None = None


OLDER = N_("the ledger was written by an older version: rebuilt from the {transcripts} it was read from")
DAMAGED = N_("{path} was damaged (kept as {aside}): rebuilt from the {transcripts} the ledger keeps")
MISSING = N_("{path} was missing: rebuilt from the {transcripts} the ledger keeps")
"""What the ledger says when it rebuilds its file (`Ledger.notices`)."""

LOCAL_FOLDERS = ("transcripts",)
"""Where this machine's transcripts are, under the data folder (the host's, each seat's copy,
the offline tables')."""


@dataclass(frozen=True)
class Fork:
    """A table whose host key signed two different histories: its id, and the key's fingerprint."""

    table_id: str
    host: str


@dataclass
class Added:
    """What an `add` did: files verified now, tables new, copies already kept, files refused
    (path, why), the forks found now, the tables dropped now as not the table whose id they
    copied (a line each), and the transcripts of tables not ended yet passed over
    (`add(quiet=True)`)."""

    verified: int = 0
    tables: int = 0
    copies: int = 0
    refused: list[tuple[Path, str]] = field(default_factory=list)
    forks: list[Fork] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
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


@dataclass(frozen=True)
class Unrated:
    """Hands of a game family left out of the ratings, and why (in English: translate where shown)."""

    family: str
    reason: str
    hands: int


@dataclass
class Book:
    """The ledger rebuilt: tables in the order played, every hand with its table, the people,
    the ratings, the roster, the roster's hands (everyone at them in it: what the ratings and
    the league's figures count), the hands left out of the ratings, by reason (every hand of a
    game is rated or left out for one reason), and this machine's tables not ended yet, by game
    (not in the ledger until they end)."""

    tables: list[Table]
    hands: list[tuple[Table, Hand]]
    persons: dict[str, Person]
    ratings: Ratings
    roster: Roster
    counted: list[tuple[Table, Hand]] = field(default_factory=list)
    unrated: tuple[Unrated, ...] = ()
    unended: dict[str, int] = field(default_factory=dict)  # game -> this machine's tables not ended yet


class TrustError(ValueError):
    """A fingerprint that names nobody, or more than one key; the message says which."""


class Ledger:
    """The ledger kept at `path` (the data folder's by default), read as `me` (the hex of an
    identity key; by default this data folder's, "" when it has none). `notices`: lines to show
    once (a ledger file rebuilt, the trusted list damaged). `unended`: after an `add(quiet=True)`,
    the tables it passed over as not ended yet, by game."""

    def __init__(self, path: Path, me: str | None = None) -> None:
        self.path = path
        self.me = me if me is not None else (known_identity() or b"").hex()
        self.notices: list[str] = []
        self.unended: Counter[str] = Counter()  # by game: this machine's tables passed over as not ended yet
        with store.writing(path):
            self.state = self._load()
            self.stamp = store.stamp(path)  # the file as read: an `add` reads it again only if it changed
            self.trusted, damaged = store.load_trusted(path)
        if damaged:
            self.notices.append(damaged)

    @classmethod
    def open(cls, path: Path | None = None) -> Ledger:
        return cls(path or store.default_path())

    def local_files(self) -> list[Path]:
        """This machine's transcripts."""
        root = data_dir()
        return sorted(p for name in LOCAL_FOLDERS for p in (root / name).glob("*") if p.is_file())

    # --- reading the store (under its lock) ----------------------------------------------------

    def _load(self) -> store.State:
        """The store as it is now; rebuilt, with a line in `notices`, if it is damaged, missing
        beside its copies, or of an older version."""
        path = self.path
        try:
            state = store.load(path)
        except store.Older:
            self._rebuild(store.old_paths(path), OLDER)
            store.drop_old_caches(path)
            return self.state
        except store.Damaged:
            aside = store.put_aside(path)
            self._rebuild([], DAMAGED, aside=aside.name)
            return self.state
        if not path.exists() and store.kept_copies(path):
            self._rebuild([], MISSING)
            return self.state
        return state

    def _rebuild(self, more: list[Path], words: str, **fields: str) -> None:
        """The store made again from the copies it keeps (and `more` files) and written, and
        `words` said about it (with `path`, `transcripts` and `fields`)."""
        self.state = store.State()
        paths = [*store.kept_copies(self.path), *more]
        self._take(paths, quiet=True)
        store.save(self.path, self.state)
        transcripts = count(len(paths), "transcript")
        self.notices.append(_(words).format(path=self.path, transcripts=transcripts, **fields))

    # --- adding files ---------------------------------------------------------------------------

    def add(self, paths: list[Path], quiet: bool = False) -> Added:
        """Verify and keep each file's table (see the module doc); the store read again and
        written once, under its lock. `quiet`: a table not ended yet is passed over, not
        refused (this machine's own)."""
        with store.writing(self.path):
            if store.stamp(self.path) != self.stamp:  # another writer since (decoding is slow: thousands of tables)
                self.state = self._load()
            before = self.state.copy()  # (encoding a ledger of thousands of tables takes half a second)
            added = self._take([Path(p) for p in paths], quiet)
            if self.state != before:
                store.save(self.path, self.state)
            self.stamp = store.stamp(self.path)
        if quiet:
            self.unended = Counter(game for game in map(game_of, added.unfinished) if game)
        return added

    def _take(self, paths: list[Path], quiet: bool) -> Added:
        """Each file's hash first, then every file not verified before checked at once (the
        cores share them: verifying.py), then each kept or refused in the order given."""
        added = Added()
        read = [self._read(path) for path in paths]
        new = {
            r.digest: (r.data, _written(r.path)) for r in read if r.data is not None and not self._verified(r.digest)
        }
        checked = dict(zip(new, checked_all(list(new.values()))))
        for r in read:
            try:
                if r.refused is not None:
                    raise r.refused
                self._add_one(r.digest, r.data, checked.pop(r.digest, None), added)
            except Unfinished as why:
                if quiet:
                    added.unfinished.append(r.path)
                else:
                    added.refused.append((r.path, str(why)))
            except Refused as why:
                added.refused.append((r.path, str(why)))
        return added

    def _read(self, path: Path) -> Read:
        try:
            return Read(path, *self._digest(path))
        except Refused as why:  # (said in its place)
            return Read(path, refused=why)

    def _digest(self, path: Path) -> tuple[str, bytes | None]:
        """The file's hash and bytes; only its hash (nothing read) when its size and time are as
        when it was last read and that hash is already known (`seen`)."""
        try:
            status = os.stat(path)
        except OSError:
            status = None
        key = str(path.absolute())
        seen = self.state.seen.get(key)
        if status and seen and (seen.size, seen.mtime_ns) == (status.st_size, status.st_mtime_ns):
            if self._verified(seen.digest):
                return seen.digest, None
        data = read_bounded(path)
        digest = file_hash(data)
        if status:
            self.state.seen[key] = Stamp(status.st_size, status.st_mtime_ns, digest)
        return digest, data

    def _verified(self, digest: str) -> bool:
        return digest in self.state.files or digest in self.state.refused

    def _known(self, digest: str, added: Added) -> bool:
        """A file verified before: True for a copy of a kept table; Refused as it was before."""
        state = self.state
        known = state.files.get(digest)
        if known is not None:
            if known in state.forks:
                raise Refused(_fork_copy(known))
            added.copies += 1
            return True
        refusal = state.refused.get(digest)
        if refusal is not None:  # refused before: verified once, as any file
            raise (Unfinished if refusal.unfinished else Refused)(refusal.why)
        return False

    def _add_one(self, digest: str, data: bytes | None, checked: Checked | None, added: Added) -> None:
        """One file, its hash `digest`: a copy of one verified before, or (`checked`: its
        table, or why it is refused) kept or refused."""
        if checked is None and self._known(digest, added):
            return
        assert data is not None and checked is not None  # (a hash not read again is a known one)
        if isinstance(checked, Refused):
            self.state.refused[digest] = Refusal(isinstance(checked, Unfinished), str(checked))
            raise checked
        added.verified += 1
        self._keep(checked, digest, data, added)

    def _keep(self, table: Table, digest: str, data: bytes, added: Added) -> None:
        """Keep a verified table's copy: a new table, a copy of a kept one, or a fork (Refused),
        unless it copies the id of a table whose id is its key (Refused, changing nothing)."""
        state, pair = self.state, table.identity
        owner = self._owner(table)
        if owner:
            why = _not_that_table(table.table_id, owner, table.host_key)
            state.refused[digest] = Refusal(False, why)
            raise Refused(why)
        state.files[digest] = pair
        if pair in state.forks:
            raise Refused(_fork_copy(pair))
        kept = state.tables.get(pair)
        if kept is None:
            state.tables[pair] = table
            store.keep_copy(self.path, digest, data, table.time)
            added.tables += 1
            if table.claims_its_id:
                self._drop_impostors(table, added)
        elif kept.head == table.head:
            if table.time < kept.time:  # the earliest copy says when it was played
                state.tables[pair] = table
                for kept_digest in [d for d, p in state.files.items() if p == pair]:
                    store.retime_copy(self.path, kept_digest, table.time)
            added.copies += 1
        else:
            del state.tables[pair]
            state.forks.add(pair)
            store.keep_copy(self.path, digest, data, kept.time)  # (a rebuild finds the fork again)
            added.forks.append(Fork(table.table_id, fingerprint(bytes.fromhex(table.host_key))))
            raise Refused(
                _(
                    "disagrees with another copy of table {id}: host key {key} signed two different "
                    "histories (a fork); both are refused"
                ).format(id=table.table_id, key=fingerprint(bytes.fromhex(table.host_key)))
            )

    def _owner(self, table: Table) -> str:
        """The host key (hex) of a table held whose id its key makes, when `table` has that id
        under another key; "" when there is none."""
        if table.claims_its_id:
            return ""
        held = [*self.state.tables, *self.state.forks]
        return next((k for i, k in held if i == table.table_id and k != table.host_key and id_is_key(i, k)), "")

    def _drop_impostors(self, table: Table, added: Added) -> None:
        """Tables held under `table`'s id with another key, now known not to be that table:
        dropped, their files refused from now on (they had arrived first)."""
        state = self.state
        for pair in [p for p in [*state.tables, *state.forks] if p[0] == table.table_id and p != table.identity]:
            why = _not_that_table(table.table_id, table.host_key, pair[1])
            state.tables.pop(pair, None)
            state.forks.discard(pair)
            for digest in [d for d, p in state.files.items() if p == pair]:
                del state.files[digest]
                state.refused[digest] = Refusal(False, why)
                store.drop_copy(self.path, digest)
            added.dropped.append(why)

    # --- the roster's additions -------------------------------------------------------------------

    def trust(self, given: str) -> str:
        """Add the key whose fingerprint starts with `given` to the roster; its hex. TrustError
        if it names nobody in the ledger, or more than one key."""
        with store.writing(self.path):
            self.trusted, _damaged = store.load_trusted(self.path)
            key = _one_key(given, self._keys())
            self.trusted = self.trusted | {key}
            store.save_trusted(self.path, self.trusted)
        return key

    def untrust(self, given: str) -> str:
        """Take the trusted key whose fingerprint starts with `given` off the list; its hex."""
        with store.writing(self.path):
            self.trusted, _damaged = store.load_trusted(self.path)
            key = _one_key(given, set(self.trusted))
            self.trusted = self.trusted - {key}
            store.save_trusted(self.path, self.trusted)
        return key

    def _keys(self) -> set[str]:
        """Every person's key in the ledger: who sat, and who ran a computer player."""
        return {s.vouched_by for t in self.state.tables.values() for h in t.hands for s in h.seats if s.vouched_by}

    # --- the book -----------------------------------------------------------------------------------

    def book(self, game: str | None = None, since: float | None = None, until: float | None = None) -> Book:
        """Everything rebuilt from the kept tables; `game`, `since`, `until` keep only those
        tables (ratings then count only their hands). Only the roster's hands are rated."""
        roster = roster_of(self.state.tables.values(), self.me, self.trusted)
        tables = sorted(self.state.tables.values(), key=lambda t: (t.time, t.table_id, t.host_key))
        tables = [t for t in tables if _kept(t, game, since, until)]
        hands = [(t, h) for t in tables for h in t.hands]
        counted, unrated = [], Counter[tuple[str, str]]()
        for table, hand in hands:
            why = left_out(roster, hand)
            if not why:
                counted.append((table, hand))
            why = not_rated(hand) or why  # (a hand that rates nobody says so, whoever sat at it)
            if why:
                unrated[(table.game, why)] += 1
        left = tuple(Unrated(g, why, n) for (g, why), n in sorted(unrated.items()))
        unended = {g: n for g, n in sorted(self.unended.items()) if asked(g, game)}
        return Book(tables, hands, persons(hands), rate(counted), roster, counted, left, unended)

    rebuild = book


def _one_key(given: str, keys: set[str]) -> str:
    """The one key of `keys` whose fingerprint starts with `given` (8 hex digits or more)."""
    wanted = given.strip().lower()
    if len(wanted) < 8 or any(c not in "0123456789abcdef" for c in wanted):
        raise TrustError(_("{given} is not a fingerprint (8 to 16 hex digits)").format(given=given))
    found = sorted(k for k in keys if fingerprint(bytes.fromhex(k)).startswith(wanted))
    if not found:
        raise TrustError(_("nobody in the ledger has the fingerprint {given}").format(given=given))
    if len(found) > 1:
        raise TrustError(
            _("{given} is the start of {n} fingerprints: give more of it").format(given=given, n=len(found))
        )
    return found[0]


def _fork_copy(pair: Pair) -> str:
    return _("a copy of table {id}, whose host key {key} signed two different histories (a fork)").format(
        id=pair[0], key=fingerprint(bytes.fromhex(pair[1]))
    )


def _not_that_table(table_id: str, owner: str, other: str) -> str:
    return _("not table {id} (signed by another key): that id is host key {owner}'s, this copy is {other}'s").format(
        id=table_id, owner=fingerprint(bytes.fromhex(owner)), other=fingerprint(bytes.fromhex(other))
    )


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
