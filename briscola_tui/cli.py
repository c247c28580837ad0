"""The `briscola` command and its subcommands."""

from __future__ import annotations

import argparse
import sys


def _replay(args: argparse.Namespace) -> int:
    from engine.replay import main as replay_main

    return replay_main([args.file])


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
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
