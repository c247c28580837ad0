"""The `briscola` command line: its parser, one function per command (`cli` runs what it parses).
Light: `briscola --help` loads it, not the protocol."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from engine.games import GAMES

from .club.arguments import add_club_command
from .language import N_, _
from .ledger.arguments import add_ledger_command
from .names import CHEAT_KINDS, CHEATER, FIRST_SHUFFLER_CHEATS, HOST_CHEATS, LEVELS
from .options import DEFAULT_GAME, HostOptions, JoinOptions, PlayOptions, WatchOptions
from .wording import TITLES, listing

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]
    """What `add_subparsers` returns: each command's parser is added to it."""


def _option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(_("options are NAME=VALUE, not {text}").format(text=repr(text)))
    name, value = text.split("=", 1)
    if value.isdigit():
        return name, int(value)
    return name, {"true": True, "false": False}.get(value.lower(), value)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(_("expected a whole number of at least 1, not {text}").format(text=repr(text)))
    return value


def _levels(text: str) -> list[str]:
    levels = [t.strip() for t in text.split(",")]
    unknown = [t for t in levels if t not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            _("unknown level {level} (levels: {levels})").format(
                level=repr(unknown[0]), levels=", ".join(sorted(LEVELS))
            )
        )
    return levels


def version() -> str:
    """The installed package's version (the one in pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("briscola-tui")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return _("unknown (not installed)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="briscola",
        description=_(
            "{games} in the terminal. Without a command: the home screen (play against the computer, the rules)."
        ).format(games=listing(TITLES.values(), _("and"))),
    )
    parser.add_argument(
        "--ascii",
        action="store_true",
        help=_("suits as letters, no box lines (the home screen, and the app of play, host, join and watch)"),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {version()}",
        help=_("show program's version number and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_play_command(sub)
    _add_replay_command(sub)
    _add_selfplay_command(sub)
    _add_verify_command(sub)
    _add_review_command(sub)
    _add_host_command(sub)
    _add_join_command(sub)
    _add_watch_command(sub)
    _add_tables_command(sub)
    add_ledger_command(sub)
    add_club_command(sub)
    return parser


def _add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """--game and --players, as every command that opens a table takes them."""
    parser.add_argument("--game", default=DEFAULT_GAME, choices=list(GAMES))
    parser.add_argument("--players", type=int, help=_("number of players (default: the game's smallest table)"))


def _add_option_argument(parser: argparse.ArgumentParser) -> None:
    """-o NAME=VALUE, a game option (repeatable)."""
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        type=_option,
        default=[],
        metavar="NAME=VALUE",
        help=_("a game option, e.g. -o trump_exchange=2 (see docs/rules.md)"),
    )


def _add_ascii_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """--ascii after the command; it leaves the value alone when not given, so that `briscola
    --ascii play` (the option before the command) holds too."""
    parser.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=help)


def _add_play_command(sub: Commands) -> None:
    play = sub.add_parser(
        "play",
        help=_("play against the computer (the interactive table)"),
        description=_(
            "Open the table with you at seat 0 and computer players in the other seats, dealt "
            "by the same mental-poker protocol as a network table, all in this process."
        ),
    )
    _add_table_arguments(play)
    play.add_argument(
        "--level",
        choices=sorted(LEVELS),
        help=_("the computer players' level (default: the one in your settings, normal at first)"),
    )
    play.add_argument("--hands", type=_positive, help=_("stop after this many hands (default: the whole series)"))
    _add_option_argument(play)
    _add_ascii_argument(play, _("suits as letters (AS 3H KD 7C), no box lines"))
    play.add_argument(
        "--resume",
        action="store_true",
        help=_(
            "go on with the newest unfinished game (kept as it goes, e.g. when the terminal "
            "went away); the game's own settings apply, not the other options"
        ),
    )
    play.add_argument("--seed", type=int, help=argparse.SUPPRESS)  # tests: the computer players' choices
    play.add_argument("--deal-seed", type=int, help=argparse.SUPPRESS)  # tests: every deal
    play.add_argument("--pace", type=float, default=PlayOptions.pace, help=argparse.SUPPRESS)


def _add_replay_command(sub: Commands) -> None:
    replay = sub.add_parser(
        "replay",
        help=_("check one fully known hand (JSON) and print its outcome"),
        description=_(
            "Replay one fully known hand from a JSON file and print the outcome as JSON. "
            "Exit status 2 names an illegal action; 1 means the file is not a valid replay."
        ),
    )
    replay.add_argument("file", help=_("the replay file ('-' for standard input)"))


def _add_selfplay_command(sub: Commands) -> None:
    selfplay = sub.add_parser(
        "selfplay",
        help=_("a whole table of computer players through the full protocol"),
        description=_(
            "Play a table of computer players (random legal moves, or the levels --seats "
            "names) through the full mental-poker protocol in one process, print each hand and the final scores."
        ),
    )
    _add_table_arguments(selfplay)
    selfplay.add_argument("--hands", type=_positive, help=_("stop after this many hands (default: the whole series)"))
    selfplay.add_argument("--seed", type=int, help=_("seed for the computer players' choices"))
    selfplay.add_argument(
        "--deal-seed",
        type=int,
        metavar="N",
        help=_("fix the seats' secrets, hence the deals, so a run can be repeated (default: fresh)"),
    )
    selfplay.add_argument("--transcript", metavar="FILE", help=_("store the signed transcript here"))
    _add_option_argument(selfplay)
    _add_cheat_arguments(selfplay)
    selfplay.add_argument(
        "--seats",
        type=_levels,
        metavar="LEVELS",
        help=_("the computer player of each seat, e.g. --seats normal,random (default: all random)"),
    )
    selfplay.add_argument(
        "--bots-replace",
        action="store_true",
        help=_(
            "a seat an audit names a cheat is evicted and a computer player takes it for the next hand "
            "(table rule replace_cheats; a seat timed out is always taken so)"
        ),
    )
    selfplay.add_argument(
        "--quiet", "-q", action="store_true", help=_("print only each hand's result, not every event of the hand")
    )


def _add_cheat_arguments(selfplay: argparse.ArgumentParser) -> None:
    """--cheat KIND and --cheater N: one seat (or the host) cheats once."""
    selfplay.add_argument(
        "--cheat",
        choices=CHEAT_KINDS,
        metavar="KIND",
        help=_("let one seat (or the host) cheat once, to watch the protocol name it: {kinds}").format(
            kinds=", ".join(CHEAT_KINDS)
        ),
    )
    selfplay.add_argument(
        "--cheater",
        type=int,
        metavar="N",
        help=_(
            "with --cheat: the cheating seat (default {cheater}; {first}: seat 0, the first to shuffle; "
            "{host}: the seat the host cheats, default {cheater})"
        ).format(
            cheater=CHEATER,
            first=listing(FIRST_SHUFFLER_CHEATS, _("and")),
            host=listing(HOST_CHEATS, _("and")),
        ),
    )


def _add_verify_command(sub: Commands) -> None:
    verify = sub.add_parser(
        "verify",
        help=_("check a stored transcript: signatures, chain, commitments, every card and rule"),
        description=_(
            "Check a stored transcript offline, entry by entry: print the table, its seats "
            "(names and key fingerprints) and one line per audited hand. Exit 0 for a complete table "
            "where every hand passed; 3 for a cheat, a tampered entry or a seat timed out (the last "
            "line names the culprits); 4 for a transcript that stops before the table ended (it says "
            "who owes the next message); 1 for a file that cannot be read or is not a transcript. "
            "A torn last frame (a crash mid-write) is dropped with a warning."
        ),
    )
    verify.add_argument("file", help=_("the transcript file"))


def _add_review_command(sub: Commands) -> None:
    review = sub.add_parser(
        "review",
        help=_("the coach's review of a stored game: the decisions where hard's choice was clearly better"),
        description=_(
            "Play each audited hand of a stored transcript again from its deal, and at each decision "
            "of the seat ask the coach (the hard player, and an estimate of every choice on the same "
            "sampled deals): print the decisions where hard's choice was better by a clear margin, "
            "with the points it cost and the trick. Progress goes to standard error."
        ),
    )
    review.add_argument("file", help=_("the transcript file"))
    review.add_argument("--seat", type=int, metavar="N", help=_("the seat to review (default: every seat)"))


def _add_host_command(sub: Commands) -> None:
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
    _add_table_arguments(host)
    host.add_argument(
        "--hands", type=_positive, help=_("close the table after this many hands (default: the whole series)")
    )
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
    host.add_argument(
        "--club",
        metavar="NAME_OR_URL",
        help=_("go through this club (a name briscola club add kept, or its URL) instead of the LAN"),
    )
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
        "--time-limit", type=_positive, metavar="S", help=_("whole seconds a seat has to send what it owes")
    )
    _add_option_argument(host)
    host.add_argument("--name", help=_("your name at the table (you hold seat 0 unless --headless)"))
    host.add_argument(
        "--headless",
        action="store_true",
        help=_("only serve the table, printing the game as lines (default: the app, where you hold a seat)"),
    )
    _add_ascii_argument(host, _("suits as letters, no box lines (the app)"))
    _add_host_test_arguments(host)


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


ADDRESS_HELP = N_("where the host listens, or the join code alone (42-7q8r2k) for a table announced on the LAN")


def _add_tables_command(sub: Commands) -> None:
    tables = sub.add_parser(
        "tables",
        help=_("list the tables announced on the LAN"),
        description=_(
            "Listen for the tables hosts announce on the LAN and print them, newest first: the code's "
            "number, the game, the host, who sits and how many seats are free, the spectators, the address."
        ),
    )
    tables.add_argument("--json", action="store_true", help=_("print JSON instead of lines"))
    tables.add_argument("--club", metavar="NAME_OR_URL", help=_("the tables this club lists, instead of the LAN's"))
    tables.add_argument(
        "--wait", type=float, default=2.0, metavar="S", help=_("how long to listen (default: 2 seconds)")
    )


def _add_join_command(sub: Commands) -> None:
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
    join.add_argument(
        "--club",
        metavar="NAME_OR_URL",
        help=_("go through this club (a name briscola club add kept, or its URL) instead of the LAN"),
    )
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
    _add_ascii_argument(join, _("suits as letters, no box lines (the app)"))


def _add_watch_command(sub: Commands) -> None:
    watch = sub.add_parser(
        "watch",
        help=_("watch a table read-only"),
        description=_("Watch a table: everything public, nothing hidden, nothing sent."),
        epilog=_(EXIT_CODES),
    )
    watch.add_argument("address", metavar="HOST:PORT|CODE", help=_(ADDRESS_HELP))
    watch.add_argument("--code", help=_("the table's join code"))
    watch.add_argument(
        "--club",
        metavar="NAME_OR_URL",
        help=_("go through this club (a name briscola club add kept, or its URL) instead of the LAN"),
    )
    watch.add_argument(
        "--retry", type=float, default=WatchOptions.retry, metavar="S", help=_("keep trying this long after a drop")
    )
    watch.add_argument("--headless", action="store_true", help=_("print the public events as lines (default: the app)"))
    _add_ascii_argument(watch, _("suits as letters, no box lines (the app)"))
