"""Train the learned evaluation of Briscola for two (research/learned.py) from a seed.

    python -m bench.train_value --out /tmp/learned --seed 1 --hands 200000 --hidden 64,32 --epochs 10 [--teacher V.json] [--ship]

(that command made the shipped weights: 221 s of data and about 100 s of
training on one core of this machine; docs/bots.md, research notes.)

1. Data: `--hands` hands of the normal player against itself, on card
   indices with every card placed (research/learned_table.py), each move
   a uniformly random card with chance `--explore` instead (so the positions
   after a card normal would not play are seen too). Every position between
   tricks with more than the last draw left is kept, from its leader's side,
   with the hand's result to the leader: the hard player's reward (+1 won,
   -1 lost, a tenth of the card-point difference over 120), the last tricks
   searched exactly as the hard player's playouts do. Written in chunks of
   `CHUNK` hands to OUT/data-*.npz; a chunk already there is kept (resume).
   With `--teacher V.json` both seats play greedily on that network instead,
   every card seen (`greedy_card`): a step of self-play.
2. Training: a multilayer perceptron (`--hidden`, ReLU), mean squared error,
   Adam, minibatches, in numpy with its gradients written out (no torch).
   The last `--holdout` of the hands are held out and their error printed
   after each epoch. After each epoch OUT/checkpoint-*.npz holds the weights,
   Adam's moments and the epoch: a run stopped and started again goes on
   from there and ends with the same weights. The minibatches of an epoch
   come from `--seed` and the epoch alone.
3. OUT/value.json is the network; `--ship` copies it over the package's
   weights (research/learned_value.json).

Everything is seeded: the same command gives the same weights on the same
machine. numpy only, for training (the `train` extra: `pip install -e '.[train]'`);
the network plays in pure Python (research/learned.py).
Run it on one core: `OPENBLAS_NUM_THREADS=1 nice -n 10 python -m bench.train_value ...`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.games import make
from research import learned
from research.learned import CARDS, INPUTS, PILE, WEIGHTS, Position, relabel
from research.learned_table import Table, reward

CHUNK = 2000
"""Hands a data file holds."""


def say(text: str) -> None:
    print(text, flush=True)


MINE, OTHER, STOCK, FACEUP = 1, 2, 3, 4
"""Where a card lies in `codes` (0: played, or elsewhere)."""


def codes(position: Position) -> np.ndarray:
    """`position`'s cards as 40 small numbers by relabelled index (`MINE`,
    `OTHER`, `STOCK`, `FACEUP` or 0): a position stored compactly; `rows_of`
    makes `learned.features`' rows of them."""
    label = relabel(position.trump)
    out = np.zeros(CARDS, dtype=np.int8)
    for where, cards in ((MINE, position.mine), (OTHER, position.other), (STOCK, position.stock)):
        for card in cards:
            out[label[card]] = where
    if position.faceup is not None:
        out[label[position.faceup]] = FACEUP
    return out


def rows_of(cards: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The rows of positions stored as `codes` (n x 40) and each seat's points (n x 2: mine, the other's)."""
    rows = np.zeros((len(cards), INPUTS), dtype=np.float32)
    for k, where in enumerate((MINE, OTHER, STOCK, FACEUP)):
        rows[:, k * CARDS : (k + 1) * CARDS] = cards == where
    rows[:, 4 * CARDS : 4 * CARDS + 2] = points / 120.0
    rows[:, 4 * CARDS + 2] = ((cards == STOCK) | (cards == FACEUP)).sum(axis=1) / PILE
    return rows


@dataclass(frozen=True)
class Network:
    """The network in numpy while it is trained: (weights, biases) pairs, float32."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def values(self, rows: np.ndarray) -> np.ndarray:
        return forward(self, rows)[-1][:, 0]

    def shipped(self) -> learned.Network:
        """The same network for research/learned.py (each float32 as the Python float it is)."""
        return learned.Network(tuple((tuple(map(tuple, w.tolist())), tuple(b.tolist())) for w, b in self.layers))


