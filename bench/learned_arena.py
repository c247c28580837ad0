"""The learned player of Briscola for two (research/learned_player.py) in
bench/arena.py's duplicate matches, under the level name `learned`, which is
not one of the levels a player can pick (engine.bots.PLAYERS): this script
adds it for its own run.

    python -m bench.learned_arena --b hard --hands 200 --seed 1 [--samples 200] [--depth 0] [--weights FILE] [--json]

`--leaf K` plays hard with its playouts cut at the learned value instead
(research/learned_leaf.py: after the root card's trick and K more tricks
of normal's play, each value counted as `--leaf-steps` steps), as the level
`hard-leaf`, against `--b` (hard by default), on duplicate deals:

    python -m bench.learned_arena --leaf 0 --b hard --hands 500 --seed 1 --first 0 --deals-out /tmp/leaf.jsonl --json

`--first F` starts at deal F of the seed (so a longer run can go on from a
shorter one on new deals); for hard-leaf and the learned player alike,
`--deals-out FILE` appends each deal's figures to
FILE as one JSON line as soon as it is played (a run stopped early keeps what
it played; `--summarise FILE` prints the figures of the deals in FILE).

Otherwise `--a` is the learned player (with `--samples` determinizations a move,
`--depth` tricks played by normal before the network values a position, the
weights of `--weights` or the shipped ones); `--b` any level, or `learned-b`
with `--b-weights` (the same player on other weights). `--ppo` plays it against
the PPO agent of bench/ppo.py instead (its figures; `pip install -e '.[ppo]'`). The figures
and their intervals are bench/arena.py's. Run it on one core:
`OPENBLAS_NUM_THREADS=1 nice -n 10 python -m bench.learned_arena ...`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench import arena
from engine.bots import hard
from engine.games import make
from research import learned, learned_player
from research.learned_leaf import LEAF_STEPS, Leaf


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--b", default="hard")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=learned_player.SAMPLES)
    parser.add_argument("--depth", type=int, default=learned_player.DEPTH)
    parser.add_argument("--confidence", type=float, default=learned_player.CONFIDENCE)
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--b-weights", type=Path, default=None, help="with --b learned-b: b's weights")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--ppo", action="store_true", help="against the PPO agent instead (bench/ppo.py, the ppo extra)"
    )
    parser.add_argument("--leaf", type=int, default=None, help="a is hard-leaf: hard cut K tricks after the root's")
    parser.add_argument("--leaf-steps", type=int, default=LEAF_STEPS, help="steps a network value counts for")
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument(
        "--deals-out", type=Path, default=None, help="append each deal's figures to this JSON-lines file"
    )
    parser.add_argument("--summarise", type=Path, default=None, help="the figures of a --deals-out file, and stop")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.summarise is not None:
        lines = arena.read_deals(args.summarise)
        meta, deals = lines[0]["meta"], [line["figures"] for line in lines]
        figures = arena.summarise(make("briscola", 2, {}), meta["a"], meta["b"], meta["seed"], deals)
        figures["deals"] = sorted(line["meta"]["deal"] for line in lines)
        print(json.dumps(figures) if args.json else arena.report(figures))
        return
    if args.leaf is not None:
        leaf_match(args)
        return
    network = learned.read(args.weights) if args.weights else None
    arena.add_level("learned", learned_player.make_player(network, args.samples, args.depth, args.confidence))
    if args.b_weights is not None:  # two sets of weights, the same player otherwise
        other = learned.read(args.b_weights)
        arena.add_level("learned-b", learned_player.make_player(other, args.samples, args.depth, args.confidence))
    if args.ppo:
        from bench import ppo

        flags = ["--json"] * args.json + ["--quiet"] * args.quiet
        ppo.main(["--levels", "learned", "--hands", str(args.hands), "--seed", str(args.seed), *flags])
        return
    if args.first or args.deals_out is not None:
        deal_match(args, "learned", {"samples": args.samples, "depth": args.depth, "confidence": args.confidence})
        return
    figures = arena.run(
        "briscola", 2, "learned", args.b, args.hands, args.seed, args.jobs, progress=None if args.quiet else sys.stderr
    )
    figures["settings"] = {"samples": args.samples, "depth": args.depth, "confidence": args.confidence}
    print(json.dumps(figures) if args.json else arena.report(figures))


def leaf_match(args) -> None:
    """hard-leaf (a) against `--b`, deal by deal."""
    leaf = Leaf(args.leaf, learned.read(args.weights) if args.weights else None, args.leaf_steps)
    arena.add_level("hard-leaf", hard.make_player(leaf=leaf))
    deal_match(args, "hard-leaf", {"leaf": args.leaf, "leaf_steps": args.leaf_steps})


def deal_match(args, a: str, settings: dict) -> None:
    """`a` against `--b` on deals `--first`.. of `--seed`, one deal at a time
    on one core, each appended to `--deals-out` once played; the figures at the end."""
    settings = {**settings, "weights": str(args.weights or "shipped")}
    game = make("briscola", 2, {})
    meta = {"a": a, "b": args.b, "seed": args.seed, **settings}
    numbers = range(args.first, args.first + args.hands)
    progress = None if args.quiet else sys.stderr
    deals = arena.deal_by_deal(game, a, args.b, args.seed, numbers, meta, args.deals_out, progress)
    figures = arena.summarise(game, a, args.b, args.seed, deals)
    figures["settings"] = {**settings, "first": args.first}
    print(json.dumps(figures) if args.json else arena.report(figures))


if __name__ == "__main__":
    main()
