"""Random legal playouts of complete hands, one core: hands per second.

    python -m bench.engine_speed                 # human-readable
    python -m bench.engine_speed --json          # {"briscola2": {"hands_per_s": N}, ...}
    python -m bench.engine_speed --seconds 5     # measure each configuration longer
    python -m bench.engine_speed --against dd0f741   # this tree against another revision, as ratios
    python -m bench.engine_speed --from-clone    # each hand played on a clone of it, as a bot plays

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

`--against REV` checks REV out in a scratch git worktree (removed at the
end) and measures both engines with this file's playout loop, each
configuration of each revision in its own subprocess (`python -c` with
`sys.path` set to that tree, so the two `engine` packages never mix). The
two revisions alternate, configuration by configuration, for `--rounds`
rounds (which one goes first swaps every round), and the figure per
configuration is the median of the rounds' ratios (this tree / REV), each
from two runs next to each other in time. Every run also plays a fixed set
of seeded hands (`--check` of them) and digests their actions and
outcomes: "same" says both revisions played those hands identically.

`--from-clone` plays each hand on `state.clone()` of the new hand, as a bot's
simulation plays out a copy of its state (a clone whose attributes had become
a plain dict played slower than the state it was cloned from).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time

from bench.revisions import run_in, scratch_tree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIGS = {
    "briscola2": ("briscola", 2),
    "briscola3": ("briscola", 3),
    "briscola4": ("briscola", 4),
    "briscola6": ("briscola", 6),
    "chiamata": ("chiamata", 5),
    "calabresella": ("calabresella", 3),
}
TARGETS = {"briscola2": 6000, "chiamata": 5000, "calabresella": 2500}


def playout(game, dealer: int, rng: random.Random, clone: bool = False):
    """One complete hand of random legal play; returns the final state.
    `clone`: played on a clone of the new hand, as a bot plays out a copy."""
    from engine.state import CHANCE, TERMINAL

    deck = game.deck()
    rng.shuffle(deck)
    state = game.new_hand(dealer, game.plan(dealer).deal(deck))
    if clone:
        state = state.clone()
    while True:
        turn = state.current_player()
        if turn == TERMINAL:
            return state
        if turn == CHANCE:
            state.apply(state.chance_outcome())
        else:
            state.apply(state.random_legal(rng))


def measure(name: str, seconds: float, seed: int = 1, clone: bool = False) -> float:
    """Complete hands per CPU second for one configuration."""
    from engine.games import make

    game = make(*CONFIGS[name])
    rng = random.Random(seed)
    players = game.players
    for dealer in range(players):  # warm up
        playout(game, dealer, rng, clone).outcome()
    hands = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        for _ in range(20):
            playout(game, hands % players, rng, clone).outcome()
            hands += 1
        now = clock()
        if now >= deadline:
            return hands / (now - start)


def digest(name: str, hands: int, seed: int = 7) -> str:
    """A digest of `hands` seeded random hands: every action, and each outcome."""
    from engine.games import make

    game = make(*CONFIGS[name])
    rng = random.Random(seed)
    sha = hashlib.sha256()
    for i in range(hands):
        state = playout(game, i % game.players, rng)
        out = state.outcome()
        sha.update(" | ".join(map(str, state.history)).encode())
        record = [
            out.complete,
            out.points,
            out.score,
            out.result.json(),
            [(t.leader, t.winner, t.points) for t in out.tricks],
        ]
        sha.update(json.dumps(record, sort_keys=True, default=str).encode())
    return sha.hexdigest()[:16]


# --- one revision against another ---------------------------------------------


def run_worker(tree: str, name: str, seconds: float, seed: int, check: int, clone: bool = False) -> dict:
    """Measure one configuration with the engine of `tree`, in a fresh interpreter."""
    call = (
        f'{{"hands_per_s": bench.measure({name!r}, {seconds!r}, {seed!r}, {clone!r}), '
        f'"digest": bench.digest({name!r}, {check!r})}}'
    )
    return run_in(tree, os.path.abspath(__file__), call)


def against(rev: str, names: list[str], seconds: float, rounds: int, check: int, clone: bool = False) -> dict:
    """Per configuration: both revisions' median rates and the median ratio (this tree / `rev`)."""
    with scratch_tree(rev) as (scratch, short):
        trees = {"this": ROOT, "base": scratch}
        runs: dict[str, dict[str, list[dict]]] = {name: {"this": [], "base": []} for name in names}
        for r in range(rounds):
            order = ("base", "this") if r % 2 == 0 else ("this", "base")
            for name in names:
                for side in order:
                    runs[name][side].append(run_worker(trees[side], name, seconds, 1 + r, check, clone))
    results = {}
    for name in names:
        base = [x["hands_per_s"] for x in runs[name]["base"]]
        this = [x["hands_per_s"] for x in runs[name]["this"]]
        ratios = [t / b for t, b in zip(this, base)]
        digests = {x["digest"] for x in runs[name]["base"] + runs[name]["this"]}
        results[name] = {
            "base_hands_per_s": round(statistics.median(base)),
            "hands_per_s": round(statistics.median(this)),
            "ratio": round(statistics.median(ratios), 3),
            "ratios": [round(x, 3) for x in ratios],
            "same_outcomes": len(digests) == 1,
        }
    return {
        "against": short,
        "rounds": rounds,
        "seconds": seconds,
        "check_hands": check,
        "from_clone": clone,
        "configs": results,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, help="time per configuration (default 2; 1.5 per run with --against)")
    parser.add_argument("--only", choices=sorted(CONFIGS), action="append", help="measure only these")
    parser.add_argument("--against", metavar="REV", help="measure this tree against git revision REV, as ratios")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: rounds of alternation (default 3)")
    parser.add_argument("--check", type=int, default=200, help="with --against: seeded hands compared (default 200)")
    parser.add_argument("--from-clone", action="store_true", help="play each hand on a clone of it, as bots do")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (1.5 if args.against else 2.0)
    if seconds <= 0:
        parser.error("--seconds must be positive")
    if args.rounds < 1 or args.check < 1:
        parser.error("--rounds and --check must be at least 1")
    names = args.only or list(CONFIGS)
    if args.against:
        report = against(args.against, names, seconds, args.rounds, args.check, args.from_clone)
        return report_against(report, args.json)
    results = {name: {"hands_per_s": round(measure(name, seconds, clone=args.from_clone))} for name in names}
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"random legal playouts{' from a clone' if args.from_clone else ''}, one core, {seconds:g} s each")
    for name, result in results.items():
        game, players = CONFIGS[name]
        rate = result["hands_per_s"]
        target = TARGETS.get(name)
        note = f"   (target >= {target:,}: {'ok' if rate >= target else 'BELOW'})" if target else ""
        label = f"{game} {players}p"
        print(f"  {name:<13} {label:<16} {rate:>8,} hands/s{note}")
    return 0


def report_against(report: dict, as_json: bool) -> int:
    if as_json:
        print(json.dumps(report))
        return 0
    rev = report["against"]
    print(
        f"random legal playouts{' from a clone' if report['from_clone'] else ''}, one core: this tree against {rev}, "
        f"{report['rounds']} rounds of {report['seconds']:g} s per run, alternating"
    )
    print(f"  {'':<13} {rev + ' hands/s':>15} {'this hands/s':>13} {'ratio':>7}   rounds' ratios   outcomes")
    for name, r in report["configs"].items():
        spread = " ".join(f"{x:.2f}" for x in r["ratios"])
        same = "same" if r["same_outcomes"] else "DIFFER"
        print(
            f"  {name:<13} {r['base_hands_per_s']:>15,} {r['hands_per_s']:>13,} {r['ratio']:>6.2f}x   {spread:<16} {same}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
