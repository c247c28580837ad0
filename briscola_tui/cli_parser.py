"""The `briscola` command line: its parser, one function per command (`cli` runs what it parses).
Light: `briscola --help` loads it, not the protocol."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .cli_arguments import add_ascii_argument, add_option_argument, add_table_arguments, levels, positive
from .cli_net_parser import add_host_command, add_join_command, add_tables_command, add_watch_command
from .club.arguments import add_club_command
from .language import _
from .ledger.arguments import add_ledger_command
from .names import CHEAT_KINDS, CHEATER, FIRST_SHUFFLER_CHEATS, HOST_CHEATS, LEVELS
from .options import PlayOptions
from .wording import TITLES, listing

if TYPE_CHECKING:
    from .cli_arguments import Commands


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
    add_host_command(sub)
    add_join_command(sub)
    add_watch_command(sub)
    add_tables_command(sub)
    add_ledger_command(sub)
    add_club_command(sub)
    return parser


def _add_play_command(sub: Commands) -> None:
    play = sub.add_parser(
        "play",
        help=_("play against the computer (the interactive table)"),
        description=_(
            "Open the table with you at seat 0 and computer players in the other seats, dealt "
            "by the same mental-poker protocol as a network table, all in this process."
        ),
    )
    add_table_arguments(play)
    play.add_argument(
        "--level",
        choices=sorted(LEVELS),
        help=_("the computer players' level (default: the one in your settings, normal at first)"),
    )
    play.add_argument("--hands", type=positive, help=_("stop after this many hands (default: the whole series)"))
    add_option_argument(play)
    add_ascii_argument(play, _("suits as letters (AS 3H KD 7C), no box lines"))
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
    add_table_arguments(selfplay)
    selfplay.add_argument("--hands", type=positive, help=_("stop after this many hands (default: the whole series)"))
    selfplay.add_argument("--seed", type=int, help=_("seed for the computer players' choices"))
    selfplay.add_argument(
        "--deal-seed",
        type=int,
        metavar="N",
        help=_("fix the seats' secrets, hence the deals, so a run can be repeated (default: fresh)"),
    )
    selfplay.add_argument("--transcript", metavar="FILE", help=_("store the signed transcript here"))
    add_option_argument(selfplay)
    _add_cheat_arguments(selfplay)
    selfplay.add_argument(
        "--seats",
        type=levels,
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
