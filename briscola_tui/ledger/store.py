"""The ledger's own files: what it keeps, checked when read, and one writer at a time.

`<data folder>/ledger/ledger.json` holds every verified table's facts, which file hashes were
verified (and those refused, with the reason), the tables refused as forks, and each file's
size, time and hash when last read. It is replaced whole in one rename (`files.atomic`): a
reader, or a ledger opened after a kill -9 mid-write, finds the old or the new whole file.
Its body is stored with its SHA-256 (`seal`): a file changed by hand or damaged on disk does
not check and is rebuilt (book.py) from `copies/`, a copy of each transcript the ledger kept,
its time the table's. `trusted.json` beside it (the people trusted by fingerprint, the
roster's additions) is sealed the same way. Anything at these paths that is not a regular file
is refused at once, never waited on (regular.py).

One process writes at a time: `writing` holds an exclusive `flock` on `ledger.lock` for the
whole of an `add` (read, verify, write), so two `briscola ledger add` at once both land,
one after the other; the operating system lets go of the lock when its holder ends, however it
ends (a kill -9 leaves no stale lock).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..files.atomic import move_aside, replace_file
from ..files.folders import open_private, private_folder, subfolder
from ..language import _
from ..os_errors import os_error_words
from .facts import Table, table_from_json, table_to_json
from .regular import NotRegular, read_regular

FORMAT = "briscola-ledger"
VERSION = 2
TRUST_FORMAT = "briscola-ledger-trusted"
TRUST_VERSION = 1

Pair = tuple[str, str]
"""A table as the ledger tells tables apart: (table id, host key), both hex."""


class StoreError(ValueError):
    """The ledger's file cannot be read; it is left as it is."""


class Damaged(ValueError):
    """The ledger's file is its own but does not check (changed, cut, damaged): rebuild it."""


class Older(ValueError):
    """The ledger's file was written by an older version (no copies kept): rebuild it."""


@dataclass(frozen=True)
class Refusal:
    """Why a file (by its hash) was refused; `unfinished`: its table had not ended."""

    unfinished: bool
    why: str


@dataclass(frozen=True)
class Stamp:
    """A file's size and time when it was last read, and its hash then."""

    size: int
    mtime_ns: int
    digest: str


@dataclass
class State:
    """`tables` by (id, host key); `files`: each kept file's hash -> its table; `forks`: the
    tables whose host signed two histories (each refused, as any later copy); `refused`: the
    files refused, by hash; `seen`: each file read, by path."""

    tables: dict[Pair, Table] = field(default_factory=dict)
    files: dict[str, Pair] = field(default_factory=dict)
    forks: set[Pair] = field(default_factory=set)
    refused: dict[str, Refusal] = field(default_factory=dict)
    seen: dict[str, Stamp] = field(default_factory=dict)

    def copy(self) -> State:
        """A copy that later changes to this one leave as it is (its values are frozen): what
        an `add` compares with to know whether there is anything to write."""
        return State(dict(self.tables), dict(self.files), set(self.forks), dict(self.refused), dict(self.seen))


def default_path() -> Path:
    return subfolder("ledger") / "ledger.json"


# --- a body sealed with its hash ---------------------------------------------------------------


def _canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def seal(form: str, version: int, body: dict) -> bytes:
    """`body` as the file's bytes, with its format, version and the SHA-256 of its canonical form."""
    digest = hashlib.sha256(_canonical(body)).hexdigest()
    data = {"format": form, "version": version, "sha256": digest, "body": body}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def unseal(raw: bytes, form: str, version: int) -> dict:
    """The body `seal` wrote; StoreError if the file is another program's or a newer version's,
    Older for an older version's, Damaged if it does not check."""
    try:
        data = json.loads(raw)
    except ValueError:
        raise Damaged("not JSON") from None
    if not isinstance(data, dict):
        raise Damaged("not an object")
    found = data.get("version")
    if data.get("format") != form or not isinstance(found, int) or found > version:
        raise StoreError("another program's or a newer version's")
    if found < version:
        raise Older(found)
    body = data.get("body")
    if not isinstance(body, dict) or data.get("sha256") != hashlib.sha256(_canonical(body)).hexdigest():
        raise Damaged("its hash does not check")
    return body


def read_own(path: Path) -> bytes | None:
    """One of the ledger's files (None: there is none); StoreError if it cannot be read or is
    not a regular file (never waited on)."""
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None
    except NotRegular:
        raise StoreError(
            _("{path} is not a regular file (a FIFO, a device or a folder); it is left as it is").format(path=path)
        ) from None
    except OSError as error:
        raise StoreError(
            _("cannot read the ledger {path}: {why}").format(path=path, why=os_error_words(error))
        ) from None


def put_aside(path: Path) -> Path:
    """Move a damaged file out of the way (`NAME.damaged`), kept for whoever wants to look."""
    aside = path.with_name(path.name + ".damaged")
    move_aside(path, aside)
    return aside


# --- the ledger ----------------------------------------------------------------------------------


def encode(state: State) -> bytes:
    body = {
        "tables": [table_to_json(t) for _pair, t in sorted(state.tables.items())],
        "files": [[digest, *pair] for digest, pair in sorted(state.files.items())],
        "forks": [list(pair) for pair in sorted(state.forks)],
        "refused": [[d, r.unfinished, r.why] for d, r in sorted(state.refused.items())],
        "seen": [[p, s.size, s.mtime_ns, s.digest] for p, s in sorted(state.seen.items())],
    }
    return seal(FORMAT, VERSION, body)


