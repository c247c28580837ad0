"""determinize(view, rng): full states that agree with everything a seat saw.

Seeded random hands of every game are played with every seat's view kept
as the table keeps it (tests/test_views.py); at every step each view is
determinized a few times. Each sampled deal, replayed, must give the seat
exactly its own history and view (its cards, every card shown, the hidden
parts as hidden), the full state must be at the view's point of the hand,
and the rules' hidden constraints must hold in the sampled deal: suits a
Calabresella seat showed it lacks, the Chiamata two rule, the Calabresella
denial of the called card. Uniformity is checked where it can be counted.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from helpers.determinize import (
    CASES,
    calabresella_rng,
    hands_of,
    views_of,
    walk,
)
from helpers.views import redact_action

from engine.assignment import Assignment
from engine.bots import StateView
from engine.cards import BRISCOLA_ORDER, Card
from engine.determinize import Determinizer, Inconsistent, agrees, determinize, determinizer
from engine.games import make
from engine.state import CHANCE, PUBLIC, Action

# --- what a sample must satisfy -------------------------------------------------


def seen_again(det: Determinizer, sample, seat):
    """Replay a sampled deal as the table would, keeping `seat`'s view: the
    full state and the view the seat would then have."""
    game = det.game
    full = game.new_hand(det.dealer, sample.deal)
    public = bool(game.options.get("open_hands"))
    view = game.new_hand(det.dealer, sample.deal.redact(seat, public_hands=public), viewer=seat)
    for t, seen in enumerate(det.history):
        if seen.seat == CHANCE:
            action, need = full.chance_outcome(), full.need()
        elif t in sample.discards:
            action, need = Action(seen.seat, "discard", cards=sample.discards[t]), None
        else:
            action, need = seen, None
        full.apply(action)
        view.apply(redact_action(action, need, seat))
    return full, view


def same_view(a, b) -> bool:
    """Two views of one seat know the same things."""
    if a.history != b.history or (a.turn, a.phase, a.trick, a.tricks) != (b.turn, b.phase, b.trick, b.tricks):
        return False
    if a.unknown != b.unknown or [sorted(h) for h in a.hands] != [sorted(h) for h in b.hands]:
        return False
    return all(getattr(a, name, None) == getattr(b, name, None) for name in ("stock", "monte", "faceup", "drawn"))


def voids(view) -> dict[int, set[str]]:
    """Suits each seat showed it lacks (follow suit compulsory), from the history."""
    found: dict[int, set[str]] = {}
    if not view.MUST_FOLLOW:
        return found
    plays = [a for a in view.history if a.kind == "play"]
    for i, action in enumerate(plays):
        led = plays[i - i % view.n].card.suit
        if action.card.suit != led:
            found.setdefault(action.seat, set()).add(led)
    return found


def two_rule(view):
    """(caller, called card, cards the caller must have held) when the call relied on the two rule."""
    if view.game.name != "chiamata" or view.called is None:
        return None
    options = view.game.options
    card, bid = view.called, view.rank
    if options["auction"] == "points" or options["call"] == "at_least" or card.rank == bid or bid != "2":
        return None
    low = BRISCOLA_ORDER[::-1]
    return view.caller, card, [Card(r, card.suit) for r in low[: low.index(card.rank)]]


def denied(view):
    """(defenders, called card) after a Calabresella handover with no holder."""
    for action in view.history:
        if action.kind == "handover" and action.holder is None:
            return view.defenders(), action.card
    return None


def check_sample(det: Determinizer, view, seat, rng) -> None:
    sample = det.sample_deal(rng)
    det.game.check_deal(sample.deal, det.dealer)
    full = det.replay(sample)
    assert full.viewer is None and not any(full.unknown)
    assert agrees(full, view)
    assert len(full.history) == len(view.history)
    if seat is not None:
        assert sorted(full.hands[seat]) == sorted(view.hands[seat])
    again, seen = seen_again(det, sample, seat)
    assert agrees(again, view)
    assert same_view(seen, view), "the sampled deal does not show the seat what it saw"
    for s, suits in voids(view).items():
        assert not any(c.suit in suits for c in full.hands[s]), f"seat {s} holds a suit it showed it lacks"
    rule = two_rule(view)
    if rule:
        caller, called, needed = rule
        dealt = sample.deal.hands[caller]
        assert called not in dealt and all(c in dealt for c in needed)
    denial = denied(view)
    if denial:
        defenders, called = denial
        assert all(called not in sample.deal.hands[d] for d in defenders)


PHASES = {
    "briscola": {"play", "draw", "done"},
    "chiamata": {"auction", "call", "play", "done"},
    "calabresella": {
        "auction",
        "call",
        "handover",
        "monte",
        "return",
        "discard",
        "raise",
        "dividete",
        "take",
        "play",
        "done",
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_samples_agree_with_every_view_at_every_step(case):
    checked = 0
    for hand, (game, dealer, rng) in enumerate(hands_of(case)):
        sampler = random.Random(hand)
        for _full, views in walk(game, dealer, rng):
            for seat, view in enumerate(views):
                det = Determinizer(view)
                check_sample(det, view, seat, sampler)
                checked += 1
    assert checked >= 200


def test_every_phase_is_determinized():
    """The cases above reach every phase of every game."""
    seen: dict[str, set] = {}
    for case in CASES:
        for game, dealer, rng in hands_of(case):
            for full, _ in walk(game, dealer, rng):
                seen.setdefault(game.name, set()).add(full.phase)
    assert seen == PHASES


def test_the_cases_exercise_the_hidden_rules():
    """Exchanges, two-rule calls, denials, voids and hidden discards all occur above."""
    kinds = Counter()
    for case in CASES:
        for game, dealer, rng in hands_of(case):
            *_, (full, views) = walk(game, dealer, rng)
            kinds.update(a.kind for a in full.history)
            kinds["two rule"] += bool(two_rule(full))
            kinds["void"] += bool(voids(full))
            denial = denied(full)
            if denial:
                in_monte = any(a.kind == "monte" and denial[1] in a.cards for a in full.history)
                kinds["denial, monte" if in_monte else "denial, soloist"] += 1
    for kind in (
        "exchange",
        "two rule",
        "denial, monte",
        "denial, soloist",
        "void",
        "discard",
        "dividete",
        "take",
        "return",
        "draw",
    ):
        assert kinds[kind] > 0, kind


def test_a_spectator_view_and_a_full_state_determinize_too():
    game = make("calabresella", 3)
    rng = calabresella_rng(5, 0, "solissimo", "dividete")
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    spectator = game.new_hand(0, deal.redact(PUBLIC), viewer=PUBLIC)
    for _ in range(20):
        if full.current_player() == CHANCE:
            action, need = full.chance_outcome(), full.need()
        else:
            action, need = rng.choice(full.legal_actions()), None
        full.apply(action)
        spectator.apply(redact_action(action, need, PUBLIC))
    sampled = determinize(spectator, random.Random(1))
    assert agrees(sampled, spectator)
    again = determinize(full, random.Random(1))
    assert [sorted(h) for h in again.hands] == [sorted(h) for h in full.hands]
    assert again.history == full.history


def test_a_black_hand_declared_after_a_hidden_draw():
    """Briscola: seat 1 declares A, 3 and K of trump, the K drawn unseen by seat 0."""
    game = make("briscola", 2, {"black_hand": True})
    plan = game.plan(0)  # seat 1 leads and is dealt positions 0, 2, 4
    cards = {0: "AD", 2: "3D", 4: "4C", 1: "4S", 3: "5S", 5: "6S", 6: "5D", 7: "KD"}
    rest = [c for c in game.deck() if str(c) not in cards.values()]
    random.Random(2).shuffle(rest)
    deck = [Card.parse(cards[p]) if p in cards else rest.pop() for p in range(plan.size)]
    deal = plan.deal(deck)
    full = game.new_hand(0, deal)
    views = views_of(game, 0, deal)
    script = [Action(1, "play", Card.parse("4C")), Action(0, "play", Card.parse("4S")), None, Action(1, "declare")]
    rng = random.Random(3)
    for action in script:
        need = None
        if action is None:
            action, need = full.chance_outcome(), full.need()
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, need, seat))
            det = Determinizer(view)
            for _ in range(20):
                check_sample(det, view, seat, rng)
    assert full.is_over() and full.declared == 1


# --- views as bots receive them ---------------------------------------------------


def test_a_bot_view_object_is_accepted_and_its_reading_cached():
    game = make("briscola", 2)
    rng = random.Random(3)
    walked = walk(game, 0, rng)
    for _ in range(13):  # the position after 12 steps
        full, views = next(walked)
    seat = full.current_player() if full.current_player() >= 0 else 0
    view = StateView(views[seat], seat)
    first = determinizer(view)
    assert determinizer(view) is first  # the same view object: read once
    assert determinizer(views[seat]) is determinizer(views[seat])
    sampled = determinize(view, random.Random(0))
    assert agrees(sampled, views[seat])


def test_a_changed_state_is_read_again():
    game = make("briscola", 2)
    rng = random.Random(4)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(1).deal(deck)
    full = game.new_hand(1, deal)
    view = game.new_hand(1, deal.redact(0), viewer=0)
    before = determinizer(view)
    action = full.legal_actions()[0]
    full.apply(action)
    view.apply(action)
    after = determinizer(view)
    assert after is not before
    assert agrees(determinize(view, rng), view)


# --- inconsistent views ---------------------------------------------------------


def test_a_renege_the_view_could_not_see_is_inconsistent():
    """Calabresella: seat 2 does not follow suit, then plays that suit. Its
    view accepted both plays (the cards were hidden); no deal explains them."""
    game = make("calabresella", 3)
    for seed in range(200):
        deck = game.deck()
        random.Random(seed).shuffle(deck)
        deal = game.plan(0).deal(deck)
        lead = deal.hands[1][0]
        off = [c for c in deal.hands[2] if c.suit != lead.suit]
        follow = [c for c in deal.hands[2] if c.suit == lead.suit]
        if not (off and follow):
            continue
        view = game.new_hand(0, deal.redact(0), viewer=0)
        view.apply(Action(1, "bid", contract="solissimo"))  # ends the auction
        view.apply(Action(1, "raise", choice="none"))
        ones = iter(deal.hands[1])
        while follow[0] not in view.trick and all(follow[0] not in t.cards for t in view.tricks):
            seat = view.current_player()
            if seat == 0:
                view.apply(view.legal_actions()[0])
            elif seat == 1:
                view.apply(Action(1, "play", next(ones)))
            else:
                view.apply(Action(2, "play", off[0] if not view.tricks else follow[0]))
        with pytest.raises(Inconsistent):
            Determinizer(view)
        return
    pytest.fail("no deal to renege with")


def test_a_false_two_rule_call_is_inconsistent():
    """Chiamata: the caller called the 4 relying on the two rule, then another
    seat played the 2 of that suit. Seat 3's view accepted both; no deal does."""
    game = make("chiamata", 5)
    for seed in range(200):
        deck = game.deck()
        random.Random(seed).shuffle(deck)
        deal = game.plan(0).deal(deck)
        suits = [s for s in "DHSC" if Card("2", s) in deal.hands[2] and Card("4", s) not in deal.hands[1]]
        if not suits:
            continue
        two, four = Card("2", suits[0]), Card("4", suits[0])
        view = game.new_hand(0, deal.redact(3), viewer=3)
        view.apply(Action(1, "bid", rank="2"))
        for seat in (2, 3, 4, 0):
            view.apply(Action(seat, "pass"))
        view.apply(Action(1, "call", card=four))  # seat 1 does not hold the 2
        view.apply(Action(1, "play", next(c for c in deal.hands[1] if c is not four)))
        view.apply(Action(2, "play", two))
        with pytest.raises(Inconsistent, match="two rule|holding"):
            Determinizer(view)
        return
    pytest.fail("no deal for a false call")


