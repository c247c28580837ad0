"""The state API, checked the same way for every game and player count.

In the manner of pgx's API test: seeded random playouts of each
configuration, and at every position of them:

- `clone` is independent: changing the clone leaves the original as it was;
- `child` is pure: the parent does not change;
- every legal action applies (on a clone);
- actions that are not legal now (legal ones of other positions, kinds and
  seats, and chance events of other positions) raise `IllegalAction` and
  change nothing (public attributes and repr compared);
- each seat's view agrees with the full state (tests/test_views.py);
- `determinize` of a view agrees with it: known cards, hand sizes, trick,
  phase, turn;
- action labels round-trip (`engine.labels`).
"""

from __future__ import annotations

import random

import pytest
from helpers.views import redact_action

from engine.bots import PLAYERS, StateView, get
from engine.determinize import agrees, determinize
from engine.games import make
from engine.state import CHANCE, TERMINAL, Action, IllegalAction

CONFIGS = [
    ("briscola", 2, {}),
    ("briscola", 3, {}),
    ("briscola", 4, {}),
    ("briscola", 6, {}),
    ("briscola", 2, {"trump_exchange": "2", "black_hand": True, "open_hands": True}),
    ("briscola", 4, {"trump_exchange": "7", "seven_second": True}),
    ("chiamata", 5, {}),
    ("chiamata", 5, {"auction": "points"}),
    ("calabresella", 3, {}),
]
IDS = [
    f"{name}{players}" + ("-" + "-".join(f"{k}={v}" for k, v in options.items()) if options else "")
    for name, players, options in CONFIGS
]
HANDS = 3


# --- positions of seeded random playouts ---------------------------------------


