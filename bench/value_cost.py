"""What a value of the learned network (research/learned.py) costs: the
player's pure-Python value one position at a time, against the same network
in numpy over a batch of positions (the features built in Python, then three
matrix products), as a batched leaf would ask for them. CPU time by
`time.process_time`, the two alternated round by round; the values are
checked to agree.

    python -m bench.value_cost [--positions 600] [--rounds 5] [--seed 1] [--json]

numpy is the `train` (or `test`) extra's: `pip install -e '.[train]'`. Run it
with `OPENBLAS_NUM_THREADS=1`, one core, as the player would.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np

from research.learned import PILE, Network, Position, features, load


def positions(count: int, seed: int) -> list[Position]:
    """Positions between tricks of Briscola for two, drawn at random: three cards a hand, 0..PILE-1 left to draw."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = list(range(40))
        rng.shuffle(cards)
        left = rng.randrange(PILE)
        out.append(
            Position(
                mine=tuple(cards[:3]),
                other=tuple(cards[3:6]),
                stock=tuple(cards[6 : 6 + left]),
                faceup=cards[39] if left else None,
                my_points=rng.randrange(60),
                other_points=rng.randrange(60),
                trump=rng.randrange(4),
            )
        )
    return out


def batched(network: Network):
    """The network's values of a batch of positions, in numpy."""
    layers = [(np.array(weights), np.array(biases)) for weights, biases in network.layers]

    def values(batch: list[Position]) -> np.ndarray:
        out = np.array([features(p) for p in batch])
        for i, (weights, biases) in enumerate(layers):
            out = out @ weights + biases
            if i < len(layers) - 1:
                out = np.maximum(out, 0.0)
        return out[:, 0]

    return values


def measure(count: int, rounds: int, seed: int) -> dict:
    network, batch = load(), positions(count, seed)
    numpy_values = batched(network)
    pure, fast = [], []
    for _ in range(rounds):
        start = time.process_time()
        one_by_one = [network.value(p) for p in batch]
        pure.append((time.process_time() - start) / count)
        start = time.process_time()
        together = numpy_values(batch)
        fast.append((time.process_time() - start) / count)
    agree = max(abs(a - b) for a, b in zip(one_by_one, together.tolist()))
    python_us, numpy_us = 1e6 * statistics.median(pure), 1e6 * statistics.median(fast)
    return {
        "positions": count,
        "rounds": rounds,
        "python_us_per_value": python_us,
        "numpy_batch_us_per_value": numpy_us,
        "ratio": python_us / numpy_us,
        "largest_difference": agree,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=600, help="a batch's positions (default 600)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.positions, args.rounds, args.seed)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"a value, one at a time in pure Python: {figures['python_us_per_value']:.1f} us of CPU")
    print(
        f"a value in a numpy batch of {args.positions}: {figures['numpy_batch_us_per_value']:.1f} us "
        f"({figures['ratio']:.1f} times less; values agree within {figures['largest_difference']:.1e})"
    )


if __name__ == "__main__":
    main()
