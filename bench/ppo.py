"""Our levels against the published PPO agent of BriscolaBot, at Briscola for two.

    python -m bench.ppo --selfcheck --hands 200
    python -m bench.ppo --levels normal --hands 500 --seed 1
    python -m bench.ppo --levels hard --hands 500 --seed 1 --jobs 2 --json
    python -m bench.ppo --model briscola-bot-v3.onnx --levels easy,normal,hard --hands 100

The agent is BriscolaBot-v3 (LetteraUnica/BriscolaBot, MIT licence): a
two-layer MLP trained by self-play with PPO, exported to ONNX with its
sampling inside the graph (masked logits, then a Multinomial node). Its
authors report 59% won against average human players and 52% against
experts; it wins about 93% against a random player. It is not part of the
project: `--agent-repo PATH` names a git repository of it (a bare mirror is
read with `git archive`, a work tree as files), by default the mirror this
workplace keeps, or `--model FILE` names the .onnx file itself. It needs the
optional extra `pip install -e '.[ppo]'` (onnxruntime, numpy); the tests and
CI never import this script.

Duplicate format, as `bench/arena.py` (whose deals, dealer rotation, seeds
and intervals this reuses): `--hands H` deals, each played twice with the
seats swapped, so 2H hands. Both players are handed only their own seat's
view (`engine.bots.StateView`); the agent's view is translated into its
observation (see `observation`), and its sampled action is taken back to
the legal card. The agent's sampling is seeded per hand
(`onnxruntime.set_seed` before its session is made), so the figures depend
only on `--seed`, not on `--jobs` (a time budget for hard would change that;
this script plays every level at its default budget).

Figures per level: hands, decided hands (a 60-60 draw decides nothing),
the level's win share of decided hands with a 95% Wilson interval, average
card points per hand, and CPU milliseconds per move (`time.process_time`
around each call) of our player and of the agent. `--selfcheck` plays the
agent against our `random` player instead: about 93% for the agent says the
translation is right; far off, the encoding is wrong and no other figure
means anything.

`--leaf K` adds the level `hard-leaf` (hard with its playouts cut K tricks
after the root card's and valued by the learned network,
research/learned_leaf.py; `--leaf-steps` what a value counts for) for
`--levels hard-leaf`.

Progress on standard error (`--quiet` leaves it out); `--json` prints one
JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time

from bench import arena
from bench.arena import Progress, clock, play_hand, wilson
from engine import bots
from engine.cards import RANKS
from engine.games import make
from engine.games.briscola_facts import BriscolaResult

MIRROR = "/work/.mirror/LetteraUnica+BriscolaBot/repo"
MODEL_PATH = "pretrained_models/briscola-bot-v3.onnx"

# --- the agent's card numbering (src/envs/two_player_briscola) -------------------
#
# card = seed * 10 + rank; seeds 0 Bastoni, 1 Coppe, 2 Denari, 3 Spade
# (BriscolaConstants.seed_representation, UIConstants.seed_to_string); rank 0..9 is
# A, 2, 3, 4, 5, 6, 7, fante, cavallo, re (card_points 11, 0, 10, 0, 0, 0, 0, 2, 3, 4;
# card_priorities 10, 1, 9, 2, 3, 4, 5, 6, 7, 8) -- the order of engine.cards.RANKS.
# Our suits: D Denari, H Coppe, S Spade, C Bastoni.
AGENT_SEED = {"C": 0, "H": 1, "D": 2, "S": 3}
DECK = 40
TOTAL_POINTS = 120


def agent_index(card) -> int:
    """Our card as the agent numbers it."""
    return AGENT_SEED[card.suit] * 10 + RANKS.index(card.rank)


def observation(state, seat: int):
    """The agent's input for `seat`, from that seat's engine view alone:
    TwoPlayerBriscola.observe, then its action mask, as BriscolaController
    feeds the session (202 floats, shape 1 x 202).

    Rows of 40 one-hot cards: 0 the cards thrown so far (both cards of every
    completed trick: the env adds them when the trick closes, so a card led in
    the trick now on the table is not among them), 1 the briscola (the face-up
    card, set for the whole hand, after it is drawn too), 2 the card on the
    table (the other's lead, when this seat plays second), 3 this seat's hand;
    then this seat's card points and the other's, each / 120; then the mask
    (1 for each card in hand: every card is legal in Briscola)."""
    import numpy as np

    x = np.zeros(4 * DECK + 2 + DECK, dtype=np.float32)
    for trick in state.tricks:
        for card in trick.cards:
            x[agent_index(card)] = 1
    x[DECK + agent_index(state.faceup)] = 1
    if state.trick:
        x[2 * DECK + agent_index(state.trick[0])] = 1
    for card in state.hands[seat]:
        x[3 * DECK + agent_index(card)] = 1
        x[4 * DECK + 2 + agent_index(card)] = 1
    x[4 * DECK] = state.captured[seat] / TOTAL_POINTS
    x[4 * DECK + 1] = state.captured[1 - seat] / TOTAL_POINTS
    return x.reshape(1, -1)


class Agent:
    """The ONNX agent as one of our players: `agent(view, rng)` -> a legal Action.
    One session per hand (`new_hand(seed)`), seeded so its sampling repeats."""

    def __init__(self, model: str):
        self.model = model
        self.session = None

    def new_hand(self, seed: int) -> None:
        import onnxruntime as ort

        ort.set_seed(seed)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # as BriscolaController
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(self.model, sess_options=options, providers=["CPUExecutionProvider"])

    def __call__(self, view, rng):
        state = view.state
        index = int(self.session.run(["action"], {"input": observation(state, view.seat)})[0][0])
        for action in view.legal:
            if action.kind == "play" and agent_index(action.card) == index:
                return action
        raise RuntimeError(
            f"the agent chose card {index}, not in hand {[agent_index(a.card) for a in view.legal]}: the encoding is wrong"
        )


# --- the model file ----------------------------------------------------------------


def find_model(agent_repo: str | None, model: str | None, workdir: str) -> str:
    """The .onnx file: `model` as given, else `MODEL_PATH` of `agent_repo` (a work
    tree, or a bare git repository exported with git archive into `workdir`)."""
    if model:
        return model
    repo = agent_repo or MIRROR
    tree_file = os.path.join(repo, MODEL_PATH)
    if os.path.isfile(tree_file):
        return tree_file
    archive = subprocess.run(["git", "-C", repo, "archive", "HEAD", MODEL_PATH], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", workdir], input=archive.stdout, check=True)
    return os.path.join(workdir, MODEL_PATH)


# --- one deal, twice (bench/arena.py's format) --------------------------------------


def seed_of(text: str) -> int:
    return random.Random(text).getrandbits(31)


def play_deal(task: tuple) -> dict:
    """Deal `i` (arena's deal for `seed`) twice, the level and the agent in swapped
    seats; the first seat of the level and the dealer rotate as in the arena."""
    level, model, seed, i = task
    game = make("briscola", 2, {})
    deck = game.deck()
    random.Random(f"arena/{seed}/deal/{i}").shuffle(deck)
    ours, agent = arena.level(level), Agent(model)
    first, dealer = i % 2, (i // 2) % 2
    clock_ = {"a": 0.0, "b": 0.0, "a_max": 0.0, "b_max": 0.0}
    moves = {"a": 0, "b": 0}
    out = {"won": 0, "lost": 0, "draws": 0, "points": 0.0, "agent_points": 0.0}
    for number, swap in enumerate((0, 1)):
        mine = first ^ swap  # our level's seat (a side is a seat with two players)
        labels = ["a" if s == mine else "b" for s in range(2)]
        players = [ours if s == mine else agent for s in range(2)]
        rngs = [random.Random(f"arena/{seed}/player/{i}/{number}/{s}") for s in range(2)]
        agent.new_hand(seed_of(f"ppo/{seed}/agent/{i}/{number}"))
        outcome = play_hand(game, dealer, game.plan(dealer).deal(list(deck)), players, rngs, clock_, moves, labels)
        result = outcome.result
        assert isinstance(result, BriscolaResult)  # the agent plays Briscola for 2
        winner = result.winner
        if winner is None:
            out["draws"] += 1
        elif winner == mine:
            out["won"] += 1
        else:
            out["lost"] += 1
        out["points"] += result.side_points[mine]
        out["agent_points"] += result.side_points[1 - mine]
    out["clock"], out["moves"] = clock_, moves
    return out


def run(level: str, model: str, hands: int, seed: int, jobs: int = 1, progress=None) -> dict:
    """`hands` deals of `level` against the agent; the figures as a dict."""
    arena.level(level)  # an unknown level fails here, not in a worker
    tasks = [(level, model, seed, i) for i in range(hands)]
    jobs = max(1, min(jobs, hands))
    bar = Progress(hands, progress)
    if progress is not None:
        progress.write(f"ppo: {level} against the agent, {hands} deals x 2\n")
    if jobs == 1:
        deals = [bar.step(play_deal(t)) for t in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            chunk = max(1, min(hands // (jobs * 8), 4))
            deals = [bar.step(d) for d in pool.imap(play_deal, tasks, chunksize=chunk)]
    bar.done()
    total = {k: sum(d[k] for d in deals) for k in ("won", "lost", "draws", "points", "agent_points")}
    cpu = {x: sum(d["clock"][x] for d in deals) for x in "ab"}
    longest = {x: max(d["clock"][x + "_max"] for d in deals) for x in "ab"}
    moves = {x: sum(d["moves"][x] for d in deals) for x in "ab"}
    decided = total["won"] + total["lost"]
    return {
        "level": level,
        "seed": seed,
        "deals": hands,
        "hands": 2 * hands,
        "decided": decided,
        "won": total["won"],
        "draws": total["draws"],
        "win_rate": total["won"] / max(1, decided),
        "win_ci95": wilson(total["won"], decided),
        "avg_points": total["points"] / (2 * hands),
        "agent_avg_points": total["agent_points"] / (2 * hands),
        "ms_per_move": 1000 * cpu["a"] / max(1, moves["a"]),
        "max_ms": 1000 * longest["a"],
        "agent_ms_per_move": 1000 * cpu["b"] / max(1, moves["b"]),
        "moves": moves["a"],
    }


def report(f: dict) -> str:
    lo, hi = f["win_ci95"]
    line = (
        f"  {f['level']} against the agent: {f['hands']} hands ({f['deals']} deals x 2, seed {f['seed']}), "
        f"{f['decided']} decided; {f['level']} wins {100 * f['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)\n"
        f"    card points per hand: {f['level']} {f['avg_points']:.1f}, agent {f['agent_avg_points']:.1f}; "
        f"CPU per move: {f['level']} {f['ms_per_move']:.3f} ms (at most {f['max_ms']:.1f}), "
        f"agent {f['agent_ms_per_move']:.3f} ms"
    )
    if f["level"] == "random":
        agent = 1 - f["win_rate"]
        verdict = (
            "consistent with the published ~93%"
            if 1 - hi <= 0.93 <= 1 - lo
            else "FAR FROM the published ~93%: check the encoding"
        )
        line += f"\n    selfcheck: the agent wins {100 * agent:.1f}% (95% CI {100 * (1 - hi):.1f}-{100 * (1 - lo):.1f}%), {verdict}"
    return line


def add_leaf_level(tricks: int, steps: int | None) -> None:
    """The level `hard-leaf`: hard at its default budget, its playouts cut at the learned value."""
    from engine.bots import hard
    from research.learned_leaf import LEAF_STEPS, Leaf

    arena.add_level("hard-leaf", hard.make_player(leaf=Leaf(tricks, None, LEAF_STEPS if steps is None else steps)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--agent-repo", metavar="PATH", help=f"BriscolaBot's git repository (default {MIRROR})")
    where.add_argument("--model", metavar="FILE", help="the agent's .onnx file")
    parser.add_argument("--levels", default="normal,hard", help="our levels, comma-separated (default normal,hard)")
    parser.add_argument("--selfcheck", action="store_true", help="the agent against our random player instead")
    parser.add_argument("--hands", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--leaf", type=int, metavar="K", help="add the level hard-leaf: hard cut K tricks after the root's"
    )
    parser.add_argument("--leaf-steps", type=int, help="with --leaf: the steps a network value counts for")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.leaf is not None:
        add_leaf_level(args.leaf, args.leaf_steps)
    levels = ["random"] if args.selfcheck else [x.strip() for x in args.levels.split(",") if x.strip()]
    for level in levels:
        if level not in bots.PLAYERS:
            parser.error(f"unknown level {level!r} (levels: {', '.join(sorted(bots.PLAYERS))})")
    try:
        import numpy  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError:
        parser.error("the agent needs the optional extra: pip install -e '.[ppo]'")
    with tempfile.TemporaryDirectory(prefix="briscolabot-") as workdir:
        model = find_model(args.agent_repo, args.model, workdir)
        with open(model, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        progress = None if args.quiet else sys.stderr
        start = time.monotonic()
        results = [run(level, model, args.hands, args.seed, args.jobs, progress) for level in levels]
        figures = {
            "model": os.path.basename(model),
            "model_sha256": digest,
            "seed": args.seed,
            "results": results,
            "seconds": time.monotonic() - start,
        }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"Briscola for two against BriscolaBot ({figures['model']}, sha256 {digest[:12]}), duplicate deals")
        print("\n".join(report(f) for f in results))
        print(f"  wall time {clock(figures['seconds'])}")


if __name__ == "__main__":
    main()
