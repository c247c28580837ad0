"""`briscola ledger`: show the league, add transcripts, one person's statistics, export.

Exit status: 0; 1 when a file was refused (each named on standard error, one line, with the
reason), or the ledger's own file cannot be read, or the person asked for is not found.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..files.atomic import replace_file
from ..language import _
from ..os_errors import os_error_words
from ..tools.verify import clean
from . import report
from .book import Added, Ledger
from .export import export
from .stats import statistics
from .store import StoreError

PROG = "briscola ledger"


def ledger_command(args: argparse.Namespace, out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        ledger = Ledger.open()
    except StoreError as error:
        print(clean(f"{PROG}: {error}"), file=err)
        return 1
    action = getattr(args, "ledger_action", None)
    if action == "add":
        added = ledger.add([Path(f) for f in args.files])
        say_added(added, out, err)
        return 1 if added.refused else 0
    if not args.no_scan:
        say_refused(ledger.add(ledger.local_files(), quiet=True), err)
    book = ledger.book(args.game, args.since, args.until)
    if action == "export":
        return _export(book, args, out, err)
    if action == "person":
        return _person(book, args.who, statistics(book.hands), out, err)
    lines = [line for family in report.families(book) for line in [*report.league_lines(book, family), ""]]
    if not lines:
        lines = [_("no rated hands yet: play a table, or add the transcripts friends send (briscola ledger add)")]
    for line in lines:
        print(clean(line), file=out)
    return 0


def say_added(added: Added, out, err) -> None:
    say_refused(added, err)
    print(
        _("{verified} verified now, {tables} new, {copies} already in the ledger").format(
            verified=added.verified, tables=added.tables, copies=added.copies
        ),
        file=out,
    )


def say_refused(added: Added, err) -> None:
    for path, why in added.refused:
        print(clean(_("{prog}: {path}: refused: {why}").format(prog=PROG, path=path, why=why)), file=err)
    for table in added.forks:
        print(
            clean(_("{prog}: table {id}: its copies disagree (a fork); none counts").format(prog=PROG, id=table)),
            file=err,
        )


def _person(book, who: str, stats, out, err) -> int:
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


def _export(book, args: argparse.Namespace, out, err) -> int:
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
