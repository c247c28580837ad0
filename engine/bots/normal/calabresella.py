"""The normal player of Calabresella: the card estimate under its rules
(follow suit, no trumps, the voids a seat has shown, thirds, the last trick
and the monte; the soloist gives up the tricks it must lose while it holds
master cards to take the lead back), and the bids, call, return, discards,
raise and take from the soloist's expected thirds per contract (fitted on
hands played out by this player).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from math import exp

from ...cards import SUITS, TRESSETTE_ORDER, Card
from ...games.calabresella import CalabresellaState
from ...state import Action, play_action
from ..heuristics import THIRDS_VALUE, TRESSETTE_STRENGTH, Table

SUCCESS = {"solissimo": (0.198, 0.274), "solo": (0.380, 0.273), "chiamo": (0.399, 0.286)}
"""Per contract, (a, b): the soloist makes 18 thirds with probability
1 / (1 + exp(-(a + b (estimate - 17.5)))) (calibrated)."""
WEIGHTS = {
    # one, top, threes, twos, aces, safe_aces, long, short, winners, thirds
    "solissimo": (3.05, -0.32, 2.75, 1.70, 0.48, 1.08, -1.49, -0.93, 0.66, 0.00),
    "solo": (4.71, -0.37, 2.81, 1.68, 0.68, 0.42, -0.73, 0.04, 0.17, 0.36),
    "chiamo": (5.66, -0.00, 2.43, 1.36, 0.30, 0.32, -0.62, -0.20, -0.04, 0.47),
}
"""Per contract, the weights of `FEATURES` in the soloist's expected thirds."""
DISCARD_WEIGHTS = WEIGHTS["solissimo"]
"""The soloist keeps the 12 cards that this estimate (a hand played as it
is) rates best: better than the Solo weights or a plain count of winners
and thirds in hands played out."""
MONTE_SHARE = 0.5
"""... counting half the thirds it discards (the last trick takes the monte)."""
PRICES = {"chiamo": 1, "solo": 2, "solissimo": 4}
RAISE_AT = {"scegliete": 0.97, "dividete": 0.9}
"""Raise a Solissimo when it succeeds at least this often."""


def calabresella(state: CalabresellaState, seat: int, legal: Sequence[Action]) -> Action:
    phase = state.phase
    if phase == "auction":
        return calab_bid(state, seat, legal)
    if phase == "call":
        return calab_call(state, seat)
    if phase == "return":
        return calab_return(state, seat)
    if phase == "discard":
        return calab_discard(state, seat)
    if phase == "raise":
        return calab_raise(state, seat)
    if phase == "take":
        return calab_take(state, seat)
    return play_action(seat, calab_card(Table(state, seat)))


def _ranked(cards: Iterable[Card]) -> list[Card]:
    """Cards high to low in Tressette order."""
    return sorted(cards, key=lambda c: -TRESSETTE_STRENGTH[c.index])


def suit_tricks(mine: list[Card]) -> list[float]:
    """For each card of one suit in hand (high to low), the chance it wins a
    trick when the soloist plays the suit out: a card with no higher card
    outside wins; one with higher cards outside needs them to fall first."""
    k = len(mine)
    outside = 10 - k
    odds: list[float] = []
    higher_out = 0
    held = {c.rank for c in mine}
    ranks = TRESSETTE_ORDER
    j = 0
    for rank in ranks:
        if rank not in held:
            higher_out += 1
            continue
        if higher_out == 0:
            p = 1.0
        elif higher_out <= j:
            p = 0.7
        elif k - j - 1 >= higher_out:
            p = 0.4
        else:
            p = 0.1
        longest_out = (outside + 1) // 2 + (1 if outside else 0)
        if j >= longest_out and odds and odds[0] >= 1.0:
            p = max(p, 0.85)
        odds.append(p)
        j += 1
    return odds


FEATURES = ("one", "top", "threes", "twos", "aces", "safe_aces", "long", "short", "winners", "thirds")
"""What the soloist's estimate reads from a hand, summed over its suits:
a constant; the cards of each suit's unbroken run from its 3 (sure tricks);
3s, 2s and aces; aces safe from a higher card (the 3 and 2 held, or two
other cards to play first); cards beyond the fourth of a suit; suits of at
most one card; the winners `suit_tricks` counts; the thirds held."""


@cache
def _suit_features(ranks: str) -> tuple[float, ...]:
    """The features of one suit's cards (ranks high to low, e.g. "3AK5")."""
    k = len(ranks)
    top = 0
    for held, rank in zip(ranks, TRESSETTE_ORDER):
        if held != rank:
            break
        top += 1
    aces = "A" in ranks
    safe_ace = aces and (("3" in ranks and "2" in ranks) or k >= 3)
    cards = [Card(r, "D") for r in ranks]
    return (
        0.0,
        float(top),
        float("3" in ranks),
        float("2" in ranks),
        float(aces),
        float(safe_ace),
        float(max(0, k - 4)),
        float(k <= 1),
        sum(suit_tricks(cards)),
        float(sum(THIRDS_VALUE[c.index] for c in cards)),
    )