def play_hand(seed: int, number: int, explore: float, teacher: Network | None = None) -> tuple[list, list]:
    """Hand `number` of `seed`: the kept positions (codes, points) and each one's
    target; the moves are normal's, or `greedy_card`'s on `teacher`. (Not bench/arena.py's
    `play_out`: this hand is played on research/learned_table.py's `Table` of card indices,
    every card placed, with normal's card rule on indices, between tricks, and ends exactly
    at the last draw: not on the engine's states and the seats' views `play_out` keeps.)"""
    rng = random.Random(f"train/{seed}/hand/{number}")
    game = make("briscola", 2, {})
    deck = game.deck()
    rng.shuffle(deck)
    dealer = number % 2
    table = Table.of(game.new_hand(dealer, game.plan(dealer).deal(deck)))
    kept: list[tuple[np.ndarray, tuple[int, int], int]] = []
    solved: dict = {}
    while table.pile() > 2:
        if not table.trick:
            position = table.position()
            kept.append((codes(position), (position.my_points, position.other_points), table.leader))
        hand = table.hands[table.turn]
        if rng.random() < explore:
            table.play(rng.choice(hand))
        else:
            table.play(table.normal_card() if teacher is None else greedy_card(table, teacher, solved))
    points = table.exact_points(solved)
    return [(c, p) for c, p, _ in kept], [reward(points, leader) for _, _, leader in kept]


def greedy_card(table: Table, teacher: Network, solved: dict) -> int:
    """The card of the seat to play that is best by `teacher`'s value after the
    trick (and its draw), every card seen: an answer, the best value; a lead,
    the best value against the other seat's best answer to it. Once at most the
    last draw is left after the trick, the exact value instead. (The draw is the
    stock's real next cards: the teacher plays with the deal visible.)"""
    seat = table.turn
    hand, other = table.hands[seat], table.hands[1 - seat]
    lines = [(c,) for c in hand] if table.trick else [(c, a) for c in hand for a in other]
    values = np.zeros(len(lines))
    rows, where, signs = [], [], []
    for k, line in enumerate(lines):
        after = table.copy()
        for card in line:
            after.play(card)
        if after.pile() <= 2:
            values[k] = reward(after.exact_points(solved), seat)
        else:
            position = after.position()
            rows.append(codes(position))
            where.append(k)
            signs.append(((position.my_points, position.other_points), 1.0 if after.leader == seat else -1.0))
    if rows:
        points = np.array([p for p, _ in signs], dtype=np.float32)
        valued = teacher.values(rows_of(np.array(rows), points))
        values[where] = valued * np.array([sign for _, sign in signs])
    if table.trick:
        return hand[int(np.argmax(values))]
    worst = values.reshape(len(hand), len(other)).min(axis=1)
    return hand[int(np.argmax(worst))]


def generate(
    out: Path, seed: int, hands: int, explore: float, teacher: Path | None = None, log=say
) -> dict[str, np.ndarray]:
    """The data of `hands` hands, made (or read back) chunk by chunk in `out`
    (`teacher`: the weights whose greedy play makes the moves, else normal's)."""
    network = None if teacher is None else numpy_network(learned.read(teacher))
    tag = "normal" if teacher is None else hashlib.sha256(teacher.read_bytes()).hexdigest()[:10]
    parts = []
    began = time.monotonic()
    for start in range(0, hands, CHUNK):
        path = (
            out / f"data-{seed}-{explore}-{start // CHUNK}.npz"
            if tag == "normal"
            else out / f"data-{seed}-{explore}-{tag}-{start // CHUNK}.npz"
        )
        if not path.exists():
            cards, points, targets, hand_of = [], [], [], []
            for number in range(start, min(start + CHUNK, hands)):
                kept, values = play_hand(seed, number, explore, network)
                cards += [c for c, _ in kept]
                points += [p for _, p in kept]
                targets += values
                hand_of += [number] * len(values)
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                np.savez(
                    f,
                    cards=np.array(cards),
                    points=np.array(points, dtype=np.int16),
                    targets=np.array(targets, dtype=np.float32),
                    hand=np.array(hand_of, dtype=np.int32),
                )
            os.replace(tmp, path)
            log(f"data: {min(start + CHUNK, hands)}/{hands} hands, {time.monotonic() - began:.0f} s")
        with np.load(path) as part:
            parts.append({name: part[name] for name in part.files})
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def numpy_network(network: learned.Network) -> Network:
    """`network` in numpy (float32)."""
    return Network(tuple((np.array(w, dtype=np.float32), np.array(b, dtype=np.float32)) for w, b in network.layers))


