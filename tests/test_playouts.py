"""Property tests over random legal playouts of every game and player count.

Per complete hand: the card points add up (120; Calabresella 35 thirds with
the last trick and the monte), scores are zero-sum where the rule book says
so (Briscola is not: exactly the winning side gains), every hand is played
out, replaying the recorded decisions gives the same outcome, and at every
step actions that `legal_actions` omits are rejected without touching the
state.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, BRISCOLA_ORDER, Card
from engine.games import make
from engine.games.calabresella import VALUE as THIRDS
from engine.replay import outcome_json, replay, run_hand
from engine.state import CHANCE, TERMINAL, Action, IllegalAction

# --- playing ------------------------------------------------------------------


def new_deal(game, dealer: int, rng: random.Random):
    deck = game.deck()
    rng.shuffle(deck)
    return game.plan(dealer).deal(deck)


def freeze(value):
    """An immutable deep copy of a state field (cards, actions, tricks are immutable)."""
    if isinstance(value, list):
        return ("list", tuple(freeze(v) for v in value))
    if isinstance(value, tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, freeze(v)) for k, v in value.items())))
    return value


def snapshot(state) -> dict:
    return {k: freeze(v) for k, v in vars(state).items() if k != "game"}


def candidates(state, rng: random.Random) -> list[Action]:
    """A random sample of actions of every kind, seat and card (legal or not)."""
    n = state.n
    seats = [*range(n), CHANCE]
    cards = rng.sample(ALL_CARDS, 6)
    out: list[Action] = []
    for seat in rng.sample(seats, min(3, len(seats))):
        out += [Action(seat, "play", c) for c in cards]
        out += [Action(seat, "exchange"), Action(seat, "declare"), Action(seat, "pass")]
        out += [Action(seat, "call", card=cards[0]), Action(seat, "return", card=cards[1])]
        out += [Action(seat, "bid", rank=r) for r in rng.sample(BRISCOLA_ORDER, 3)]
        out += [Action(seat, "bid", rank="2", target=rng.randint(55, 125))]
        out += [Action(seat, "bid", target=rng.randint(55, 125))]
        out += [Action(seat, "bid", contract=c) for c in ("chiamo", "solo", "solissimo", "tutto")]
        out += [Action(seat, "raise", choice=c) for c in ("none", "dividete", "scegliete", "x")]
        k = rng.randint(0, 5)
        out.append(Action(seat, "discard", cards=tuple(sorted(rng.sample(ALL_CARDS, k)))))
        out.append(Action(seat, "take", cards=tuple(rng.sample(ALL_CARDS, rng.randint(0, 2)))))
    # Chance events with the wrong cards.
    for kind in ("draw", "monte", "dividete"):
        out.append(Action(CHANCE, kind, cards=tuple(rng.sample(ALL_CARDS, rng.choice((1, 2, 3, 4, 6))))))
    called = getattr(state, "called", None)
    out += [Action(CHANCE, "handover", card=called, holder=h) for h in (None, 0, 1, 2)]
    out.append(Action(CHANCE, "handover", card=cards[2], holder=rng.randint(0, 2)))
    # Near misses of the legal ones: the same action by the next seat.
    for action in state.legal_actions()[:5]:
        if action.seat >= 0:
            out.append(
                Action(
                    (action.seat + 1) % n,
                    action.kind,
                    action.card,
                    action.cards,
                    action.rank,
                    action.target,
                    action.contract,
                    action.choice,
                )
            )
    return out


def check_rejections(state, rng: random.Random, tries: int) -> int:
    """Apply a few actions `legal_actions` omits: each must raise and change nothing."""
    legal = set(state.legal_actions())
    pool = [a for a in candidates(state, rng) if a not in legal]
    rejected = 0
    for action in rng.sample(pool, min(tries, len(pool))):
        before = snapshot(state)
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert snapshot(state) == before, f"{action} changed the state"
        rejected += 1
    return rejected


def playout(game, dealer: int, deal, rng: random.Random, reject_every: int = 0):
    state = game.new_hand(dealer, deal)
    step = 0
    while not state.is_over():
        if reject_every and step % reject_every == 0:
            check_rejections(state, rng, 4)
        step += 1
        if state.current_player() == CHANCE:
            action = state.chance_outcome()
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply(action)
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    if reject_every:
        check_rejections(state, rng, 4)
    return state


def deal_json(game, deal) -> dict:
    """The replay file's `deal`: the hands and the game's `DEAL_KEYS`."""
    out = {"hands": [[str(c) for c in h] for h in deal.hands]}
    for key, part in game.DEAL_KEYS.items():
        value = getattr(deal, part)
        out[key] = str(value) if part == "faceup" else [str(c) for c in value]
    return out


def check_replay(game, dealer: int, deal, state) -> None:
    """Replaying the recorded decisions (chance left to the deal) gives the same outcome."""
    decisions = [a for a in state.history if a.seat != CHANCE]
    again = run_hand(game, dealer, deal, decisions)
    assert again.is_over()
    assert again.outcome() == state.outcome()
    assert again.history == state.history
    # The same through the JSON replay format.
    from engine.replay import action_to_json

    doc = {
        "game": game.name,
        "players": game.players,
        "options": dict(game.options),
        "dealer": dealer,
        "deal": deal_json(game, deal),
        "actions": [action_to_json(a) for a in decisions],
    }
    out = replay(doc)
    assert out == outcome_json(state.outcome())
    if not out["result"].get("redeal"):
        assert set(game.RESULT_KEYS) <= set(out["result"]), "the game's RESULT_KEYS"


def check_played_out(state) -> None:
    assert all(state.hand_size(s) == 0 for s in range(state.n))
    assert state.trick == []
    played = [c for t in state.tricks for c in t.cards]
    assert len(played) == len(set(played))


# --- Briscola -----------------------------------------------------------------

briscola_options = st.fixed_dictionaries(
    {
        "trump_exchange": st.sampled_from(["none", "2", "7"]),
        "seven_second": st.booleans(),
        "open_hands": st.booleans(),
        "black_hand": st.booleans(),
        "scoring": st.sampled_from(["hands", "game_points"]),
    }
)


def check_briscola(state) -> None:
    game = state.game
    out = state.outcome()
    assert out.complete
    sides = game.sides()
    side_of = {s: i for i, side in enumerate(sides) for s in side}
    winner = out.result.winner
    if state.declared is not None:
        # Black hand: the declarer's side wins outright, as with all 120.
        assert state.ended_early
        assert winner == side_of[state.declared]
        full = 3 if (game.players == 3 or game.options["scoring"] == "game_points") else 1
        assert [out.score[s] for s in range(game.players)] == [
            full if side_of[s] == winner else 0 for s in range(game.players)
        ]
        return
    check_played_out(state)
    assert sum(out.points) == 120
    assert len(state.tricks) == len(game.deck()) // game.players
    totals = out.result.side_points
    assert sum(totals) == 120
    if game.players == 3:
        over = [p > 40 for p in totals]
        for s in range(3):
            assert (out.score[s] > 0) == over[s]
            if over[s]:
                assert out.score[s] == (3 if totals[s] == 120 else 2 if sum(over) == 1 else 1)
        assert winner == (over.index(True) if sum(over) == 1 else None)
        return
    # Two players or two teams: exactly the winning side's seats gain.
    if winner is None:
        assert list(totals) == [60, 60]
        assert out.score == [0] * game.players
    else:
        assert totals[winner] > 60
        gained = [s for s in range(game.players) if out.score[s] > 0]
        assert gained == sides[winner]
        assert all(out.score[s] == 0 for s in range(game.players) if side_of[s] != winner)


@settings(max_examples=300, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 6]),
    options=briscola_options,
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 5),
)
@pytest.mark.slow
def test_briscola_playouts(players, options, seed, dealer):
    game = make("briscola", players, options)
    dealer %= players
    rng = random.Random(seed)
    deal = new_deal(game, dealer, rng)
    state = playout(game, dealer, deal, rng, reject_every=3)
    check_briscola(state)
    check_replay(game, dealer, deal, state)


def test_briscola_black_hand_declared_ends_the_hand():
    """A seat holding A, 3, K of trump may declare; the hand ends as won with all 120."""
    for players, scoring, award in ((2, "hands", 1), (4, "game_points", 3), (3, "hands", 3)):
        game = make("briscola", players, {"black_hand": True, "scoring": scoring})
        plan = game.plan(0)
        # 5D face up (diamonds trump); A, 3, K of diamonds dealt to seat 1.
        special = dict(zip(plan.hands[1], [Card(r, "D") for r in "A3K"]))
        special[plan.faceup] = Card("5", "D")
        rest = [c for c in game.deck() if c not in special.values()]
        deck = [special[p] if p in special else rest.pop() for p in range(plan.size)]
        deal = plan.deal(deck)
        state = game.new_hand(0, deal)
        assert state.current_player() == 1
        assert Action(1, "declare") in state.legal_actions()
        state.apply(Action(1, "declare"))
        out = state.outcome()
        assert out.complete and out.result.black_hand == 1
        winners = game.sides()[out.result.winner]
        assert 1 in winners
        assert out.score == [award if s in winners else 0 for s in range(players)]
        check_briscola(state)


def test_briscola_without_black_hand_option_no_declare():
    game = make("briscola", 2)
    state = game.new_hand(0, new_deal(game, 0, random.Random(1)))
    assert all(a.kind != "declare" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="black hand"):
        state.apply(Action(1, "declare"))


# --- Briscola Chiamata --------------------------------------------------------

chiamata_options = st.fixed_dictionaries(
    {
        "auction": st.sampled_from(["rank", "points"]),
        "call": st.sampled_from(["exact", "at_least"]),
        "scoring": st.sampled_from(["units", "flat"]),
        "cappotto": st.sampled_from(["tricks", "points"]),
    }
)


def check_chiamata(state) -> None:
    out = state.outcome()
    assert out.complete
    if out.result.redeal:
        assert all(state.passed)
        assert out.tricks == [] and out.score == [0] * 5
        return
    check_played_out(state)
    assert len(out.tricks) == 8
    assert sum(out.points) == 120
    assert sum(out.score) == 0
    r = out.result
    side = [r.caller] + ([r.partner] if r.partner is not None else [])
    assert r.side_points == sum(out.points[s] for s in side)
    assert r.success == (r.side_points >= r.target)
    # The caller's side moves one way, the defenders the other.
    sign = 1 if r.success else -1
    assert all(out.score[s] * sign > 0 for s in side)
    assert all(out.score[s] * sign < 0 for s in range(5) if s not in side)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(options=chiamata_options, seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 4))
def test_chiamata_playouts(options, seed, dealer):
    game = make("chiamata", 5, options)
    rng = random.Random(seed)
    deal = new_deal(game, dealer, rng)
    state = playout(game, dealer, deal, rng, reject_every=3)
    check_chiamata(state)
    check_replay(game, dealer, deal, state)


def test_chiamata_all_pass_is_a_redeal():
    game = make("chiamata", 5)
    deal = new_deal(game, 2, random.Random(5))
    state = run_hand(game, 2, deal, [Action(s % 5, "pass") for s in range(3, 8)])
    assert state.is_over()
    check_chiamata(state)
    assert state.outcome().result.json() == {"redeal": True}


# --- Calabresella -------------------------------------------------------------


def check_calabresella(state) -> None:
    out = state.outcome()
    assert out.complete
    if out.result.redeal:
        assert state.soloist is None
        assert out.tricks == [] and out.score == [0, 0, 0]
        return
    check_played_out(state)
    assert len(out.tricks) == 12
    # 32 thirds in cards (tricks + monte) and 3 for the last trick.
    assert sum(out.points) == 35
    assert sum(t.points for t in out.tricks) + sum(THIRDS[c.index] for c in state.monte) == 32
    assert sum(out.score) == 0
    solo = out.result.soloist
    assert out.result.soloist_thirds == out.points[solo]
    assert out.result.success == (out.points[solo] >= 18)
    assert (out.score[solo] > 0) == out.result.success


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2))
def test_calabresella_playouts(seed, dealer):
    game = make("calabresella", 3)
    rng = random.Random(seed)
    deal = new_deal(game, dealer, rng)
    state = playout(game, dealer, deal, rng, reject_every=4)
    check_calabresella(state)
    check_replay(game, dealer, deal, state)


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
def test_calabresella_every_contract(contract, raise_):
    """Each contract and raise, forced, then random legal play: the invariants hold."""
    game = make("calabresella", 3)
    for seed in range(8):
        rng = random.Random(seed)
        deal = new_deal(game, 0, rng)
        state = game.new_hand(0, deal)
        state.apply(Action(1, "bid", contract=contract))
        while state.phase == "auction":
            state.apply(Action(state.turn, "pass"))
        if raise_ is not None:
            state.apply(Action(1, "raise", choice=raise_))
        while not state.is_over():
            if state.current_player() == CHANCE:
                state.apply(state.chance_outcome())
            else:
                check_rejections(state, rng, 2)
                state.apply(rng.choice(state.legal_actions()))
        check_calabresella(state)
        assert state.contract == contract and state.raised == (raise_ or "none")
        check_replay(game, 0, deal, state)


def test_calabresella_all_pass_is_a_redeal():
    game = make("calabresella", 3)
    deal = new_deal(game, 1, random.Random(2))
    state = run_hand(game, 1, deal, [Action(s, "pass") for s in (2, 0, 1)])
    check_calabresella(state)
    assert state.outcome().result.json() == {"redeal": True}


def test_rejected_actions_are_really_tried():
    """The rejection check is not vacuous: it finds and tries omitted actions."""
    rng = random.Random(0)
    for name, players in (("briscola", 2), ("chiamata", 5), ("calabresella", 3)):
        game = make(name, players)
        state = game.new_hand(0, new_deal(game, 0, rng))
        assert check_rejections(state, rng, 10) == 10


def test_a_discard_not_in_combinations_order_is_the_same_discard():
    """legal_actions lists each discard once (sorted); the engine takes any order."""
    game = make("calabresella", 3)
    state = game.new_hand(0, new_deal(game, 0, random.Random(3)))
    state.apply(Action(1, "bid", contract="solo"))
    state.apply(Action(2, "pass"))
    state.apply(Action(0, "pass"))
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcome())
    discards = state.legal_actions()
    assert len(discards) == len(list(combinations(range(16), 4)))
    chosen = tuple(reversed(discards[0].cards))
    state.apply(Action(1, "discard", cards=chosen))
    assert state.hand_size(1) == 12


def _solissimo(raise_: str, seed: int = 4):
    game = make("calabresella", 3)
    state = game.new_hand(0, new_deal(game, 0, random.Random(seed)))
    state.apply(Action(1, "bid", contract="solissimo"))
    state.apply(Action(1, "raise", choice=raise_))
    return state


def test_dividete_with_cards_other_than_the_monte_is_rejected():
    # Regression: the full state used to ignore the cards of a dividete chance action.
    state = _solissimo("dividete")
    real = state.chance_outcome()
    wrong = tuple(reversed(real.cards))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="not the monte card"):
        state.apply(Action(CHANCE, "dividete", cards=wrong))
    assert snapshot(state) == before
    state.apply(real)
    assert state.hand_size(2) == 14 and set(real.cards[:2]) <= set(state.hands[2])


def test_handover_of_a_card_other_than_the_called_one_is_rejected():
    # Regression: the handover chance action's card used to be ignored.
    game = make("calabresella", 3)
    deal = new_deal(game, 0, random.Random(6))
    state = game.new_hand(0, deal)
    state.apply(Action(1, "bid", contract="chiamo"))
    state.apply(Action(2, "pass"))
    state.apply(Action(0, "pass"))
    called = deal.hands[2][0]
    state.apply(Action(1, "call", card=called))
    other = deal.hands[2][1]
    with pytest.raises(IllegalAction, match="called card"):
        state.apply(Action(CHANCE, "handover", card=other, holder=2))
    state.apply(Action(CHANCE, "handover", card=called, holder=2))
    assert called in state.hands[1] and state.phase == "monte"


@pytest.mark.parametrize("options", [{}, {"call": "at_least"}, {"auction": "points"}])
def test_chiamata_calls_listed_are_exactly_the_cards_the_rules_accept(options):
    """legal_actions looks only at callable cards; it must miss none (full state and views)."""
    game = make("chiamata", 5, options)
    rng = random.Random(8)
    twos = 0
    for seed in range(150):
        deal = new_deal(game, seed % 5, rng)
        full = game.new_hand(seed % 5, deal)
        views = [game.new_hand(seed % 5, deal.redact(s), viewer=s) for s in range(5)]
        while full.phase == "auction":
            action = full.random_legal(rng)
            for state in (full, *views):
                state.apply(action)
        if full.phase != "call":
            continue
        twos += full.rank == "2"
        for state in (full, *views):
            listed = [a.card for a in state.legal_actions()]
            assert listed == [c for c in ALL_CARDS if state._call_ok(c) is None]
    assert twos > 5 or options.get("auction") == "points"
