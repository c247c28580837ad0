"""determinize() on mid-hand views, one core: calls per second.

    python -m bench.determinize                # human-readable
    python -m bench.determinize --json         # {"briscola2": {"calls_per_s": N, "reads_per_s": M}, ...}
    python -m bench.determinize --seconds 5    # measure each configuration longer

For each configuration, a few seeded hands are played at random with every
seat's view kept up to date (as the table would); each view is taken when
its seat is to act about half-way through the tricks. `calls_per_s` is
`determinize(view, rng)` on such views, the view's reading cached (what a
bot pays per sample); `reads_per_s` builds the reading (`Determinizer(view)`,
paid once per move). Calabresella views are taken from hands where someone
won a contract, so the monte and the discards are in play.

Time is CPU time of this process (`time.process_time`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from bench.engine_speed import CONFIGS
from engine.determinize import Determinizer, determinize
from engine.games import make
from engine.state import CHANCE
from engine.view import as_seen


def mid_hand_views(game, rng: random.Random, wanted: int) -> list:
    """Views of the seat to act, about half-way through the tricks."""
    out = []
    while len(out) < wanted:
        dealer = rng.randrange(game.players)
        deck = game.deck()
        rng.shuffle(deck)
        deal = game.plan(dealer).deal(deck)
        full = game.new_hand(dealer, deal)
        views = [game.new_hand(dealer, deal.redact(s), viewer=s) for s in range(game.players)]
        half = (len(deck) // game.players) // 2
        while not full.is_over():
            turn = full.current_player()
            if turn >= 0 and full.phase == "play" and len(full.tricks) >= half:
                out.append(views[turn].clone())
                break
            if turn == CHANCE:
                action, need = full.chance_outcome(), full.need()
            else:
                action, need = full.random_legal(rng), None
            full.apply(action)
            for seat, view in enumerate(views):
                view.apply(as_seen(action, need, seat))
    return out


def measure(name: str, seconds: float, seed: int = 1) -> dict:
    game = make(*CONFIGS[name])
    rng = random.Random(seed)
    views = mid_hand_views(game, rng, 20)
    clock = time.process_time
    reads = 0
    start = clock()
    while clock() - start < seconds / 4 or reads < len(views):
        Determinizer(views[reads % len(views)])
        reads += 1
    reads_per_s = reads / (clock() - start)
    calls = 0
    start = clock()
    deadline = start + seconds
    while True:
        view = views[calls // 50 % len(views)]
        for _ in range(50):
            determinize(view, rng)
        calls += 50
        now = clock()
        if now >= deadline:
            break
    return {"calls_per_s": round(calls / (now - start)), "reads_per_s": round(reads_per_s)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration (default 2)")
    parser.add_argument("--only", choices=sorted(CONFIGS), action="append", help="measure only these")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    names = args.only or list(CONFIGS)
    results = {name: measure(name, args.seconds) for name in names}
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"determinize on mid-hand views, one core, CPU time, {args.seconds:g} s each")
    for name, result in results.items():
        game, players = CONFIGS[name]
        print(
            f"  {name:<13} {game + ' ' + str(players) + 'p':<16} {result['calls_per_s']:>7,} calls/s"
            f"   (reading a view: {result['reads_per_s']:,}/s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
