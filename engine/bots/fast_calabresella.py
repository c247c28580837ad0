"""The hard player's playouts of Calabresella's play, on card indices.

`playout(state)` finishes a determinized hand in play (the auction, call,
return, raise and discards made) as the engine playout of the normal
player does (`rollout.playout` with `playout.NORMAL_PLAYOUT`): every seat
plays `normal.calab_card` on a full state, where nothing is unseen (a seat
still to play holds a higher card of the suit led or not, a card is the
master when no other hand holds a higher one of its suit, the monte's
cards are known), here computed with the same floating-point operations in
the same order so that ties fall the same way. It returns the hand's score
and each seat's thirds, as `state.outcome()` would give them, and the count
of actions the engine would have applied (the step budget);
tests/test_hard.py checks all three against the engine on random deals.
Everything before the play stays on the engine (`rollout.playout` runs it,
then hands the play over here).
"""

from __future__ import annotations

from ..cards import SUITS
from ..games.calabresella import STRENGTH as TRESSETTE
from ..games.calabresella import VALUE as THIRDS
from ..games.calabresella import CalabresellaState
from ..games.calabresella_score import CARD_THIRDS, LAST_TRICK, settle
from ..state import State
from .endgame import SUIT_OF
from .fast_trumps import indices
from .normal import MASTERS_TO_DUCK


def best_of(trick: list[int]) -> tuple[int, int]:
    """The trick's best card so far (the highest of the suit led: no trumps) and its place."""
    top, position = trick[0], 0
    for i in range(1, len(trick)):
        c = trick[i]
        if SUIT_OF[c] == SUIT_OF[top] and TRESSETTE[c] > TRESSETTE[top]:
            top, position = c, i
    return top, position


def supports(state: State) -> bool:
    """True for Calabresella in play (everything before it done)."""
    return isinstance(state, CalabresellaState) and state.phase == "play"


def playout(state: CalabresellaState, solved: dict | None = None) -> tuple[tuple[list[int], list[int]], int]:
    """Finish the hand of full `state` with the normal player: ((each seat's
    score, each seat's thirds), actions applied). `state` is left as it
    was; `solved` is not used (the signature of `briscola2.playout`)."""
    hands = [indices(h) for h in state.hands]
    trick = indices(state.trick)
    captured = list(state.captured)
    won = list(state.won)
    leader, turn = state.leader, state.turn
    solo = state.soloist
    assert solo is not None  # (in play: the auction had a soloist)
    monte = 3 + sum(THIRDS[c.index] for c in state.monte if c is not None)  # the last trick's extra
    in_hands = sum(len(h) for h in hands)
    steps = 0
    while True:
        seat = turn
        tricks_left = (in_hands + len(trick) + 2) // 3
        card = choose(seat, hands, trick, leader, solo, tricks_left, monte)
        hands[seat].remove(card)
        in_hands -= 1
        steps += 1
        trick.append(card)
        if len(trick) < 3:
            turn = (seat + 1) % 3
            continue
        winner = (leader + best_of(trick)[1]) % 3
        captured[winner] += THIRDS[trick[0]] + THIRDS[trick[1]] + THIRDS[trick[2]]
        won[winner] += 1
        trick = []
        leader = turn = winner
        if not hands[winner]:
            return score(state, captured, won, winner), steps


def is_master(card: int, me: int, hands: list[list[int]]) -> bool:
    """No other hand holds a higher card of `card`'s suit (`Table.is_master`)."""
    suit, rank = SUIT_OF[card], TRESSETTE[card]
    for seat in range(3):
        if seat != me:
            for c in hands[seat]:
                if SUIT_OF[c] == suit and TRESSETTE[c] > rank:
                    return False
    return True


def choose(
    me: int, hands: list[list[int]], trick: list[int], leader: int, solo: int, tricks_left: int, monte: int
) -> int:
    """`normal.calab_card` for seat `me` on a full state (`monte`: what the
    last trick adds, 3 thirds and the monte's)."""
    hand = hands[me]
    if trick:
        led = SUIT_OF[trick[0]]
        follow = [c for c in hand if SUIT_OF[c] == led]
        cards = follow or hand
    else:
        cards = hand
        if me == solo:
            card = soloist_lead(me, hands)
            if card is not None:
                return card
    played = len(trick)
    base = 0
    for c in trick:
        base += THIRDS[c]
    if trick:
        top, position = best_of(trick)
    later = 3 - played - 1
    last = tricks_left == 1
    left = tricks_left - 1
    mine_side = me == solo
    best_card, best_key = -1, None
    for card in cards:
        if not trick:
            best, winner_at = card, 0
        elif SUIT_OF[card] == SUIT_OF[top] and TRESSETTE[card] > TRESSETTE[top]:
            best, winner_at = card, played
        else:
            best, winner_at = top, position
        winner = (leader + winner_at) % 3
        mine = 1.0 if (winner == solo) == mine_side else 0.0
        suit, rank = SUIT_OF[best], TRESSETTE[best]
        for k in range(played + 1, 3):
            seat = (leader + k) % 3
            for answer in hands[seat]:
                if SUIT_OF[answer] == suit and TRESSETTE[answer] > rank:
                    f = 1.0 if (seat == solo) == mine_side else 0.0
                    mine = mine - mine * (1.0 - f) + (1.0 - mine) * f * 0.5
                    break
        points: float = base + THIRDS[card]
        points += 0.6 * later
        if last:
            points += monte
        if left <= 0:
            kept = 0.0
        else:
            worth = 0.08 * (TRESSETTE[card] - 1)
            if is_master(card, me, hands):
                worth += 1.2
            kept = worth * min(1.0, left / 3.0)
        ev = (2.0 * mine - 1.0) * points - kept
        key = (ev, -TRESSETTE[card], -card)
        if best_key is None or key > best_key:
            best_card, best_key = card, key
    return best_card


def soloist_lead(me: int, hands: list[list[int]]) -> int | None:
    """`normal.soloist_lead`: while the soloist holds two masters it leads
    the tricks it must lose first, its cheapest loser of its longest suit."""
    hand = hands[me]
    masters = [c for c in hand if is_master(c, me, hands)]
    losers = [c for c in hand if c not in masters]
    if len(masters) < MASTERS_TO_DUCK or not losers:
        return None
    length = [0] * len(SUITS)
    for c in hand:
        length[SUIT_OF[c]] += 1
    return min(losers, key=lambda c: (THIRDS[c], -length[SUIT_OF[c]], TRESSETTE[c], c))


def score(state: CalabresellaState, captured: list[int], won: list[int], last: int) -> tuple[list[int], list[int]]:
    """(the hand's score per seat, each seat's thirds) once the hand is
    played out (`CalabresellaState._points` and `_finish`): `captured`, the
    thirds of each seat's tricks; `last`, the seat that took the last trick
    (3 thirds more, and whatever the tricks did not take: the monte)."""
    points = list(captured)
    points[last] += LAST_TRICK + CARD_THIRDS - sum(captured)
    assert state.soloist is not None and state.contract is not None  # (in play: the auction had a soloist)
    _, out = settle(state.soloist, state.contract, state.raised, points, won, captured)
    return out, points
