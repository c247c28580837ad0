"""The playout policies of the hard player (engine/bots/hard.py): the normal
player on a determinized full state (`FullView`, `NORMAL_PLAYOUT`), this
module's fast heuristic (`heuristic_action`: the play of each game and a
rule per phase outside it, a tenth of random moves) or random moves
(`playout_policy` names them). A policy is `(full state, rng) -> Action`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from math import comb
from random import Random
from typing import overload

from ..cards import ALL_CARDS, BRISCOLA_ORDER, TRESSETTE_ORDER, Card
from ..games.briscola import BriscolaState
from ..games.calabresella import STRENGTH as TRESSETTE
from ..games.calabresella import VALUE as THIRDS
from ..games.calabresella import CalabresellaState
from ..games.chiamata import POINTS as CHIAMATA_POINTS
from ..games.chiamata import STRENGTH as CHIAMATA_STRENGTH
from ..games.chiamata import ChiamataState
from ..state import Action, State, play_action
from . import normal
from .stateview import Player

Policy = Callable[[State, Random], Action]
"""A playout policy: `(full state, rng) -> Action`."""

EPSILON = 0.1
"""Share of random moves in the heuristic playout."""


def playout_policy(playout: str | Policy) -> Policy:
    """The playout policy named `playout` (or `playout` itself if it is a function)."""
    if callable(playout):
        return playout
    if playout == "normal":
        return NORMAL_PLAYOUT
    if playout == "heuristic":
        return heuristic_action
    if playout == "random":
        return lambda state, rng: state.random_legal(rng)
    raise ValueError(f"unknown playout {playout!r} (normal, heuristic, random or a function)")


class FullView:
    """A full state as a `View` of the seat to act, for a player used in
    playouts (it sees the determinized cards: every hand is known)."""

    __slots__ = ("seat", "_state")

    def __init__(self, state: State):
        self.seat = state.current_player()
        self._state = state

    @property
    def state(self) -> State:
        state = self._state.clone()
        if isinstance(state, ChiamataState) and state.partner_known and not knows_partner(state, self.seat):
            state.partner_known = False  # every hand is known here, but who the partner is is not
        return state

    @property
    def legal(self) -> Sequence[Action]:
        if self._state.phase == "discard":
            return LazyDiscards(self._state)
        return tuple(self._state.legal_actions())


def knows_partner(state: ChiamataState, seat: int) -> bool:
    """Chiamata: whether `seat` knows who the caller's partner is (or that
    there is none): once the called card is played, or as the partner, or as
    a caller who called a card of its own."""
    if seat == state.partner or (seat == state.caller and state.partner is None):
        return True
    return _called_played(state)


class LazyDiscards(Sequence[Action]):
    """The legal discards (up to 1,820) as a sequence built only if read."""

    def __init__(self, state: State):
        assert isinstance(state, CalabresellaState)  # the one game with discards
        self.seat, self.size = state.discarders[0]  # `size`: cards in each discard
        self.hand = sorted(state.hands[self.seat])
        self._all: list[Action] | None = None

    def __len__(self) -> int:
        return comb(len(self.hand), self.size)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if self._all is None:
            self._all = [Action(self.seat, "discard", cards=c) for c in combinations(self.hand, self.size)]
        return self._all[i]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        cards = [c for c in action.cards if c is not None]  # (a face-down discard is none of these)
        return (
            action.kind == "discard"
            and action.seat == self.seat
            and len(cards) == len(action.cards) == self.size
            and cards == sorted(set(cards))
            and set(cards) <= set(self.hand)
        )


def as_policy(player: Player) -> Policy:
    """A `play(view, rng)` player as a playout policy on full states."""
    return lambda state, rng: player(FullView(state), rng)


NORMAL_PLAYOUT = as_policy(normal.play)
"""The normal player's playouts: on Briscola for two `playout` plays them
on plain numbers (`engine/bots/briscola2.py`), the same moves faster."""


def called_card(action: Action) -> Card:
    """The card a call names (every call names one)."""
    assert action.card is not None
    return action.card


# --- the heuristic playout policy -----------------------------------------------
# Fast and simple, for playouts and the other seats' hidden discards: it reads
# the full state but only uses what the seat to act knows (its hand, the
# table, and its partner when the partner is known to it).


def heuristic_action(state: State, rng: Random) -> Action:
    """A plausible action of the seat to act on a full state (a few random ones)."""
    phase = state.phase
    if phase == "play":
        if rng.random() < EPSILON:
            return state.random_legal(rng)
        if isinstance(state, CalabresellaState):
            return play_action(state.turn, tressette_card(state))
        return trump_game_play(state)
    chooser = PHASE_POLICIES.get((type(state), phase))
    if chooser is None:
        return state.random_legal(rng)
    return chooser(state, rng)


def trump_game_play(state: State) -> Action:
    """Briscola and Chiamata: win a trick worth it cheaply, load a partner's
    trick when last, otherwise throw the cheapest card."""
    assert isinstance(state, (BriscolaState, ChiamataState))  # the games with a trump
    seat = state.turn
    if isinstance(state, BriscolaState):
        if state.black_hand and state.can_declare(seat):
            return Action(seat, "declare")
        if state.exchange_card is not None and state.can_exchange(seat):
            return Action(seat, "exchange")
        strength, points = state.strength, state.points
    else:
        strength, points = CHIAMATA_STRENGTH, CHIAMATA_POINTS
    trump, hand, trick = state.trump, state.hands[seat], state.trick

    def cost(card: Card) -> tuple[bool, int, int]:
        return (card.suit == trump, points[card.index], strength[card.index])

    if not trick:
        return play_action(seat, min(hand, key=cost))
    best, position = trick[0], 0
    for i in range(1, len(trick)):
        card = trick[i]
        if _beats(card, best, trump, strength):
            best, position = card, i
    winner = (state.leader + position) % state.n
    last = len(trick) == state.n - 1
    if friends(state, seat, winner):
        if last:
            loads = [c for c in hand if c.suit != trump]
            if loads:
                return play_action(seat, max(loads, key=lambda c: (points[c.index], -strength[c.index])))
        return play_action(seat, min(hand, key=cost))
    value = sum(points[c.index] for c in trick)
    winners = [c for c in hand if _beats(c, best, trump, strength)]
    if winners:
        card = min(winners, key=cost)
        if card.suit != trump or value >= 10 or (value >= 4 and points[card.index] == 0):
            return play_action(seat, card)
    return play_action(seat, min(hand, key=cost))


def _beats(card: Card, best: Card, trump: str | None, strength: Sequence[int]) -> bool:
    if card.suit == best.suit:
        return strength[card.index] > strength[best.index]
    return card.suit == trump


def friends(state: State, seat: int, other: int) -> bool:
    """True when `seat` knows `other` plays on its side."""
    if seat == other:
        return True
    if isinstance(state, BriscolaState):
        return state.n in (4, 6) and (seat - other) % 2 == 0
    if isinstance(state, CalabresellaState):
        return seat != state.soloist and other != state.soloist
    assert isinstance(state, ChiamataState)
    side = (state.caller, state.partner)
    if seat == state.partner:
        return other == state.caller
    if not _called_played(state):
        return False  # the caller and the defenders do not know the partner yet
    return (seat in side) == (other in side)


def _called_played(state: ChiamataState) -> bool:
    called = state.called
    return called in state.trick or any(called in t.cards for t in state.tricks)


def tressette_card(state: State) -> Card:
    """Calabresella: follow with the lowest winning card when the trick is
    the other side's, load a partner's trick when last; lead a sure winner
    (the best card left of its suit), else a low card of the longest suit."""
    seat = state.turn
    hand, trick = state.hands[seat], state.trick
    if not trick:
        return _tressette_lead(state, hand)
    led = trick[0].suit
    follow = [c for c in hand if c.suit == led]
    cheapest = lambda c: (THIRDS[c.index], TRESSETTE[c.index])  # noqa: E731
    best, position = trick[0], 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card.suit == led and TRESSETTE[card.index] > TRESSETTE[best.index]:
            best, position = card, i
    winner = (state.leader + position) % 3
    last = len(trick) == 2
    cards = follow or hand
    if friends(state, seat, winner):
        if last:
            return max(cards, key=lambda c: (THIRDS[c.index], -TRESSETTE[c.index]))
        return min(cards, key=cheapest)
    winners = [c for c in follow if TRESSETTE[c.index] > TRESSETTE[best.index]]
    if winners:
        return min(winners, key=lambda c: TRESSETTE[c.index])
    return min(cards, key=cheapest)


def _tressette_lead(state: State, hand: list[Card]) -> Card:
    gone = set(state.trick)
    for trick in state.tricks:
        gone.update(trick.cards)
    by_suit: dict[str, list] = {}
    for card in hand:
        by_suit.setdefault(card.suit, []).append(card)
    masters = []
    for suit, cards in by_suit.items():
        top = max(cards, key=lambda c: TRESSETTE[c.index])
        higher = TRESSETTE_ORDER[: TRESSETTE_ORDER.index(top.rank)]
        if all(Card(rank, suit) in gone or Card(rank, suit) in cards for rank in higher):
            masters.append((len(cards), top))
    if masters:
        return max(masters, key=lambda m: (m[0], TRESSETTE[m[1].index]))[1]
    longest = max(by_suit.values(), key=len)
    return min(longest, key=lambda c: TRESSETTE[c.index])


# --- the heuristic outside the play ---------------------------------------------


def hand_strength(hand: Iterable[Card], strength: Sequence[int], points: Sequence[int]) -> tuple[int, str]:
    """(a rough value of `hand`, its best suit): card points plus length and
    high cards of the best suit."""
    per_suit: dict[str, int] = {}
    for card in hand:
        per_suit[card.suit] = per_suit.get(card.suit, 0) + 3 + points[card.index] + strength[card.index] // 3
    suit = max(per_suit, key=per_suit.__getitem__) if per_suit else "D"
    return sum(points[c.index] for c in hand) + per_suit.get(suit, 0), suit


def chiamata_auction(state: State, rng: Random) -> Action:
    """Bid the next rank (or target) while the hand is worth it, else pass."""
    seat = state.turn
    value, _ = hand_strength(state.hands[seat], CHIAMATA_STRENGTH, CHIAMATA_POINTS)
    value += rng.randrange(-6, 7)
    bids = [a for a in state.legal_actions() if a.kind == "bid"]
    if not bids:
        return Action(seat, "pass")
    if state.game.options["auction"] == "points":
        limit = 61 + (value - 45)
        bid = bids[0]
        assert bid.target is not None  # a points bid is a target
        return bid if bid.target <= limit else Action(seat, "pass")
    bid = bids[0]
    if bid.target is not None:
        return bid if bid.target <= 61 + (value - 70) else Action(seat, "pass")
    assert bid.rank is not None  # a rank bid without a target names its rank
    depth = BRISCOLA_ORDER.index(bid.rank)  # 0 for the ace, 9 for the 2
    return bid if value >= 40 + 5 * depth else Action(seat, "pass")


def chiamata_call(state: State, rng: Random) -> Action:
    """Call the best card lacked in the caller's best suit."""
    seat = state.turn
    hand = state.hands[seat]
    _, suit = hand_strength(hand, CHIAMATA_STRENGTH, CHIAMATA_POINTS)
    calls = state.legal_actions()
    lacked = [a for a in calls if a.card not in hand] or calls
    return max(lacked, key=lambda a: (called_card(a).suit == suit, CHIAMATA_STRENGTH[called_card(a).index]))


