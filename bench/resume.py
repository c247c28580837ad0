"""CPU time to resume an offline game against the computer (`OfflineTable.resume`).

    python -m bench.resume                   # Chiamata, after 4 hands
    python -m bench.resume --game briscola --players 4 --hands 2 --json

Plays `--hands` hands (the person's seat played by a random player), keeping
the game on disk as the app does, then rebuilds every node of the table from
the transcript, keys and seat stores, as `briscola play --resume` does.
Timed with `time.process_time()`; the data folder is a fresh temporary one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time


def measure(game: str, players: int | None, hands: int, seed: int) -> dict:
    from briscola_tui.files.saved import Slot
    from briscola_tui.tables.offline import OfflineTable
    from engine import bots

    person, rng = bots.get("random"), random.Random(seed)
    table = OfflineTable(game, players, "random", hands + 1, seed=seed, slot=Slot.new(game))
    result = table.advance()
    start = time.process_time()
    while table.scored() < hands and result != "over":
        result = table.advance(person(table.me.seat_view(), rng) if result == "turn" else None)
    played = time.process_time() - start
    if table.over:
        raise SystemExit(f"the series ended after {table.scored()} hands: ask for fewer --hands")
    start = time.process_time()
    OfflineTable.resume(table.slot)
    resume = time.process_time() - start
    return {
        "game": game,
        "players": table.players,
        "hands": table.scored(),
        "entries": len(table.table.entries),
        "play_cpu_ms_per_hand": round(1000 * played / table.scored(), 1),
        "resume_cpu_ms": round(1000 * resume, 1),
        "resume_cpu_ms_per_hand": round(1000 * resume / table.scored(), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, kind, default in (
        ("--game", str, "chiamata"),
        ("--players", int, None),
        ("--hands", int, 4),
        ("--seed", int, 1),
    ):
        parser.add_argument(flag, type=kind, default=default)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["BRISCOLA_HOME"] = home
        figures = measure(args.game, args.players, args.hands, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['game']}, {figures['players']} players, {figures['hands']} hands "
            f"({figures['entries']} entries): playing {figures['play_cpu_ms_per_hand']} ms CPU per hand; "
            f"resuming {figures['resume_cpu_ms']} ms CPU ({figures['resume_cpu_ms_per_hand']} ms per hand)"
        )


if __name__ == "__main__":
    main()
