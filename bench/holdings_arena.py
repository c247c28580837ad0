"""hard with the learned model of who holds what (research/holdings.py) at
`--strength S` against normal, on bench/arena.py's duplicate deals of Chiamata
or Calabresella, one deal at a time on one core. Each deal is a JSON line in
`--deals-out` as soon as it is played, and a run given the same file goes on
after its last deal, so a long run can stop and go on. Strength 0 is today's
hard (the model off): two runs on the same deals, one with the model and one
without, compare paired, the luck of the deal cancelling out.

    python -m bench.holdings_arena --game chiamata --strength 1 --hands 250 --deals-out chiamata-s1.jsonl
    python -m bench.holdings_arena --game chiamata --strength 0 --hands 250 --deals-out chiamata-s0.jsonl
    python -m bench.holdings_arena --summarise chiamata-s1.jsonl [--against chiamata-s0.jsonl] [--json]

`--summarise` prints bench/arena.py's figures of the deals in a file;
`--against` adds the paired figure: over the deals both files played, the
mean of (hard − normal with the model) − (hard − normal without), with its
95% interval. Run it nice'd: `nice -n 10 python -m bench.holdings_arena ...`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench import arena
from engine.bots import hard
from engine.games import make
from research.holdings import sampler

GAMES = ("chiamata", "calabresella")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--strength", type=float, default=1.0, help="the model's strength (0: off, today's hard)")
    parser.add_argument("--hands", type=int, default=250, help="deals in all, each played twice (default 250)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals-out", type=Path, help="the JSON-lines file the deals go to (and go on from)")
    parser.add_argument("--summarise", type=Path, help="the figures of a --deals-out file, and stop")
    parser.add_argument("--against", type=Path, help="with --summarise: the paired figure against this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.summarise is not None:
        figures = summary(read(args.summarise), read(args.against) if args.against else None)
        print(json.dumps(figures) if args.json else report(figures))
        return
    if args.game is None or args.deals_out is None:
        parser.error("--game and --deals-out are needed to play (or --summarise FILE)")
    play(args)


def play(args) -> None:
    """The deals of `--seed` not yet in `--deals-out`, up to `--hands`."""
    done = read(args.deals_out) if args.deals_out.exists() else []
    first = 1 + max((line["meta"]["deal"] for line in done), default=-1)
    if first >= args.hands:
        print(f"holdings_arena: the {args.hands} deals are in {args.deals_out} already", file=sys.stderr)
        return
    holdings = {args.game: args.strength} if args.strength > 0 else {}
    arena.add_level("hard", hard.make_player(sampler=sampler(holdings)))
    game = make(args.game, None, {})
    meta = {"game": game.name, "strength": args.strength, "seed": args.seed}
    progress = None if args.quiet else sys.stderr
    arena.deal_by_deal(game, "hard", "normal", args.seed, range(first, args.hands), meta, args.deals_out, progress)


read = arena.read_deals


def summary(lines: list[dict], against: list[dict] | None) -> dict:
    """arena's figures of `lines`; with `against`, the paired difference."""
    meta = lines[0]["meta"]
    figures = arena.summarise(
        make(meta["game"], None, {}), "hard", "normal", meta["seed"], [x["figures"] for x in lines]
    )
    figures["strength"] = meta["strength"]
    if against is not None:
        theirs = {x["meta"]["deal"]: x["figures"] for x in against}
        pairs = [(x["figures"], theirs[x["meta"]["deal"]]) for x in lines if x["meta"]["deal"] in theirs]
        gains = [(a["a_score"] - a["b_score"]) - (b["a_score"] - b["b_score"]) for a, b in pairs]
        figures["paired"] = {
            "deals": len(gains),
            "against_strength": against[0]["meta"]["strength"],
            "gain": sum(gains) / max(1, len(gains)),
            "gain_ci95": arena.mean_ci(gains) if gains else [0.0, 0.0],
        }
    return figures


def report(figures: dict) -> str:
    text = arena.report(figures)
    paired = figures.get("paired")
    if paired:
        low, high = paired["gain_ci95"]
        text += (
            f"\npaired with strength {paired['against_strength']:g} on {paired['deals']} deals: "
            f"{paired['gain']:+.3f} a deal (95% CI {low:+.3f} to {high:+.3f})"
        )
    return text


if __name__ == "__main__":
    main()
