"""The normal player: a rule-based player per game, from the seat's view only.

Each decision is one function below; they read the seat's engine view
(`view.state`) through `heuristics.Table` and never simulate, so a move
costs a fraction of a millisecond. See docs/bots.md for how it plays.

Card play in Briscola and Briscola Chiamata is one estimate for every card
in hand (`card_ev`): the trick's points, won or lost for the seat's side
with the probability that the seats still to play (hostile or friendly,
certainly or probably: a Chiamata partner is secret) hold a card beating
it, minus what the card is worth kept for later (a trump's power, the
master trump above all). Loading points on a partner's safe trick, trumping
a rich trick, ducking with the cheapest card and keeping the high trumps
for the end all follow from it; Briscola adds the threshold of 61 points,
the last draw (who gets the face-up card) and, with two players, an exact
search of the last four tricks (over the few ways the last face-down card
can lie).

Calabresella play is the same estimate under its rules (follow suit, no
trumps, the voids a seat has shown, thirds, the last trick and the monte);
the soloist also gives up the tricks it must lose while it still holds
master cards to take the lead back, so that it leads the end of the hand.
Bids come from hand evaluations fitted on hands played out by this player
(docs/bots.md): Chiamata, the side's expected points for each trump suit
and callable card; Calabresella, the soloist's expected thirds for each
contract, and the call, the return and the discards are built directly
from the same evaluation.
"""

from __future__ import annotations

from functools import cache
from math import exp

from ..cards import BRISCOLA_ORDER, SUITS, TRESSETTE_ORDER, Card
from ..state import Action, play_action
from .endgame import Endgame
from .heuristics import BRISCOLA_VALUE, THIRDS_VALUE, TRESSETTE_STRENGTH, Table


def play(view, rng) -> Action:
    """The normal player's action for `view` (see the module doc)."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to play now")
    if len(legal) == 1:
        return legal[0]
    state = view.state
    return DECIDE[state.game.name](state, view.seat, legal)


# ============================================================================
# Card play with trumps: Briscola and Briscola Chiamata
# ============================================================================

TRUMP_BASE = 3.5
"""What a low trump is worth kept for later, in card points."""
TRUMP_STEP = 1.1
"""... and each rank above it."""
MASTER_TRUMP = 2.0
"""... and more for the highest trump still out."""
CLINCH = 20.0
"""Briscola: points' worth of a trick that decides the hand (61 reached)."""


def trump_resource(table: Table, card: Card) -> float:
    """What `card` is worth kept for a later trick (its points aside)."""
    rank = table.strength[card.index] - 1  # 0 for the lowest, 9 for the highest
    if card.suit != table.trump:
        return 0.05 * rank
    worth = TRUMP_BASE + TRUMP_STEP * rank
    if table.is_master(card):
        worth += MASTER_TRUMP
    left = table.tricks_left() - 1
    return worth * min(1.0, left / 4.0)


def card_ev(table: Table, card: Card) -> float:
    """The value for this seat's side of playing `card` now (card points)."""
    cards = table.trick + [card]
    points = table.trick_points(cards)
    mine = table.p_my_side_wins(cards)
    ev = (2.0 * mine - 1.0) * points - trump_resource(table, card)
    if table.game == "briscola":
        ev += _briscola_threshold(table, points, mine) + _last_draw(table, mine)
    return ev


def best_card(table: Table) -> Card:
    """The card of the hand with the best `card_ev` (the lowest card on a tie)."""
    return max(sorted(table.hand), key=lambda c: (card_ev(table, c), -table.strength[c.index], -c.index))


# --- Briscola ---------------------------------------------------------------------


def briscola(state, seat: int, legal) -> Action:
    kinds = {a.kind for a in legal}
    if "declare" in kinds:  # a black hand wins at once
        return Action(seat, "declare")
    if "exchange" in kinds and exchange_pays(state):
        return Action(seat, "exchange")
    table = Table(state, seat)
    if table.n == 2 and state.pile_left() in (0, 2):
        card = endgame_card(table)
        if card is not None:
            return play_action(seat, card)
    return play_action(seat, best_card(table))


