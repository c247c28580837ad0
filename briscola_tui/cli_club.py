"""`--club` on host, join, watch and tables: the club a command goes through, and the table a
join code (or a table's id) names in the club's list."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys

from engine.text import visible

from .cli_lan import table_line, table_record
from .club.choosing import chosen, club_of
from .club.member import Member
from .club.tables import Listed
from .language import _
from .net.hosting import SetupError
from .net.reaching import Whole
from .options import HostOptions, NetOptions


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

    try:
        return asyncio.run(member.tables_once())
    except Whole as error:
        raise SetupError(str(error)) from None


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
