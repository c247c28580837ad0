"""What knowing the other hands is worth: hard that sees every hand, against normal.

    python -m bench.oracle --players 2 --hands 200 --seed 1 [--steps N] [--jobs J] [--json]
    python -m bench.oracle --players 3 --hands 120 --seed 1

An upper bound for any inference from the other seats' plays
(engine/bots/inference.py): the level `hard-sighted` is hard's search
(`make_player(seconds=None, steps=STEPS)`) handed its seat's view of the
same hand played with open hands (bench/arena.py's `sees_hands`): every
hand shown, the order of the stock still hidden, so its determinizations
differ only there. It plays normal on bench/arena.py's duplicate deals of
Briscola (2, 3, 4 or 6 players; the other games have no open-hands option)
and prints arena's report (`--json`: its figures). The budget is in steps
only: the moves depend on the seed, not on the load. docs/bots.md gives
the figures.
"""

from __future__ import annotations

import argparse
import json
import sys

from bench.arena import add_level, report, run
from engine.bots import hard

LEVEL = "hard-sighted"


def sighted_player(steps: int | str):
    """hard at `steps` a move (no clock), marked to be handed open-hands views."""
    play = hard.make_player(seconds=None, steps=steps)
    play.sees_hands = True  # type: ignore[attr-defined]
    return play


def steps_argument(text: str) -> int | str:
    """--steps: a positive number, or "default"."""
    if text == "default":
        return text
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"not a positive number of steps: {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/oracle.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4, 6])
    parser.add_argument("--hands", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--steps", type=steps_argument, default="default", help="hard's steps a move (default: its default budget's)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    args = parser.parse_args(argv)
    add_level(LEVEL, sighted_player(args.steps))  # added before any worker forks
    progress = None if args.quiet else sys.stderr
    figures = run("briscola", args.players, LEVEL, "normal", args.hands, args.seed, args.jobs, None, None, progress)
    print(json.dumps(figures) if args.json else report(figures), flush=True)


if __name__ == "__main__":
    main()
