"""The club a table goes through, by the name a data folder keeps it under (or its URL), and
the table a join code (or a table's id) names in the club's list: for `--club` on the command
line (cli_club.py) and the app's forms alike."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from functools import partial

from engine.text import visible

from ..language import _
from ..net.candidates import Answer, Opener, answers, impostors_line
from ..net.candidates import chosen as chosen_answer
from ..net.hosting import SetupError
from ..net.joincode import plate_of, tidy
from ..net.mdns import Seen
from ..options import JoinOptions, WatchOptions
from .member import Member, member_of
from .needs import Missing
from .state import ClubError
from .tables import Listed

Reaching = JoinOptions | WatchOptions


def club_of(name: str) -> Member:
    """The club `name` names, or SetupError saying why not."""
    try:
        return member_of(name)
    except (ClubError, Missing) as error:
        raise SetupError(str(error)) from None


def chosen(options: Reaching, tables: list[Listed], member: Member | None = None) -> Reaching:
    """`options` aimed at the table its address names: a join code (by its plate: where several
    tables have it, the one the code opens, asked through `member` when given) or a table's id
    (or its first 6 digits at least); SetupError where none is listed, or the code opens none,
    or several are listed and none is told from the others."""
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
    if len(matching) > 1 and plate is not None and member is not None:
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