def exchange_pays(state) -> bool:
    """Swap the trump 2 (or 7) for the face-up card when that card is higher."""
    return state.strength[state.faceup.index] > state.strength[state.exchange_card.index]


def _sides(table: Table) -> tuple[list[int], list[int]] | None:
    """(this seat's side, the other side) when the hand is two sides against each other."""
    if table.n == 3:
        return None
    mine = [s for s in range(table.n) if s % 2 == table.me % 2]
    return mine, [s for s in range(table.n) if s % 2 != table.me % 2]


def _briscola_threshold(table: Table, points: int, mine: float) -> float:
    """A trick that takes a side past 60 decides the hand: worth more than its points."""
    sides = _sides(table)
    if sides is None:
        return 0.0
    captured = table.state.captured
    ours, theirs = (sum(captured[s] for s in side) for side in sides)
    if ours > 60 or theirs > 60:
        return 0.0
    bonus = 0.0
    if ours + points > 60:
        bonus += CLINCH * mine
    if theirs + points > 60:
        bonus -= CLINCH * (1.0 - mine)
    return bonus


def _draw_worth(table: Table, card: Card) -> float:
    rank = table.strength[card.index] - 1
    worth = 0.5 * table.value[card.index]
    if card.suit == table.trump:
        worth += TRUMP_BASE + TRUMP_STEP * rank
    return worth


def _last_draw(table: Table, mine: float) -> float:
    """Two players, one face-down card and the face-up one left: the winner of
    this trick draws the unknown card, the other the face-up card."""
    state = table.state
    if table.n != 2 or state.pile_left() != 2:
        return 0.0
    unknown = table.unseen
    if not unknown:
        return 0.0
    average = sum(_draw_worth(table, c) for c in unknown) / len(unknown)
    return mine * average + (1.0 - mine) * _draw_worth(table, state.faceup)


def endgame_card(table: Table) -> Card | None:
    """Two players near the end: search the rest of the hand exactly.

    With nothing left to draw every card is known (the other hand is what
    this seat has not seen). With the last face-down card and the face-up
    one left, the winner of this trick draws the face-down card and the
    other the face-up one: each unseen card in turn is taken for the
    face-down card, and the card with the best average is played.
    """
    state = table.state
    me, other = table.me, 1 - table.me
    pile = state.pile_left()
    unseen = set(table.unseen)
    scenarios: list[tuple[tuple[Card, ...], set[Card]]]
    if pile == 0:
        scenarios = [((), unseen)]
    elif pile == 2:
        top = state.stock[state.drawn]  # known with open hands
        scenarios = [((card, state.faceup), unseen - {card}) for card in ([top] if top is not None else unseen)]
    else:
        return None
    assert table.trump is not None  # Briscola always has a trump suit
    search = Endgame(table.trump, table.strength, table.value)
    mine = tuple(sorted(table.hand))
    own = tuple(c.index for c in mine)
    led = table.trick[0].index if table.trick else -1
    everything = sum(table.value)
    totals = dict.fromkeys(mine, 0.0)
    for draw, unseen_there in scenarios:
        theirs = tuple(sorted(unseen_there | table.known[other]))
        if len(theirs) != state.hand_size(other):
            return None
        hands = (own, tuple(c.index for c in theirs)) if me == 0 else (tuple(c.index for c in theirs), own)
        drawn = tuple(c.index for c in draw)
        for card in mine:
            value = search.after(hands[0], hands[1], table.leader, led, state.captured[0], drawn, me, card.index)
            totals[card] += value if me == 0 else everything - value  # seat 1: the rest of the points
    return max(mine, key=lambda c: totals[c])


# --- Briscola Chiamata --------------------------------------------------------------

CHIAMATA_SUCCESS = (-0.263, 0.101)
"""(a, b): the side makes its target with probability
1 / (1 + exp(-(a + b (estimate - target + 0.5)))) (calibrated)."""
CHIAMATA_BID = 0.35
"""Bid when the side makes the target at least this often."""
LOW_TO_HIGH = BRISCOLA_ORDER[::-1]


def chiamata(state, seat: int, legal) -> Action:
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


def chiamata_bid(state, seat: int, legal) -> Action:
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


