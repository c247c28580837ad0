"""`briscola ledger sync --club NAME`: this machine's ended transcripts put into the club's
stream, the others' taken, and every file taken added as `briscola ledger add` adds a file
(`Ledger.add`: verified by the ledger's own rules before it counts). A forgery, a file whose
bytes are not those its name says, a table not ended, a copy: refused or counted as a copy,
never a result. The club's server is trusted to keep bytes, nothing more.

Each transcript the stream holds is taken once: those taken (or refused) are remembered in
`<data folder>/clubs/<name>.taken` (private).
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..files.atomic import replace_file
from ..files.folders import private_folder, read_own, subfolder
from ..language import _
from ..ledger.book import Added, Ledger
from ..ledger.check import Refused, file_hash, read_bounded
from ..ledger.command import say_notices, say_refused
from ..ledger.store import StoreError
from ..tools.verify import clean
from . import joined, parts
from .config import stream_name
from .connect import Unreachable, connect
from .invite import Invitation
from .needs import Missing, need_client
from .state import Club, ClubError

if TYPE_CHECKING:
    from nats.js.client import JetStreamContext

PROG = "briscola ledger sync"
Held = dict[tuple[str, str], parts.Offered]


@dataclass
class Outcome:
    put: int = 0
    took: int = 0
    added: Added = field(default_factory=Added)
    damaged: list[tuple[str, str]] = field(default_factory=list)
    """(member, digest) of the files whose bytes were not those their name says."""

    @property
    def refused(self) -> int:
        return len(self.added.refused) + len(self.damaged)


class Progress:
    """One line on a terminal, rewritten as parts go ("put 3/10"); nothing elsewhere."""

    def __init__(self, err: TextIO) -> None:
        self.err, self.shown = err, False
        self.tty = hasattr(err, "isatty") and err.isatty()

    def say(self, what: str, done: int, total: int) -> None:
        if self.tty and total:
            print(f"\r{what} {done}/{total}", end="", file=self.err, flush=True)
            self.shown = True

    def end(self) -> None:
        if self.shown:
            print(file=self.err)
            self.shown = False


def _taken_path(name: str) -> Path:
    return subfolder("clubs") / f"{name}.taken"


def _load_taken(name: str) -> set[str]:
    try:
        data = json.loads(read_own(_taken_path(name)))
        return {str(item) for item in data} if isinstance(data, list) else set()
    except (OSError, ValueError):
        return set()


def _save_taken(name: str, taken: set[str]) -> None:
    replace_file(_taken_path(name), json.dumps(sorted(taken)).encode("ascii"), 0o600)


@dataclass(frozen=True)
class Where:
    """The club's stream as this member reaches it."""

    js: JetStreamContext
    stream: str
    prefix: str
    member: str


async def sync(name: str, invitation: Invitation, ledger: Ledger, progress: Progress) -> Outcome:
    """Put, then take (see the module doc); Unreachable if the club cannot be reached."""
    club = Club(name=invitation.club, keeper_seed="")
    client = await connect(invitation.url, invitation.seed, invitation.member, invitation.cert)
    try:
        where = Where(client.jetstream(), stream_name(club), club.prefix, invitation.member)
        held = await parts.offered(where.js, where.stream, where.prefix)
        outcome = Outcome()
        await _put(where, ledger, held, outcome, progress)
        await _take(where, name, ledger, held, outcome, progress)
        return outcome
    finally:
        await client.close()


def _counter(progress: Progress, what: str, total: int) -> parts.Step:
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        progress.say(what, done, total)

    return step


async def _put(where: Where, ledger: Ledger, held: Held, outcome: Outcome, progress: Progress) -> None:
    """Every ended transcript of this machine that the ledger verified and the club lacks."""
    there = {digest for _member, digest in held}
    mine: list[tuple[bytes, float]] = []
    for path in ledger.local_files():
        digest = _digest(ledger, path)
        if digest in ledger.state.files and digest not in there:
            try:
                data = read_bounded(path)
            except Refused:
                continue
            if file_hash(data) == digest:  # (not changed since the ledger read it)
                there.add(digest)
                mine.append((data, os.stat(path).st_mtime))
    step = _counter(progress, _("putting"), sum(len(parts.split(data)) for data, _written in mine))
    for data, written in mine:
        await parts.put(where.js, where.stream, where.prefix, where.member, data, written, step)
        outcome.put += 1
    progress.end()


