"""A learned evaluation of Briscola for two (issue 38): the value of a full
position, every card placed but the order of the stock, to the seat about to
lead, by a small network.

A position (`Position`) is taken between tricks, the draws done, the leader
to lead: both hands, the face-down stock as a set (its order is what a
determinization guesses and the value averages over), the face-up card if it
is still to draw, each seat's card points. `features` encodes it from the
leader's side in `INPUTS` numbers, the suits relabelled so that the trump is
suit 0 (the three others keep their order): a hand of Denari trumps and the
same hand of Spade trumps read alike. `Network.value` gives the hard
player's reward to the leader (engine/bots/rewards.py: +1 a
hand won, -1 lost, plus a tenth of the card-point difference over 120) as
the normal player would go on to play the hand with the cards seen: the
network was fitted to the results of such hands (bench/train_value.py).

Pure Python and deterministic, like the rest of engine/ (stdlib only): the
first layer adds up the weights of the inputs that are set (a position sets
at most 40 of them besides its three numbers), the others are dot products.
The same weights and positions give the same values. The shipped weights are
`WEIGHTS` beside this module (`load()`), in JSON; docs/bots.md says how they
were trained (numpy, bench/train_value.py) and what they are worth.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from operator import add, mul
from pathlib import Path

from engine.cards import SUITS

WEIGHTS = Path(__file__).with_name("learned_value.json")
"""The shipped weights (bench/train_value.py writes them)."""
CARDS = 40
INPUTS = 4 * CARDS + 3
"""My hand, the other hand, the face-down stock, the face-up card still to
draw (40 each, by relabelled card index), then my points and the other's over
120 and the cards left to draw over 34."""
PILE = 34
"""Cards to draw at the first trick of Briscola for two: 33 face down and the face-up one."""


@dataclass(frozen=True)
class Position:
    """Briscola for two between tricks, every card placed (card indices, the
    engine's `Card.index`): `mine` is the hand of the seat about to lead."""

    mine: tuple[int, ...]
    other: tuple[int, ...]
    stock: tuple[int, ...]
    """The face-down cards still to draw, in any order."""
    faceup: int | None
    """The face-up card while it is still to draw, else None."""
    my_points: int
    other_points: int
    trump: int
    """The trump suit's index in `engine.cards.SUITS`."""


@cache
def relabel(trump: int) -> tuple[int, ...]:
    """Card index -> the index with the trump as suit 0, the other suits after it in their order."""
    order = [trump] + [s for s in range(len(SUITS)) if s != trump]
    place = {suit: i for i, suit in enumerate(order)}
    return tuple(place[card // 10] * 10 + card % 10 for card in range(CARDS))


def active(position: Position) -> tuple[list[int], tuple[float, float, float]]:
    """`position`'s inputs: those set to 1 (indices below `4 * CARDS`), then the
    three numbers (my points and the other's over 120, the cards left to draw
    over `PILE`)."""
    label = relabel(position.trump)
    ones = [label[card] for card in position.mine]
    ones += [CARDS + label[card] for card in position.other]
    ones += [2 * CARDS + label[card] for card in position.stock]
    if position.faceup is not None:
        ones.append(3 * CARDS + label[position.faceup])
    left = (len(position.stock) + (position.faceup is not None)) / PILE
    return ones, (position.my_points / 120.0, position.other_points / 120.0, left)


def features(position: Position) -> list[float]:
    """`position`'s inputs in full (`INPUTS` numbers), as the network was trained on them."""
    row = [0.0] * INPUTS
    ones, numbers = active(position)
    for i in ones:
        row[i] = 1.0
    row[4 * CARDS :] = numbers
    return row


@dataclass(frozen=True)
class Network:
    """A multilayer perceptron: ReLU hidden layers, one linear output.
    `layers` holds (weights, biases) pairs, the weights as one row per input
    (`inputs x outputs`)."""

    layers: tuple[tuple[tuple[tuple[float, ...], ...], tuple[float, ...]], ...]

    def value(self, position: Position, shared: dict | None = None) -> float:
        """The value of `position` to the seat about to lead. `shared` keeps the
        first layer's sum over the stock and the face-up card by position: the
        positions of one determinization, after each card, share them."""
        first = self.layers[0][0]
        label = relabel(position.trump)
        key = (position.trump, position.stock, position.faceup)
        out = shared.get(key) if shared is not None else None
        if out is None:
            out = self.stock_sum(position)
            if shared is not None:
                shared[key] = out
        for offset, cards in ((0, position.mine), (CARDS, position.other)):
            for card in cards:
                out = list(map(add, out, first[offset + label[card]]))
        for k, number in ((0, position.my_points / 120.0), (1, position.other_points / 120.0)):
            out = [o + number * w for o, w in zip(out, first[4 * CARDS + k])]
        for weights, biases in self.layers[1:]:
            hidden = [o if o > 0.0 else 0.0 for o in out]
            out = [b + sum(map(mul, hidden, column)) for column, b in zip(columns(weights), biases)]
        return out[0]

    def stock_sum(self, position: Position) -> list[float]:
        """The first layer's biases plus its weights of the stock, the face-up card and the cards left to draw."""
        first, biases = self.layers[0]
        label = relabel(position.trump)
        out = list(biases)
        for card in position.stock:
            out = list(map(add, out, first[2 * CARDS + label[card]]))
        if position.faceup is not None:
            out = list(map(add, out, first[3 * CARDS + label[position.faceup]]))
        left = (len(position.stock) + (position.faceup is not None)) / PILE
        return [o + left * w for o, w in zip(out, first[4 * CARDS + 2])]

    def values(self, positions: list[Position]) -> list[float]:
        shared: dict = {}
        return [self.value(position, shared) for position in positions]


@cache
def _columns(weights: tuple) -> tuple[tuple[float, ...], ...]:
    return tuple(zip(*weights))


def columns(weights: tuple) -> tuple[tuple[float, ...], ...]:
    """The weights one column per output (cached: a network's layers never change)."""
    return _columns(weights)


def network_of(named: dict) -> Network:
    """The network of a JSON object {"layers": [{"weights": rows, "biases": ...}, ...]}."""
    layers = tuple(
        (tuple(tuple(float(w) for w in row) for row in layer["weights"]), tuple(float(b) for b in layer["biases"]))
        for layer in named["layers"]
    )
    if not layers or len(layers[0][0]) != INPUTS or len(layers[-1][1]) != 1:
        raise ValueError(f"not a value network of {INPUTS} inputs and one output")
    for weights, biases in layers:
        if any(len(row) != len(biases) for row in weights):
            raise ValueError("a layer's weights do not fit its biases")
    for (_, biases), (after, _) in zip(layers, layers[1:]):
        if len(after) != len(biases):
            raise ValueError("a layer's inputs do not fit the outputs before it")
    return Network(layers)


def save(network: Network, path: Path | str) -> None:
    """Write `network` to `path` as JSON (each float as Python writes it: read back exactly)."""
    named = {"layers": [{"weights": [list(row) for row in w], "biases": list(b)} for w, b in network.layers]}
    Path(path).write_text(json.dumps(named, separators=(",", ":")) + "\n", encoding="utf-8")


def read(path: Path | str) -> Network:
    """The network saved at `path`."""
    return network_of(json.loads(Path(path).read_text(encoding="utf-8")))


@cache
def load() -> Network:
    """The shipped network (`WEIGHTS`), read once."""
    return read(WEIGHTS)