# --- uniformity -----------------------------------------------------------------


def test_briscola_two_at_the_deal_spreads_unseen_cards_evenly():
    """Seat 0 sees its 3 cards and the face-up card: each of the other 36 is in
    the opponent's hand with probability 3/36, in each stock place with 1/36."""
    game = make("briscola", 2)
    deck = game.deck()
    random.Random(8).shuffle(deck)
    deal = game.plan(1).deal(deck)
    view = game.new_hand(1, deal.redact(0), viewer=0)
    det = Determinizer(view)
    rng = random.Random(9)
    runs = 12_000
    in_hand = Counter()
    on_top = Counter()
    for _ in range(runs):
        sampled = det.sample_deal(rng).deal
        assert sorted(sampled.hands[0]) == sorted(deal.hands[0]) and sampled.faceup is deal.faceup
        in_hand.update(sampled.hands[1])
        on_top[sampled.stock[0]] += 1
    unseen = [c for c in game.deck() if c not in deal.hands[0] and c is not deal.faceup]
    assert len(unseen) == 36 and set(in_hand) == set(unseen)
    # Binomial(12000, 1/12): sd about 30; the seeds are fixed, the bounds wide.
    for card in unseen:
        assert abs(in_hand[card] - runs * 3 / 36) < 150, card
        assert abs(on_top[card] - runs / 36) < 100, card


