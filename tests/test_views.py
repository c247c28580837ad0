"""A seat's view: the same engine on a deal where the other hands are hidden.

Each seat's view starts from `deal.redact(seat)` and folds the action stream
as that seat receives it: chance cards only where `need().audiences` names
that seat (or PUBLIC), other seats' face-down Calabresella discards as None,
everything else as is. Honest play must be accepted by every view and end
with the same outcome as the full state.
"""

from __future__ import annotations

import random

import pytest
from helpers.views import redact_action, views_of
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import make
from engine.state import CHANCE, Action, IllegalAction


def play_with_views(game, dealer: int, rng: random.Random):
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(dealer).deal(deck)
    full = game.new_hand(dealer, deal)
    views = views_of(game, dealer, deal)
    while not full.is_over():
        if full.current_player() == CHANCE:
            action, need = full.chance_outcome(), full.need()
        else:
            action, need = rng.choice(full.legal_actions()), None
            # The acting seat's own view offers the same choices as the full state.
            mine = views[action.seat]
            assert mine.current_player() == action.seat
            assert set(mine.legal_actions()) == set(full.legal_actions())
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, need, seat))
            assert view.current_player() == full.current_player()
            assert view.phase == full.phase
            assert view.hand_size(seat) == full.hand_size(seat)
            assert sorted(view.hands[seat]) == sorted(full.hands[seat])
    return full, views


def check_same_outcome(full, views) -> None:
    expected = full.outcome()
    for view in views:
        assert view.is_over()
        got = view.outcome()
        assert got.score == expected.score
        assert got.points == expected.points
        assert got.tricks == expected.tricks
        assert got.result == expected.result


@settings(max_examples=80, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 6]),
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 5),
    options=st.fixed_dictionaries(
        {
            "trump_exchange": st.sampled_from(["none", "2", "7"]),
            "black_hand": st.booleans(),
            "open_hands": st.booleans(),
            "seven_second": st.booleans(),
        }
    ),
)
def test_briscola_views_follow_honest_play(players, seed, dealer, options):
    game = make("briscola", players, options)
    full, views = play_with_views(game, dealer % players, random.Random(seed))
    check_same_outcome(full, views)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 4),
    auction=st.sampled_from(["rank", "points"]),
    call=st.sampled_from(["exact", "at_least"]),
)
def test_chiamata_views_follow_honest_play(seed, dealer, auction, call):
    game = make("chiamata", 5, {"auction": auction, "call": call})
    full, views = play_with_views(game, dealer, random.Random(seed))
    check_same_outcome(full, views)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2))
def test_calabresella_views_follow_honest_play(seed, dealer):
    game = make("calabresella", 3)
    full, views = play_with_views(game, dealer, random.Random(seed))
    check_same_outcome(full, views)


class ForcedContract(random.Random):
    """A Random whose choices open the auction with one contract and raise."""

    def __init__(self, seed, contract, raise_):
        super().__init__(seed)
        self.script = [("bid", contract)] + ([("raise", raise_)] if raise_ else [])

    def choice(self, seq):
        if self.script:
            for action in seq:
                if (action.kind, action.contract or action.choice) == self.script[0]:
                    self.script.pop(0)
                    return action
        elif seq[0].kind == "pass":
            return seq[0]  # everybody else passes
        return super().choice(seq)


@pytest.mark.parametrize(
    "contract, raise_",
    [
        ("chiamo", None),
        ("solo", None),
        ("solissimo", "none"),
        ("solissimo", "dividete"),
        ("solissimo", "scegliete"),
    ],
)
def test_calabresella_views_every_contract(contract, raise_):
    game = make("calabresella", 3)
    for seed in range(6):
        full, views = play_with_views(game, seed % 3, ForcedContract(seed, contract, raise_))
        assert full.contract == contract and full.raised == (raise_ or "none")
        check_same_outcome(full, views)


def test_a_face_down_discard_hides_which_cards_stay():
    """After the soloist's face-down discard, defenders no longer know its hand."""
    game = make("calabresella", 3)
    rng = ForcedContract(4, "solo", None)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    views = views_of(game, 0, deal)
    while full.phase != "play":
        if full.current_player() == CHANCE:
            action, need = full.chance_outcome(), full.need()
        else:
            action, need = rng.choice(full.legal_actions()), None
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, need, seat))
    solo = full.soloist
    for seat in full.defenders():
        # Before the discard the monte was in the soloist's hand, face up; now not.
        assert views[seat].hands[solo] == [] and views[seat].unknown[solo] == 12
        assert views[seat].monte == [None] * 4
    assert sorted(views[solo].hands[solo]) == sorted(full.hands[solo])


@pytest.mark.parametrize("name, players", [("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)])
def test_a_view_rejects_another_seat_playing_the_viewers_card(name, players):
    game = make(name, players)
    rng = random.Random(7)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    # Get to the play phase with the first bidder winning a cheap contract.
    if name == "chiamata":
        full.apply(Action(1, "bid", rank="A"))
        for s in (2, 3, 4, 0):
            full.apply(Action(s, "pass"))
        full.apply(next(a for a in full.legal_actions()))
    if name == "calabresella":
        full.apply(Action(1, "bid", contract="solissimo"))
        full.apply(Action(1, "raise", choice="none"))
    actor = full.current_player()
    assert full.phase == "play"
    viewer = (actor + 1) % players
    view = game.new_hand(0, deal.redact(viewer), viewer=viewer)
    for action in full.history:
        view.apply(action)
    stolen = full.hands[viewer][0]
    with pytest.raises(IllegalAction, match="does not hold"):
        view.apply(Action(actor, "play", stolen))
    # The full state rejects it too, and the actor's own card is accepted by the view.
    with pytest.raises(IllegalAction):
        full.apply(Action(actor, "play", stolen))
    own = full.hands[actor][0]
    view.apply(Action(actor, "play", own))
    assert view.hand_size(actor) == full.hand_size(actor) - 1


def test_a_view_rejects_the_face_up_card_and_cards_on_the_table():
    game = make("briscola", 3)
    rng = random.Random(3)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(2).deal(deck)
    view = game.new_hand(2, deal.redact(1), viewer=1)
    assert view.current_player() == 0
    # Seat 0 cannot play the face-up card: everyone sees it lying under the stock.
    with pytest.raises(IllegalAction, match="does not hold"):
        view.apply(Action(0, "play", deal.faceup))
    first = deal.hands[0][0]
    view.apply(Action(0, "play", first))
    view.apply(Action(1, "play", deal.hands[1][0]))
    # Seat 2 cannot play the card seat 0 just put on the table.
    with pytest.raises(IllegalAction, match="does not hold"):
        view.apply(Action(2, "play", first))
    view.apply(Action(2, "play", deal.hands[2][0]))
    assert len(view.tricks) == 1


def test_the_high_bidder_is_no_soloist_until_the_auction_ends():
    """A newcomer read `soloist` beside a seat that had only bid first: another may still outbid it."""
    from engine.view import roles_of

    game = make("calabresella", 3)
    deal = game.plan(2).deal(game.deck())
    state = game.new_hand(2, deal)
    state.apply(Action(kind="bid", seat=state.current_player(), contract="chiamo"))
    assert state.phase == "auction" and all("soloist" not in r for r in roles_of(state).values())
    while state.phase == "auction":  # the others pass: the bid stands
        state.apply(next(a for a in state.legal_actions() if a.kind == "pass"))
    assert "soloist" in roles_of(state)[state.soloist]