def hand_features(cards: Iterable[Card]) -> list[float]:
    """`FEATURES` of a hand (any number of cards)."""
    return _features_of(suit_keys(cards))


def suit_keys(cards: Iterable[Card]) -> tuple[str, ...]:
    """Each suit's ranks in hand, high to low, in `SUITS` order (e.g. "3AK5")."""
    by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in cards:
        by_suit[card.suit].append(card.rank)
    return tuple("".join(sorted(ranks, key=TRESSETTE_ORDER.index)) for ranks in by_suit.values())


def _features_of(keys: tuple[str, ...]) -> list[float]:
    total = [1.0] + [0.0] * (len(FEATURES) - 1)
    for key in keys:
        for i, x in enumerate(_suit_features(key)):
            total[i] += x
    return total


def estimate(cards: Iterable[Card], contract: str) -> float:
    """The soloist's expected thirds for `contract`: a linear function of
    `hand_features` (the dealt 12 cards; Chiamo: with the called card)
    fitted on hands played out (docs/bots.md)."""
    return sum(w * x for w, x in zip(WEIGHTS[contract], hand_features(cards)))


def hand_value(cards: Iterable[Card], discards: Iterable[Card] = ()) -> float:
    """The soloist's expected thirds with these 12 cards to play (no monte
    to come), and these cards in the monte for whoever takes the last trick."""
    return _kept_value(suit_keys(cards)) + MONTE_SHARE * sum(THIRDS_VALUE[c.index] for c in discards)


def _kept_value(keys: tuple[str, ...]) -> float:
    """The `DISCARD_WEIGHTS` estimate of the hand of these `suit_keys`: the
    constant plus each suit's share (the estimate is linear)."""
    return DISCARD_WEIGHTS[0] + sum(_suit_value(key) for key in keys)


@cache
def _suit_value(key: str) -> float:
    """One suit's share of the `DISCARD_WEIGHTS` estimate (its features but the constant)."""
    return sum(w * x for w, x in zip(DISCARD_WEIGHTS[1:], _suit_features(key)[1:]))


def _keep_best(cards: list[Card], count: int) -> tuple[list[Card], list[Card]]:
    """Drop `count` cards, one at a time, each the one whose loss costs the
    soloist's estimate least (dropped cards go to the monte). A loss changes
    one suit's share of the estimate only; equal estimates (to 1e-9) drop
    the card of lower index."""
    kept = sorted(cards)
    dropped: list[Card] = []
    for _ in range(count):
        keys, monte = suit_keys(kept), sum(THIRDS_VALUE[c.index] for c in dropped)
        best = max(kept, key=lambda card: _drop_value(keys, monte, card))
        kept.remove(best)
        dropped.append(best)
    return kept, dropped


def _drop_value(keys: tuple[str, ...], monte: float, card: Card) -> tuple[float, int]:
    """How `_keep_best` ranks dropping `card` from the hand of these
    `suit_keys`, the monte holding `monte` thirds: the estimate left,
    rounded, then the lower card."""
    at = SUITS.index(card.suit)
    without = keys[:at] + (keys[at].replace(card.rank, "", 1),) + keys[at + 1 :]
    return round(_kept_value(without) + MONTE_SHARE * (monte + THIRDS_VALUE[card.index]), 9), -card.index


def p_success(contract: str, thirds: float) -> float:
    """How often the soloist makes its 18 thirds when `thirds` are expected."""
    a, b = SUCCESS[contract]
    return 1.0 / (1.0 + exp(-(a + b * (thirds - 17.5))))


def contract_estimate(hand: list[Card], contract: str) -> float:
    """The soloist's expected thirds for `contract` with this hand of 12."""
    if contract == "chiamo":
        return estimate(hand + [best_call(hand)], "chiamo")
    return estimate(hand, contract)


def best_call(hand: list[Card]) -> Card:
    """The card that adds most to the hand (the best card of a suit it lacks)."""
    return max(_callable(hand), key=lambda c: (estimate(hand + [c], "chiamo"), -c.index))


def _callable(hand: list[Card]) -> list[Card]:
    """Cards worth calling: the highest card of each suit the hand lacks."""
    calls = []
    for suit in SUITS:
        missing = [Card(r, suit) for r in TRESSETTE_ORDER if Card(r, suit) not in hand]
        if missing:
            calls.append(missing[0])
    return calls


def calab_bid(state: CalabresellaState, seat: int, legal: Sequence[Action]) -> Action:
    """The contract with the best expected score (price x 2 x (2p - 1)), if positive."""
    hand = list(state.hands[seat])
    best, best_worth = next(a for a in legal if a.kind == "pass"), 0.0
    for action in legal:
        if action.kind != "bid":
            continue
        contract = action.contract
        assert contract is not None  # a Calabresella bid names its contract
        p = p_success(contract, contract_estimate(hand, contract))
        worth = PRICES[contract] * (2.0 * p - 1.0)
        if worth > best_worth:
            best, best_worth = action, worth
    return best