CONTRACT_VALUE = (("solissimo", 34), ("solo", 27), ("chiamo", 21))


def calabresella_auction(state: State, rng: Random) -> Action:
    """Bid the highest contract the hand is worth, if it beats the last bid."""
    seat = state.turn
    hand = state.hands[seat]
    value = sum(THIRDS[c.index] for c in hand) + rng.randrange(-2, 3)
    value += sum(2 if c.rank == "3" else 1 for c in hand if c.rank in "32A")
    bids = {a.contract: a for a in state.legal_actions() if a.kind == "bid"}
    for contract, needed in CONTRACT_VALUE:
        if value >= needed and contract in bids:
            return bids[contract]
    return Action(seat, "pass")


def calabresella_call(state: State, rng: Random) -> Action:
    """Call the best card lacked in the soloist's longest suit."""
    seat = state.turn
    hand = state.hands[seat]
    _, suit = hand_strength(hand, TRESSETTE, THIRDS)
    lacked = [c for c in ALL_CARDS if c not in hand]
    card = max(lacked, key=lambda c: (c.suit == suit, TRESSETTE[c.index]))
    return Action(seat, "call", card=card)


def calabresella_return(state: State, rng: Random) -> Action:
    seat = state.turn
    card = min(state.hands[seat], key=lambda c: (THIRDS[c.index], TRESSETTE[c.index]))
    return Action(seat, "return", card=card)


