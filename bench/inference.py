"""Hard with and without inference from the other seats' plays, against normal.

    python bench/inference.py --hands 100 --seed 21 --steps 40000 [--game briscola --players 2] [--jobs J] [--json]

Two arena matches on the same duplicate deals (bench/arena.py's format and
figures): `hard` built with `make_player(steps=STEPS, infer=True)` against
normal, then with `infer=False`; `--rounds R` plays R of each, alternating,
so a change of load falls on both. Each prints arena's report; `--json`
prints one JSON object with every run's figures. The budget is in
steps only (no seconds): the moves depend on the seed, not on the load.
engine/bots/inference.py says what the inference does; docs/bots.md has the
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena import report, run  # noqa: E402

from engine import bots  # noqa: E402
from engine.bots import hard  # noqa: E402

LEVELS = {"hard-inference": True, "hard-uniform": False}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/inference.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="briscola", choices=["briscola", "chiamata", "calabresella"])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--hands", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=hard.FAST_STEPS, help="hard's steps a move (default FAST_STEPS)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each, alternating (default 1)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    players = 2 if args.players is None and args.game == "briscola" else args.players
    for level, infer in LEVELS.items():  # registered before any worker forks
        bots.PLAYERS[level] = hard.make_player(seconds=None, steps=args.steps, infer=infer)
    results = []
    for _ in range(args.rounds):
        for level in LEVELS:
            figures = run(args.game, players, level, "normal", args.hands, args.seed, args.jobs, None, None, sys.stderr)
            results.append(figures)
            if not args.json:
                print(report(figures), flush=True)
    if args.json:
        print(json.dumps({"steps": args.steps, "results": results}))


if __name__ == "__main__":
    main()
