"""The club a table goes through, by the name a data folder keeps it under (or its URL), and
the table a join code (or a table's id) names in the club's list: for `--club` on the command
line (cli_club.py) and the app's forms alike."""

from __future__ import annotations

import dataclasses

from ..language import _
from ..net.hosting import SetupError
from ..net.joincode import plate_of, tidy
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


def chosen(options: Reaching, tables: list[Listed]) -> Reaching:
    """`options` aimed at the table its address names: a join code (by its plate) or a table's
    id (or its first 6 digits at least); SetupError where none, or more than one, is listed."""
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
    if len(matching) > 1:
        ids = ", ".join(t.seen.announcement.table[:12] for t in matching)
        raise SetupError(
            _("the club lists several tables for {given}: {ids}; give the table's id").format(given=given, ids=ids)
        )
    table = matching[0]
    return dataclasses.replace(options, table=table.seen.announcement.table, via=table.host)