def chiamata_call(state, seat: int, legal) -> Action:
    """The call with the best expected score: success x units (x2 with a
    partner, x4 alone)."""
    hand = list(state.hands[seat])
    target = state.target

    def worth(action: Action) -> float:
        assert action.card is not None  # a call names its card
        p = _p_target(_call_points(hand, action.card), target)
        return (4.0 if action.card in hand else 2.0) * (2.0 * p - 1.0)

    return max(legal, key=lambda a: (worth(a), -a.card.index))


# ============================================================================
# Calabresella
# ============================================================================

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


def calabresella(state, seat: int, legal) -> Action:
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


def _ranked(cards) -> list[Card]:
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


def hand_features(cards) -> list[float]:
    """`FEATURES` of a hand (any number of cards)."""
    by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in cards:
        by_suit[card.suit].append(card.rank)
    total = [1.0] + [0.0] * (len(FEATURES) - 1)
    for ranks in by_suit.values():
        key = "".join(sorted(ranks, key=TRESSETTE_ORDER.index))
        for i, x in enumerate(_suit_features(key)):
            total[i] += x
    return total


def estimate(cards, contract: str) -> float:
    """The soloist's expected thirds for `contract`: a linear function of
    `hand_features` (the dealt 12 cards; Chiamo: with the called card)
    fitted on hands played out (docs/bots.md)."""
    return sum(w * x for w, x in zip(WEIGHTS[contract], hand_features(cards)))


def hand_value(cards, discards=()) -> float:
    """The soloist's expected thirds with these 12 cards to play (no monte
    to come), and these cards in the monte for whoever takes the last trick."""
    kept = sum(w * x for w, x in zip(DISCARD_WEIGHTS, hand_features(cards)))
    return kept + MONTE_SHARE * sum(THIRDS_VALUE[c.index] for c in discards)


def _keep_best(cards: list[Card], count: int) -> tuple[list[Card], list[Card]]:
    """Drop `count` cards, one at a time, each the one whose loss costs the
    soloist's estimate least (dropped cards go to the monte)."""
    kept = sorted(cards)
    dropped: list[Card] = []
    for _ in range(count):
        best = max(kept, key=lambda c: (hand_value([k for k in kept if k is not c], dropped + [c]), -c.index))
        kept.remove(best)
        dropped.append(best)
    return kept, dropped


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


def calab_bid(state, seat: int, legal) -> Action:
    """The contract with the best expected score (price x 2 x (2p - 1)), if positive."""
    hand = list(state.hands[seat])
    best, best_worth = next(a for a in legal if a.kind == "pass"), 0.0
    for action in legal:
        if action.kind != "bid":
            continue
        p = p_success(action.contract, contract_estimate(hand, action.contract))
        worth = PRICES[action.contract] * (2.0 * p - 1.0)
        if worth > best_worth:
            best, best_worth = action, worth
    return best


def calab_call(state, seat: int) -> Action:
    """Call the card that adds most to the hand (the best card of a suit it lacks)."""
    return Action(seat, "call", card=best_call(list(state.hands[seat])))


def calab_return(state, seat: int) -> Action:
    """Give back the card the hand misses least (and worth least to the defender)."""
    hand = sorted(state.hands[seat])
    card = max(
        hand, key=lambda c: (hand_value([k for k in hand if k is not c]) - 0.5 * THIRDS_VALUE[c.index], -c.index)
    )
    return Action(seat, "return", card=card)


def calab_discard(state, seat: int) -> Action:
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


def calab_raise(state, seat: int) -> Action:
    """Raise a Solissimo only with a hand that (nearly) cannot fail."""
    hand = list(state.hands[seat])
    p = p_success("solissimo", estimate(hand, "solissimo"))
    for choice in ("scegliete", "dividete"):
        if p >= RAISE_AT[choice]:
            return Action(seat, "raise", choice=choice)
    return Action(seat, "raise", choice="none")


def calab_take(state, seat: int) -> Action:
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
    hand = sorted(table.hand)
    if table.trick:
        led = table.trick[0].suit
        follow = [c for c in hand if c.suit == led]
        hand = follow or hand
    elif table.me == table.state.soloist:
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


DECIDE = {"briscola": briscola, "chiamata": chiamata, "calabresella": calabresella}
