"""The command line's side of the tables on the LAN: `briscola tables` (the list, or JSON),
and `briscola join CODE` / `watch CODE` finding the table a join code names (net/finding.py)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import shutil
import sys
import time

from engine.text import visible

from .language import N_, _
from .net.candidates import answers, chosen, impostors_line, none_opens
from .net.finding import NotFound, find_code, tables_on_lan
from .net.hosting import SetupError
from .net.joincode import plate_of, tidy
from .net.mdns import Seen
from .options import JoinOptions, WatchOptions
from .wording import seats_free, sitting, spectators, table_label

NOTHING_HEARD_HINT = N_(
    "usually: a host listening on loopback only (--bind 127.0.0.1) or not announcing (--no-advertise), "
    "a host on another network (a guest Wi-Fi, WSL2, an SSH tunnel), or a firewall closed to mDNS "
    "(UDP port 5353); then ask the host for HOST:PORT"
)
"""Why `briscola tables` may hear nothing, in a line after it says so."""


def table_line(seen: Seen, width: int | None = None) -> str:
    """One table heard on the LAN, in words (every name as it came: `visible` shows it literally);
    a line longer than `width` (the terminal's) goes on in a second one, indented, so that no
    address is cut in two."""
    a = seen.announcement
    plate = "--" if a.plate is None else str(a.plate)
    watch = "" if a.spectators and not a.watching else ", " + spectators(a.spectators, a.watching)
    where = f"{seen.addresses[0]}:{a.port}" if seen.addresses else _("through the club")
    table = visible(f"{plate:>3}  {table_label(a.game, a.players)}  " + _("host {host}").format(host=a.host))
    seats = visible(f"{sitting(a.seated)}, {seats_free(a.free)}{watch}  {where}")
    if width is not None and len(table) + 2 + len(seats) > width:
        return f"{table}\n     {seats}"
    return f"{table}  {seats}"


def table_record(seen: Seen) -> dict:
    """One table heard on the LAN, as `briscola tables --json` gives it."""
    record = dataclasses.asdict(seen.announcement)
    record.update(free=seen.announcement.free, addresses=list(seen.addresses), seated=list(record["seated"]))
    return record


def age() -> float:
    """Seconds since this process started (0 where the system does not say): `--wait S` counts
    from the command's start, the time its start-up took included (a busy machine's)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # (the 22nd field: its start, since boot)
        return max(time.clock_gettime(time.CLOCK_BOOTTIME) - started, 0.0)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def tables_command(args: argparse.Namespace) -> int:
    """`briscola tables`: the tables announced on the LAN, newest first, as heard `--wait`
    seconds after the command started; exit 2 where none can be looked for."""
    try:
        tables = tables_on_lan(max(args.wait - age(), 0.0))
    except OSError as error:
        print(visible(f"briscola tables: {error.strerror or error}"), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([table_record(s) for s in tables], ensure_ascii=False, indent=1))
        return 0
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None  # (a pipe: one line a table)
    for seen in tables:
        print(table_line(seen, width))
    if not tables:
        print(_("no table heard on the LAN in {seconds:g} s").format(seconds=args.wait), file=sys.stderr)
        print(_(NOTHING_HEARD_HINT), file=sys.stderr)
    return 0


def found(kind: str, options: JoinOptions | WatchOptions) -> JoinOptions | WatchOptions:
    """`options` with the address of the table its join code names, when it was given a code
    instead of HOST:PORT (said while it is looked for); where none is found, the person is
    asked for HOST:PORT at a terminal, else SetupError says what to run instead. Where several
    tables announce the code's plate, the one the code opens is taken and the others named as
    impostors (candidates.py)."""
    code = tidy(options.address or "") if plate_of(options.address or "") is not None else None
    if code is None:
        return options
    if options.code is not None and tidy(options.code) != code:
        raise SetupError(_("two join codes given: {a} and {b}").format(a=code, b=options.code))
    print(_("looking for table {plate} on the LAN...").format(plate=plate_of(code)), file=sys.stderr)
    try:
        address, table = _opened(code, find_code(code))
    except NotFound as error:
        return dataclasses.replace(options, address=_ask_address(kind, code, str(error)), code=code)
    return dataclasses.replace(options, address=address, code=code, table=table)


def _opened(code: str, tables: list[Seen]) -> tuple[str, str]:
    """HOST:PORT and the id of the table `code` opens, of `tables` (those announcing its plate):
    the one there is, or the one of several that proves it holds the code, the others said in
    a line (NotFound where none does)."""
    if len(tables) == 1:
        seen = tables[0]
        return f"{seen.addresses[0]}:{seen.announcement.port}", seen.announcement.table
    plate = plate_of(code)
    real, others = chosen(asyncio.run(answers(tables, code)))
    if real is None:
        raise NotFound(none_opens(plate or 0, others))
    print(visible(impostors_line(plate or 0, others)), file=sys.stderr)
    return real.address, real.seen.announcement.table


def _ask_address(kind: str, code: str, why: str) -> str:
    """HOST:PORT typed at the terminal, after `why` (SetupError where there is no terminal or nothing is typed)."""
    instead = _("ask the host for HOST:PORT and run: {command}").format(
        command=f"briscola {kind} HOST:PORT --code {code}"
    )
    if not sys.stdin.isatty():
        raise SetupError(f"{why}; {instead}")
    print(visible(why), file=sys.stderr)
    try:
        answer = input(_("HOST:PORT of the table (Enter to stop): ")).strip()
    except EOFError:
        answer = ""
    if not answer:
        raise SetupError(instead)
    return answer
