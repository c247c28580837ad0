"""The easy player: a few simple rules, from the seat's view only.

- Play: when a card of its own beats the trick and the trick holds points,
  take it with the cheapest such card; otherwise play the cheapest card
  (fewest points, not a trump, lowest rank). It does not count cards, does
  not help a partner and does not think about the seats still to play.
- Briscola: declares a black hand when it can; never exchanges.
- Chiamata: bids (the highest rank it may) only with four cards of a suit
  including its ace or three, never a target; calls a card of its longest
  suit.
- Calabresella: bids Chiamo with at least two 3s and two aces, calls a
  missing 3 (or 2) of its longest suit, gives back and discards its
  cheapest cards, never raises, takes nothing from the monte.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from ..cards import SUITS, Card
from ..determinize import state_of
from ..games.calabresella import CalabresellaState
from ..games.chiamata import ChiamataState
from ..state import Action, State, play_action
from .heuristics import Table, beats
from .stateview import View, seat_of


def play(view: View, rng: Random) -> Action:
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to play now")
    if len(legal) == 1:
        return legal[0]
    state = state_of(view)
    seat = seat_of(view)
    phase = state.phase
    kinds = {a.kind for a in legal}
    if "declare" in kinds:
        return Action(seat, "declare")
    if phase == "auction":
        return _bid(state, seat, legal)
    if phase == "call":
        return _call(state, seat, legal)
    if phase == "raise":
        return Action(seat, "raise", choice="none")
    if phase == "take":
        return Action(seat, "take", cards=())
    if phase in ("return", "discard"):
        assert isinstance(state, CalabresellaState)  # the one game with returns and discards
        return _give_away(state, seat, legal)
    table = Table(state, seat)
    allowed = sorted({a.card for a in legal if a.kind == "play" and a.card is not None})  # (every play has its card)
    return play_action(seat, _card(table, allowed))


def _cost(table: Table, card: Card) -> tuple:
    """Cheapest first: fewest points, not a trump, lowest rank."""
    return (table.value[card.index], card.suit == table.trump, table.strength[card.index], card.index)


def _card(table: Table, allowed: list[Card]) -> Card:
    if table.trick:
        best = table.trick[0]
        for card in table.trick[1:]:
            if beats(card, best, table.trump, table.strength):
                best = card
        winners = [c for c in allowed if beats(c, best, table.trump, table.strength)]
        if winners and table.trick_points(table.trick) > 0:
            return min(winners, key=lambda c: _cost(table, c))
    return min(allowed, key=lambda c: _cost(table, c))


def _longest_suit(hand: list[Card]) -> str:
    return max(SUITS, key=lambda s: (sum(c.suit == s for c in hand), -SUITS.index(s)))


def _bid(state: State, seat: int, legal: Sequence[Action]) -> Action:
    hand = list(state.hands[seat])
    passing = next(a for a in legal if a.kind == "pass")
    bids = [a for a in legal if a.kind == "bid"]
    if isinstance(state, ChiamataState):
        strong = any(
            sum(c.suit == s for c in hand) >= 4 and (Card("A", s) in hand or Card("3", s) in hand) for s in SUITS
        )
        plain = [a for a in bids if a.rank != "2" or a.target is None]
        if state.game.options["auction"] == "points":
            plain = [a for a in bids if a.target is not None and a.target <= 65]  # (a points bid has its target)
        return plain[0] if strong and plain else passing
    threes = sum(c.rank == "3" for c in hand)
    aces = sum(c.rank == "A" for c in hand)
    chiamo = [a for a in bids if a.contract == "chiamo"]
    return chiamo[0] if threes >= 2 and aces >= 2 and chiamo else passing


def _call(state: State, seat: int, legal: Sequence[Action]) -> Action:
    hand = list(state.hands[seat])
    suit = _longest_suit(hand)
    if isinstance(state, CalabresellaState):
        for rank in "32":
            for s in [suit] + [x for x in SUITS if x != suit]:
                if Card(rank, s) not in hand:
                    return Action(seat, "call", card=Card(rank, s))
        return legal[0]
    mine = [
        a for a in legal if a.card is not None and a.card.suit == suit and a.card not in hand
    ]  # (a call names a card)
    return (mine or [a for a in legal if a.card not in hand] or list(legal))[0]


def _give_away(state: CalabresellaState, seat: int, legal: Sequence[Action]) -> Action:
    """The cheapest cards: fewest thirds, lowest rank."""
    table = Table(state, seat)
    hand = sorted(table.hand, key=lambda c: (table.value[c.index], table.strength[c.index], c.index))
    if state.phase == "return":
        return Action(seat, "return", card=hand[0])
    count = state.discarders[0][1]
    return Action(seat, "discard", cards=tuple(sorted(hand[:count])))
