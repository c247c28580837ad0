"""A learned model of who holds what in Chiamata and Calabresella, and
determinizations drawn by it (issue 38; docs/bots.md, "hard: a learned
model of who holds what").

`probabilities(view)`: for each card the seat cannot locate, the chance of
each place it may be in (another seat's hand, a face-down discard, the
unused monte), from what the seat has seen (research/holdings_features.py).
A place the rules exclude (a seat shown void in the suit, the seat's own
cards) gets nothing: the places come from the determinizer's constraints.
The model scores each (card, place) row with a tiny network (a ReLU layer,
or none: logistic regression) and takes the softmax over the card's places.
It is trained on self-play with the deal known (bench/train_holdings.py,
numpy); here it runs in pure Python from `holdings.json`, loaded once.

`HoldingsSampler` draws determinizations in proportion to the product over
the cards of (model's chance / the uniform draw's chance) ** `strength`,
among the deals the rules allow (research/holdings_draw.py counts them).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from engine.cards import Card
from engine.determinize import Determinizer, Sample
from engine.state import State

from .holdings_draw import WeightedAssignment
from .holdings_features import FEATURES, Seen, rows

WEIGHTS = Path(__file__).with_name("holdings.json")
GAMES = ("chiamata", "calabresella")
STRENGTH = 1.0
"""The power of the model's weights over the uniform draw's (0: uniform)."""


class Model:
    """One game's network: `layers`, each (rows of weights, biases); ReLU
    between them, one output: a place's score for a card."""

    def __init__(self, layers: list):
        self.layers = [([list(map(float, r)) for r in w], list(map(float, b))) for w, b in layers]
        if len(self.layers[0][0][0]) != len(FEATURES):
            raise ValueError(f"the weights take {len(self.layers[0][0][0])} features, not {len(FEATURES)}")

    def score(self, row: list[float]) -> float:
        x = row
        last = len(self.layers) - 1
        for k, (weights, biases) in enumerate(self.layers):
            out = [sum(w * v for w, v in zip(ws, x)) + b for ws, b in zip(weights, biases)]
            x = out if k == last else [v if v > 0.0 else 0.0 for v in out]
        return x[0]


@cache
def load(path: str = str(WEIGHTS)) -> dict[str, Model]:
    """The models of both games, read once."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("features") != list(FEATURES):
        raise ValueError("the weights were trained on other features")
    return {game: Model(data["models"][game]["layers"]) for game in GAMES}


def places(determinizer: Determinizer) -> tuple[list[tuple], list[tuple]]:
    """(the determinizer's places in its order, and per unseen card: (card,
    the indices of the places it may be in))."""
    names = sorted(determinizer.index, key=determinizer.index.__getitem__)
    assignment = determinizer.assignment
    every = tuple(range(len(names)))
    cards: list[tuple[Card, tuple[int, ...]]] = [
        (card, (p,)) for p, fixed in enumerate(assignment.fixed) for card in fixed
    ]
    cards += [(card, every) for card in assignment.free]
    cards += list(assignment.restricted)
    return names, cards


def chances(determinizer: Determinizer, model: Model | None = None) -> dict:
    """card -> {place index: the model's chance}, over the places the card may be in."""
    state: State = determinizer.state
    if model is None:
        model = load()[state.game.name]
    seen = Seen(state)
    names, cards = places(determinizer)
    out = {}
    for card, allowed in cards:
        scores = [model.score(row) for row in rows(seen, card, [names[p] for p in allowed])]
        top = max(scores)
        weights = [pow(2.718281828459045, s - top) for s in scores]
        total = sum(weights)
        out[card] = {p: w / total for p, w in zip(allowed, weights)}
    return out


def probabilities(view, model: Model | None = None) -> dict:
    """card -> {place: chance} for every card `view`'s seat cannot locate
    (places as in the module doc: ("hand", seat), ("discard", t), ("undealt",))."""
    determinizer = Determinizer(view)
    names = sorted(determinizer.index, key=determinizer.index.__getitem__)
    return {card: {names[p]: c for p, c in by.items()} for card, by in chances(determinizer, model).items()}


class HoldingsSampler(Determinizer):
    """The view's determinizer, its deals drawn as the module doc says (made
    from a `Determinizer` of the view, whose reading it shares)."""

    def __init__(self, determinizer: Determinizer, strength: float = STRENGTH, model: Model | None = None):
        self.__dict__.update(determinizer.__dict__)
        caps = list(determinizer.assignment.caps)
        for p, fixed in enumerate(determinizer.assignment.fixed):
            caps[p] += len(fixed)
        weights = {}
        for card, by in chances(determinizer, model).items():
            room = sum(caps[p] for p in by)
            weights[card] = {p: (c * room / caps[p]) ** strength for p, c in by.items()}
        self.weighted = WeightedAssignment(caps, weights)

    def sample_deal(self, rng, parts: list[list[Card]] | None = None) -> Sample:
        """A deal drawn by the model (`parts`: as `Determinizer.sample_deal`'s)."""
        return super().sample_deal(rng, self.weighted.sample(rng) if parts is None else parts)


def sampler(strengths: dict[str, float], model: Model | None = None):
    """`hard.make_player(sampler=...)`: per game (chiamata, calabresella), the strength with
    which the model draws the determinizations; a game left out draws them as usual."""

    def make(determinizer: Determinizer) -> HoldingsSampler | None:
        strength = strengths.get(determinizer.game.name)
        return None if strength is None else HoldingsSampler(determinizer, strength, model)

    return make
