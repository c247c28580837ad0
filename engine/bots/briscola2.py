"""The hard player's playouts of Briscola for two, on plain numbers.

A playout of `hard.search` finishes a determinized hand (every card known):
the normal player moves for both seats, the draws come from the stock, and
once at most the last draw is left the rest is searched exactly
(`engine/bots/endgame.py`). Done on engine `State`s, each move rebuilds the
normal player's `Table`, clones the state and dispatches through the
engine; that is most of what a hard move costs.

`playout(state)` plays the same playout on card indices: the normal
player's Briscola rule (`normal.card_ev`) as it reads a full state, where
every card is placed (so nothing is unseen, the other hand is known, a
card's chance of taking the trick is 0 or 1 and a trump is the master when
the other hand holds no higher one), and the same exact finish. It returns
the same points and counts the same actions as the engine playout
(tests/test_hard.py checks this on random deals); it is several times
faster, so hard gets more determinizations for the same CPU.

Only the plain game: with the trump exchange or the black hand a seat has
actions other than a card, and `supports` sends those hands to the engine
playout.
"""

from __future__ import annotations

from typing import cast

from ..cards import SUITS, Card
from ..games.briscola import BriscolaState
from ..state import CHANCE, State
from .endgame import INFINITY, Endgame, answers, points_of
from .normal.indices import choose, lead


def supports(state: State) -> bool:
    """True for Briscola for two in play, without the trump exchange or the black hand."""
    return (
        isinstance(state, BriscolaState)
        and state.n == 2
        and state.exchange_card is None
        and not state.black_hand
        and state.phase in ("play", "draw")
    )


def playout(state: BriscolaState, solved: dict | None = None) -> tuple[list[int], int]:
    """Finish the hand of full `state` as `hard.playout` does with the normal
    player: (each seat's final card points, actions applied). `state` is
    left as it was. `solved` keeps the exact finishes already searched (one
    search's determinizations of a late move repeat a few endgames often)."""
    hands = [[c.index for c in state.hands[0]], [c.index for c in state.hands[1]]]
    trick = [c.index for c in state.trick]
    stock = [c.index for c in cast("list[Card]", state.stock)]  # (a full state: every card known)
    faceup = state.faceup.index
    strength, value = state.strength, state.points
    trump = SUITS.index(state.trump)
    beats = answers(trump, strength)
    captured = list(state.captured)
    leader, turn, drawn = state.leader, state.turn, state.drawn
    size = len(stock)
    steps = 0
    while True:
        if turn == CHANCE:  # the trick's winner draws first, the face-up card comes last
            other = stock[drawn + 1] if drawn + 1 < size else faceup
            hands[leader].append(stock[drawn])
            hands[1 - leader].append(other)
            drawn += 2
            turn = leader
            steps += 1
            continue
        pile = size + 1 - drawn
        if pile <= 2:
            return finish(
                hands, trick, leader, captured, (stock[drawn], faceup) if pile == 2 else (), state, solved
            ), steps
        seat = turn
        pick = choose if trick else lead
        card = pick(
            hands[seat],
            hands[1 - seat],
            trick,
            captured[seat],
            captured[1 - seat],
            len(hands[0]) + len(hands[1]) + len(trick) + pile,
            trump,
            strength,
            value,
            beats,
        )
        hands[seat].remove(card)
        steps += 1
        if not trick:
            trick = [card]
            turn = 1 - seat
            continue
        led = trick[0]
        winner = seat if beats[led * 40 + card] else leader
        captured[winner] += value[led] + value[card]
        trick = []
        leader = turn = winner
        if drawn <= size:
            turn = CHANCE


def finish(
    hands: list[list[int]],
    trick: list[int],
    leader: int,
    captured: list[int],
    draw: tuple,
    state: BriscolaState,
    solved: dict | None = None,
) -> list[int]:
    """`hard.briscola_finish` on these numbers: each seat's final card points
    with best play by both (`endgame.Endgame`)."""
    led = trick[0] if trick else -1
    h0, h1, draw = tuple(sorted(hands[0])), tuple(sorted(hands[1])), tuple(draw)
    key = (h0, h1, leader, led, captured[0], draw)
    mine = solved.get(key) if solved is not None else None
    if mine is None:
        search = Endgame(state.trump, state.strength, state.points)
        mine = points_of(search.search(h0, h1, leader, led, captured[0], draw, -INFINITY, INFINITY))
        if solved is not None:
            solved[key] = mine
    return [mine, sum(state.points) - mine]
