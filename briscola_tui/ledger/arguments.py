"""`briscola ledger`'s command line (light: no protocol, as `briscola --help` loads it)."""

from __future__ import annotations

import argparse
import calendar
import time
from typing import Any

from engine.games import GAMES

from ..language import _


def day(text: str) -> float:
    """YYYY-MM-DD as the first second of that day (UTC), for --since and --until."""
    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%d")))
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a date as YYYY-MM-DD, not {text!r}").format(text=text)) from None


def add_ledger_command(sub: Any) -> None:  # (argparse's subparsers: a private type)
    ledger = sub.add_parser(
        "ledger",
        help=_("the club ledger: ratings and statistics from verified transcripts"),
        description=_(
            "Read every transcript on this machine (and those added with `briscola ledger add`), verify "
            "each once, and show the league: each person's rating per game (openskill), hands, win rate "
            "and rating over time. A person is a key, not a name: the fingerprint tells two people with "
            "one name apart. A file that does not verify is refused, named, with the reason."
        ),
    )
    _filters(ledger)
    ledger.add_argument("--no-scan", action="store_true", help=_("do not read this machine's transcripts first"))
    actions = ledger.add_subparsers(dest="ledger_action", metavar="ACTION")
    add = actions.add_parser("add", help=_("verify transcripts a friend sent and add their tables"))
    add.add_argument("files", nargs="+", metavar="FILE", help=_("transcript files"))
    person = actions.add_parser("person", help=_("one person's statistics, head to head against each other"))
    person.add_argument("who", help=_("a name, a fingerprint or a computer player's level"))
    _filters(person, argparse.SUPPRESS)
    trust = actions.add_parser("trust", help=_("add a person to your roster by their key's fingerprint"))
    trust.add_argument("fingerprint", help=_("their fingerprint, as briscola ledger or briscola verify shows it"))
    untrust = actions.add_parser("untrust", help=_("take a person you trusted off your roster"))
    untrust.add_argument("fingerprint", help=_("their fingerprint"))
    actions.add_parser(
        "roster", help=_("the people whose hands the league rates: you, those you played with, those you trust")
    )
    sync = actions.add_parser(
        "sync", help=_("put this machine's ended transcripts into a club and take the others' (each verified here)")
    )
    sync.add_argument("--club", required=True, metavar="NAME", help=_("a club kept with briscola club add"))
    export = actions.add_parser("export", help=_("the ratings or every rated hand as CSV or JSON"))
    export.add_argument("what", choices=("ratings", "hands"))
    export.add_argument("--format", choices=("csv", "json"), default="csv", dest="form")
    export.add_argument("--output", "-o", metavar="FILE", help=_("write here (default: standard output)"))
    _filters(export, argparse.SUPPRESS)


def _filters(parser: argparse.ArgumentParser, default: object = None) -> None:
    """--game, --since, --until (an action's own, given after it, leave the ledger's as they are)."""
    parser.add_argument("--game", choices=sorted(GAMES), default=default, help=_("only this game's tables"))
    since = _("only tables played on or after DATE (YYYY-MM-DD)")
    parser.add_argument("--since", type=day, metavar="DATE", default=default, help=since)
    until = _("only tables played before DATE (YYYY-MM-DD)")
    parser.add_argument("--until", type=day, metavar="DATE", default=default, help=until)