def initial(seed: int, hidden: list[int]) -> Network:
    """He-initialised weights from `seed`."""
    rng = np.random.default_rng([seed, 0])
    sizes = [INPUTS, *hidden, 1]
    layers = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        weights = rng.normal(0.0, np.sqrt(2.0 / fan_in), size=(fan_in, fan_out)).astype(np.float32)
        layers.append((weights, np.zeros(fan_out, dtype=np.float32)))
    return Network(tuple(layers))


def forward(network: Network, rows: np.ndarray) -> list[np.ndarray]:
    """The rows, then each layer's output (ReLU between layers, none after the last)."""
    activations = [rows]
    last = len(network.layers) - 1
    for i, (weights, biases) in enumerate(network.layers):
        out = activations[-1] @ weights + biases
        activations.append(np.maximum(out, 0.0) if i < last else out)
    return activations


def gradients(network: Network, rows: np.ndarray, targets: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """Mean squared error of the batch and its gradient by each array (w0, b0, w1, b1, ...)."""
    activations = forward(network, rows)
    error = activations[-1][:, 0] - targets
    loss = float(np.mean(error**2))
    delta = (2.0 / len(targets)) * error[:, None].astype(np.float32)
    grads: list[np.ndarray] = []
    for i in range(len(network.layers) - 1, -1, -1):
        weights = network.layers[i][0]
        grads[:0] = [activations[i].T @ delta, delta.sum(axis=0)]
        if i:
            delta = (delta @ weights.T) * (activations[i] > 0)
    return loss, grads


class Adam:
    """Adam's moments over a list of arrays (lr, betas 0.9 and 0.999)."""

    def __init__(self, arrays: list[np.ndarray], lr: float, step: int = 0, moments=None):
        self.lr, self.step = lr, step
        self.m = moments[0] if moments else [np.zeros_like(a) for a in arrays]
        self.v = moments[1] if moments else [np.zeros_like(a) for a in arrays]

    def update(self, arrays: list[np.ndarray], grads: list[np.ndarray]) -> list[np.ndarray]:
        self.step += 1
        t = self.step
        out = []
        for k, (a, g) in enumerate(zip(arrays, grads)):
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**t)
            v_hat = self.v[k] / (1 - 0.999**t)
            out.append((a - self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32))
        return out


def flat(network: Network) -> list[np.ndarray]:
    return [a for layer in network.layers for a in layer]


def of_flat(arrays: list[np.ndarray]) -> Network:
    return Network(tuple((arrays[k], arrays[k + 1]) for k in range(0, len(arrays), 2)))


def epoch(network: Network, adam: Adam, data: dict, seed: int, number: int, batch: int) -> tuple[Network, float]:
    """One pass over `data` in minibatches shuffled by (seed, number); the network and the mean loss."""
    order = np.random.default_rng([seed, 1, number]).permutation(len(data["targets"]))
    arrays, losses = flat(network), []
    for start in range(0, len(order), batch):
        pick = order[start : start + batch]
        rows = rows_of(data["cards"][pick], data["points"][pick])
        loss, grads = gradients(of_flat(arrays), rows, data["targets"][pick])
        arrays = adam.update(arrays, grads)
        losses.append(loss)
    return of_flat(arrays), float(np.mean(losses))


