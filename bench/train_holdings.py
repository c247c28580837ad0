"""Train the learned model of who holds what (research/holdings.py) from a seed.

    python -m bench.train_holdings --out /tmp/holdings --seed 1 --hands 3000 --hidden 16 --epochs 8 [--ship]

1. Data, per game (Chiamata, Calabresella): `--hands` hands of the normal
   player at every seat, the deal known. At each decision with a choice, with
   chance `--keep`, the deciding seat's view is read: every card it cannot
   locate gives one example, its rows (research/holdings_features.py, one
   per place the rules let it be in) and the place it is really in. Written to
   OUT/data-GAME.npz; a file already there is kept (resume).
2. Training: a softmax over each card's places of a tiny network's scores
   (`--hidden`: a ReLU layer's size, 0 for logistic regression), cross
   entropy, Adam, minibatches, numpy with the gradients written out. The last
   tenth of the hands are held out: their loss and the share of cards whose
   likeliest place is right are printed beside the uniform draw's (each
   place by its share of the hidden cards). After each epoch
   OUT/checkpoint-GAME.npz holds the weights, Adam's moments and the epoch: a
   run stopped and started again goes on from there and ends with the same
   weights. An epoch's minibatches come from `--seed` and the epoch alone.
3. OUT/holdings.json holds both games' networks; `--ship` copies it over the
   package's (research/holdings.json).

numpy only trains (the `train` extra); the model runs in pure Python.
Run it on one core: `OPENBLAS_NUM_THREADS=1 nice -n 10 python -m bench.train_holdings ...`.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time
from pathlib import Path

import numpy as np

from bench.arena import play_out
from engine.bots import normal
from engine.determinize import Determinizer
from engine.games import make
from engine.state import CHANCE
from research.holdings import GAMES, WEIGHTS, places
from research.holdings_features import FEATURES, Seen, rows

WIDTH = 6
"""The most places a card may be in (rows padded to this many)."""


def say(text: str) -> None:
    print(text, flush=True)


def true_place(full, name: tuple, card) -> bool:
    """Whether `card` is in the place `name` in the full state `full`."""
    if name[0] == "hand":
        return card in full.hands[name[1]]
    if name[0] == "discard":
        return card in full.history[name[1]].cards
    return not any(card in hand for hand in full.hands) and not any(
        card in a.cards for a in full.history if a.kind == "discard" and a.seat != CHANCE
    )


def examples(full, view) -> list[tuple[np.ndarray, np.ndarray, int, float]]:
    """(rows, mask, the true place's column, the uniform chance of it) per card `view` cannot locate."""
    determinizer = Determinizer(view)
    names, cards = places(determinizer)
    caps = list(determinizer.assignment.caps)
    for p, fixed in enumerate(determinizer.assignment.fixed):
        caps[p] += len(fixed)
    seen = Seen(determinizer.state)
    out = []
    for card, allowed in cards:
        if len(allowed) < 2:
            continue
        where = [names[p] for p in allowed]
        truth = [k for k, name in enumerate(where) if true_place(full, name, card)]
        if len(truth) != 1:
            raise AssertionError(f"{card} is in {len(truth)} of its places")
        x = np.zeros((WIDTH, len(FEATURES)), dtype=np.float32)
        x[: len(where)] = rows(seen, card, where)
        mask = np.zeros(WIDTH, dtype=bool)
        mask[: len(where)] = True
        room = sum(caps[p] for p in allowed)
        out.append((x, mask, truth[0], caps[allowed[truth[0]]] / room))
    return out


def hand_examples(game, seed: int, number: int, keep: float) -> list:
    """One hand of normal at every seat (bench/arena.py's `play_out`); the examples of the
    views read (module doc)."""
    rng = random.Random(f"holdings/{seed}/{game.name}/{number}")
    n = game.players
    deck = game.deck()
    rng.shuffle(deck)
    dealer = number % n
    deal = game.plan(dealer).deal(deck)
    out: list = []

    def choose(full, view):
        if len(view.legal) > 1 and rng.random() < keep:
            out.extend(examples(full, view))
        return normal.play(view, rng)

    play_out(game, dealer, deal, choose)
    return out


def generate(name: str, hands: int, seed: int, keep: float) -> dict:
    """The examples of `hands` hands as arrays; `hand` numbers each example's hand."""
    game = make(name, None, {})
    xs, masks, ys, uniform, hand = [], [], [], [], []
    for number in range(hands):
        for x, mask, y, u in hand_examples(game, seed, number, keep):
            xs.append(x)
            masks.append(mask)
            ys.append(y)
            uniform.append(u)
            hand.append(number)
    return {
        "x": np.array(xs, dtype=np.float32),
        "mask": np.array(masks),
        "y": np.array(ys, dtype=np.int64),
        "uniform": np.array(uniform, dtype=np.float64),
        "hand": np.array(hand, dtype=np.int64),
    }


def initial(seed: int, hidden: int) -> list[np.ndarray]:
    """[W1, b1, W2, b2] (a ReLU layer), or [W, b] (logistic regression)."""
    rng = np.random.default_rng(seed)
    f = len(FEATURES)
    if hidden == 0:
        return [np.zeros((1, f)), np.zeros(1)]
    return [
        rng.normal(0, (2 / f) ** 0.5, (hidden, f)),
        np.zeros(hidden),
        rng.normal(0, (1 / hidden) ** 0.5, (1, hidden)),
        np.zeros(1),
    ]


def forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(scores [N, WIDTH], the hidden layer's activations or None)."""
    if len(params) == 2:
        return x @ params[0][0] + params[1][0], None
    h = np.maximum(0.0, x @ params[0].T + params[1])
    return h @ params[2][0] + params[3][0], h


def softmax(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    s = np.where(mask, scores, -np.inf)
    s = s - s.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(s), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def gradients(params: list[np.ndarray], x, mask, y) -> tuple[float, list[np.ndarray]]:
    """Mean cross entropy of the true places, and its gradients."""
    scores, h = forward(params, x)
    p = softmax(scores, mask)
    n = len(y)
    loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
    d = p.copy()
    d[np.arange(n), y] -= 1.0
    d /= n  # d loss / d score, [N, WIDTH]
    if h is None:
        return loss, [np.einsum("nw,nwf->f", d, x)[None, :], np.array([d.sum()])]
    w2 = params[2][0]
    dh = d[:, :, None] * w2[None, None, :] * (h > 0)
    g_w1 = np.einsum("nwh,nwf->hf", dh, x)
    return loss, [g_w1, dh.sum(axis=(0, 1)), np.einsum("nw,nwh->h", d, h)[None, :], np.array([d.sum()])]


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float, step: int = 0, moments=None):
        self.lr, self.step = lr, step
        self.m, self.v = moments or ([np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params])

    def update(self, params: list[np.ndarray], grads: list[np.ndarray]) -> list[np.ndarray]:
        self.step += 1
        out = []
        for k, (p, g) in enumerate(zip(params, grads, strict=True)):
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m = self.m[k] / (1 - 0.9**self.step)
            v = self.v[k] / (1 - 0.999**self.step)
            out.append(p - self.lr * m / (np.sqrt(v) + 1e-8))
        return out


def evaluate(params: list[np.ndarray], data: dict) -> tuple[float, float]:
    """(held-out cross entropy, share of cards whose likeliest place is the true one)."""
    scores, _ = forward(params, data["x"])
    p = softmax(scores, data["mask"])
    n = len(data["y"])
    right = p[np.arange(n), data["y"]]
    return float(-np.log(right + 1e-12).mean()), float((p.argmax(axis=1) == data["y"]).mean())


def split(data: dict) -> tuple[dict, dict]:
    cut = int(data["hand"].max() * 0.9) if len(data["hand"]) else 0
    train = data["hand"] < cut
    return {k: v[train] for k, v in data.items()}, {k: v[~train] for k, v in data.items()}


def train(data: dict, hidden: int, epochs: int, seed: int, batch: int = 256, lr: float = 0.01, checkpoint=None):
    """The network fitted to `data` (module doc, 2); `checkpoint`: a path to resume from and save to."""
    params = initial(seed, hidden)
    adam = Adam(params, lr)
    done = 0
    if checkpoint is not None and Path(checkpoint).exists():
        saved = np.load(checkpoint)
        k = len(params)
        params = [saved[f"p{i}"] for i in range(k)]
        adam = Adam(
            params, lr, int(saved["step"]), ([saved[f"m{i}"] for i in range(k)], [saved[f"v{i}"] for i in range(k)])
        )
        done = int(saved["epoch"])
    for number in range(done, epochs):
        order = np.random.default_rng([seed, number]).permutation(len(data["y"]))
        for start in range(0, len(order), batch):
            take = order[start : start + batch]
            _, grads = gradients(params, data["x"][take], data["mask"][take], data["y"][take])
            params = adam.update(params, grads)
        if checkpoint is not None:
            arrays = {f"p{i}": p for i, p in enumerate(params)}
            arrays |= {f"m{i}": m for i, m in enumerate(adam.m)} | {f"v{i}": v for i, v in enumerate(adam.v)}
            np.savez(checkpoint, step=adam.step, epoch=number + 1, **arrays)
    return params


def as_layers(params: list[np.ndarray]) -> list:
    """research/holdings.py's `Model` layers."""
    pairs = [(params[i], params[i + 1]) for i in range(0, len(params), 2)]
    return [[np.round(w, 6).tolist(), np.round(b, 6).tolist()] for w, b in pairs]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/train_holdings.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--keep", type=float, default=0.3, help="chance that a decision's view is read")
    parser.add_argument("--hidden", type=int, default=16, help="the ReLU layer's size (0: logistic regression)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--ship", action="store_true", help="copy the weights over research/holdings.json")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    models = {}
    for name in GAMES:
        began = time.process_time()
        path = out / f"data-{name}.npz"
        if not path.exists():
            np.savez(path, **generate(name, args.hands, args.seed, args.keep))
        data = dict(np.load(path))
        say(f"{name}: {len(data['y'])} cards from {args.hands} hands, data {time.process_time() - began:.0f} s")
        fit, held = split(data)
        began = time.process_time()
        params = train(fit, args.hidden, args.epochs, args.seed, checkpoint=out / f"checkpoint-{name}.npz")
        loss, right = evaluate(params, held)
        uniform = float(-np.log(held["uniform"]).mean())
        say(f"{name}: held out {len(held['y'])} cards: loss {loss:.4f} (uniform {uniform:.4f}), ")
        say(f"  likeliest place right {right:.1%}; training {time.process_time() - began:.0f} s")
        models[name] = {"layers": as_layers(params), "held_out_loss": round(loss, 4), "uniform_loss": round(uniform, 4)}
    weights = {"features": list(FEATURES), "hidden": args.hidden, "seed": args.seed, "hands": args.hands}
    (out / "holdings.json").write_text(json.dumps(weights | {"models": models}, separators=(",", ":")), "utf-8")
    if args.ship:
        shutil.copy(out / "holdings.json", WEIGHTS)
        say(f"shipped {WEIGHTS}")


if __name__ == "__main__":
    main()
