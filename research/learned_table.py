"""Briscola for two on card indices, every card placed, for the learned
evaluation (research/learned.py): a `Table` the normal player's card rule
plays on (`normal/indices.py`, as the hard player's playouts do), the
`Position` it shows between tricks, and the exact finish once at most the
last draw is left (engine/bots/endgame.py). The player of
research/learned_player.py and the training of bench/train_value.py
play on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bots import briscola2
from engine.bots.endgame import INFINITY, Endgame, answers, points_of
from engine.bots.normal.indices import choose, lead
from engine.bots.rewards import POINT_WEIGHT
from engine.cards import SUITS, Card
from engine.games.briscola import POINTS, STRENGTH, BriscolaState
from engine.state import CHANCE, State

from .learned import Position


def supports(state) -> bool:
    """Briscola for two in play (`briscola2.supports`), with the usual card order, a card to play."""
    return briscola2.supports(state) and state.strength == STRENGTH and state.phase == "play"


@dataclass
class Table:
    """A full hand of Briscola for two on indices (changed in place by `play`)."""

    hands: list[list[int]]
    trick: list[int]
    stock: list[int]
    """The face-down cards in the order they are drawn."""
    drawn: int
    faceup: int
    captured: list[int]
    leader: int
    turn: int
    trump: int

    @staticmethod
    def of(state: State) -> Table:
        """The table of a full engine state in play (`supports`), every card known."""
        if not isinstance(state, BriscolaState) or state.turn == CHANCE:
            raise ValueError("a table is Briscola for two between draws")
        return Table(
            hands=[[c.index for c in state.hands[0]], [c.index for c in state.hands[1]]],
            trick=[c.index for c in state.trick],
            stock=[known(c).index for c in state.stock],
            drawn=state.drawn,
            faceup=state.faceup.index,
            captured=list(state.captured),
            leader=state.leader,
            turn=state.turn,
            trump=SUITS.index(state.trump),
        )

    def copy(self) -> Table:
        return Table(
            [list(self.hands[0]), list(self.hands[1])],
            list(self.trick),
            self.stock,
            self.drawn,
            self.faceup,
            list(self.captured),
            self.leader,
            self.turn,
            self.trump,
        )

    def pile(self) -> int:
        """Cards still to draw, the face-up one included."""
        return len(self.stock) + 1 - self.drawn

    def play(self, card: int) -> None:
        """The seat to play plays `card`; a second card closes the trick, and the draw follows."""
        seat = self.turn
        self.hands[seat].remove(card)
        if not self.trick:
            self.trick = [card]
            self.turn = 1 - seat
            return
        led = self.trick[0]
        beats = answers(self.trump, STRENGTH)
        winner = seat if beats[led * 40 + card] else self.leader
        self.captured[winner] += POINTS[led] + POINTS[card]
        self.trick = []
        self.leader = self.turn = winner
        if self.pile() > 0:
            size = len(self.stock)
            other = self.stock[self.drawn + 1] if self.drawn + 1 < size else self.faceup
            self.hands[winner].append(self.stock[self.drawn])
            self.hands[1 - winner].append(other)
            self.drawn += 2

    def normal_card(self) -> int:
        """The normal player's card for the seat to play, the other hand known (`normal/indices.py`)."""
        seat = self.turn
        rule = choose if self.trick else lead
        left = len(self.hands[0]) + len(self.hands[1]) + len(self.trick) + self.pile()
        beats = answers(self.trump, STRENGTH)
        other = self.hands[1 - seat]
        return rule(
            self.hands[seat],
            other,
            self.trick,
            self.captured[seat],
            self.captured[1 - seat],
            left,
            self.trump,
            STRENGTH,
            POINTS,
            beats,
        )

    def position(self) -> Position:
        """What the leader sees of this table between tricks, the stock's order left out."""
        leader = self.leader
        faceup = self.faceup if self.pile() > 0 else None
        return Position(
            mine=tuple(self.hands[leader]),
            other=tuple(self.hands[1 - leader]),
            stock=tuple(self.stock[self.drawn :]),
            faceup=faceup,
            my_points=self.captured[leader],
            other_points=self.captured[1 - leader],
            trump=self.trump,
        )

    def exact_points(self, solved: dict | None = None) -> list[int]:
        """Each seat's final card points with best play by both, at most the
        last draw left (`pile() in (0, 2)`)."""
        draw = (self.stock[self.drawn], self.faceup) if self.pile() == 2 else ()
        h0, h1 = tuple(sorted(self.hands[0])), tuple(sorted(self.hands[1]))
        led = self.trick[0] if self.trick else -1
        key = (h0, h1, self.leader, led, self.captured[0], draw)
        mine = solved.get(key) if solved is not None else None
        if mine is None:
            search = Endgame(SUITS[self.trump], STRENGTH, POINTS)
            mine = points_of(search.search(h0, h1, self.leader, led, self.captured[0], draw, -INFINITY, INFINITY))
            if solved is not None:
                solved[key] = mine
        return [mine, 120 - mine]


def known(card: Card | None) -> Card:
    """`card` of a full state (never hidden there)."""
    if card is None:
        raise ValueError("a table needs every card known")
    return card


def reward(points: list[int], seat: int) -> float:
    """The hard player's reward to `seat` of a hand ending with these card
    points (engine/bots/rewards.py, Briscola for two scored a hand at a time)."""
    mine, theirs = points[seat], points[1 - seat]
    award = 1.0 if mine > 60 else -1.0 if theirs > 60 else 0.0
    return award + POINT_WEIGHT * (mine - theirs) / 120
