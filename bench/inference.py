"""Hard with and without inference from the other seats' plays, against normal.

    python -m bench.inference --hands 100 --seed 21 --steps 40000 [--game briscola --players 2] [--jobs J] [--json]
    python -m bench.inference --game calabresella --hands 120 --seed 8 --agreement 0.95
    python -m bench.inference --placement --hands 6 [--game G] [--agreement A]

`hard-inference` (`make_player(steps=STEPS, infer=True)`, or
`infer=AGREEMENT` with `--agreement`: the modelled chance that a seat plays
normal's card) and `hard-uniform` (`infer=False`) each play normal on the
same duplicate deals (bench/arena.py's format), deal by deal, the order of
the two alternating from deal to deal so a change of load falls on both.
Prints arena's report of each, then the paired difference per deal
(inference's score difference against normal minus uniform's) with its 95%
interval: the luck of the deal cancels out of it. `--json` prints one JSON
object with both reports' figures and the paired difference. The budget is
in steps only (no seconds): the moves depend on the seed, not on the load.
engine/bots/inference.py says what the inference does; docs/bots.md has the
figures.

`--placement` measures what the inference knows instead: normal plays every
seat of `--hands` hands; at each decision of seat 0 with a choice, after
another seat has played a card, 30 determinizations are drawn uniformly and
30 with inference, and it prints the share of the other seats' cards each
puts in the right hand (a seat that saw every hand would place them all).
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from bench.arena import add_level, mean_ci, play_deals, report, summarise
from engine.bots import StateView, hard, normal
from engine.determinize import Determinizer
from engine.games import make
from engine.state import CHANCE
from engine.view import as_seen

LEVELS = ("hard-inference", "hard-uniform")


def paired_run(game, hands: int, seed: int, jobs: int, progress=None) -> dict:
    """Both levels against normal on each deal; their figures and the paired difference."""
    tasks = []
    for i in range(hands):
        for level in LEVELS if i % 2 == 0 else LEVELS[::-1]:
            tasks.append((game.name, game.players, {}, level, "normal", None, seed, i))
    deals = play_deals(tasks, jobs, progress)
    by_level: dict[str, list[dict]] = {level: [] for level in LEVELS}
    for task, deal in zip(tasks, deals, strict=True):
        by_level[task[3]].append(deal)
    margins = {level: [d["a_score"] - d["b_score"] for d in by_level[level]] for level in LEVELS}
    paired = [x - y for x, y in zip(*margins.values(), strict=True)]
    return {
        "results": [summarise(game, level, "normal", seed, by_level[level]) for level in LEVELS],
        "paired_diff": sum(paired) / hands,
        "paired_diff_ci95": mean_ci(paired),
    }


def placement(game, hands: int, seed: int, infer: bool | float, samples: int = 30) -> dict:
    """The share of the other seats' cards that uniform and inference
    determinizations put in the right hand (see the module doc); `infer`
    as `make_player`'s."""
    placed = {"uniform": 0, "inference": 0}
    cards = 0
    n = game.players
    for h in range(hands):
        deck = game.deck()
        random.Random(f"placement/{seed}/{h}").shuffle(deck)
        dealer = h % n
        deal = game.plan(dealer).deal(deck)
        full = game.new_hand(dealer, deal)
        views = [game.new_hand(dealer, deal.redact(s), viewer=s) for s in range(n)]
        rng = random.Random(f"placement/{seed}/{h}/rng")
        while not full.is_over():
            turn, need = full.current_player(), None
            if turn == CHANCE:
                action, need = full.chance_outcome(), full.need()
            else:
                view = StateView(views[turn], turn)
                if (
                    turn == 0
                    and len(view.legal) > 1
                    and any(a.seat > 0 and a.kind == "play" for a in view.state.history)
                ):
                    determinizer = Determinizer(view)
                    inference = hard.inference_sampler(determinizer, infer)
                    samplers = {"uniform": determinizer.sample, "inference": inference.sample}
                    for name, sample in samplers.items():
                        for _ in range(samples):
                            state = sample(rng)
                            placed[name] += sum(len(set(full.hands[s]) & set(state.hands[s])) for s in range(1, n))
                    cards += samples * sum(len(full.hands[s]) for s in range(1, n))
                action = normal.play(view, rng)
            full.apply(action)
            for s, v in enumerate(views):
                v.apply(as_seen(action, need, s))
    return {name: count / max(1, cards) for name, count in placed.items()} | {"cards": cards}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/inference.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="briscola", choices=["briscola", "chiamata", "calabresella"])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--hands", type=int, default=100, help="deals, each played twice by each level (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=hard.FAST_STEPS, help="hard's steps a move (default FAST_STEPS)")
    parser.add_argument(
        "--agreement", type=float, help="the modelled chance of normal's card (default: the inference module's)"
    )
    parser.add_argument("--placement", action="store_true", help="how many hidden cards the samples place right")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    args = parser.parse_args(argv)
    if args.agreement is not None and not 0 < args.agreement < 1:
        parser.error("--agreement is a chance between 0 and 1 (both left out)")
    players = 2 if args.players is None and args.game == "briscola" else args.players
    infer = True if args.agreement is None else args.agreement
    if args.placement:
        shares = placement(make(args.game, players, {}), args.hands, args.seed, infer)
        if args.json:
            print(json.dumps(shares | {"agreement": args.agreement}))
        else:
            cards = shares["cards"]
            print(f"the other hands' cards placed right ({cards} cards): uniform {shares['uniform']:.1%}, ", end="")
            print(f"inference {shares['inference']:.1%}")
        return
    for level, how in zip(LEVELS, (infer, False), strict=True):  # registered before any worker forks
        add_level(level, hard.make_player(seconds=None, steps=args.steps, infer=how))
    game = make(args.game, players, {})
    figures = paired_run(game, args.hands, args.seed, args.jobs, None if args.quiet else sys.stderr)
    figures.update(steps=args.steps, agreement=args.agreement)
    if args.json:
        print(json.dumps(figures))
        return
    for result in figures["results"]:
        print(report(result), flush=True)
    low, high = figures["paired_diff_ci95"]
    print(f"inference minus uniform, per deal: {figures['paired_diff']:+.3f} (95% CI {low:+.3f} to {high:+.3f})")


if __name__ == "__main__":
    main()
