"""What a move of the normal player costs, per game: CPU per decision.

    python -m bench.normal [--hands H] [--games briscola-2,chiamata-5,...] [--gc] [--json]

Plays H hands of normal players at each table (seeded deals, dealer
rotating, bench/arena.py's `play_hand`) and times every decision of more than one choice with
`time.process_time()`: mean, 99th percentile and the dearest, in ms, and
which decision that was (phase, and for a play whether it led). The garbage
collector is off while timing unless `--gc`: a collection of the whole
process can land in any move and is not the player's work (with it on, a
few moves show 2-3 ms). docs/bots.md has the figures; issue 24 asks normal
to stay under 1 ms a move.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time

from bench.arena import play_hand
from engine.bots import normal
from engine.games import make

TABLES = ("briscola-2", "briscola-3", "briscola-4", "briscola-6", "chiamata-5", "calabresella-3")


def time_table(name: str, players: int, hands: int) -> dict:
    """Every timed decision of `hands` hands at one table: the figures as a dict."""
    game = make(name, players)
    times: list[tuple[float, str]] = []

    def timed(view, rng):
        state = view.state
        start = time.process_time()
        action = normal.play(view, rng)
        spent = time.process_time() - start
        if len(view.legal) > 1:
            times.append((spent, state.phase if state.phase != "play" else ("lead" if not state.trick else "follow")))
        return action

    for i in range(hands):
        deck = game.deck()
        random.Random(f"normal/{name}/{players}/{i}").shuffle(deck)
        dealer = i % players
        clock, moves = {"n": 0.0, "n_max": 0.0}, {"n": 0}
        rngs = [random.Random(f"{i}/{s}") for s in range(players)]
        play_hand(game, dealer, game.plan(dealer).deal(deck), [timed] * players, rngs, clock, moves, ["n"] * players)
    spent_sorted = sorted(t for t, _ in times)
    dearest = max(times)
    return {
        "table": f"{name}-{players}",
        "decisions": len(times),
        "mean_ms": 1000 * sum(spent_sorted) / len(spent_sorted),
        "p99_ms": 1000 * spent_sorted[int(0.99 * (len(spent_sorted) - 1))],
        "max_ms": 1000 * dearest[0],
        "dearest": dearest[1],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/normal.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands a table (default 200)")
    parser.add_argument("--games", default=",".join(TABLES), help="tables as GAME-PLAYERS, comma-separated")
    parser.add_argument("--gc", action="store_true", help="leave the garbage collector on while timing")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.gc:
        gc.disable()
    rows = []
    for table in args.games.split(","):
        name, _, players = table.rpartition("-")
        row = time_table(name, int(players), args.hands)
        rows.append(row)
        if not args.json:
            print(
                f"{row['table']:<16} {row['decisions']:>6} decisions: mean {row['mean_ms']:.3f} ms, "
                f"p99 {row['p99_ms']:.3f}, at most {row['max_ms']:.3f} ({row['dearest']})",
                flush=True,
            )
    if args.json:
        print(json.dumps({"hands": args.hands, "gc": args.gc, "tables": rows}))


if __name__ == "__main__":
    main()
