"""`briscola ledger`: show the league, add transcripts, one person's statistics, export, and the
roster (`trust`, `untrust`, `roster`).

Exit status: 0; 1 when a file was refused (each named on standard error, one line, with the
reason), or the ledger's own file cannot be read, or the person asked for is not found, or a
fingerprint names nobody (or more than one key).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from protocol.identity import fingerprint

from ..files.atomic import replace_file
from ..language import _
from ..os_errors import os_error_words
from ..tools.verify import clean
from . import report
from .book import Added, Book, Ledger, TrustError
from .export import export
from .stats import Stats, statistics
from .store import StoreError

PROG = "briscola ledger"


def ledger_command(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        ledger = Ledger.open()
        return _run(ledger, args, out, err)
    except StoreError as error:
        print(clean(f"{PROG}: {error}"), file=err)
        return 1


def _run(ledger: Ledger, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    action = getattr(args, "ledger_action", None)
    if action == "add":
        added = ledger.add([Path(f) for f in args.files])
        say_notices(ledger, err)
        say_added(added, out, err)
        return 1 if added.refused else 0
    if not args.no_scan:
        say_refused(ledger.add(ledger.local_files(), quiet=True), err)
    say_notices(ledger, err)
    if action in ("trust", "untrust"):
        return _trust(ledger, action, args.fingerprint, out, err)
    book = ledger.book(args.game, args.since, args.until)
    if action == "roster":
        for line in report.roster_lines(book):
            print(clean(line), file=out)
        return 0
    if action == "export":
        return _export(book, args, out, err)
    if action == "person":
        return _person(book, args.who, statistics(book.hands), out, err)
    lines = [line for family in report.families(book) for line in [*report.league_lines(book, family), ""]]
    if not lines:
        lines = [_("no rated hands yet: play a table, or add the transcripts friends send (briscola ledger add)")]
    if not book.roster.me:
        lines.insert(0, _("no identity key in this data folder yet: the league is only the people you trust"))
    for line in lines:
        print(clean(line), file=out)
    return 0


def say_added(added: Added, out: TextIO, err: TextIO) -> None:
    say_refused(added, err)
    print(
        _("{verified} verified now, {tables} new, {copies} already in the ledger").format(
            verified=added.verified, tables=added.tables, copies=added.copies
        ),
        file=out,
    )


def say_notices(ledger: Ledger, err: TextIO) -> None:
    """The lines the ledger has to say once (its file rebuilt, the trusted list damaged)."""
    for line in ledger.notices:
        print(clean(f"{PROG}: {line}"), file=err)
    ledger.notices.clear()


def say_refused(added: Added, err: TextIO) -> None:
    for path, why in added.refused:
        print(clean(_("{prog}: {path}: refused: {why}").format(prog=PROG, path=path, why=why)), file=err)
    for fork in added.forks:
        print(
            clean(
                _("{prog}: table {id}: host key {key} signed two different histories (a fork); none counts").format(
                    prog=PROG, id=fork.table_id, key=fork.host
                )
            ),
            file=err,
        )
    for why in added.dropped:
        print(clean(_("{prog}: a table kept before is dropped: {why}").format(prog=PROG, why=why)), file=err)


def _trust(ledger: Ledger, action: str, given: str, out: TextIO, err: TextIO) -> int:
    try:
        key = ledger.trust(given) if action == "trust" else ledger.untrust(given)
    except TrustError as error:
        print(clean(f"{PROG}: {error}"), file=err)
        return 1
    said = _("trusted: {key}") if action == "trust" else _("no longer trusted: {key}")
    print(said.format(key=fingerprint(bytes.fromhex(key))), file=out)
    return 0


def _person(book: Book, who: str, stats: dict[str, Stats], out: TextIO, err: TextIO) -> int:
    keys = report.find_person(book, who)
    if not keys:
        print(clean(_("{prog}: nobody in the ledger is called {who}").format(prog=PROG, who=who)), file=err)
        return 1
    for n, key in enumerate(keys):
        if n:
            print(file=out)
        for line in report.person_lines(book, key, stats):
            print(clean(line), file=out)
    return 0


def _export(book: Book, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    text = export(book, args.what, args.form)
    if not args.output:
        out.write(text)
        return 0
    try:
        replace_file(Path(args.output), text.encode("utf-8"), 0o644)
    except OSError as error:
        print(clean(f"{PROG}: {args.output}: {os_error_words(error)}"), file=err)
        return 1
    return 0