def freeze(value):
    """An immutable deep copy of a state attribute."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, freeze(v)) for k, v in value.items())))
    return value


def snapshot(state) -> tuple:
    """Every public attribute, frozen, and the repr."""
    fields = tuple(sorted((k, freeze(v)) for k, v in vars(state).items() if k != "game"))
    return fields, repr(state)


def positions(config, hands: int = HANDS):
    """Yield (full, views) at every position of `hands` seeded random hands.

    The views follow the table's rules (tests/test_views.py); the caller may
    look but must not change them.
    """
    name, players, options = config
    game = make(name, players, options)
    for hand in range(hands):
        rng = random.Random(hand)
        dealer = hand % players
        deck = game.deck()
        rng.shuffle(deck)
        deal = game.plan(dealer).deal(deck)
        full = game.new_hand(dealer, deal)
        public = bool(options.get("open_hands"))
        views = [game.new_hand(dealer, deal.redact(s, public_hands=public), viewer=s) for s in range(players)]
        while True:
            yield full, views
            if full.is_over():
                break
            if full.current_player() == CHANCE:
                action, need = full.chance_outcome(), full.need()
            else:
                action, need = full.random_legal(rng), None
            full.apply(action)
            for seat, view in enumerate(views):
                view.apply(redact_action(action, need, seat))


def some_legal(state, rng: random.Random, most: int = 40) -> list[Action]:
    """The legal actions, or a sample of them when there are many (discards)."""
    actions = state.legal_actions()
    return actions if len(actions) <= most else rng.sample(actions, most)


def same_action(a: Action, b: Action) -> bool:
    """Equal, reading the cards of a discard or a take as a set."""
    if a.kind in ("discard", "take") and a.kind == b.kind:
        return (a.seat, set(a.cards), len(a.cards)) == (b.seat, set(b.cards), len(b.cards))
    return a == b


def others(config) -> list[Action]:
    """Actions of every kind and seat, legal somewhere in this configuration."""
    seen: dict[Action, None] = {}
    for full, _ in positions(config, hands=2):
        for action in some_legal(full, random.Random(len(full.history)), 12):
            seen[action] = None
            if action.seat >= 0:  # the same action by the other seats
                for seat in range(full.n):
                    seen[
                        Action(
                            seat,
                            action.kind,
                            action.card,
                            action.cards,
                            action.rank,
                            action.target,
                            action.contract,
                            action.choice,
                            action.holder,
                        )
                    ] = None
    return list(seen)


# --- the API ------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_clone_is_independent(config):
    rng = random.Random(1)
    for full, _ in positions(config):
        before = snapshot(full)
        copy = full.clone()
        assert snapshot(copy) == before
        if not full.is_over():
            copy.apply(rng.choice(full.legal_actions()))
        for value in vars(copy).values():
            if isinstance(value, list):
                value.append(None)
        assert snapshot(full) == before


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_child_is_pure(config):
    rng = random.Random(2)
    for full, _ in positions(config):
        if full.is_over():
            assert full.legal_actions() == []
            continue
        before = snapshot(full)
        action = rng.choice(full.legal_actions())
        child = full.child(action)
        assert snapshot(full) == before
        assert child.history == full.history + [action]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_legal_action_applies(config):
    rng = random.Random(3)
    applied = 0
    for full, _ in positions(config):
        turn = full.current_player()
        for action in some_legal(full, rng):
            assert action.seat == turn
            state = full.clone()
            state.apply(action)
            assert state.history[-1] == action
            applied += 1
    assert applied > 100


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_illegal_actions_are_refused_and_change_nothing(config):
    rng = random.Random(4)
    pool = others(config)
    refused = 0
    for full, _ in positions(config):
        legal = full.legal_actions()
        tries = [a for a in rng.sample(pool, min(30, len(pool))) if not any(same_action(a, b) for b in legal)]
        for action in tries[:8]:
            before = snapshot(full)
            with pytest.raises(IllegalAction):
                full.apply(action)
            assert snapshot(full) == before, f"{action} changed the state"
            refused += 1
    assert refused > 100


# --- views, determinization, labels --------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_each_view_agrees_with_the_full_state(config):
    for full, views in positions(config):
        turn = full.current_player()
        for seat, view in enumerate(views):
            assert (view.current_player(), view.phase) == (full.current_player(), full.phase)
            assert (view.trick, view.tricks) == (full.trick, full.tricks)
            assert sorted(view.hands[seat]) == sorted(full.hands[seat]) and view.unknown[seat] == 0
            for other in range(full.n):
                assert view.hand_size(other) == full.hand_size(other)
                assert set(view.hands[other]) <= set(full.hands[other])
        if turn >= 0:
            assert set(views[turn].legal_actions()) == set(full.legal_actions())
        if turn == TERMINAL:
            expected = full.outcome()
            for view in views:
                got = view.outcome()
                assert (got.points, got.score, got.result) == (expected.points, expected.score, expected.result)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_determinize_agrees_with_each_view(config):
    rng = random.Random(5)
    for full, views in positions(config, hands=2):
        for seat, view in enumerate(views):
            sampled = determinize(view, rng)
            assert sampled.viewer is None and not any(sampled.unknown)
            assert agrees(sampled, view)
            assert sorted(sampled.hands[seat]) == sorted(view.hands[seat])
            assert [sampled.hand_size(s) for s in range(full.n)] == [view.hand_size(s) for s in range(full.n)]


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_player_plays_legal_moves(config):
    rng = random.Random(6)
    for full, views in positions(config, hands=1):
        turn = full.current_player()
        if turn < 0:
            continue
        view = StateView(views[turn], turn)
        for name in PLAYERS:
            action = quick(name)(view, rng)
            assert action in view.legal
            assert action in full.legal_actions()


def quick(name: str):
    """The player `name`, with a search player held to a tiny budget (legality, not strength)."""
    if name == "hard":
        from engine.bots import hard

        return hard.make_player(iterations=16, seconds=None)
    return get(name)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_labels_round_trip(config):
    labels = pytest.importorskip("engine.labels")
    rng = random.Random(7)
    for full, views in positions(config, hands=2):
        turn = full.current_player()
        if turn < 0:
            continue
        for action in some_legal(full, rng, 20):
            text = labels.label(action)
            assert isinstance(text, str) and text
            assert labels.parse(text, turn, views[turn]) == action, text
            assert same_action(labels.parse(text, turn), action), text


def test_a_player_sees_only_its_own_view():
    game = make("briscola", 2)
    deck = game.deck()
    random.Random(0).shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    with pytest.raises(ValueError):
        StateView(full, 1)
    view = StateView(game.new_hand(0, deal.redact(1), viewer=1), 1)
    assert view.legal and all(a.seat == 1 for a in view.legal)
    copy = view.state
    copy.apply(view.legal[0])
    assert len(view.state.history) == 0  # each access is a fresh copy
    waiting = StateView(game.new_hand(0, deal.redact(0), viewer=0), 0)
    assert waiting.legal == ()
    with pytest.raises(ValueError, match="unknown player"):
        get("nobody")