def error_of(network: Network, data: dict) -> float:
    """Mean squared error over `data`."""
    values = network.values(rows_of(data["cards"], data["points"]))
    return float(np.mean((values - data["targets"]) ** 2))


def split(data: dict, holdout: float) -> tuple[dict, dict]:
    """(training, held-out) by hand: the last `holdout` of the hands are held out."""
    cut = int(data["hand"].max() * (1 - holdout)) if len(data["hand"]) else 0
    train = data["hand"] < cut
    return ({k: v[train] for k, v in data.items()}, {k: v[~train] for k, v in data.items()})


def train(
    data: dict,
    seed: int,
    hidden: list[int],
    epochs: int,
    batch: int,
    lr: float,
    checkpoint: Path | None = None,
    held: dict | None = None,
    log=say,
) -> Network:
    """Fit the network to `data`, resuming from `checkpoint` if there is one."""
    network, adam, first = initial(seed, hidden), None, 0
    if checkpoint is not None and checkpoint.exists():
        with np.load(checkpoint) as saved:
            count = len(flat(network))
            arrays = [saved[f"a{k}"] for k in range(count)]
            moments = ([saved[f"m{k}"] for k in range(count)], [saved[f"v{k}"] for k in range(count)])
            network, first = of_flat(arrays), int(saved["epoch"])
            adam = Adam(arrays, lr, int(saved["step"]), moments)
        log(f"resumed after epoch {first}")
    if adam is None:
        adam = Adam(flat(network), lr)
    for number in range(first, epochs):
        began = time.monotonic()
        network, loss = epoch(network, adam, data, seed, number, batch)
        held_error = f", held out {error_of(network, held):.4f}" if held is not None and len(held["targets"]) else ""
        log(f"epoch {number + 1}/{epochs}: training {loss:.4f}{held_error}, {time.monotonic() - began:.0f} s")
        if checkpoint is not None:
            write_checkpoint(checkpoint, network, adam, number + 1)
    return network


def write_checkpoint(path: Path, network: Network, adam: Adam, done: int) -> None:
    named = {f"a{k}": a for k, a in enumerate(flat(network))}
    named.update({f"m{k}": m for k, m in enumerate(adam.m)})
    named.update({f"v{k}": v for k, v in enumerate(adam.v)})
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, epoch=done, step=adam.step, **named)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/learned"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=200000)
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--hidden", default="64,32", help="hidden layer sizes")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--holdout", type=float, default=0.05)
    parser.add_argument("--teacher", type=Path, default=None, help="weights whose greedy play makes the data")
    parser.add_argument("--ship", action="store_true", help="copy the weights over the package's")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    data, held = split(generate(args.out, args.seed, args.hands, args.explore, args.teacher), args.holdout)
    print(f"{len(data['targets'])} positions to train on, {len(held['targets'])} held out", flush=True)
    hidden = [int(h) for h in args.hidden.split(",")]
    taught = "" if args.teacher is None else "-" + hashlib.sha256(args.teacher.read_bytes()).hexdigest()[:10]
    tag = f"{args.seed}-{args.explore}-{args.hands}-{args.hidden}-{args.batch}-{args.lr}{taught}"
    network = train(data, args.seed, hidden, args.epochs, args.batch, args.lr, args.out / f"checkpoint-{tag}.npz", held)
    learned.save(network.shipped(), args.out / "value.json")
    print(f"wrote {args.out / 'value.json'} after {time.monotonic() - began:.0f} s of wall time", flush=True)
    if args.ship:
        shutil.copyfile(args.out / "value.json", WEIGHTS)
        print(f"shipped as {WEIGHTS}")


if __name__ == "__main__":
    main()
