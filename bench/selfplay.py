"""CPU time of whole hands through the full protocol in one process (`briscola selfplay`).

    python bench/selfplay.py                 # Chiamata, 6 hands
    python bench/selfplay.py --game briscola --hands 10 --json

Every node of the table (5 seats, the host and a spectator for Chiamata)
runs in this process, as in `briscola selfplay` and the offline game against
the computer: nodes share one audit per hand and one check per signature.
Timed with `time.process_time()`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import bots  # noqa: E402
from engine.games import make  # noqa: E402
from protocol.local import LocalTable  # noqa: E402


def measure(game: str, players: int | None, hands: int, seed: int) -> dict:
    rules = make(game, players)
    table = LocalTable(
        game, rules.players, {}, choosers={s: bots.get("random") for s in range(rules.players)}, seed=seed
    )
    start = time.process_time()
    table.run(max_hands=hands)
    cpu = time.process_time() - start
    played = len(table.host.session.verdicts)
    return {"game": game, "players": rules.players, "hands": played, "cpu_ms_per_hand": round(1000 * cpu / played, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chiamata")
    parser.add_argument("--players", type=int)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.game, args.players, args.hands, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['game']}, {figures['players']} players: {figures['hands']} hands, "
            f"{figures['cpu_ms_per_hand']} ms CPU per hand (every node in one process)"
        )


if __name__ == "__main__":
    main()