def calab_call(state: CalabresellaState, seat: int) -> Action:
    """Call the card that adds most to the hand (the best card of a suit it lacks)."""
    return Action(seat, "call", card=best_call(list(state.hands[seat])))


def calab_return(state: CalabresellaState, seat: int) -> Action:
    """Give back the card the hand misses least (and worth least to the defender)."""
    hand = sorted(state.hands[seat])
    card = max(
        hand, key=lambda c: (hand_value([k for k in hand if k is not c]) - 0.5 * THIRDS_VALUE[c.index], -c.index)
    )
    return Action(seat, "return", card=card)


def calab_discard(state: CalabresellaState, seat: int) -> Action:
    """Build the discard directly: the soloist drops, one by one, the cards
    its estimate misses least; a defender its least useful cards."""
    count = state.discarders[0][1]
    hand = list(state.hands[seat])
    if seat == state.soloist:
        _, dropped = _keep_best(hand, count)
    else:
        dropped = _defender_discard(hand, count)
    return Action(seat, "discard", cards=tuple(sorted(dropped)))


def _defender_discard(hand: list[Card], count: int) -> list[Card]:
    """Low cards of short suits first; never a card that may win a trick."""
    by_suit = {s: [c for c in hand if c.suit == s] for s in SUITS}

    def keep(card: Card) -> tuple:
        mine = _ranked(by_suit[card.suit])
        odds = suit_tricks(mine)
        p = odds[mine.index(card)]
        return (p, THIRDS_VALUE[card.index], len(mine), TRESSETTE_STRENGTH[card.index], card.index)

    return sorted(hand, key=keep)[:count]


def calab_raise(state: CalabresellaState, seat: int) -> Action:
    """Raise a Solissimo only with a hand that (nearly) cannot fail."""
    hand = list(state.hands[seat])
    p = p_success("solissimo", estimate(hand, "solissimo"))
    for choice in ("scegliete", "dividete"):
        if p >= RAISE_AT[choice]:
            return Action(seat, "raise", choice=choice)
    return Action(seat, "raise", choice="none")


def calab_take(state: CalabresellaState, seat: int) -> Action:
    """Scegliete, first defender: take the monte cards that may win tricks
    (3s, 2s, aces); the partner takes the rest."""
    taken = tuple(sorted(c for c in state.monte if c is not None and c.rank in "32A"))
    return Action(seat, "take", cards=taken)


def _monte_worth(table: Table) -> float:
    """Thirds in the monte (the last trick takes it)."""
    monte = getattr(table.state, "monte", []) or []
    known = sum(THIRDS_VALUE[c.index] for c in monte if c is not None)
    hidden = sum(1 for c in monte if c is None)
    if hidden and table.unseen:
        known += hidden * sum(THIRDS_VALUE[c.index] for c in table.unseen) / len(table.unseen)
    return known


def calab_resource(table: Table, card: Card) -> float:
    """What `card` is worth kept: a master card will take a trick later."""
    left = table.tricks_left() - 1
    if left <= 0:
        return 0.0
    rank = TRESSETTE_STRENGTH[card.index] - 1
    worth = 0.08 * rank
    if table.is_master(card):
        worth += 1.2
    return worth * min(1.0, left / 3.0)


def calab_card_ev(table: Table, card: Card) -> float:
    cards = table.trick + [card]
    points: float = table.trick_points(cards)
    later = len(table.later_seats(len(cards)))
    points += 0.6 * later  # what the seats still to play add, on average
    if table.tricks_left() == 1:
        points += 3 + _monte_worth(table)
    mine = table.p_my_side_wins(cards)
    return (2.0 * mine - 1.0) * points - calab_resource(table, card)


MASTERS_TO_DUCK = 2
"""The soloist leads its losers first while it holds this many masters."""


def calab_card(table: Table) -> Card:
    state = table.state
    assert isinstance(state, CalabresellaState)  # (the normal player of Calabresella)
    hand = sorted(table.hand)
    if table.trick:
        led = table.trick[0].suit
        follow = [c for c in hand if c.suit == led]
        hand = follow or hand
    elif table.me == state.soloist:
        card = soloist_lead(table, hand)
        if card is not None:
            return card
    return max(hand, key=lambda c: (calab_card_ev(table, c), -TRESSETTE_STRENGTH[c.index], -c.index))


def soloist_lead(table: Table, hand: list[Card]) -> Card | None:
    """The soloist gives up the tricks it must lose while it still holds
    masters to take the lead back: the last trick (3 thirds and the monte)
    goes to whoever leads the end with masters."""
    masters = [c for c in hand if table.is_master(c)]
    losers = [c for c in hand if c not in masters]
    if len(masters) < MASTERS_TO_DUCK or not losers:
        return None
    length = {s: sum(c.suit == s for c in hand) for s in SUITS}
    return min(losers, key=lambda c: (THIRDS_VALUE[c.index], -length[c.suit], TRESSETTE_STRENGTH[c.index], c.index))
