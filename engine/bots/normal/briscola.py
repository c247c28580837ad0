"""The normal player of Briscola: the black hand and the exchange, the card
of `trumps.best_card` and, with two players, its own lead (`lead_card`: each
card led against the other seat's answer in sampled hands) and, once at most
the last draw is left, an exact search of the rest of the hand
(`endgame_card`, over the few ways the last face-down card can lie).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from ...cards import SUITS, Card
from ...games.briscola import BriscolaState
from ...state import Action, play_action
from ..endgame import SUIT_OF, Endgame, answers
from ..heuristics import Table
from .indices import choose
from .trumps import SPENT, TRUMP_BASE, TRUMP_STEP, _briscola_threshold, best_card, trump_resource

LEAD_SAMPLES = 24
"""Hands of the other seat the lead is tried against (`lead_card`)."""


def briscola(state: BriscolaState, seat: int, legal: Sequence[Action]) -> Action:
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
    if table.n == 2 and not table.trick and state.pile_left() > 2:
        return play_action(seat, lead_card(table))
    return play_action(seat, best_card(table))


def lead_card(table: Table) -> Card:
    """Two players, a lead with more than the last draw left: each card of the
    hand is led against the other seat's answer (its normal card as it reads a
    full state, `indices.choose`) in `LEAD_SAMPLES` hands drawn from the
    unseen cards (one hand when it holds no hidden card): the trick's points
    won or lost, a trump it spends worth `SPENT` of its kept worth, less what
    the card led is worth kept, plus the 61 points' bonus."""
    state = table.state
    assert isinstance(state, BriscolaState)  # (the normal player of Briscola)
    me, other = table.me, 1 - table.me
    assert table.trump is not None  # Briscola always has a trump suit
    trump, strength, value = SUITS.index(table.trump), table.strength, table.value
    beats = answers(trump, strength)
    hidden = table.hidden[other]
    known = [c.index for c in table.known[other]]
    if hidden:
        unseen = [c.index for c in table.unseen]
        rng = Random(len(state.history))
        hands = [known + rng.sample(unseen, hidden) for _ in range(LEAD_SAMPLES)]
    else:
        hands = [known]
    ours, theirs = state.captured[me], state.captured[other]
    hand = [c.index for c in table.hand]
    cards_left = len(hand) + hidden + len(known) + state.pile_left()
    scale = min(1.0, (table.tricks_left() - 1) / 4.0)
    best, best_key = None, None
    for card in sorted(table.hand):
        led = card.index
        rest = [c for c in hand if c != led]
        total, won = 0.0, 0
        for theirs_hand in hands:
            answer = choose(theirs_hand, rest, [led], theirs, ours, cards_left, trump, strength, value, beats)
            points = value[led] + value[answer]
            if beats[led * 40 + answer]:
                total -= points
                if SUIT_OF[answer] == trump:
                    total += SPENT * (TRUMP_BASE + TRUMP_STEP * (strength[answer] - 1)) * scale
            else:
                total += points
                won += 1
        ev = total / len(hands) - trump_resource(table, card) + _briscola_threshold(table, value[led], won / len(hands))
        key = (ev, -strength[led], -led)
        if best_key is None or key > best_key:
            best, best_key = card, key
    assert best is not None  # a lead: the hand holds a card
    return best


def exchange_pays(state: BriscolaState) -> bool:
    """Swap the trump 2 (or 7) for the face-up card when that card is higher."""
    assert state.faceup is not None and state.exchange_card is not None  # (the exchange is legal)
    return state.strength[state.faceup.index] > state.strength[state.exchange_card.index]


def endgame_card(table: Table) -> Card | None:
    """Two players near the end: search the rest of the hand exactly.

    With nothing left to draw every card is known (the other hand is what
    this seat has not seen). With the last face-down card and the face-up
    one left, the winner of this trick draws the face-down card and the
    other the face-up one: each unseen card in turn is taken for the
    face-down card, and the card with the best average is played.
    """
    state = table.state
    assert isinstance(state, BriscolaState)  # (the normal player of Briscola)
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
