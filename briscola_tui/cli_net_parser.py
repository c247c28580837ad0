"""The `briscola` command line's table commands on the network: host, join, watch, tables."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .cli_arguments import add_ascii_argument, add_option_argument, add_table_arguments, positive
from .language import N_, _
from .names import LEVELS
from .options import HostOptions, JoinOptions, WatchOptions

if TYPE_CHECKING:
    from .cli_arguments import Commands


def add_host_command(sub: Commands) -> None:
    host = sub.add_parser(
        "host",
        help=_("host a table on the network (one table per process)"),
        description=_(
            "Host one table: seat players as they join (first come, or the seat they ask for), "
            "fill seats with computer players, admit spectators, order and relay every message, and keep "
            "the transcript (each entry on disk before it is relayed). Prints the join code and the "
            "addresses to give friends. Exit 0 with the final scores when the series ends."
        ),
        epilog=_(
            "The same command run again (after the host was killed, or its terminal lost) takes its "
            "unfinished table up again: the same table, the same join code, and the same port when it "
            "is free (else another, said with the new address); --new hosts a new table instead. "
            "Exit status: 0 the series is over (or the hands asked for are played); 2 a bad command "
            "line, a port in use, or a table that cannot be taken up (the line says what would); 3 a "
            "cheat was named; 130 Ctrl-C."
        ),
    )
    add_table_arguments(host)
    host.add_argument(
        "--hands", type=positive, help=_("close the table after this many hands (default: the whole series)")
    )
    _add_reach_arguments(host)
    _add_host_bot_arguments(host)
    host.add_argument(
        "--transcript", metavar="FILE", help=_("the transcript file; an existing one is resumed (a restarted host)")
    )
    host.add_argument(
        "--new",
        action="store_true",
        help=_("host a new table, even when this command's unfinished table is kept (that one stays on disk)"),
    )
    host.add_argument(
        "--time-limit", type=positive, metavar="S", help=_("whole seconds a seat has to send what it owes")
    )
    add_option_argument(host)
    host.add_argument("--name", help=_("your name at the table (you hold seat 0 unless --headless)"))
    host.add_argument(
        "--headless",
        action="store_true",
        help=_("only serve the table, printing the game as lines (default: the app, where you hold a seat)"),
    )
    add_ascii_argument(host, _("suits as letters, no box lines (the app)"))
    _add_host_test_arguments(host)


def _add_reach_arguments(host: argparse.ArgumentParser) -> None:
    """Where a hosted table is reached: its port and address, its join code, the LAN or a club."""
    host.add_argument(
        "--port",
        type=int,
        default=HostOptions.port,
        help=_("TCP port (default {port}; 0: any free port)").format(port=HostOptions.port),
    )
    host.add_argument("--bind", default=HostOptions.bind, help=_("address to listen on (default: every interface)"))
    code = host.add_mutually_exclusive_group()
    code.add_argument("--code", help=_("the join code players and spectators must give (default: a random one)"))
    code.add_argument("--open", action="store_true", help=_("no join code: anyone who reaches the port may sit"))
    host.add_argument(
        "--no-advertise",
        action="store_true",
        help=_("a private table: not announced on the LAN (friends give HOST:PORT and the code)"),
    )
    _add_club_argument(host)


def _add_club_argument(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """--club: the table goes through a club (docs/network.md, "Beyond the LAN: a club")."""
    words = help or _("go through this club (a name briscola club add kept, or its URL) instead of the LAN")
    parser.add_argument("--club", metavar="NAME_OR_URL", help=words)


def _add_host_bot_arguments(host: argparse.ArgumentParser) -> None:
    """--bots, --level, --bots-replace and --coach: the computer players and the coach."""
    host.add_argument(
        "--bots", type=int, default=HostOptions.bots, metavar="K", help=_("computer players in the last K seats")
    )
    host.add_argument(
        "--level",
        default=HostOptions.level,
        choices=sorted(LEVELS),
        help=_("the computer players' level (default: the one in your settings, normal at first)"),
    )
    host.add_argument(
        "--bots-replace",
        action="store_true",
        help=_("a seat timed out is taken by a computer player for the next hand"),
    )
    host.add_argument(
        "--coach",
        action="store_true",
        help=_("allow the coach at this table: h shows what hard would play, and the review after each hand"),
    )


def _add_host_test_arguments(host: argparse.ArgumentParser) -> None:
    """The hidden options of `host`, for scripts and tests."""
    host.add_argument("--port-file", help=argparse.SUPPRESS)
    host.add_argument("--handshake-seconds", type=float, default=10.0, help=argparse.SUPPRESS)  # tests
    host.add_argument("--backlog", type=int, default=5_000, help=argparse.SUPPRESS)  # tests
    host.add_argument(
        "--limit", action="append", metavar="NAME=VALUE", help=argparse.SUPPRESS
    )  # tests: connection.Limits
    host.add_argument("--guess-free", type=int, help=argparse.SUPPRESS)  # tests: wrong codes an address may try
    host.add_argument("--guess-seconds", type=float, help=argparse.SUPPRESS)  # tests: then one try each
    host.add_argument("--guess-report-seconds", type=float, help=argparse.SUPPRESS)  # tests: the summary's minute


EXIT_CODES = N_(
    "Exit status: 0 the table is over; 1 the host cannot be reached (within a few seconds when "
    "this client never reached the table, after --retry seconds of tries when it was at it; each "
    "try says what it waits for and how long is left); 2 the host refused this client, or this "
    "client the host; 3 a cheat was named; 4 the host now serves another table (it was started "
    "anew, not taken up: this table is gone); 130 Ctrl-C."
)
"""The exit statuses of `join` and `watch` (their help's epilog; docs/user-guide.md says the same)."""


ADDRESS_HELP = N_(
    "where the host listens, or the join code alone (42-7q8r2k) for a table announced on the LAN or, with "
    "--club, listed by the club (there the table's id does too)"
)


def add_tables_command(sub: Commands) -> None:
    tables = sub.add_parser(
        "tables",
        help=_("list the tables announced on the LAN"),
        description=_(
            "Listen for the tables hosts announce on the LAN and print them, newest first: the code's "
            "number, the game, the host, who sits and how many seats are free, the spectators, the address."
        ),
    )
    tables.add_argument("--json", action="store_true", help=_("print JSON instead of lines"))
    _add_club_argument(tables, _("the tables this club lists, instead of the LAN's"))
    tables.add_argument(
        "--wait", type=float, default=2.0, metavar="S", help=_("how long to listen (default: 2 seconds)")
    )


def add_join_command(sub: Commands) -> None:
    join = sub.add_parser(
        "join",
        help=_("take a seat at a table on the network"),
        description=_(
            "Take a seat. Headless, each event is printed as a line and, at your turn, the legal "
            "moves are listed and one move is read per line from standard input (e.g. 'play 3S'). "
            "With --bot the seat plays by itself. Exit 0 when the series ends."
        ),
        epilog=_(EXIT_CODES),
    )
    join.add_argument("address", metavar="HOST:PORT|CODE", help=_(ADDRESS_HELP))
    join.add_argument("--name", help=_("the name others see"))
    join.add_argument("--code", help=_("the table's join code"))
    _add_club_argument(join)
    join.add_argument(
        "--seat", type=int, default=JoinOptions.seat, help=_("ask for this seat (partners choose each other)")
    )
    join.add_argument("--bot", choices=sorted(LEVELS), help=_("let a computer player of this level play the seat"))
    join.add_argument(
        "--retry",
        type=float,
        default=JoinOptions.retry,
        metavar="S",
        help=_("keep trying to reach the host this long after a drop (default {retry})").format(
            retry=f"{JoinOptions.retry:g}"
        ),
    )
    join.add_argument(
        "--headless",
        action="store_true",
        help=_("print the game as lines and read moves from standard input (default: the app)"),
    )
    add_ascii_argument(join, _("suits as letters, no box lines (the app)"))


def add_watch_command(sub: Commands) -> None:
    watch = sub.add_parser(
        "watch",
        help=_("watch a table read-only"),
        description=_("Watch a table: everything public, nothing hidden, nothing sent."),
        epilog=_(EXIT_CODES),
    )
    watch.add_argument("address", metavar="HOST:PORT|CODE", help=_(ADDRESS_HELP))
    watch.add_argument("--code", help=_("the table's join code"))
    _add_club_argument(watch)
    watch.add_argument(
        "--retry", type=float, default=WatchOptions.retry, metavar="S", help=_("keep trying this long after a drop")
    )
    watch.add_argument("--headless", action="store_true", help=_("print the public events as lines (default: the app)"))
    add_ascii_argument(watch, _("suits as letters, no box lines (the app)"))
