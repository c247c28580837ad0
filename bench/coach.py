"""The coach's advice (engine/bots/coach.py, the table's `h`): CPU per advice, per game.

    python bench/coach.py                 # human-readable
    python bench/coach.py --json          # {"briscola2": {"mean_s": .., "p95_s": .., "max_s": .., "hard_share": ..}, ...}
    python bench/coach.py --hands 3       # more hands per game

For each game, a few seeded hands are played by the normal player; at every
decision of seat 1 with more than one choice, `advise` is timed at its
default budget (hard's move plus every choice on the same samples), and
hard's move alone is timed on the same view, to show its share. Time is CPU
time of this process (`time.process_time`), one core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bots import coach  # noqa: E402
from engine.bots.playout import NORMAL_PLAYOUT  # noqa: E402
from engine.games import make  # noqa: E402
from engine.state import CHANCE  # noqa: E402

CONFIGS = {
    "briscola2": ("briscola", 2),
    "briscola3": ("briscola", 3),
    "briscola4": ("briscola", 4),
    "chiamata": ("chiamata", 5),
    "calabresella": ("calabresella", 3),
}


def hand(game, seed: int):
    rng = random.Random(seed)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    actions = []
    while not full.is_over():
        if full.current_player() == CHANCE:
            full.apply(full.chance_outcome())
            continue
        action = NORMAL_PLAYOUT(full, rng)
        actions.append(action)
        full.apply(action)
    return deal, actions


def measure(name: str, players: int, hands: int) -> dict:
    game = make(name, players)
    advice, alone = [], []
    for seed in range(hands):
        deal, actions = hand(game, seed)
        for i, (view, action) in enumerate(coach.seat_decisions(game, 0, deal, actions, 1)):
            if len(view.legal) < 2:
                continue
            t = time.process_time()
            coach.advise(view, random.Random(i), extra=(action,))
            advice.append(time.process_time() - t)
            t = time.process_time()
            coach.HARD(view, random.Random(i))
            alone.append(time.process_time() - t)
    advice.sort()
    return {
        "decisions": len(advice),
        "mean_s": round(sum(advice) / len(advice), 4),
        "p95_s": round(advice[int(0.95 * (len(advice) - 1))], 4),
        "max_s": round(advice[-1], 4),
        "hard_share": round(sum(alone) / sum(advice), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--only", choices=sorted(CONFIGS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = {}
    for key, (name, players) in CONFIGS.items():
        if args.only and key != args.only:
            continue
        out[key] = measure(name, players, args.hands)
        if not args.json:
            r = out[key]
            print(
                f"{key:<13} {r['decisions']:>3} decisions  mean {r['mean_s'] * 1000:6.0f} ms  "
                f"p95 {r['p95_s'] * 1000:6.0f} ms  max {r['max_s'] * 1000:6.0f} ms  "
                f"hard's move {r['hard_share']:.0%} of it"
            )
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
