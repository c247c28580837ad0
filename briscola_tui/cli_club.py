"""`--club` on host, join, watch and tables: the club a command goes through, and the table a
join code (or a table's id) names in the club's list."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
import sys
from functools import partial

from engine.text import visible

from .cli_lan import table_line, table_record
from .club.member import Member, member_of
from .club.needs import Missing
from .club.state import ClubError
from .club.tables import Listed
from .language import _
from .net.candidates import Answer, Opener, answers, impostors_line
from .net.candidates import chosen as chosen_answer
from .net.hosting import SetupError
from .net.joincode import plate_of, tidy
from .net.mdns import Seen
from .net.reaching import Whole
from .options import HostOptions, JoinOptions, NetOptions, WatchOptions

Reaching = JoinOptions | WatchOptions


def club_of(name: str) -> Member:
    """The club `name` names, or SetupError saying why not."""
    try:
        return member_of(name)
    except (ClubError, Missing) as error:
        raise SetupError(str(error)) from None


def carried(kind: str, options: NetOptions) -> tuple[NetOptions, Member]:
    """The options of a command through its club, and the club: for join and watch, the table
    its address names (a join code, or a table's id) in the club's list."""
    assert options.club
    member = club_of(options.club)
    if isinstance(options, HostOptions):  # (a new table's code takes a plate none of the club's tables has)
        member.plates = frozenset(t.seen.announcement.plate for t in listed(member) if t.seen.announcement.plate)
        return options, member
    print(_("looking for the table at {club}...").format(club=member.label), file=sys.stderr)
    return chosen(options, listed(member), member), member


def listed(member: Member) -> list[Listed]:
    """The tables the club lists now (SetupError where it cannot be asked)."""

    async def ask() -> list[Listed]:
        try:
            return await member.tables()
        finally:
            await member.close()

    try:
        return asyncio.run(ask())
    except Whole as error:
        raise SetupError(str(error)) from None


def chosen(options: Reaching, tables: list[Listed], member: Member) -> Reaching:
    """`options` aimed at the table its address names: a join code (by its plate: where several
    tables have it, the one the code opens) or a table's id (or its first 6 digits at least);
    SetupError where none is listed, or the code opens none, or the id is not one table's."""
    given = (options.address or "").strip()
    plate = plate_of(given)
    if plate is not None:
        code = tidy(given)
        if options.code is not None and tidy(options.code) != code:
            raise SetupError(_("two join codes given: {a} and {b}").format(a=code, b=options.code))
        matching = [t for t in tables if t.seen.announcement.plate == plate]
        options = dataclasses.replace(options, code=code)
    elif len(given) >= 6 and all(c in "0123456789abcdef" for c in given.lower()):
        matching = [t for t in tables if t.seen.announcement.table.startswith(given.lower())]
    else:
        raise SetupError(_("with --club, give the table's join code or its id (briscola tables --club lists them)"))
    if not matching:
        raise SetupError(
            _("the club lists no table {table} now (briscola tables --club lists them)").format(table=given)
        )
    if len(matching) > 1 and plate is not None:
        matching = [opened(member, matching, tidy(given), plate)]
    if len(matching) > 1:
        ids = ", ".join(t.seen.announcement.table[:12] for t in matching)
        raise SetupError(
            _("the club lists several tables for {given}: {ids}; give the table's id").format(given=given, ids=ids)
        )
    table = matching[0]
    return dataclasses.replace(options, table=table.seen.announcement.table, via=table.host)


def opened(member: Member, tables: list[Listed], code: str, plate: int) -> Listed:
    """Of the tables listed with the code's plate (anyone may copy a plate), the one the code
    opens: the key exchange tried on each through the club (net/candidates.py), the others
    named in a line as impostors; SetupError where it opens none."""
    hosts = {t.seen.announcement.table: t.host for t in tables}

    def places(seen: Seen) -> list[tuple[str, Opener]]:
        host = hosts[seen.announcement.table]
        where = _("{host} at the club").format(host=host)
        return [(where, partial(member.connect, host, seen.announcement.table))]

    async def ask() -> list[Answer]:
        try:
            return await answers([t.seen for t in tables], code, places=places)
        finally:
            await member.close()

    real, others = chosen_answer(asyncio.run(ask()))
    if real is None:
        hosts_named = ", ".join(f"{a.address} ({visible(a.seen.announcement.host)})" for a in others)
        line = _("{n} tables at the club answer to {plate} and none takes this join code ({hosts})")
        raise SetupError(line.format(n=len(others), plate=plate, hosts=hosts_named))
    print(visible(impostors_line(plate, others)), file=sys.stderr)
    return next(t for t in tables if t.seen is real.seen)


def tables_command(club: str, as_json: bool) -> int:
    """`briscola tables --club`: the tables the club lists now."""
    try:
        tables = listed(club_of(club))
    except SetupError as error:
        print(visible(f"briscola tables: {error}"), file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps([{**table_record(t.seen), "via": t.host} for t in tables], ensure_ascii=False, indent=1))
        return 0
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    for table in tables:
        print(table_line(table.seen, width))
    if not tables:
        print(_("the club {club} lists no table now").format(club=club), file=sys.stderr)
    return 0