def _digest(ledger: Ledger, path: Path) -> str:
    """The file's hash as the ledger read it just now (its size and time unchanged), else read
    again; "" when it cannot be read."""
    try:
        status = os.stat(path)
        seen = ledger.state.seen.get(str(path.absolute()))
        if seen and (seen.size, seen.mtime_ns) == (status.st_size, status.st_mtime_ns):
            return seen.digest
        return file_hash(read_bounded(path))
    except (OSError, Refused):
        return ""


async def _take(where: Where, name: str, ledger: Ledger, held: Held, outcome: Outcome, progress: Progress) -> None:
    """Every whole transcript the club holds that this ledger has not verified nor taken before,
    each once, added by the ledger's own rules."""
    taken = _load_taken(name)
    known = {*ledger.state.files, *ledger.state.refused}
    wanted: dict[str, parts.Offered] = {}
    for (member, digest), entry in sorted(held.items()):
        if entry.whole and f"{member}.{digest}" not in taken and digest not in known:
            wanted.setdefault(digest, entry)
    folder = private_folder(subfolder("clubs") / f"{name}.files")
    step = _counter(progress, _("taking"), sum(entry.parts for entry in wanted.values()))
    files: list[Path] = []
    for entry in wanted.values():
        try:
            data, written = await parts.take(where.js, where.stream, where.prefix, entry, step)
        except ValueError:
            outcome.damaged.append((entry.member, entry.digest))
        else:
            path = folder / f"{entry.member}-{entry.digest[:16]}.transcript"
            replace_file(path, data, 0o600)
            os.utime(path, (written, written))
            files.append(path)
        taken.add(f"{entry.member}.{entry.digest}")
    progress.end()
    try:
        outcome.added = ledger.add(files)
        outcome.took = len(files) - len(outcome.added.refused)
    finally:
        for path in files:
            path.unlink(missing_ok=True)
    _save_taken(name, taken)


def sync_command(club: str, out: TextIO, err: TextIO) -> int:
    """The command: 0 once synced (a file refused is said, named, and counts nothing), 1 when
    the club is not known here or cannot be reached, or the ledger cannot be read."""
    try:
        need_client()
        invitation = joined.find(club)
        ledger = Ledger.open()
    except (Missing, ClubError, StoreError) as error:
        print(clean(f"{PROG}: {error}"), file=err)
        return 1
    say_refused(ledger.add(ledger.local_files(), quiet=True), err)
    say_notices(ledger, err)
    try:
        outcome = asyncio.run(sync(club, invitation, ledger, Progress(err)))
    except Unreachable as error:
        print(clean(_("{prog}: cannot reach the club {club}: {why}").format(prog=PROG, club=club, why=error)), file=err)
        return 1
    except Exception as error:  # nats-py's errors (a timeout, a permission refused) have no common base
        if not _nats_error(error):
            raise
        why = str(error) or type(error).__name__
        print(clean(_("{prog}: the club {club} failed: {why}").format(prog=PROG, club=club, why=why)), file=err)
        return 1
    _report(club, outcome, out, err)
    return 0


def _nats_error(error: Exception) -> bool:
    from nats.errors import Error

    return isinstance(error, Error | TimeoutError)


def _report(club: str, outcome: Outcome, out: TextIO, err: TextIO) -> None:
    say_refused(outcome.added, err)
    for member, digest in outcome.damaged:
        print(
            clean(
                _(
                    "{prog}: {digest} from {member}: refused: its bytes are not those its name says (damaged or forged)"
                ).format(prog=PROG, digest=digest[:16], member=member)
            ),
            file=err,
        )
    print(
        _("club {club}: put {put}, took {took}, refused {refused}").format(
            club=club, put=outcome.put, took=outcome.took, refused=outcome.refused
        ),
        file=out,
    )
