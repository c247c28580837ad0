"""The learned player of Briscola for two (engine/bots/learned_player.py) in
bench/arena.py's duplicate matches, under the level name `learned`, which is
not one of the levels a player can pick (engine.bots.PLAYERS): this script
adds it for its own run.

    python bench/learned_arena.py --b hard --hands 200 --seed 1 [--samples 200] [--depth 0] [--weights FILE] [--json]

`--a` is the learned player (with `--samples` determinizations a move,
`--depth` tricks played by normal before the network values a position, the
weights of `--weights` or the shipped ones); `--b` any level, or `learned-b`
with `--b-weights` (the same player on other weights). `--ppo` plays it against
the PPO agent of bench/ppo.py instead (its figures; `pip install -e '.[ppo]'`). The figures
and their intervals are bench/arena.py's. Run it on one core:
`OPENBLAS_NUM_THREADS=1 nice -n 10 python bench/learned_arena.py ...`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import arena  # noqa: E402

from engine import bots  # noqa: E402
from engine.bots import learned, learned_player  # noqa: E402


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
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    network = learned.read(args.weights) if args.weights else None
    bots.PLAYERS["learned"] = learned_player.make_player(network, args.samples, args.depth, args.confidence)
    if args.b_weights is not None:  # two sets of weights, the same player otherwise
        other = learned.read(args.b_weights)
        bots.PLAYERS["learned-b"] = learned_player.make_player(other, args.samples, args.depth, args.confidence)
    if args.ppo:
        import ppo  # bench/ppo.py

        flags = ["--json"] * args.json + ["--quiet"] * args.quiet
        ppo.main(["--levels", "learned", "--hands", str(args.hands), "--seed", str(args.seed), *flags])
        return
    figures = arena.run(
        "briscola", 2, "learned", args.b, args.hands, args.seed, args.jobs, progress=None if args.quiet else sys.stderr
    )
    figures["settings"] = {"samples": args.samples, "depth": args.depth, "confidence": args.confidence}
    print(json.dumps(figures) if args.json else arena.report(figures))


if __name__ == "__main__":
    main()
