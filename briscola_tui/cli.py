"""The `briscola` command and its subcommands."""

from __future__ import annotations

import argparse
import os
import sys

from briscola_tui.cheaters import CHEATS


def _replay(args: argparse.Namespace) -> int:
    from engine.replay import main as replay_main

    return replay_main([args.file], prog="briscola replay")


def _option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"options are NAME=VALUE, not {text!r}")
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
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def _selfplay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.game import OptionError

    from .selfplay import selfplay

    from .selfplay import CheatError

    if args.transcript:
        target = Path(args.transcript)
        folder = target.resolve().parent
        if not folder.is_dir():
            print(f"briscola selfplay: no folder {folder} for the transcript", file=sys.stderr)
            return 2
        if target.is_dir():
            print(f"briscola selfplay: {target} is a folder; give the transcript a file name", file=sys.stderr)
            return 2
        if target.exists():
            print(f"briscola selfplay: {target} already exists (a transcript is never overwritten)", file=sys.stderr)
            return 2
    try:
        return selfplay(args.game, args.players, args.hands, args.seed, args.transcript, dict(args.option),
                        sys.stdout, cheat=args.cheat, cheater=args.cheater, quiet=args.quiet)
    except (OptionError, CheatError) as error:
        print(f"briscola selfplay: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except OSError as error:
        print(f"briscola selfplay: {error.filename or args.transcript}: {error.strerror or error}", file=sys.stderr)
        return 2


def _verify(args: argparse.Namespace) -> int:
    from .verify import verify

    return verify(args.file, sys.stdout, sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="briscola",
        description="Briscola, Briscola Chiamata and Calabresella in the terminal.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = sub.add_parser(
        "replay",
        help="check one fully known hand (JSON) and print its outcome",
        description="Replay one fully known hand from a JSON file and print the outcome as JSON. "
        "Exit status 2 names an illegal action; 1 means the file is not a valid replay.",
    )
    replay.add_argument("file", help="the replay file ('-' for standard input)")
    replay.set_defaults(run=_replay)

    selfplay = sub.add_parser(
        "selfplay",
        help="a whole table of computer players through the full protocol",
        description="Play a table of computer players (random legal moves) through the full "
        "mental-poker protocol in one process, print each hand and the final scores.",
    )
    selfplay.add_argument("--game", default="briscola", choices=["briscola", "chiamata", "calabresella"])
    selfplay.add_argument("--players", type=int, help="number of players (default: the game's smallest table)")
    selfplay.add_argument("--hands", type=_positive, help="stop after this many hands (default: the whole series)")
    selfplay.add_argument("--seed", type=int, help="seed for the computer players' choices")
    selfplay.add_argument("--transcript", metavar="FILE", help="store the signed transcript here")
    selfplay.add_argument("--option", "-o", action="append", type=_option, default=[], metavar="NAME=VALUE",
                          help="a game option, e.g. -o trump_exchange=2 (see docs/rules.md)")
    selfplay.add_argument("--cheat", choices=sorted(CHEATS), metavar="KIND",
                          help="let one seat (or the host) cheat once, to watch the protocol name it: "
                          + ", ".join(sorted(CHEATS)))
    selfplay.add_argument("--cheater", type=int, metavar="N", help="the cheating seat (default 1)")
    selfplay.add_argument("--quiet", "-q", action="store_true",
                          help="print only each hand's result, not every event of the hand")
    selfplay.set_defaults(run=_selfplay)

    verify = sub.add_parser(
        "verify",
        help="check a stored transcript: signatures, chain, commitments, every card and rule",
        description="Check a stored transcript offline, entry by entry: print the table, its seats "
        "(names and key fingerprints) and one line per audited hand. Exit 0 for a complete table "
        "where every hand passed; 3 for a cheat, a tampered entry or a seat timed out (the last "
        "line names the culprits); 4 for a transcript that stops before the table ended (it says "
        "who owes the next message); 1 for a file that cannot be read or is not a transcript. "
        "A torn last frame (a crash mid-write) is dropped with a warning.",
    )
    verify.add_argument("file", help="the transcript file")
    verify.set_defaults(run=_verify)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        print(
            "\nThe interactive table (play against the computer, host, join, watch) is not built yet;"
            "\ntry 'briscola selfplay --game chiamata' to watch a table of computer players."
        )
        return 0
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`briscola selfplay | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
