"""The normal player's card of the two games with a trump (Briscola and
Briscola Chiamata), on card indices, for a full state: every card placed.

`normal.card_ev` reads a seat's view through `heuristics.Table`; given a
determinized full state (as the hard player's playouts give it, through
`playout.FullView`) nothing is unseen, so each of its questions has a plain
answer: a seat still to play holds a card beating the trick's best card or
not (`Table.p_holds` is 0 or 1), a trump is the master when no other hand
holds a higher one, and the sides are what the seat knows of them (in
Chiamata a probability until the partner is known). `choose` computes the
same estimate, with the same floating-point operations in the same order
(so that ties fall the same way), and returns the same card;
`engine/bots/fast_briscola.py` and `fast_chiamata.py` play whole hands with
it, and tests/test_hard.py checks them against the engine playout of the
normal player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import ALL_CARDS, Card
from .endgame import SUIT_OF
from .normal import MASTER_TRUMP, TRUMP_BASE, TRUMP_STEP
from .normal.trumps import clinch

INDEX = {card: card.index for card in ALL_CARDS}
"""Card -> its index (`Card.index`), for reading a state's hands."""


def indices(cards: Iterable[Card]) -> list[int]:
    return [c.index for c in cards]


def best_of(trick: list[int], beats: Sequence[bool]) -> tuple[int, int]:
    """The trick's best card so far and its place in the trick (`beats`: `endgame.answers`)."""
    top, position = trick[0], 0
    for i in range(1, len(trick)):
        c = trick[i]
        if beats[top * 40 + c]:
            top, position = c, i
    return top, position


def choose(
    me: int,
    hands: list[list[int]],
    trick: list[int],
    leader: int,
    trump: int,
    strength: Sequence[int],
    value: Sequence[int],
    beats: Sequence[bool],
    friend: list[float],
    tricks_left: int,
    sides: tuple[int, int] | None,
) -> int:
    """`normal.best_card` for seat `me` on a full state: `hands` every
    seat's cards, `trick` the cards on the table from `leader`'s on,
    `beats` (`endgame.answers`), `friend[s]` the chance `me` and `s` score
    together as `me` knows it (`Table.same_side`), `tricks_left` this one
    included (`Table.tricks_left`); `sides`, Briscola for two sides: the card
    points of `me`'s side and of the other so far (the 61-point bonus), else
    None."""
    n = len(hands)
    played = len(trick)
    scale = min(1.0, (tricks_left - 1) / 4.0)
    hand = hands[me]
    base_points = 0
    for c in trick:
        base_points += value[c]
    kept_top = None  # `mine` when the trick's best card stays the best
    if trick:  # the trick's best card before this one
        top, position = best_of(trick, beats)
    higher = _highest_other_trump(me, hands, trump, strength)
    best_card, best_key = -1, None
    for card in hand:
        # p_my_side_wins(trick + [card])
        if trick and not beats[top * 40 + card]:
            if kept_top is None:
                kept_top = side_wins(top, position, leader, played, n, hands, beats, friend)
            mine = kept_top
        else:
            mine = side_wins(card, played, leader, played, n, hands, beats, friend)
        points = base_points + value[card]
        rank = strength[card] - 1
        ev = (2.0 * mine - 1.0) * points - _kept_worth(card, rank, trump, strength, higher, scale)
        if sides is not None and not (sides[0] > 60 or sides[1] > 60):
            ev += clinch(sides[0], sides[1], points, mine)
        key = (ev, -rank, -card)
        if best_key is None or key > best_key:
            best_card, best_key = card, key
    return best_card


def _highest_other_trump(me: int, hands: list[list[int]], trump: int, strength: Sequence[int]) -> int:
    """The strength of the highest trump in another hand (0: none); a trump above it is the master trump."""
    higher = 0
    for seat in range(len(hands)):
        if seat != me:
            for c in hands[seat]:
                if SUIT_OF[c] == trump and strength[c] > higher:
                    higher = strength[c]
    return higher


def _kept_worth(card: int, rank: int, trump: int, strength: Sequence[int], higher: int, scale: float) -> float:
    """What keeping `card` for later is worth: a trump more, the master trump most."""
    if SUIT_OF[card] != trump:
        return 0.05 * rank
    worth = TRUMP_BASE + TRUMP_STEP * rank
    if strength[card] > higher:
        worth += MASTER_TRUMP
    return worth * scale


def side_wins(
    best: int,
    winner_at: int,
    leader: int,
    played: int,
    n: int,
    hands: list[list[int]],
    beats: Sequence[bool],
    friend: list[float],
) -> float:
    """`Table.p_my_side_wins` once `played + 1` cards are on the table,
    `best` the best of them, played `winner_at` cards after the lead: each
    seat still to play that holds a card beating it takes the trick (from a
    foe, or back for a friend half as surely)."""
    mine = friend[(leader + winner_at) % n]
    row = best * 40
    for k in range(played + 1, n):
        seat = (leader + k) % n
        for answer in hands[seat]:
            if beats[row + answer]:
                f = friend[seat]
                mine = mine - mine * (1.0 - f) + (1.0 - mine) * f * 0.5
                break
    return mine
