"""The coach's advice (engine/bots/coach.py, the table's `h`): CPU per advice, per game.

    python -m bench.coach                 # human-readable
    python -m bench.coach --json          # {"briscola2": {"mean_s": .., "p95_s": .., "max_s": .., "hard_share": ..}, ...}
    python -m bench.coach --hands 3       # more hands per game
    python -m bench.coach --review        # the review of a whole hand, screened and in full

For each game, a few seeded hands are played by the normal player; at every
decision of seat 1 with more than one choice, the hint (`coach.hint`, the
table's `h`: hard's move, its search cut at `HINT_SECONDS` of wall clock,
plus every choice on the same samples) is timed, and the review's hard move
alone is timed on the same view, to show its share. Time is CPU
time of this process (`time.process_time`), one core.

`--review`: seat 1 plays the normal player's move but a random legal one
with the chance `--err` (a player who errs, so that there is something to
find); its hand is reviewed by `coach.review` (hard asked only where a
choice beats the player's by the margin) and by the full advice at every
decision (what the review did before), alternating which goes first, and
the two must list the same findings. Per game: CPU of each (mean, max),
their ratio, and the CPU to the first finding of each.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from engine.bots import coach
from engine.bots.playout import NORMAL_PLAYOUT
from engine.games import make
from engine.state import CHANCE

CONFIGS = {
    "briscola2": ("briscola", 2),
    "briscola3": ("briscola", 3),
    "briscola4": ("briscola", 4),
    "chiamata": ("chiamata", 5),
    "calabresella": ("calabresella", 3),
}


def hand(game, seed: int, err: float = 0.0):
    """A hand played by the normal player, seat 1 playing a random legal move with chance `err`."""
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
        if full.current_player() == 1 and rng.random() < err:
            action = rng.choice(full.legal_actions())
        actions.append(action)
        full.apply(action)
    return deal, actions


def measure(name: str, players: int, hands: int) -> dict:
    game = make(name, players)
    advice, alone = [], []
    for seed in range(hands):
        deal, actions = hand(game, seed)
        for i, (view, _action) in enumerate(coach.seat_decisions(game, 0, deal, actions, 1)):
            if len(view.legal) < 2:
                continue
            t = time.process_time()
            coach.hint(view, random.Random(i))
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


def full_review(decisions, seed: int, clock: list[float]) -> list:
    """Every decision's full advice, as the review did before it was screened; the CPU
    at its first finding appended to `clock`."""
    listed = [(v, a) for v, a in decisions if len(v.legal) > 1]
    found = []
    for i, (view, action) in enumerate(listed):
        advice = coach.advise(view, random.Random(coach.decision_seed(seed, i)), extra=(action,))
        finding = coach.finding_of(i, view, action, advice)
        if finding is not None:
            found.append(finding)
            if len(clock) == 1:
                clock.append(time.process_time())
    return found


def screened_review(decisions, seed: int, clock: list[float]) -> list:
    def found(_finding) -> None:
        if len(clock) == 1:
            clock.append(time.process_time())

    return list(coach.review(decisions, 1, seed=seed, found=found).findings)


def measure_review(name: str, players: int, hands: int, err: float) -> dict:
    game = make(name, players)
    cpu: dict[str, list[float]] = {"screened": [], "full": []}
    first: dict[str, list[float]] = {"screened": [], "full": []}
    findings = 0
    for seed in range(hands):
        deal, actions = hand(game, seed, err)
        decisions = coach.seat_decisions(game, 0, deal, actions, 1)
        order = [("screened", screened_review), ("full", full_review)]
        results = {}
        for label, run in order if seed % 2 == 0 else order[::-1]:
            clock = [time.process_time()]
            results[label] = run(decisions, seed, clock)
            cpu[label].append(time.process_time() - clock[0])
            if len(clock) > 1:
                first[label].append(clock[1] - clock[0])
        assert results["screened"] == results["full"], (name, seed)  # the same findings
        findings += len(results["full"])
    out = {"hands": hands, "findings": findings}
    for label in cpu:
        out[f"{label}_mean_s"] = round(sum(cpu[label]) / hands, 3)
        out[f"{label}_max_s"] = round(max(cpu[label]), 3)
        out[f"{label}_first_finding_max_s"] = round(max(first[label]), 3) if first[label] else None
    out["ratio"] = round(sum(cpu["full"]) / sum(cpu["screened"]), 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--only", choices=sorted(CONFIGS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--review", action="store_true", help="time the review of whole hands")
    parser.add_argument("--err", type=float, default=0.25, help="--review: seat 1's chance of a random move")
    args = parser.parse_args()
    out = {}
    for key, (name, players) in CONFIGS.items():
        if args.only and key != args.only:
            continue
        if args.review:
            out[key] = measure_review(name, players, args.hands, args.err)
            if not args.json:
                print(f"{key:<13} " + "  ".join(f"{k} {v}" for k, v in out[key].items()))
            continue
        out[key] = measure(name, players, args.hands)
        if not args.json:
            r = out[key]
            print(
                f"{key:<13} {r['decisions']:>3} decisions  mean {r['mean_s'] * 1000:6.0f} ms  "
                f"p95 {r['p95_s'] * 1000:6.0f} ms  max {r['max_s'] * 1000:6.0f} ms  "
                f"the review's hard move alone {r['hard_share']:.0%} of it"
            )
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
