"""What a seat has seen, as numbers for the learned model of who holds what
(research/holdings.py): one row per hidden card and place it may be in.

A place is one of the determinizer's (engine/determinize.py): ("hand", s) a
seat's hidden cards, ("discard", t) a face-down discard, ("undealt",) the
cards not dealt out yet (Calabresella's unused monte). A row is the place's
kind, the seat's part in the hand (its place at the table from the viewer,
the lone side, its bids, what it played and to whom), the card (called,
trump, rank, value, its suit's cards seen) and the two together (how many
cards of the card's suit the seat played and led, the card against the
seat's bid rank). `FEATURES` names the columns.
"""

from __future__ import annotations

from engine.cards import BRISCOLA_ORDER, BRISCOLA_POINTS, THIRDS, TRESSETTE_ORDER, Card
from engine.state import State

PLACE_FEATURES = ("hand", "discard", "undealt")
SEAT_FEATURES = (
    "next",
    "second",
    "third",
    "fourth",
    "lone",
    "bids",
    "bid_strength",
    "passed_only",
    "hidden_cards",
    "trumps_played",
    "gave_to_lone",
    "gave_to_others",
    "tricks_won",
    "partner_known",
)
CARD_FEATURES = ("called", "trump", "rank", "value", "suit_seen", "suit_mine", "ace_or_three")
PAIR_FEATURES = ("suit_played", "suit_led", "bid_rank", "above_bid_rank", "called_lone", "trump_lone", "value_lone")
FEATURES = PLACE_FEATURES + SEAT_FEATURES + CARD_FEATURES + PAIR_FEATURES
CONTRACT_STRENGTH = {"chiamo": 1 / 3, "solo": 2 / 3, "solissimo": 1.0}


class Seen:
    """What the view's history says per seat, read once per view."""

    def __init__(self, state: State):
        self.state = state
        self.n = state.n
        chiamata = state.game.name == "chiamata"
        self.order = BRISCOLA_ORDER if chiamata else TRESSETTE_ORDER
        self.points = BRISCOLA_POINTS if chiamata else THIRDS
        self.top = 11.0 if chiamata else 3.0
        self.lone = getattr(state, "caller", None) if chiamata else getattr(state, "soloist", None)
        if self.lone is None:
            self.lone = getattr(state, "bidder", None) if chiamata else None
        self.trump = getattr(state, "trump", None)
        self.called = getattr(state, "called", None)
        self.bids = [0] * self.n
        self.bid_strength = [0.0] * self.n
        self.bid_rank: list[str | None] = [None] * self.n
        self.seat_rows: dict[int, list[float]] = {}
        self.passes = [0] * self.n
        for action in state.history:
            if action.kind == "bid":
                self._bid(action)
            elif action.kind == "pass":
                self.passes[action.seat] += 1
        self._plays()

    def _bid(self, action) -> None:
        seat = action.seat
        self.bids[seat] += 1
        if action.contract is not None:
            strength = CONTRACT_STRENGTH.get(action.contract, 0.0)
        elif action.rank is not None:
            strength = 1.0 - self.order.index(action.rank) / 10
            if action.target is not None:
                strength += (action.target - 61) / 60
            self.bid_rank[seat] = action.rank
        else:
            strength = 1.0 + ((action.target or 61) - 61) / 60
        self.bid_strength[seat] = max(self.bid_strength[seat], strength)

    def _plays(self) -> None:
        """Per seat: trumps played, points given to tricks the lone seat won and
        to the others', tricks won; per seat and suit, cards played and leads."""
        n = self.n
        self.trumps = [0] * n
        self.to_lone = [0.0] * n
        self.to_others = [0.0] * n
        self.won = [0] * n
        self.played: list[dict[str, int]] = [{} for _ in range(n)]
        self.led: list[dict[str, int]] = [{} for _ in range(n)]
        self.suit_seen: dict[str, int] = {}
        tricks: list[tuple[int, tuple[Card, ...], int | None]] = [
            (t.leader, t.cards, t.winner) for t in self.state.tricks
        ]
        if self.state.trick:
            tricks.append((self.state.leader, tuple(self.state.trick), None))
        for leader, cards, winner in tricks:
            if winner is not None:
                self.won[winner] += 1
            for k, card in enumerate(cards):
                seat = (leader + k) % n
                self.suit_seen[card.suit] = self.suit_seen.get(card.suit, 0) + 1
                self.played[seat][card.suit] = self.played[seat].get(card.suit, 0) + 1
                if k == 0:
                    self.led[seat][card.suit] = self.led[seat].get(card.suit, 0) + 1
                if card.suit == self.trump:
                    self.trumps[seat] += 1
                if winner is None or winner == seat:
                    continue
                value = self.points.get(card.rank, 0) / self.top
                if winner == self.lone:
                    self.to_lone[seat] += value
                else:
                    self.to_others[seat] += value

    def seat_row(self, seat: int) -> list[float]:
        """The seat's columns of `SEAT_FEATURES` (made once a seat)."""
        row = self.seat_rows.get(seat)
        if row is None:
            row = self.seat_rows[seat] = self._seat_row(seat)
        return row

    def _seat_row(self, seat: int) -> list[float]:
        state = self.state
        viewer = state.viewer if state.viewer is not None else 0
        away = (seat - viewer) % self.n
        return [
            float(away == 1),
            float(away == 2),
            float(away == 3),
            float(away == 4),
            float(seat == self.lone),
            self.bids[seat] / 3,
            self.bid_strength[seat],
            float(self.passes[seat] > 0 and self.bids[seat] == 0),
            state.unknown[seat] / 12,
            self.trumps[seat] / 4,
            self.to_lone[seat] / 3,
            self.to_others[seat] / 3,
            self.won[seat] / 4,
            float(bool(getattr(state, "partner_known", False))),
        ]

    def card_row(self, card: Card) -> list[float]:
        """The card's columns of `CARD_FEATURES`."""
        mine = sum(1 for c in self.state.hands[self.state.viewer or 0] if c is not None and c.suit == card.suit)
        return [
            float(card is self.called),
            float(card.suit == self.trump),
            1.0 - self.order.index(card.rank) / 9,
            self.points.get(card.rank, 0) / self.top,
            self.suit_seen.get(card.suit, 0) / 10,
            mine / 10,
            float(card.rank in "A3"),
        ]

    def pair_row(self, card: Card, seat: int) -> list[float]:
        """The card and seat's columns of `PAIR_FEATURES`."""
        rank = self.bid_rank[seat]
        lone = float(seat == self.lone)
        return [
            self.played[seat].get(card.suit, 0) / 4,
            self.led[seat].get(card.suit, 0) / 2,
            float(rank is not None and card.rank == rank),
            float(rank is not None and self.order.index(card.rank) < self.order.index(rank)),
            lone * float(card is self.called),
            lone * float(card.suit == self.trump),
            lone * self.points.get(card.rank, 0) / self.top,
        ]


def rows(seen: Seen, card: Card, places: list[tuple]) -> list[list[float]]:
    """One row of `FEATURES` per place the card may be in."""
    card_row = seen.card_row(card)
    out = []
    for place in places:
        kind = place[0]
        head = [float(kind == "hand"), float(kind == "discard"), float(kind == "undealt")]
        if kind == "hand":
            seat = place[1]
            out.append(head + seen.seat_row(seat) + card_row + seen.pair_row(card, seat))
        else:
            out.append(head + [0.0] * len(SEAT_FEATURES) + card_row + [0.0] * len(PAIR_FEATURES))
    return out
