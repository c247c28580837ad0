"""Random legal playouts of complete hands, one core: hands per second.

    python bench/engine.py                 # human-readable
    python bench/engine.py --json          # {"briscola2": {"hands_per_s": N}, ...}
    python bench/engine.py --seconds 5     # measure each configuration longer

Each hand: shuffle (random.Random, seeded), lay out the deal with the game's
deal plan, build the full state, then until the hand is over resolve chance
nodes with `state.chance_outcome()` and otherwise take
`state.random_legal(rng)`, a uniformly random legal action, and read the
outcome. This is what a bot's simulation pays per hand: `random_legal` is
what a playout calls (it builds a Calabresella discard directly instead of
listing all 1,820), and its cost is included.

Time is CPU time of this process (`time.process_time`), so a busy machine
slows the figures less than wall time would. Targets (issue "The API every
client stands on"): briscola2 >= 6,000 hands/s, chiamata >= 5,000,
calabresella >= 2,500.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.games import make  # noqa: E402
from engine.state import CHANCE, TERMINAL  # noqa: E402

CONFIGS = {
    "briscola2": ("briscola", 2),
    "briscola3": ("briscola", 3),
    "briscola4": ("briscola", 4),
    "briscola6": ("briscola", 6),
    "chiamata": ("chiamata", 5),
    "calabresella": ("calabresella", 3),
}
TARGETS = {"briscola2": 6000, "chiamata": 5000, "calabresella": 2500}


def playout(game, dealer: int, rng: random.Random):
    """One complete hand of random legal play; returns the final state."""
    deck = game.deck()
    rng.shuffle(deck)
    state = game.new_hand(dealer, game.plan(dealer).deal(deck))
    while True:
        turn = state.current_player()
        if turn == TERMINAL:
            return state
        if turn == CHANCE:
            state.apply(state.chance_outcome())
        else:
            state.apply(state.random_legal(rng))


def measure(name: str, seconds: float, seed: int = 1) -> float:
    """Complete hands per CPU second for one configuration."""
    game = make(*CONFIGS[name])
    rng = random.Random(seed)
    players = game.players
    for dealer in range(players):  # warm up
        playout(game, dealer, rng).outcome()
    hands = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        for _ in range(20):
            playout(game, hands % players, rng).outcome()
            hands += 1
        now = clock()
        if now >= deadline:
            return hands / (now - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration (default 2)")
    parser.add_argument("--only", choices=sorted(CONFIGS), action="append", help="measure only these")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    names = args.only or list(CONFIGS)
    results = {name: {"hands_per_s": round(measure(name, args.seconds))} for name in names}
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"random legal playouts, one core, {args.seconds:g} s each")
    for name, result in results.items():
        game, players = CONFIGS[name]
        rate = result["hands_per_s"]
        target = TARGETS.get(name)
        note = f"   (target >= {target:,}: {'ok' if rate >= target else 'BELOW'})" if target else ""
        label = f"{game} {players}p"
        print(f"  {name:<13} {label:<16} {rate:>8,} hands/s{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