def decode(raw: bytes) -> State:
    """The state in `raw`; StoreError, Older or Damaged (see `unseal`), Damaged too when its
    parts do not fit together (a file's hash naming a table the ledger does not hold)."""
    body = unseal(raw, FORMAT, VERSION)
    try:
        tables = [table_from_json(t) for t in body["tables"]]
        state = State(
            {t.identity: t for t in tables},
            {str(d): (str(i), str(k)) for d, i, k in body["files"]},
            {(str(i), str(k)) for i, k in body["forks"]},
            {str(d): Refusal(bool(u), str(w)) for d, u, w in body["refused"]},
            {str(p): Stamp(int(s), int(m), str(d)) for p, s, m, d in body["seen"]},
        )
    except (KeyError, TypeError, ValueError):
        raise Damaged("its parts are not a ledger's") from None
    if any(pair not in state.tables and pair not in state.forks for pair in state.files.values()):
        raise Damaged("a file's hash names a table it does not hold")
    return state


def load(path: Path) -> State:
    """The ledger at `path` (an empty one if there is none yet); StoreError if it cannot be read
    or is not a ledger (left as it is); Older or Damaged when it must be rebuilt."""
    raw = read_own(path)
    if raw is None:
        return State()
    try:
        return decode(raw)
    except StoreError:
        raise StoreError(
            _("{path} is not a ledger this version can read; it is left as it is").format(path=path)
        ) from None


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one version of the ledger's file from the next (each is written as a new file,
    renamed over the old: a new inode), or None when there is none."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_ino, status.st_size, status.st_mtime_ns)


def save(path: Path, state: State) -> None:
    """Replace the ledger's file with `state`, whole, in one rename."""
    replace_file(path, encode(state))


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Hold the ledger's lock (`ledger.lock` beside it) for the block: one writer at a time.
    It waits for another writer to finish; the lock goes with its holder, however it ends."""
    lock = path.with_name("ledger.lock")
    try:
        fd = open_private(lock, os.O_RDWR | os.O_CREAT)
    except OSError as error:
        raise StoreError(
            _("cannot lock the ledger {path}: {why}").format(path=lock, why=os_error_words(error))
        ) from None
    try:
        try:
            import fcntl
        except ImportError:  # no flock (Windows): one writer is not enforced
            yield
            return
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # (closing lets go of the lock)


# --- the copies the ledger can be rebuilt from -------------------------------------------------


def copies(path: Path) -> Path:
    """The folder of the transcripts the ledger keeps a copy of (one per table, and a fork's two)."""
    return private_folder(path.parent / "copies")


def keep_copy(path: Path, digest: str, data: bytes, time: float) -> None:
    """Keep `data` (whose hash is `digest`) as a copy, its time `time` (the table's)."""
    copy = copies(path) / f"{digest}.bin"
    if not copy.exists():
        replace_file(copy, data)
    os.utime(copy, (time, time))


def retime_copy(path: Path, digest: str, time: float) -> None:
    """The copy of `digest`, if there is one, dated `time` (an earlier copy of its table came)."""
    with contextlib.suppress(FileNotFoundError):
        os.utime(copies(path) / f"{digest}.bin", (time, time))


def drop_copy(path: Path, digest: str) -> None:
    (copies(path) / f"{digest}.bin").unlink(missing_ok=True)


def kept_copies(path: Path) -> list[Path]:
    return sorted(copies(path).glob("*.bin"))


# --- what an older version left -----------------------------------------------------------------


OLD_CACHES = ("seen.json", "refused.json")


def old_paths(path: Path) -> list[Path]:
    """The files an older version's ledger was read from (its `seen.json`), still there."""
    try:
        data = json.loads(read_regular(path.with_name("seen.json")))
    except (OSError, ValueError):
        return []
    return sorted(Path(p) for p in data if Path(p).is_file()) if isinstance(data, dict) else []


def drop_old_caches(path: Path) -> None:
    for name in OLD_CACHES:
        path.with_name(name).unlink(missing_ok=True)


# --- the people trusted by fingerprint ----------------------------------------------------------


def trusted_path(path: Path) -> Path:
    return path.with_name("trusted.json")


def load_trusted(path: Path) -> tuple[frozenset[str], str]:
    """The keys (hex) trusted by fingerprint, and a line to show when the file was damaged (it
    is then put aside, and nobody is trusted until trusted again); StoreError as `read_own`."""
    where = trusted_path(path)
    raw = read_own(where)
    if raw is None:
        return frozenset(), ""
    try:
        keys = unseal(raw, TRUST_FORMAT, TRUST_VERSION)["keys"]
        if not isinstance(keys, list) or not all(isinstance(k, str) and len(bytes.fromhex(k)) == 32 for k in keys):
            raise Damaged("not keys")
        return frozenset(keys), ""
    except StoreError:
        raise StoreError(
            _("{path} is not a list of trusted people this version can read; it is left as it is").format(path=where)
        ) from None
    except (Damaged, Older, KeyError, ValueError):
        aside = put_aside(where)
        return frozenset(), _(
            "{path} was damaged (kept as {aside}): nobody is trusted by fingerprint now; trust them again"
        ).format(path=where, aside=aside.name)


def save_trusted(path: Path, keys: frozenset[str]) -> None:
    replace_file(trusted_path(path), seal(TRUST_FORMAT, TRUST_VERSION, {"keys": sorted(keys)}))
