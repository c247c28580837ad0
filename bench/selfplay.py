"""CPU time of whole hands through the full protocol in one process (`briscola selfplay`).

    python -m bench.selfplay                 # Chiamata, 6 hands
    python -m bench.selfplay --game briscola --hands 10 --json
    python -m bench.selfplay --game calabresella --against e0a5929 --rounds 4

Every node of the table (5 seats, the host and a spectator for Chiamata)
runs in this process, as in `briscola selfplay` and the offline game against
the computer: nodes share one audit per hand and one check per signature.
Timed with `time.process_time()`.

`--against REV` measures the same hands (same seed, random players) with
this tree's protocol and with REV's, checked out in a scratch git worktree,
each run in its own interpreter (bench/revisions.py); the two alternate
for `--rounds` rounds, the first swapping every round, and the figure is
the median ratio of CPU per hand (this tree / REV) over neighbouring runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from bench.revisions import run_in, scratch_tree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(game: str, players: int | None, hands: int, seed: int) -> dict:
    from engine import bots
    from engine.games import make
    from protocol.local import LocalTable

    rules = make(game, players)
    table = LocalTable(
        game, rules.players, {}, choosers={s: bots.get("random") for s in range(rules.players)}, seed=seed
    )
    start = time.process_time()
    table.run(max_hands=hands)
    cpu = time.process_time() - start
    played = len(table.host.session.verdicts)
    return {"game": game, "players": rules.players, "hands": played, "cpu_ms_per_hand": round(1000 * cpu / played, 1)}


def against(rev: str, game: str, players: int | None, hands: int, seed: int, rounds: int) -> dict:
    """Both trees' CPU per hand, alternating, and the median ratio (this tree / `rev`)."""
    call = f"bench.measure({game!r}, {players!r}, {hands!r}, {seed!r})"
    runs: dict[str, list[float]] = {"this": [], "base": []}
    with scratch_tree(rev) as (scratch, short):
        trees = {"this": ROOT, "base": scratch}
        for r in range(rounds):
            for side in ("base", "this") if r % 2 == 0 else ("this", "base"):
                runs[side].append(run_in(trees[side], os.path.abspath(__file__), call)["cpu_ms_per_hand"])
    ratios = [t / b for t, b in zip(runs["this"], runs["base"])]
    return {
        "game": game,
        "against": short,
        "rounds": rounds,
        "hands": hands,
        "base_cpu_ms_per_hand": round(statistics.median(runs["base"]), 1),
        "cpu_ms_per_hand": round(statistics.median(runs["this"]), 1),
        "ratio": round(statistics.median(ratios), 3),
        "ratios": [round(x, 3) for x in ratios],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chiamata")
    parser.add_argument("--players", type=int)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="REV", help="compare with another git revision (see above)")
    parser.add_argument("--rounds", type=int, default=4, help="with --against: runs of each tree (default 4)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.against:
        report = against(args.against, args.game, args.players, args.hands, args.seed, args.rounds)
        if args.json:
            print(json.dumps(report))
        else:
            print(
                f"{report['game']}: {report['cpu_ms_per_hand']} ms CPU per hand here, "
                f"{report['base_cpu_ms_per_hand']} at {report['against']}: {report['ratio']}x "
                f"(median of {report['rounds']} alternating rounds: {report['ratios']})"
            )
        return
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
