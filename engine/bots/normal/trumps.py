"""The normal player's card play with trumps, Briscola and Briscola Chiamata:
one estimate for every card in hand (`card_ev`): the trick's points, won or
lost for the seat's side with the probability that the seats still to play
(hostile or friendly, certainly or probably: a Chiamata partner is secret)
hold a card beating it, minus what the card is worth kept for later (a
trump's power, the master trump above all); Briscola adds the threshold of
61 points and the last draw (who gets the face-up card).
"""

from __future__ import annotations

from ...cards import Card
from ...games.briscola import BriscolaState
from ..heuristics import Table

TRUMP_BASE = 3.5
"""What a low trump is worth kept for later, in card points."""
TRUMP_STEP = 1.1
"""... and each rank above it."""
MASTER_TRUMP = 2.0
"""... and more for the highest trump still out."""
CLINCH = 20.0
"""Briscola: points' worth of a trick that decides the hand (61 reached)."""
SPENT = -2.0
"""What the other seat's trump spent on my lead is worth to me, as a share of
its kept worth (`trump_resource`; Briscola for two, `briscola.lead_card`): less than nothing (a lead it must trump
is a poor lead). bench/ppo.py against the PPO agent, 10,000 deals (20,000
hands) each, seed 3: +2 won 46.3%, +1 48.1%, 0 50.0%, -1 50.8%, -2 51.2%,
-3 and -4 50.8% of the decided hands; the earlier lead by `card_ev` 47.3%
(seed 4: 47.1%, and -1 50.9%; docs/bots.md)."""


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
    if isinstance(table.state, BriscolaState):
        ev += _briscola_threshold(table, points, mine) + _last_draw(table, mine)
    return ev


def best_card(table: Table) -> Card:
    """The card of the hand with the best `card_ev` (the lowest card on a tie)."""
    return max(sorted(table.hand), key=lambda c: (card_ev(table, c), -table.strength[c.index], -c.index))


# --- Briscola: the 61 points and the last draw ---------------------------------------


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
    return clinch(ours, theirs, points, mine)


def clinch(ours: int, theirs: int, points: int, win: float) -> float:
    """The 61 points' bonus of a trick of `points` won with chance `win`, the
    sides at `ours` and `theirs` points, neither past 60 yet."""
    bonus = 0.0
    if ours + points > 60:
        bonus += CLINCH * win
    if theirs + points > 60:
        bonus -= CLINCH * (1.0 - win)
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
    if table.n != 2:
        return 0.0
    assert isinstance(state, BriscolaState)  # (two players: Briscola)
    if state.pile_left() != 2:
        return 0.0
    unknown = table.unseen
    if not unknown:
        return 0.0
    average = sum(_draw_worth(table, c) for c in unknown) / len(unknown)
    assert state.faceup is not None  # (drawn last)
    return mine * average + (1.0 - mine) * _draw_worth(table, state.faceup)