def test_assignment_is_uniform_over_every_valid_assignment():
    """Brute force: every assignment that respects the constraints is equally likely."""
    cards = [Card.parse(t) for t in ("AS", "2S", "3S", "4H", "5H", "6D", "7D")]
    caps = [3, 2, 2]
    allowed = {cards[0]: (1, 2), cards[1]: (0, 2), cards[2]: (1, 2), cards[3]: (0,), cards[4]: (0, 1)}
    valid = []
    for places in product(range(3), repeat=len(cards)):
        if [places.count(i) for i in range(3)] != caps:
            continue
        if all(places[i] in allowed.get(c, (0, 1, 2)) for i, c in enumerate(cards)):
            valid.append(places)
    assignment = Assignment(caps, [(c, allowed.get(c)) for c in cards])
    assert assignment.count(0, assignment.caps) == len(valid)
    rng = random.Random(11)
    runs = 200 * len(valid)
    seen = Counter()
    for _ in range(runs):
        parts = assignment.sample(rng)
        where = {c: i for i, part in enumerate(parts) for c in part}
        seen[tuple(where[c] for c in cards)] += 1
    assert set(seen) == set(valid)
    for places in valid:
        assert abs(seen[places] - 200) < 75, places


def test_assignment_refuses_what_cannot_be():
    cards = [Card.parse(t) for t in ("AS", "2S", "3S")]
    with pytest.raises(Inconsistent):
        Assignment([1, 2], [(cards[0], (0,)), (cards[1], (0,)), (cards[2], None)])
    with pytest.raises(Inconsistent):
        Assignment([2, 1], [(cards[0], ()), (cards[1], None), (cards[2], None)])


