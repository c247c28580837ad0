"""The normal player of Briscola Chiamata: bids from a hand evaluation fitted
on hands played out by this player (the side's expected points for each
trump suit and callable card), the call, and the card of `trumps.best_card`.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp

from ...cards import BRISCOLA_ORDER, SUITS, Card
from ...games.chiamata import ChiamataState
from ...state import Action, play_action
from ..heuristics import BRISCOLA_VALUE, Table
from .trumps import best_card

CHIAMATA_SUCCESS = (-0.263, 0.101)
"""(a, b): the side makes its target with probability
1 / (1 + exp(-(a + b (estimate - target + 0.5)))) (calibrated)."""
CHIAMATA_BID = 0.35
"""Bid when the side makes the target at least this often."""
LOW_TO_HIGH = BRISCOLA_ORDER[::-1]


def chiamata(state: ChiamataState, seat: int, legal: Sequence[Action]) -> Action:
    if state.phase == "auction":
        return chiamata_bid(state, seat, legal)
    if state.phase == "call":
        return chiamata_call(state, seat, legal)
    return play_action(seat, best_card(Table(state, seat)))


CHIAMATA_FEATURES = (
    "one",
    "partner",
    "trumps",
    "trump_ranks",
    "called_rank",
    "top_trumps",
    "aces",
    "threes",
    "kings_queens",
    "points",
)
"""What the caller's estimate reads from a hand, a trump suit and a called
card: a constant; 1 with a partner (0 alone); the side's trumps (its own
and the called card); the ranks of its own trumps (1 for the 2 .. 10 for
the ace, summed); the called card's rank; the side's ace and 3 of trump;
the aces, 3s (an ace-less 3 counts half), kings and queens of the other
suits; the points the caller holds in the other suits."""

CHIAMATA_WEIGHTS = (-23.39, 25.12, 1.51, 1.93, 2.57, -4.17, 0.33, -1.33, -0.29, 0.08)
"""The weights of `CHIAMATA_FEATURES` in the side's expected card points."""


def chiamata_features(hand: list[Card], suit: str, called: Card | None) -> list[float]:
    trumps = [c for c in hand if c.suit == suit]
    outside = called if called is not None and called not in hand else None  # the partner's card
    partner = outside is not None
    side = trumps + ([outside] if outside is not None else [])
    ranks = sum(10 - BRISCOLA_ORDER.index(c.rank) for c in trumps)
    called_rank = 10 - BRISCOLA_ORDER.index(outside.rank) if outside is not None else 0
    others = [c for c in hand if c.suit != suit]
    threes = sum(1.0 if Card("A", c.suit) in hand else 0.5 for c in others if c.rank == "3")
    return [
        1.0,
        float(partner),
        float(len(side)),
        float(ranks),
        float(called_rank),
        float(sum(c.rank in "A3" for c in side)),
        float(sum(c.rank == "A" for c in others)),
        threes,
        float(sum(c.rank in "KQ" for c in others)),
        float(sum(BRISCOLA_VALUE[c.index] for c in others)),
    ]


def chiamata_points(hand: list[Card], suit: str, called: Card | None) -> float:
    """The card points the caller's side may expect with `suit` as trump and
    `called` held by the partner (None, or a card of its own: alone)."""
    return sum(w * x for w, x in zip(CHIAMATA_WEIGHTS, chiamata_features(hand, suit, called)))


def _call_for(hand: list[Card], suit: str, rank: str, two_rule: bool) -> Card:
    """The card called with `rank` in `suit`: the card itself, or (the two
    rule, holding that 2) the lowest trump not held."""
    card = Card(rank, suit)
    if two_rule and rank == "2" and card in hand:
        for r in LOW_TO_HIGH:
            if Card(r, suit) not in hand:
                return Card(r, suit)
    return card


def _call_points(hand: list[Card], called: Card) -> float:
    """The side's expected points when the caller calls `called` (alone if it holds it)."""
    return chiamata_points(hand, called.suit, None if called in hand else called)


def _p_target(points: float, target: int) -> float:
    """How often a side expecting `points` makes `target`."""
    a, b = CHIAMATA_SUCCESS
    return 1.0 / (1.0 + exp(-(a + b * (points - target + 0.5))))


def chiamata_bid(state: ChiamataState, seat: int, legal: Sequence[Action]) -> Action:
    """Bid the cheapest legal bid (highest rank, lowest target) the hand
    makes often enough with its best suit; else pass."""
    hand = list(state.hands[seat])
    points_auction = state.game.options["auction"] == "points"
    best: dict[str | None, float] = {}  # rank bid -> the side's expected points with the best suit

    def expected(rank: str | None) -> float:
        if rank not in best:
            if rank is None:
                calls = [_best_called(hand, suit) for suit in SUITS]
            else:
                calls = [_call_for(hand, suit, rank, True) for suit in SUITS]
            best[rank] = max(_call_points(hand, card) for card in calls)
        return best[rank]

    for action in legal:
        if action.kind != "bid":
            continue
        rank = None if points_auction else action.rank
        if _p_target(expected(rank), action.target or 61) >= CHIAMATA_BID:
            return action
    return next(a for a in legal if a.kind == "pass")


def _best_called(hand: list[Card], suit: str) -> Card:
    """The highest card of `suit` not in hand (the best partner), else the ace."""
    for rank in BRISCOLA_ORDER:
        if Card(rank, suit) not in hand:
            return Card(rank, suit)
    return Card("A", suit)


def chiamata_call(state: ChiamataState, seat: int, legal: Sequence[Action]) -> Action:
    """The call with the best expected score: success x units (x2 with a
    partner, x4 alone)."""
    hand = list(state.hands[seat])
    target = state.target

    def worth(action: Action) -> tuple[float, int]:
        """The call's expected score, then the lower card first."""
        assert action.card is not None  # a call names its card
        p = _p_target(_call_points(hand, action.card), target)
        return (4.0 if action.card in hand else 2.0) * (2.0 * p - 1.0), -action.card.index

    return max(legal, key=worth)
