"""Duplicate matches between two computer-player levels, on the engine alone.

    python -m bench.arena --game briscola --players 2 --a normal --b random --hands 400 --seed 1
    python -m bench.arena --game chiamata --a normal --b easy --hands 1000 --json
    python -m bench.arena --game calabresella --a hard --b normal --hands 200 --budget 1000/1200steps --jobs 2

`--hands H` deals, each played twice with the levels' seats swapped
(duplicate format: the luck of the deal cancels), so 2H hands in all:

- two sides (Briscola 2 players, and 4 or 6 players in teams 0&2.. vs
  1&3..): one side is level a, the other level b, then swapped;
- one against the rest (Briscola Chiamata, Calabresella, Briscola 3
  players): one seat (the "lone seat") is a and the others b, then that
  seat is b and the others a.

The first side, or the lone seat, and the dealer rotate from deal to deal
so each level sits in every seat, at every distance from the dealer,
equally often.

Each seat's player is given its own seat's view (`engine.bots.StateView`
over an engine view kept as the table would: other seats' hidden cards
never reach it), not the full state. Players and deals are seeded from
`--seed` and the deal number only, so the figures do not depend on
`--jobs`.

Figures: Briscola, each level's win rate over decided hands (draws and, 3
players, hands nobody wins left out), with a 95% Wilson interval;
every game, each level's average score per hand (a side's score is one of
its seats' score; one against the rest, the lone seat's score), and the
95% interval of the mean paired difference a - b per deal (normal
approximation); each level's CPU milliseconds per move
(`time.process_time` around the player's call), on average and at most
(`a_max_ms`, `b_max_ms`).

`--budget` sets a searching player's budget per move, ending at whichever
limit comes first: "200" iterations, "0.05s" seconds, "2400steps" steps of
simulation (engine/bots/hard.py), or several, "1000/2400steps" (the
player's module builds it with `make_player(iterations=..., seconds=...,
steps=...)`, a limit not given being none, as engine/bots/hard.py does; a
`play` taking a `budget` keyword gets the number). Without `--budget` a
level plays at its default budget. easy, normal and random ignore it. A
time budget makes the figures depend on the machine's load.

A long match says how far it is on standard error (deals played, time so
far and left, every 5% of the deals); `--quiet` leaves that out.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path

from engine import bots
from engine.bots import StateView
from engine.games import make
from engine.games.briscola_facts import BriscolaResult
from engine.state import CHANCE, Action, State
from engine.view import as_seen

Z95 = 1.959963984540054


# --- one hand ---------------------------------------------------------------------


def play_out(game, dealer: int, deal, decide: Callable[[State, StateView], Action], sighted: Collection[int] = ()):
    """The hand of `deal` played to its end, each seat deciding on its own view, kept in step
    with the table: `decide(full state, the seat's view) -> its action` at every decision is
    where a caller plays and collects what it wants (the CPU time of each move: `play_hand`;
    the examples of bench/train_holdings.py). The final full state.

    A seat in `sighted` is given instead its seat's view of the same hand played with open
    hands (`sees_hands`, bench/oracle.py): every hand shown, the stock and any face-down
    cards still hidden."""
    full = game.new_hand(dealer, deal)
    public = bool(game.options.get("open_hands"))
    views = [game.new_hand(dealer, deal.redact(s, public_hands=public), viewer=s) for s in range(game.players)]
    if sighted:
        opened = make(game.name, game.players, {**game.options, "open_hands": True})
        full_open = opened.new_hand(dealer, deal)
        views_open = {s: opened.new_hand(dealer, deal.redact(s, public_hands=True), viewer=s) for s in sighted}
    while not full.is_over():
        turn = full.current_player()
        if turn == CHANCE:
            action, need = full.chance_outcome(), full.need()
            need_open = full_open.need() if sighted else None
        else:
            action = decide(full, StateView(views_open[turn] if turn in sighted else views[turn], turn))
            need = need_open = None
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(as_seen(action, need, seat))
        if sighted:
            full_open.apply(action)
            for seat, view in views_open.items():
                view.apply(as_seen(action, need_open, seat))
    return full


def play_hand(game, dealer: int, deal, players: list, rngs: list, clock: dict, moves: dict, labels: list):
    """Play one hand (`play_out`): `players[s]` acts for seat s on its own view (a player with
    a true `sees_hands` attribute on its open-hands view). Adds CPU seconds and moves to
    `clock[label]` and `moves[label]` (label = labels[s]). The outcome."""

    def timed(full, view: StateView) -> Action:
        label = labels[view.seat]
        start = time.process_time()
        action = players[view.seat](view, rngs[view.seat])
        spent = time.process_time() - start
        clock[label] += spent
        clock[label + "_max"] = max(clock[label + "_max"], spent)
        moves[label] += 1
        return action

    sighted = {s for s, player in enumerate(players) if getattr(player, "sees_hands", False)}
    return play_out(game, dealer, deal, timed, sighted).outcome()


# --- one deal, twice ----------------------------------------------------------------


LEVELS: dict = {}
"""Levels a bench adds for its runs (a variant of hard, a research player), by name
(`add_level`): looked up before the engine's `bots.PLAYERS`, which no bench changes. Set
before the workers fork (they inherit it)."""


def add_level(name: str, play) -> None:
    """Let the matches of this process call `play` the level `name` (it may shadow an engine level)."""
    LEVELS[name] = play


def level(name: str):
    """The player of the level `name`: this run's own, else the engine's (ValueError if none)."""
    return LEVELS[name] if name in LEVELS else bots.get(name)


def two_sides(game) -> bool:
    return game.name == "briscola" and game.players != 3


def _player(name: str, budget):
    """The player of the level `name`, given `budget` if it takes one: a module's
    `make_player(iterations=..., seconds=..., steps=...)` (hard), else a `budget`
    keyword of its `play`; the others ignore it."""
    play = level(name)
    if budget is None:
        return play
    iterations, seconds, steps = budget
    make_player = getattr(sys.modules.get(play.__module__), "make_player", None)
    if make_player is not None:
        if "steps" in inspect.signature(make_player).parameters:
            return make_player(iterations=iterations, seconds=seconds, steps=steps)
        return make_player(iterations=iterations, seconds=seconds)
    try:
        takes = "budget" in inspect.signature(play).parameters
    except (TypeError, ValueError):
        takes = False
    return functools.partial(play, budget=seconds if iterations is None else iterations) if takes else play


def play_deal(task: tuple) -> dict:
    """Deal number `i`, played twice (see the module doc); per-deal figures."""
    name, n, options, a, b, budget, seed, i = task
    game = make(name, n, options)
    deck = game.deck()
    random.Random(f"arena/{seed}/deal/{i}").shuffle(deck)
    players = {"a": _player(a, budget), "b": _player(b, budget)}
    clock = {"a": 0.0, "b": 0.0, "a_max": 0.0, "b_max": 0.0}
    moves = {"a": 0, "b": 0}
    out = {
        "a_score": 0.0,
        "b_score": 0.0,
        "a_won": 0,
        "a_decided": 0,
        "b_won": 0,
        "b_decided": 0,
        "a_points": 0.0,
        "b_points": 0.0,
        "redeals": 0,
    }
    if two_sides(game):
        sides = game.sides()
        first = i % 2
        dealer = (i // 2) % n
        plays = []
        for swap in (0, 1):
            a_side = first ^ swap
            labels = ["a" if s in sides[a_side] else "b" for s in range(n)]
            plays.append((labels, a_side))
    else:
        lone = i % n
        dealer = (i // n) % n
        plays = [
            (["a" if s == lone else "b" for s in range(n)], None),
            (["b" if s == lone else "a" for s in range(n)], None),
        ]
    for number, (labels, a_side) in enumerate(plays):
        rngs = [random.Random(f"arena/{seed}/player/{i}/{number}/{s}") for s in range(n)]
        outcome = play_hand(
            game, dealer, game.plan(dealer).deal(list(deck)), [players[x] for x in labels], rngs, clock, moves, labels
        )
        result, score = outcome.result, outcome.score
        out["redeals"] += result.redeal
        if a_side is not None:
            assert isinstance(result, BriscolaResult)  # two sides: Briscola for 2, 4 or 6
            b_side = 1 - a_side
            out["a_score"] += score[sides[a_side][0]] / 2
            out["b_score"] += score[sides[b_side][0]] / 2
            points = result.side_points
            out["a_points"] += points[a_side] / 2
            out["b_points"] += points[b_side] / 2
            if result.winner is not None:
                out["a_decided"] += 1
                out["b_decided"] += 1
                out["a_won"] += result.winner == a_side
                out["b_won"] += result.winner == b_side
        else:
            who = labels[lone]
            out[f"{who}_score"] += score[lone]
            out[f"{who}_points"] += outcome.points[lone]
            if isinstance(result, BriscolaResult) and result.winner is not None:
                out[f"{who}_decided"] += 1
                out[f"{who}_won"] += result.winner == lone
    out["clock"], out["moves"] = clock, moves
    return out


# --- the match ----------------------------------------------------------------------


def wilson(wins: int, total: int) -> list[float]:
    """95% Wilson score interval of a rate."""
    if total == 0:
        return [0.0, 1.0]
    p = wins / total
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def mean_ci(values: list[float]) -> list[float]:
    """95% interval of the mean (normal approximation)."""
    k = len(values)
    mean = sum(values) / k
    if k < 2:
        return [mean, mean]
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    half = Z95 * math.sqrt(var / k)
    return [mean - half, mean + half]


class Progress:
    """A line on `stream` (standard error) every 5% of the deals (at most one
    in 5 s) and at least every 30 s: deals played, time so far, time left at
    this pace; and one at the end."""

    def __init__(self, total: int, stream=None, every: float = 30.0):
        self.total, self.stream, self.every = total, stream, every
        self.count = 0
        self.start = self.last = time.monotonic()

    def step(self, deal):
        self.count += 1
        if self.stream is None:
            return deal
        now = time.monotonic()
        tick = self.count * 20 // self.total != (self.count - 1) * 20 // self.total
        if (tick and now - self.last >= 5) or now - self.last >= self.every:
            self.last = now
            spent = now - self.start
            left = spent * (self.total - self.count) / self.count
            self.stream.write(f"arena: {self.count}/{self.total} deals, {clock(spent)}, about {clock(left)} left\n")
            self.stream.flush()
        return deal

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write(f"arena: {self.total} deals in {clock(time.monotonic() - self.start)}\n")
            self.stream.flush()


def clock(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def run(
    game_name: str,
    players: int | None,
    a: str,
    b: str,
    hands: int,
    seed: int,
    jobs: int | None = None,
    budget=None,
    options: dict | None = None,
    progress=None,
) -> dict:
    """Play the match; the figures as a dict (the --json keys and a few more).
    `progress`: a stream (standard error) for a line every 5% of the deals."""
    level(a), level(b)  # unknown levels fail here, not in a worker
    if isinstance(budget, str):
        budget = parse_budget(budget)
    game = make(game_name, players, options or {})
    tasks = [(game.name, game.players, dict(options or {}), a, b, budget, seed, i) for i in range(hands)]
    return summarise(game, a, b, seed, play_deals(tasks, jobs, progress))


def play_deals(tasks: list[tuple], jobs: int | None, progress=None) -> list[dict]:
    """`play_deal` of every task, in order, over `jobs` processes (None: one
    a core); a progress line on `progress` every 5% of them."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    progress = Progress(len(tasks), progress)
    if jobs == 1:
        deals = [progress.step(play_deal(t)) for t in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            chunk = max(1, min(len(tasks) // (jobs * 8), 4))  # small: the progress lines come often
            deals = [progress.step(d) for d in pool.imap(play_deal, tasks, chunksize=chunk)]
    progress.done()
    return deals


def deal_by_deal(game, a: str, b: str, seed: int, numbers: range, meta: dict, out, progress=None) -> list[dict]:
    """Deals `numbers` of `seed`, `a` against `b`, one at a time on one core, each appended to
    the JSON-lines file `out` once played (None: none), as {"meta": {**meta, "deal": i},
    "figures": ...}: a run stopped anywhere loses at most the deal it was playing, and a
    longer one can go on from the file's last deal. The deals' figures, in order."""
    steps = Progress(len(numbers), progress)
    deals = []
    for i in numbers:
        deal = steps.step(play_deal((game.name, game.players, dict(game.options), a, b, None, seed, i)))
        deals.append(deal)
        if out is not None:
            with open(out, "a") as file:
                file.write(json.dumps({"meta": {**meta, "deal": i}, "figures": deal}) + "\n")
    steps.done()
    return deals


def read_deals(path) -> list[dict]:
    """The lines of a `deal_by_deal` file, each checked to be a deal's (SystemExit naming the first that is not)."""
    lines = []
    for number, text in enumerate(Path(path).read_text().splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            line["meta"]["deal"], line["figures"]["a_score"]  # noqa: B018
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{path}:{number}: not a deal's line ({error})") from None
        lines.append(line)
    return lines


def summarise(game, a: str, b: str, seed: int, deals: list[dict]) -> dict:
    """The match's figures from its deals (`play_deal`'s dicts)."""
    hands = len(deals)
    total = {key: sum(d[key] for d in deals) for key in deals[0] if key not in ("clock", "moves")}
    clock = {x: sum(d["clock"][x] for d in deals) for x in "ab"}
    longest = {x: max(d["clock"][x + "_max"] for d in deals) for x in "ab"}
    moves = {x: sum(d["moves"][x] for d in deals) for x in "ab"}
    diffs = [d["a_score"] - d["b_score"] for d in deals]
    figures = {
        "game": game.name,
        "players": game.players,
        "options": game.options,
        "a": a,
        "b": b,
        "seed": seed,
        "hands": hands,
        "a_avg_score": total["a_score"] / hands,
        "b_avg_score": total["b_score"] / hands,
        "diff_ci95": mean_ci(diffs),
        "a_avg_points": total["a_points"] / hands,
        "b_avg_points": total["b_points"] / hands,
        "a_ms_per_move": 1000 * clock["a"] / max(1, moves["a"]),
        "b_ms_per_move": 1000 * clock["b"] / max(1, moves["b"]),
        "a_max_ms": 1000 * longest["a"],
        "b_max_ms": 1000 * longest["b"],
        "a_moves": moves["a"],
        "b_moves": moves["b"],
    }
    if game.name == "briscola":
        figures["a_win_rate"] = total["a_won"] / max(1, total["a_decided"])
        figures["a_win_ci95"] = wilson(total["a_won"], total["a_decided"])
        figures["b_win_rate"] = total["b_won"] / max(1, total["b_decided"])
        figures["b_win_ci95"] = wilson(total["b_won"], total["b_decided"])
        figures["a_decided"], figures["b_decided"] = total["a_decided"], total["b_decided"]
    else:
        figures["redeals"] = total["redeals"]
    return figures


def report(f: dict) -> str:
    n, a, b = f["players"], f["a"], f["b"]
    lone = not (f["game"] == "briscola" and n != 3)
    how = "one seat against the rest" if lone else "side against side"
    lines = [
        f"{f['game']}, {n} players, {a} (a) vs {b} (b): {f['hands']} deals x 2 (duplicate, {how}), seed {f['seed']}"
    ]
    if f["game"] == "briscola":
        lo, hi = f["a_win_ci95"]
        what = "the lone seat wins" if lone else "wins"
        lines.append(
            f"  {a}: {what} {100 * f['a_win_rate']:.1f}% of {f['a_decided']} decided hands "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        )
        lo, hi = f["b_win_ci95"]
        lines.append(
            f"  {b}: {what} {100 * f['b_win_rate']:.1f}% of {f['b_decided']} decided hands "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        )
    lo, hi = f["diff_ci95"]
    whose = "the lone seat's" if lone else "a side's"
    lines.append(
        f"  average score per hand ({whose}): {a} {f['a_avg_score']:+.3f}, {b} {f['b_avg_score']:+.3f}; "
        f"difference per deal {f['a_avg_score'] - f['b_avg_score']:+.3f} (95% CI {lo:+.3f} to {hi:+.3f})"
    )
    lines.append(f"  card points per hand ({whose}): {a} {f['a_avg_points']:.1f}, {b} {f['b_avg_points']:.1f}")
    if "redeals" in f:
        lines.append(f"  hands everybody passed: {f['redeals']} of {2 * f['hands']}")
    lines.append(
        f"  CPU per move: {a} {f['a_ms_per_move']:.3f} ms (at most {f['a_max_ms']:.1f}), "
        f"{b} {f['b_ms_per_move']:.3f} ms (at most {f['b_max_ms']:.1f})"
    )
    return "\n".join(lines)


def parse_budget(text: str) -> tuple[int | None, float | None, int | None]:
    """`--budget`: "200" iterations a move, "0.05s" seconds a move, "2400steps"
    steps of simulation a move, or several ("200/0.05s", "1000/2400steps")."""
    iterations = seconds = steps = None
    for part in text.split("/"):
        part = part.strip().lower()
        try:
            if part.endswith("steps"):
                steps = int(part[:-5])
            elif part.endswith("ms"):
                seconds = float(part[:-2]) / 1000
            elif part.endswith("s"):
                seconds = float(part[:-1])
            else:
                iterations = int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"a budget is iterations (200), seconds (0.05s), steps (2400steps) or several (200/0.05s), not {text!r}"
            ) from None
    if any(x is not None and x <= 0 for x in (iterations, seconds, steps)):
        raise argparse.ArgumentTypeError(f"a budget must be positive, not {text!r}")
    return iterations, seconds, steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=["briscola", "chiamata", "calabresella"])
    parser.add_argument("--players", type=int, help="the game's smallest table unless given")
    parser.add_argument("--a", required=True, help=f"level a ({', '.join(sorted(bots.PLAYERS))})")
    parser.add_argument("--b", required=True, help="level b")
    parser.add_argument("--hands", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    parser.add_argument(
        "--budget",
        type=parse_budget,
        metavar="B",
        help="a searching player's budget per move (hard): iterations (200), seconds (0.05s), "
        "steps (2400steps) or several (1000/2400steps); without seconds the figures are "
        "reproducible (default: the level's own budget)",
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. -o auction=points (values as JSON, else text)",
    )
    parser.add_argument(
        "--holdings",
        type=float,
        metavar="S",
        help="level hard draws its determinizations by the learned model of who holds what at strength S "
        "(research/holdings.py; Chiamata and Calabresella, the default budget)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    for level in (args.a, args.b):
        if level not in bots.PLAYERS:
            parser.error(f"unknown level {level!r} (levels: {', '.join(sorted(bots.PLAYERS))})")
    if args.holdings is not None:  # before any worker forks
        from research.holdings import sampler

        add_level("hard", bots.hard.make_player(sampler=sampler({args.game: args.holdings})))
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    figures = run(
        args.game,
        args.players,
        args.a,
        args.b,
        args.hands,
        args.seed,
        args.jobs,
        args.budget,
        options,
        progress=None if args.quiet else sys.stderr,
    )
    print(json.dumps(figures) if args.json else report(figures))


if __name__ == "__main__":
    main()
