"""The exact search of the last tricks of Briscola for two, every card known.

Once at most the last draw is left the other hand is no secret (it is what
a seat has not seen, bar the last face-down card), so the rest of the hand
is a game of perfect information: minimax with alpha-beta over the last
four tricks. A position is worth seat 0's final card points, 1000 more for
a hand won (over 60) and 1000 less for one lost, so a win comes first and
then points; seat 1's worth is 120 minus seat 0's.

Cards are their indices (0..39, `Card.index`). The normal player searches
here at the last draw (over each way the last face-down card can lie), and
the hard player's playouts finish every determinized hand here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import ALL_CARDS, SUITS

INFINITY = float("inf")
SUIT_OF = tuple(SUITS.index(c.suit) for c in ALL_CARDS)
"""Per card index, its suit's index in `SUITS`."""
WIN = 1000


def worth(points: int) -> int:
    """Seat 0's final `points` as a position's worth."""
    return points + (WIN if points > 60 else -WIN if points < 60 else 0)


def points_of(value: float) -> int:
    """Seat 0's final card points in a position worth `value`."""
    return int(value - WIN if value > 500 else value + WIN if value < -500 else value)


_ANSWERS: dict = {}


def answers(trump: int, strength: tuple[int, ...]) -> tuple[bool, ...]:
    """`answers(trump, strength)[led * 40 + card]`: whether `card`, played on
    `led`, takes the trick (a higher card of its suit, or a trump on another
    suit); made once per trump suit and rank order."""
    key = (trump, strength)
    table = _ANSWERS.get(key)
    if table is None:
        table = _ANSWERS[key] = tuple(
            strength[card] > strength[led] if SUIT_OF[card] == SUIT_OF[led] else SUIT_OF[card] == trump
            for led in range(40)
            for card in range(40)
        )
    return table


class Endgame:
    """Minimax with alpha-beta for seat 0 (see the module doc). Positions:
    each seat's hand (tuples of card indices), the trick's leader, the card
    led (-1 for none), seat 0's card points so far, and `draw`: the last
    face-down card and the face-up one still to draw (the trick's winner
    takes the first), or ()."""

    __slots__ = ("beats", "value")

    def __init__(self, trump: str, strength: tuple[int, ...], value: Sequence[int]):
        self.beats = answers(SUITS.index(trump), strength)
        self.value = value

    def after(
        self, h0: tuple, h1: tuple, leader: int, led: int, points: int, draw: tuple, seat: int, card: int
    ) -> float:
        """The worth of the position once `seat` (to play) plays `card`."""
        hand = h0 if seat == 0 else h1
        rest = tuple(c for c in hand if c != card)
        h0, h1 = (rest, h1) if seat == 0 else (h0, rest)
        if led < 0:
            return self.search(h0, h1, leader, card, points, draw, -INFINITY, INFINITY)
        return self.close(h0, h1, leader, led, seat, card, points, draw, -INFINITY, INFINITY)

    def search(
        self, h0: tuple, h1: tuple, leader: int, led: int, points: int, draw: tuple, alpha: float, beta: float
    ) -> float:
        if led < 0 and not draw and len(h0) <= 2:  # the last two tricks, searched whole
            if len(h0) == 1:
                return self.last_trick(h0[0], h1[0], leader, points)
            return self.two_tricks(h0, h1, leader, points)
        seat = leader if led < 0 else 1 - leader
        hand = h0 if seat == 0 else h1
        maximizing = seat == 0
        best = -INFINITY if maximizing else INFINITY
        for i in range(len(hand)):
            card = hand[i]
            rest = hand[:i] + hand[i + 1 :]
            a0, a1 = (rest, h1) if maximizing else (h0, rest)
            if led < 0:
                value = self.search(a0, a1, leader, card, points, draw, alpha, beta)
            else:
                value = self.close(a0, a1, leader, led, seat, card, points, draw, alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        return best

    def two_tricks(self, h0: tuple, h1: tuple, leader: int, points: int) -> float:
        """Two cards each, nothing to draw: the best of the leader's two
        cards against the best answer to each (exact, no window)."""
        beats, value = self.beats, self.value
        lead_hand, follow_hand = (h0, h1) if leader == 0 else (h1, h0)
        follower = 1 - leader
        best_lead: int | None = None
        for led, led_kept in ((lead_hand[0], lead_hand[1]), (lead_hand[1], lead_hand[0])):
            best_answer: int | None = None
            for card, card_kept in ((follow_hand[0], follow_hand[1]), (follow_hand[1], follow_hand[0])):
                if beats[led * 40 + card]:  # the follower takes the first trick and leads the last
                    first = follower
                    last = leader if beats[card_kept * 40 + led_kept] else follower
                else:
                    first = leader
                    last = follower if beats[led_kept * 40 + card_kept] else leader
                gained = points
                if first == 0:
                    gained += value[led] + value[card]
                if last == 0:
                    gained += value[led_kept] + value[card_kept]
                outcome = gained + (WIN if gained > 60 else -WIN if gained < 60 else 0)
                if best_answer is None or (outcome > best_answer if follower == 0 else outcome < best_answer):
                    best_answer = outcome  # the follower's best: seat 0 maximizes
            assert best_answer is not None  # two answers were weighed
            if best_lead is None or (best_answer > best_lead if leader == 0 else best_answer < best_lead):
                best_lead = best_answer
        assert best_lead is not None  # two leads were weighed
        return best_lead

    def last_trick(self, c0: int, c1: int, leader: int, points: int) -> float:
        led, card = (c0, c1) if leader == 0 else (c1, c0)
        if (1 - leader if self.beats[led * 40 + card] else leader) == 0:
            points += self.value[c0] + self.value[c1]
        return worth(points)

    def close(
        self,
        h0: tuple,
        h1: tuple,
        leader: int,
        led: int,
        seat: int,
        card: int,
        points: int,
        draw: tuple,
        alpha: float,
        beta: float,
    ) -> float:
        """The value once `seat` answers `led` with `card`: the trick is
        scored, the draw made, the winner leads."""
        winner = seat if self.beats[led * 40 + card] else leader
        if winner == 0:
            points += self.value[led] + self.value[card]
        if draw:
            if winner == 0:
                h0, h1 = h0 + draw[:1], h1 + draw[1:]
            else:
                h0, h1 = h0 + draw[1:], h1 + draw[:1]
        elif not h0:
            return worth(points)
        return self.search(h0, h1, winner, -1, points, (), alpha, beta)