def calabresella_discard(state: State, rng: Random) -> Action:
    assert isinstance(state, CalabresellaState)  # PHASE_POLICIES: a Calabresella discard
    seat, count = state.discarders[0]
    return Action(seat, "discard", cards=tuple(sorted(heuristic_discard(state.hands[seat], count))))


def heuristic_discard(hand: Iterable[Card], count: int) -> list[Card]:
    """The `count` cards least worth keeping: low cards of short suits."""
    length: dict[str, int] = {}
    for card in hand:
        length[card.suit] = length.get(card.suit, 0) + 1
    keep = lambda c: TRESSETTE[c.index] + 2 * THIRDS[c.index] + 2 * length[c.suit]  # noqa: E731
    return sorted(hand, key=keep)[:count]


def calabresella_raise(state: State, rng: Random) -> Action:
    return Action(state.turn, "raise", choice="none")


PHASE_POLICIES = {
    (ChiamataState, "auction"): chiamata_auction,
    (ChiamataState, "call"): chiamata_call,
    (CalabresellaState, "auction"): calabresella_auction,
    (CalabresellaState, "call"): calabresella_call,
    (CalabresellaState, "return"): calabresella_return,
    (CalabresellaState, "discard"): calabresella_discard,
    (CalabresellaState, "raise"): calabresella_raise,
}
"""(the game's state class, phase) -> the heuristic's choice outside the play (else a random one)."""