def test_a_two_rule_call_puts_the_lower_trumps_with_the_caller():
    """Chiamata: the 2 was bid and a 5 called: every sample deals the caller
    the 2 and the 4 of that suit and not the 5."""
    game = make("chiamata", 5)
    for seed in range(100):
        rng = random.Random(seed)
        deck = game.deck()
        rng.shuffle(deck)
        deal = game.plan(0).deal(deck)
        hand = deal.hands[1]
        suits = [s for s in "DHSC" if Card("2", s) in hand and Card("4", s) in hand and Card("5", s) not in hand]
        if not suits:
            continue
        full = game.new_hand(0, deal)
        full.apply(Action(1, "bid", rank="2"))
        for seat in (2, 3, 4, 0):
            full.apply(Action(seat, "pass"))
        called = Card("5", suits[0])
        full.apply(Action(1, "call", card=called))
        view = game.new_hand(0, deal.redact(3), viewer=3)
        for action in full.history:
            view.apply(action)
        det = Determinizer(view)
        sampler = random.Random(seed)
        for _ in range(200):
            dealt = det.sample_deal(sampler).deal.hands[1]
            assert Card("2", suits[0]) in dealt and Card("4", suits[0]) in dealt and called not in dealt
        return
    pytest.fail("no deal for the two rule")
