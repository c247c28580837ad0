"""The hard player's playouts of Briscola for three, four and six, on card
indices.

`playout(state)` finishes a determinized hand as the engine playout of the
normal player does (`rollout.playout` with `playout.NORMAL_PLAYOUT`): every
seat plays `normal.best_card` (here `fast_trumps.choose`, the same card),
the trick's winner draws first, the face-up card last. It returns the
hand's score and each seat's card points, as `state.outcome()` would give
them at the end, and the count of actions the engine would have applied
(the step budget); tests/test_hard.py checks all three against the engine
on random deals. Briscola for two has its own module
(`engine/bots/briscola2.py`, with the exact finish).

Only the plain game: with the trump exchange or the black hand a seat has
actions other than a card, and `supports` sends those hands to the engine.
"""

from __future__ import annotations

from typing import cast

from ..cards import SUITS, Card
from ..games.briscola import BriscolaState
from ..games.briscola_score import three_player_awards, two_side_awards
from ..state import CHANCE, State
from .endgame import answers
from .fast_trumps import best_of, choose, indices


def supports(state: State) -> bool:
    """True for Briscola for three, four or six in play, without the trump
    exchange or the black hand."""
    return (
        isinstance(state, BriscolaState)
        and state.n in (3, 4, 6)
        and state.exchange_card is None
        and not state.black_hand
        and state.phase in ("play", "draw")
    )


def playout(state: BriscolaState, solved: dict | None = None) -> tuple[tuple[list[int], list[int]], int]:
    """Finish the hand of full `state` with the normal player: ((each seat's
    score, each seat's card points), actions applied). `state` is left as
    it was; `solved` is not used (the signature of `briscola2.playout`)."""
    n = state.n
    hands = [indices(h) for h in state.hands]
    trick = indices(state.trick)
    stock = indices(cast("list[Card]", state.stock))  # (a full state: every card known)
    faceup = state.faceup.index
    strength, value = state.strength, state.points
    trump = SUITS.index(state.trump)
    beats = answers(trump, strength)
    captured = list(state.captured)
    leader, turn, drawn = state.leader, state.turn, state.drawn
    size = len(stock)
    teams = n != 3
    friends = [[1.0 if (teams and (a - b) % 2 == 0) or a == b else 0.0 for b in range(n)] for a in range(n)]
    in_hands = sum(len(h) for h in hands)
    steps = 0
    while True:
        if turn == CHANCE:  # a draw: one card each from the trick's winner on, the face-up card last
            seat = leader
            for i in range(n):
                d = drawn + i
                hands[seat].append(stock[d] if d < size else faceup)
                seat = (seat + 1) % n
            drawn += n
            in_hands += n
            turn = leader
            steps += 1
            continue
        seat = turn
        tricks_left = (in_hands + len(trick) + size + 1 - drawn + n - 1) // n
        sides = None
        if teams:
            ours = theirs = 0
            for s in range(n):
                if s % 2 == seat % 2:
                    ours += captured[s]
                else:
                    theirs += captured[s]
            sides = (ours, theirs)
        card = choose(seat, hands, trick, leader, trump, strength, value, beats, friends[seat], tricks_left, sides)
        hands[seat].remove(card)
        in_hands -= 1
        steps += 1
        trick.append(card)
        if len(trick) < n:
            turn = (seat + 1) % n
            continue
        winner = (leader + best_of(trick, beats)[1]) % n
        captured[winner] += sum(value[c] for c in trick)
        trick = []
        leader = turn = winner
        if drawn <= size:
            turn = CHANCE
        elif not hands[winner]:
            return (score(state, captured), captured), steps


def score(state: BriscolaState, captured: list[int]) -> list[int]:
    """The hand's score per seat (`BriscolaState._finish`, no black hand)."""
    n = state.n
    if n == 3:
        return three_player_awards(captured)[0]
    sides = state.game.sides()
    totals = [sum(captured[s] for s in side) for side in sides]
    awards = two_side_awards(totals, state.game.options["scoring"])[0]
    out = [0] * n
    for i, members in enumerate(sides):
        for seat in members:
            out[seat] = awards[i]
    return out
