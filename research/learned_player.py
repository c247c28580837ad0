"""A player of Briscola for two on the learned evaluation (issue 38; an option,
not a level shown to players: docs/bots.md, research notes).

For each of `samples` determinizations of its view, each of its cards is
played, the trick closed by the other seat's answer as the normal player
would make it seeing both hands (as hard's playouts do), the draw made, and
`depth` more tricks played by the normal player for both seats; then the
position is valued by the network (research/learned.py), or searched
exactly once at most the last draw is left. Like hard, it plays the normal
player's card unless another card beats it on the same determinizations by
`confidence` standard errors. Where the network does not apply (the other
games, the trump exchange, the black hand) it plays `fallback` (hard).
"""

from __future__ import annotations

from math import sqrt
from random import Random

from engine.bots import hard, normal
from engine.determinize import Determinizer, Inconsistent
from engine.state import Action

from .learned import Network, load
from .learned_table import Table, reward, supports

SAMPLES = 200
"""Determinizations a move."""
DEPTH = 0
"""Tricks the normal player plays after the move's own trick before the network values the position."""
CONFIDENCE = 1.0
"""Standard errors by which a card must beat the normal player's (hard's `CONFIDENCE`)."""


def make_player(
    network: Network | None = None,
    samples: int = SAMPLES,
    depth: int = DEPTH,
    confidence: float = CONFIDENCE,
    fallback=hard.play,
):
    """A player valuing its cards with `network` (None: the shipped one, read at the first move)."""

    def play(view, rng: Random) -> Action:
        """The card the learned evaluation finds best (Briscola for two), else `fallback`'s move."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        state = view.state
        if not supports(state) or any(a.kind != "play" for a in legal) or hard.normal_is_exact(view):
            return fallback(view, rng)
        anchor = normal.play(view, rng)
        try:
            determinizer = Determinizer(view)
        except Inconsistent:
            return anchor
        cards = [card_of(a) for a in legal]
        values = card_values(determinizer, view.seat, cards, rng, network or load(), samples, depth)
        best = choose(values, cards.index(card_of(anchor)), confidence)
        return legal[best]

    return play


def card_of(action: Action) -> int:
    """The index of the card `action` plays."""
    assert action.card is not None  # a play
    return action.card.index


def card_values(
    determinizer: Determinizer, seat: int, cards: list[int], rng: Random, network: Network, samples: int, depth: int
) -> list[list[float]]:
    """The reward to `seat` of each card (columns) in each determinization (rows)."""
    values = [[0.0] * len(cards) for _ in range(samples)]
    solved: dict = {}
    shared: dict = {}
    for row in values:
        start = Table.of(determinizer.sample(rng))
        for j, card in enumerate(cards):
            table = advance(start.copy(), card, depth)
            if table.pile() <= 2:
                row[j] = reward(table.exact_points(solved), seat)
            else:
                value = network.value(table.position(), shared)
                row[j] = value if table.leader == seat else -value
    return values


def advance(table: Table, card: int, depth: int) -> Table:
    """`table` once `card` is played, its trick closed by the normal player's
    answer and `depth` more tricks played by the normal player, or sooner at
    most the last draw left."""
    table.play(card)
    if table.trick:
        table.play(table.normal_card())
    for _ in range(depth):
        if table.pile() <= 2:
            break
        table.play(table.normal_card())
        table.play(table.normal_card())
    return table


def choose(values: list[list[float]], anchor: int, confidence: float) -> int:
    """The column of the anchor, unless another beats it on the same rows by
    `confidence` standard errors of the mean difference: then the one that beats it most."""
    best, margin = anchor, 0.0
    count = len(values)
    if count < 2:
        return anchor
    for j in range(len(values[0])):
        if j == anchor:
            continue
        diffs = [row[j] - row[anchor] for row in values]
        mean = sum(diffs) / count
        variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
        if mean > confidence * sqrt(variance / count) and mean > margin:
            best, margin = j, mean
    return best


play = make_player()
"""The learned player at its default settings."""
