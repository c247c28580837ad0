"""The normal player's card rule of Briscola for two on card indices, every
card placed: `choose` (an answer or a lead by `trumps.card_ev` as it reads a
full state, where a card's chance of taking the trick is 0 or 1 and a trump
is the master when the other hand holds no higher one) and `lead` (the lead
of `briscola.lead_card`, the other hand known). The hard player's playouts
(engine/bots/briscola2.py) play them; `briscola.lead_card` asks `choose` for
the other seat's answer in each hand it samples.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..endgame import SUIT_OF
from .trumps import MASTER_TRUMP, SPENT, TRUMP_BASE, TRUMP_STEP, clinch


def choose(
    hand: Sequence[int],
    other: Sequence[int],
    trick: Sequence[int],
    ours: int,
    theirs: int,
    cards_left: int,
    trump: int,
    strength: Sequence[int],
    value: Sequence[int],
    beats: Sequence[bool],
) -> int:
    """The normal player's card (`trumps.best_card`) for the seat holding
    `hand`, the other seat holding `other`, every card placed; `cards_left`:
    the cards in hands, on the table and still to draw; `beats`:
    `endgame.answers`."""
    scale = min(1.0, ((cards_left + 1) // 2 - 1) / 4.0)
    open_threshold = not (ours > 60 or theirs > 60)
    led = trick[0] if trick else None
    best, best_key = -1, None
    for card in hand:
        rank = strength[card]
        if led is None:  # it takes the trick unless the other hand holds a card that beats it
            points = value[card]
            row = card * 40
            win = 0.0 if any(beats[row + answer] for answer in other) else 1.0
        else:
            points = value[led] + value[card]
            win = 1.0 if beats[led * 40 + card] else 0.0
        ev = (2.0 * win - 1.0) * points - kept(card, other, trump, strength, scale)
        if open_threshold:
            ev += clinch(ours, theirs, points, win)
        key = (ev, -rank, -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best


def lead(
    hand: Sequence[int],
    other: Sequence[int],
    trick: Sequence[int],
    ours: int,
    theirs: int,
    cards_left: int,
    trump: int,
    strength: Sequence[int],
    value: Sequence[int],
    beats: Sequence[bool],
) -> int:
    """The normal player's lead (`briscola.lead_card`) with the other hand known:
    each card against the other seat's answer (`choose`); `trick` is empty."""
    scale = min(1.0, ((cards_left + 1) // 2 - 1) / 4.0)
    open_threshold = not (ours > 60 or theirs > 60)
    best, best_key = -1, None
    for card in hand:
        rest = [c for c in hand if c != card]
        answer = choose(other, rest, [card], theirs, ours, cards_left, trump, strength, value, beats)
        points = value[card] + value[answer]
        if beats[card * 40 + answer]:
            total, win = -float(points), 0.0
            if SUIT_OF[answer] == trump:
                total += SPENT * (TRUMP_BASE + TRUMP_STEP * (strength[answer] - 1)) * scale
        else:
            total, win = float(points), 1.0
        ev = total - kept(card, other, trump, strength, scale)
        if open_threshold:
            ev += clinch(ours, theirs, value[card], win)
        key = (ev, -strength[card], -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best


def kept(card: int, other: Sequence[int], trump: int, strength: Sequence[int], scale: float) -> float:
    """What `card` is worth kept (`trumps.trump_resource`), the other hand known."""
    rank = strength[card]
    if SUIT_OF[card] != trump:
        return 0.05 * (rank - 1)
    worth = TRUMP_BASE + TRUMP_STEP * (rank - 1)
    if not any(SUIT_OF[c] == trump and strength[c] > rank for c in other):
        worth += MASTER_TRUMP
    return worth * scale
