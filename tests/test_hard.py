"""The hard player (engine/bots/hard.py): SO-ISMCTS over determinizations.

- it returns a legal action at decisions of every game and phase (seeded
  hands of tests/helpers/determinize.py's cases: every auction, call, return,
  raise, take, discard and play), with a small budget;
- it is given only its seat's view: a minimal view object (seat, legal,
  state) is enough, and two deals that look the same to the seat get the
  same answer (same seed, iteration budget only);
- it finds the winning move in small hand-made endgames of each game: a full
  deal written out card by card, played forward with a fixed list of
  actions, then the seat's view. Each position is checked first: with every
  card known (several determinizations of the seat's view), the expected
  move wins the hand and every other move loses it, by exhaustive search.
"""

from __future__ import annotations

import random
import time

import pytest
from helpers.determinize import CASES, hands_of, walk
from helpers.views import redact_action

from engine.bots import StateView, briscola2, fast_briscola, fast_calabresella, fast_chiamata, hard, normal, rollout
from engine.bots import search as search_module
from engine.bots.hard import FullView, Node, best_action, briscola_finish, discard_candidates, make_player, thin_bids
from engine.cards import Card
from engine.determinize import Determinizer
from engine.games import make
from engine.labels import label, parse
from engine.state import CHANCE, TERMINAL, Action

FAST = make_player(iterations=40, seconds=None, steps=None)
"""A small budget: legality does not need a strong search."""


# --- every game, every phase ----------------------------------------------------------

DECISION_PHASES = {
    "briscola": {"play"},
    "chiamata": {"auction", "call", "play"},
    "calabresella": {"auction", "call", "return", "discard", "raise", "take", "play"},
}


def sampled_decisions(case, per_phase: int = 3):
    """(full state, view of the seat to act) at a few decisions of each phase
    of the first hand of a tests/helpers/determinize.py case (and every 7th play)."""
    game, dealer, rng = hands_of(case)[0]
    counts: dict[str, int] = {}
    for full, views in walk(game, dealer, rng):
        turn = full.current_player()
        if turn < 0:
            continue
        counts[full.phase] = counts.get(full.phase, 0) + 1
        if counts[full.phase] <= per_phase or counts[full.phase] % 7 == 0:
            yield full.clone(), views[turn].clone()


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_a_legal_action_at_every_phase(case):
    rng = random.Random(11)
    for full, view in sampled_decisions(case):
        seat = full.current_player()
        action = FAST(StateView(view, seat), rng)
        assert action.seat == seat
        if full.phase == "discard":  # legal_actions() would list every combination
            assert len(action.cards) == full.discarders[0][1] and set(action.cards) <= set(full.hands[seat])
        else:
            assert action in full.legal_actions()


def test_the_cases_reach_every_decision_phase():
    seen: dict[str, set[str]] = {}
    for case in CASES:
        for full, _ in sampled_decisions(case, per_phase=1):
            seen.setdefault(full.game.name, set()).add(full.phase)
    assert seen == DECISION_PHASES


# --- only the seat's view ---------------------------------------------------------------


class BareView:
    """Exactly what a player may read: its seat, its legal actions and a fresh
    copy of its engine view. Nothing else exists on it (slots)."""

    __slots__ = ("seat", "legal", "_state", "reads")

    def __init__(self, state, seat):
        assert state.viewer == seat
        self.seat = seat
        self._state = state.clone()
        self.legal = tuple(state.legal_actions())
        self.reads = 0

    @property
    def state(self):
        self.reads += 1
        return self._state.clone()


def deal_of(game, dealer, deck):
    return game.plan(dealer).deal([Card.parse(c) for c in deck.split()] if isinstance(deck, str) else deck)


def test_a_bare_view_of_the_seat_is_enough():
    for name, players in (("briscola", 2), ("chiamata", 5), ("calabresella", 3)):
        game = make(name, players)
        deck = game.deck()
        random.Random(3).shuffle(deck)
        deal = deal_of(game, 0, deck)
        seat = 1  # the first to act
        view = BareView(game.new_hand(0, deal.redact(seat), viewer=seat), seat)
        action = make_player(iterations=60, seconds=None, steps=None)(view, random.Random(1))
        assert action in view.legal and view.reads >= 1
        assert view._state.history == []  # its copy of the view is untouched


@pytest.mark.parametrize(
    "name,players,swap",
    [
        ("briscola", 2, (1, 20)),  # a card of seat 0's hand for a stock card
        ("chiamata", 5, (4, 8)),  # a card of seat 2 for a card of seat 3
        ("calabresella", 3, (4, 36)),  # a card of seat 2 for a monte card
    ],
)
@pytest.mark.slow
def test_hidden_cards_do_not_change_the_answer(name, players, swap):
    game = make(name, players)
    deck = game.deck()
    random.Random(5).shuffle(deck)
    other = list(deck)
    i, j = swap
    other[i], other[j] = other[j], other[i]
    seat = 1
    views = [game.new_hand(0, deal_of(game, 0, d).redact(seat), viewer=seat) for d in (deck, other)]
    assert sorted(views[0].hands[seat]) == sorted(views[1].hands[seat])
    player = make_player(iterations=150, seconds=None, steps=None)
    answers = [player(StateView(v, seat), random.Random(9)) for v in views]
    assert answers[0] == answers[1]


# --- endgames with one winning move ------------------------------------------------------


def play_script(game, dealer: int, deck: str, script: list[str]):
    """Deal `deck` (position 0 first) with the game's plan and apply the
    labelled actions in turn (chance events from the deal); every seat's view
    follows. Returns (full state, views)."""
    deal = deal_of(game, dealer, deck)
    full = game.new_hand(dealer, deal)
    views = [game.new_hand(dealer, deal.redact(s), viewer=s) for s in range(game.players)]
    steps = iter(script)
    while True:
        turn = full.current_player()
        if turn == CHANCE:
            action, need = full.chance_outcome(), full.need()
        else:
            text = next(steps, None)
            if text is None:
                return full, views
            action, need = parse(text, turn, full), None
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, need, seat))


def side_wins(state, seat: int) -> bool:
    """Did `seat`'s side win the finished hand (Briscola: the hand; else a positive score)."""
    out = state.outcome()
    if state.game.name == "briscola":
        return out.result.winner == next(i for i, side in enumerate(state.game.sides()) if seat in side)
    return out.score[seat] > 0


def partners(state, a: int, b: int) -> bool:
    name = state.game.name
    if name == "briscola":
        return a == b or (state.n in (4, 6) and (a - b) % 2 == 0)
    if name == "calabresella":
        return (a == state.soloist) == (b == state.soloist)
    side = (state.caller, state.partner)
    return (a in side) == (b in side)


def wins_with_best_play(state, seat: int) -> bool:
    """Exhaustive search with every card known: can `seat`'s side force the win?"""
    turn = state.current_player()
    if turn == TERMINAL:
        return side_wins(state, seat)
    if turn == CHANCE:
        return wins_with_best_play(state.child(state.chance_outcome()), seat)
    results = (wins_with_best_play(state.child(a), seat) for a in state.legal_actions())
    return any(results) if partners(state, turn, seat) else all(results)


def check_position(view, seat: int, winning: str, samples: int = 8) -> None:
    """In several deals consistent with the view, `winning` wins and every other move loses."""
    det = Determinizer(view)
    for i in range(samples):
        full = det.sample(random.Random(i))
        for action in full.legal_actions():
            assert wins_with_best_play(full.child(action), seat) == (label(action) == winning), label(action)


ENDGAMES = {
    # Briscola, 2 players, clubs trump (2C face up): three tricks left, seat 1
    # (41 points to 48) leads with 3D 6S AC against 3S 2C 6C (it can tell:
    # the stock is empty) and needs 20 more. Only 3D wins: seat 0 can take
    # it only with a trump, and the ace of clubs still catches 3S; the ace
    # first, or 6S, leaves 3S safe for seat 0.
    "briscola-lead-3D": (
        ("briscola", 2),
        0,
        "4H JH AH 7C QH 2D 2C 2S JS 5C AS AD 5D KC 2H 4D QC KD 4C KH 4S JD 7H 5H 3H QD 7D 3C 6D 7S "
        "6H JC KS QS 5S AC 3S 6S 6C 3D",
        "4H JH 7C AH 2D QH 2S JS AS 5C AD 5D 2H KC QC 4D 4C KD KH 4S JD 7H 5H 3H 7D QD 3C 6D 6H 7S JC KS QS 5S",
        1,
        ("3D 6S AC", "3S 2C 6C"),
        "play 3D",
    ),
    # Briscola, 2 players, clubs trump: seat 1 (58 points to 39) leads with
    # 3D AH 4C against 7D 2C JC and needs 3 more: only AH wins. After 3D or
    # 4C, seat 0 keeps a trump for the ace (and 7D to lead, which the ace
    # cannot take).
    "briscola-lead-AH": (
        ("briscola", 2),
        0,
        "6S 4S 5H JD 3C 3H 2C 5C KH 6C 6H KS KC 7C 2S 7H 4D 5D JH QC AC 5S QS 3S KD 6D AD 7S AS QH JS "
        "QD 2H 2D 4H 4C JC AH 7D 3D",
        "6S 4S 5H JD 3C 3H 5C KH 6C 6H KS KC 2S 7C 7H 4D JH 5D QC AC QS 5S KD 3S 6D AD AS 7S JS QH QD 2H 2D 4H",
        1,
        ("3D AH 4C", "7D 2C JC"),
        "play AH",
    ),
    # Chiamata: seat 1 bid K and called KC (clubs trump); seat 3 showed it
    # (the partner). Two tricks left, the side has 39 points; seat 1 plays
    # last to 3C AH 5S 6S (seat 2's 3C winning), holding AC and 4D. Taking
    # with the ace makes 71; ducking leaves at most 50 (the last four unseen
    # cards are worth nothing), whoever holds them.
    "chiamata-take-AC": (
        ("chiamata", 5),
        0,
        "AD 2S KD 7H 2D AS 3S JC 5D JS KC 2H 6D QS JD 3H 7D KS QD 4H 6C 2C AC 4D JH 7C 3C 7S QC 3D AH "
        "4S 4C QH 5S 5H 5C KH 6S 6H",
        "bid K|pass|pass|pass|pass|call KC|"
        "AD 2D 5D 6D 7D 2S AS JS QS KS 3S KC JD QD KD 2H 3H 4H 7H JC JH QC 4C 5C 6C 3D QH KH 2C 7C "
        "3C AH 5S 6S",
        1,
        ("AC 4D", None),
        "play AC",
    ),
    # Calabresella: seat 1 plays Solo (12 thirds so far, the discards worth
    # nothing) and leads the last three tricks with 3D 7D 3C; only 3C wins.
    "calabresella-lead-3C": (
        ("calabresella", 3),
        0,
        "AC 2S QS 4D 4S 5H 7C 5C 5D 5S 2D 2H QH 6H JD 7D JH 3H AS 7H AD 4C KH 7S 4H 6C JS QC QD 3S KS "
        "2C AH JC 6S 6D KD 3C KC 3D",
        "bid solo|pass|pass|discard 4D 4H 6H 6C|"
        "JS 4S 6S QH 7H 2H 5D JD QD KS 5S QS 2C 4C QC 3H AH KC AS 7S 2S KD 7C 6D AC 5C JC",
        1,
        ("3D 7D 3C", None),
        "play 3C",
    ),
    # Calabresella: seat 1 plays Solo and leads the last three tricks with
    # 7H KH JC; only JC wins.
    "calabresella-lead-JC": (
        ("calabresella", 3),
        0,
        "5D 5S QH 7S 2D 5H AC 6S 3H 6C AH 4H 2S 7D 7H JC 3S AD 3D 4D 6H 3C QS 6D QD 2C AS 7C KS 4S JD "
        "4C QC JH JS 5C KH 2H KD KC",
        "bid solo|pass|pass|discard 5D 7D 5S 7S|"
        "2C AC 6C KC 4C 3C 5C 7C 3D QH 5H 4H AS 4S QS 2H 2D JH 2S 3S JS 4D 6D QD KD JD 3H",
        1,
        ("7H KH JC", None),
        "play JC",
    ),
}


def endgame(key):
    (name, players), dealer, deck, script, seat, hands, winning = ENDGAMES[key]
    steps = []
    for part in script.split("|"):
        steps += (
            [f"play {c}" for c in part.split()] if part.split()[0] not in ("bid", "pass", "call", "discard") else [part]
        )
    full, views = play_script(make(name, players), dealer, deck, steps)
    assert full.current_player() == seat
    mine, theirs = hands
    assert sorted(full.hands[seat]) == sorted(Card.parse(c) for c in mine.split())
    if theirs is not None:  # Briscola 2p: the seat can tell, the stock being empty
        assert sorted(full.hands[1 - seat]) == sorted(Card.parse(c) for c in theirs.split())
    return full, views[seat], seat, winning


@pytest.mark.parametrize("key", list(ENDGAMES))
def test_the_endgames_have_one_winning_move(key):
    _, view, seat, winning = endgame(key)
    check_position(view, seat, winning)


@pytest.mark.slow
@pytest.mark.parametrize("playout", ["normal", "heuristic"])
@pytest.mark.parametrize("key", list(ENDGAMES))
def test_hard_finds_the_winning_move(key, playout):
    # The search finds them whatever plays the playouts: this module's
    # heuristic misses the Briscola and Calabresella ones by itself, the
    # normal player the Calabresella ones. In these last tricks the tree
    # grows below the root (hard.TREE_PLAYS) and searches the replies.
    _, view, seat, winning = endgame(key)
    player = make_player(iterations=1000, seconds=None, playout=playout, steps=None)
    for seed in range(3):
        assert label(player(StateView(view, seat), random.Random(seed))) == winning


@pytest.mark.slow
@pytest.mark.parametrize("key", list(ENDGAMES))
def test_hard_at_its_default_budget_finds_the_winning_move(key):
    # What a player gets: the steps of its default budget buy many more
    # iterations in the last tricks than in the first.
    _, view, seat, winning = endgame(key)
    for seed in range(3):
        assert label(hard.play(StateView(view, seat), random.Random(seed))) == winning


def test_the_root_compares_moves_on_the_same_determinizations():
    # Calabresella: the normal player's 7H loses. Every finalist is played on
    # each iteration's determinization, so the difference to the anchor is
    # measured deal by deal, and the search is sure that JC is better.
    _, view, seat, _ = endgame("calabresella-lead-JC")
    state_view = StateView(view, seat)
    prior = hard.normal.play(state_view, random.Random(0))
    root = hard.search(
        Determinizer(state_view), seat, random.Random(1), hard.playout_policy("normal"), 300, None, prior=prior
    )
    assert prior in root.finalists and len(root.finalists) >= 2
    kept = root.children[prior].samples
    for action in root.finalists:
        assert set(root.children[action].samples) == set(kept)
    assert len(kept) == root.visits == 300
    assert label(best_action(root, state_view.legal)) == "play JC"


def test_successive_halving_keeps_the_anchor_and_drops_the_worse_half():
    view = first_decision("calabresella", 3)  # the first bid: pass, chiamo, solo or solissimo
    assert len(view.legal) == 4
    prior = hard.normal.play(view, random.Random(0))
    root = hard.search(
        Determinizer(view), view.seat, random.Random(2), hard.playout_policy("normal"), 64, None, prior=prior
    )
    compared = [a for a, child in root.children.items() if child.samples]
    assert len(compared) == 4 and len(root.finalists) in (2, 3)
    assert prior in root.finalists
    # the finalists have been played on more determinizations than the dropped ones
    dropped = [a for a in compared if a not in root.finalists]
    assert dropped and all(len(root.children[a].samples) < len(root.children[prior].samples) for a in dropped)


def min_max_points(state) -> int:
    """Seat 0's final card points with best play by both (1000 more for a hand won), by brute force."""
    turn = state.current_player()
    if turn == TERMINAL:
        points = state.outcome().result.side_points[0]
        return points + (1000 if points > 60 else -1000 if points < 60 else 0)
    if turn == CHANCE:
        return min_max_points(state.child(state.chance_outcome()))
    values = [min_max_points(state.child(a)) for a in state.legal_actions()]
    return max(values) if turn == 0 else min(values)


def test_the_exact_finish_of_briscola_playouts():
    # Full states with the stock empty, or the last draw to come: the exact
    # search gives each seat's points under best play, as brute force does.
    game = make("briscola", 2)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        deck = game.deck()
        rng.shuffle(deck)
        state = game.new_hand(seed % 2, game.plan(seed % 2).deal(deck))
        left = (0, 2)[seed % 2]
        assert briscola_finish(state) is None  # the whole stock to come
        while state.current_player() != TERMINAL:
            if state.current_player() != CHANCE and state.pile_left() == left and (state.trick or seed % 3):
                break
            state.apply(state.chance_outcome() if state.current_player() == CHANCE else state.random_legal(rng))
        if state.current_player() == TERMINAL:
            continue
        totals = briscola_finish(state)
        value = min_max_points(state)
        assert totals[0] == (value - 1000 if value > 500 else value + 1000 if value < -500 else value)
        assert sum(totals) == 120
        checked += 1
    assert checked >= 30


def random_positions(options: dict, count: int):
    """Full Briscola-for-two states a random number of random moves into a hand."""
    game = make("briscola", 2, options)
    for seed in range(count):
        rng = random.Random(seed)
        deck = game.deck()
        rng.shuffle(deck)
        state = game.new_hand(seed % 2, game.plan(seed % 2).deal(deck))
        for _ in range(rng.randrange(0, 40)):
            if state.current_player() == TERMINAL:
                break
            state.apply(state.chance_outcome() if state.current_player() == CHANCE else state.random_legal(rng))
        if state.current_player() != TERMINAL:
            yield state


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"seven_second": True}])
def test_the_fast_briscola_playout_plays_the_engine_playout(options):
    # briscola2.playout is the engine playout of the normal player with the
    # exact finish, on numbers: the same final points and the same count of
    # actions (the step budget), from anywhere in the hand.
    policy = hard.as_policy(normal.play)  # the engine path: not hard.NORMAL_PLAYOUT itself
    checked = 0
    for state in random_positions(options, 150):
        assert briscola2.supports(state)
        before = snapshot(state)
        engine = state.clone()
        start = len(engine.history)
        totals = hard.playout(engine, random.Random(0), policy, briscola_finish)
        if totals is None:
            totals = engine.outcome().result.side_points
        solved: dict = {}
        assert briscola2.playout(state, solved) == (list(totals), len(engine.history) - start)
        assert briscola2.playout(state, solved) == (list(totals), len(engine.history) - start)  # from the cache
        assert snapshot(state) == before  # the state is read, not changed
        checked += 1
    assert checked >= 140


def test_the_fast_playout_is_only_for_the_plain_game_for_two():
    for options in ({"trump_exchange": "2"}, {"black_hand": True}):
        assert not briscola2.supports(next(random_positions(options, 1)))
    four = make("briscola", 4)
    assert not briscola2.supports(four.new_hand(0, deal_of(four, 0, four.deck())))


@pytest.mark.slow
def test_hard_moves_the_same_with_the_fast_playout():
    # The same view, rng and budget: the same move whether the playouts run
    # on the engine or on numbers.
    engine_player = make_player(playout=hard.as_policy(normal.play), steps=800)
    fast_player = make_player(steps=800)
    game = make("briscola", 2)
    compared = 0
    for seed in range(3):
        for number, (full, views) in enumerate(walk(game, seed % 2, random.Random(seed))):
            seat = full.current_player()
            if seat < 0 or full.pile_left() <= 2 or number % 5:
                continue
            view = StateView(views[seat], seat)
            assert fast_player(view, random.Random(number)) == engine_player(view, random.Random(number))
            compared += 1
    assert compared >= 10


def full_positions(name: str, players: int, options: dict, count: int):
    """Full states in play a random number of random moves into a hand: the
    auction, call, discards and raises (Chiamata, Calabresella) made by the
    normal player, by random moves, or (Calabresella) with a forced contract."""
    game = make(name, players, options)
    policy = hard.as_policy(normal.play)
    contracts = ("chiamo", "solo", "solissimo")
    for seed in range(count):
        rng = random.Random(seed)
        deck = game.deck()
        rng.shuffle(deck)
        state = game.new_hand(seed % players, game.plan(seed % players).deal(deck))
        if name == "calabresella" and seed % 3 == 2:
            state.apply(Action(state.turn, "bid", contract=contracts[seed % 9 // 3]))
        while state.phase not in ("play", "draw", "done"):
            if state.current_player() == CHANCE:
                state.apply(state.chance_outcome())
            else:
                state.apply(state.random_legal(rng) if seed % 4 == 1 else policy(state, rng))
        for _ in range(rng.randrange(0, 40)):
            if state.current_player() == TERMINAL:
                break
            state.apply(state.chance_outcome() if state.current_player() == CHANCE else state.random_legal(rng))
        if state.current_player() != TERMINAL:
            yield state


FAST_GAMES = [
    ("briscola", 3, {}, fast_briscola),
    ("briscola", 4, {}, fast_briscola),
    ("briscola", 6, {}, fast_briscola),
    ("briscola", 3, {"seven_second": True}, fast_briscola),
    ("briscola", 4, {"seven_second": True, "scoring": "game_points"}, fast_briscola),
    ("briscola", 6, {"scoring": "game_points", "open_hands": True}, fast_briscola),
    ("chiamata", 5, {}, fast_chiamata),
    ("chiamata", 5, {"cappotto": "points", "scoring": "flat"}, fast_chiamata),
    ("chiamata", 5, {"auction": "points", "call": "at_least"}, fast_chiamata),
    ("calabresella", 3, {}, fast_calabresella),
]


@pytest.mark.parametrize(
    "name, players, options, module", FAST_GAMES, ids=[f"{g[0]}{g[1]}-{i}" for i, g in enumerate(FAST_GAMES)]
)
def test_the_fast_playouts_play_the_engine_playout(name, players, options, module):
    # Each game's playout on numbers is the engine playout of the normal
    # player: the same score and card points of every seat at the end, and
    # the same count of actions (the step budget), from anywhere in the play.
    policy = hard.as_policy(normal.play)  # the engine path: not hard.NORMAL_PLAYOUT itself
    rewards = hard.reward_function(make(name, players, options))
    checked = 0
    for state in full_positions(name, players, options, 120):
        assert module.supports(state)
        before = (tuple(map(tuple, state.hands)), tuple(state.trick), tuple(state.captured), len(state.history))
        engine = state.clone()
        start = len(engine.history)
        assert hard.playout(engine, random.Random(0), policy) is None
        out = engine.outcome()
        final, steps = module.playout(state)
        assert final == (list(out.score), list(out.points))
        assert steps == len(engine.history) - start
        assert rewards(state, None, final) == rewards(engine)
        assert (tuple(map(tuple, state.hands)), tuple(state.trick), tuple(state.captured), len(state.history)) == before
        checked += 1
    assert checked >= 100


def test_the_fast_playouts_are_for_the_play_of_the_plain_games():
    for options in ({"trump_exchange": "2"}, {"black_hand": True}):
        game = make("briscola", 4, options)
        assert not fast_briscola.supports(game.new_hand(0, deal_of(game, 0, game.deck())))
        assert rollout.fast_module(game, game.new_hand(0, deal_of(game, 0, game.deck()))) is None
    for name, players, module in (("chiamata", 5, fast_chiamata), ("calabresella", 3, fast_calabresella)):
        game = make(name, players)
        state = game.new_hand(0, deal_of(game, 0, game.deck()))
        assert state.phase == "auction" and not module.supports(state)
        assert rollout.fast_module(game, state) is module  # the auction on the engine, then numbers
    two = make("briscola", 2)
    assert rollout.fast_module(two, two.new_hand(0, deal_of(two, 0, two.deck()))) is briscola2


@pytest.mark.slow
@pytest.mark.parametrize("name, players", [("briscola", 3), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)])
def test_hard_moves_the_same_with_the_fast_playouts(name, players):
    # The same view, rng and step budget: the same root (visits and rewards
    # of every move) and the same move, whether the playouts run on the
    # engine or on numbers; Chiamata and Calabresella from the auction on.
    game = make(name, players)
    compared = 0
    seen = set()
    for seed in range(2):
        for number, (full, views) in enumerate(walk(game, seed % players, random.Random(seed))):
            seat = full.current_player()
            if seat < 0 or (number % 6 and full.phase == "play") or full.phase == "discard":
                continue
            view = StateView(views[seat], seat)
            if len(view.legal) < 2:
                continue
            roots = [
                hard.search(Determinizer(view), seat, random.Random(number), policy, None, None, steps=500)
                for policy in (hard.NORMAL_PLAYOUT, hard.as_policy(normal.play))
            ]
            fast, engine = ({a: (c.visits, c.total) for a, c in r.children.items()} for r in roots)
            assert fast == engine and roots[0].visits == roots[1].visits > 0
            seen.add(full.phase)
            compared += 1
    assert compared >= 10
    assert "play" in seen and (name == "briscola" or "auction" in seen)


@pytest.mark.slow
def test_the_default_budget_buys_more_steps_where_playouts_run_on_numbers():
    # Where the playouts run on numbers, more steps for about the CPU of
    # DEFAULT_STEPS on the engine: Briscola for two FAST_STEPS, for three to
    # six BRISCOLA_STEPS, Chiamata and Calabresella PLAY_STEPS (from the
    # auction on); Briscola with the trump exchange: DEFAULT_STEPS.
    exchange = make("briscola", 4, {"trump_exchange": "2"})
    deck = exchange.deck()
    random.Random(2).shuffle(deck)
    with_exchange = StateView(exchange.new_hand(0, deal_of(exchange, 0, deck).redact(1), viewer=1), 1)
    for view, steps in (
        (first_decision("briscola", 2), hard.FAST_STEPS),
        (first_decision("briscola", 4), hard.BRISCOLA_STEPS),
        (first_decision("chiamata", 5), hard.PLAY_STEPS),
        (first_decision("calabresella", 3), hard.PLAY_STEPS),
        (with_exchange, hard.DEFAULT_STEPS),
    ):
        runs = [
            hard.search(
                Determinizer(view),
                view.seat,
                random.Random(0),
                hard.playout_policy("normal"),
                None,
                None,
                steps=budget,
            )
            for budget in (hard.DEFAULT, steps)
        ]
        assert runs[0].visits == runs[1].visits > 0
    assert hard.DEFAULT_STEPS < min(hard.FAST_STEPS, hard.PLAY_STEPS, hard.BRISCOLA_STEPS)


def snapshot(state) -> tuple:
    return (
        tuple(map(tuple, state.hands)),
        tuple(state.stock),
        state.drawn,
        tuple(state.trick),
        state.leader,
        state.turn,
        tuple(state.captured),
        len(state.history),
    )


@pytest.mark.slow
def test_a_step_budget_buys_more_iterations_when_playouts_are_short():
    early = first_decision("calabresella", 3)
    _, late, seat, _ = endgame("calabresella-lead-JC")
    late = StateView(late, seat)
    visits = []
    for view in (early, late):
        root = hard.search(
            Determinizer(view), view.seat, random.Random(0), hard.playout_policy("normal"), None, None, steps=600
        )
        visits.append(root.visits)
    assert 0 < 2 * visits[0] < visits[1]
    # and the same view, rng and budget: the same move, whatever the load
    assert hard.play(early, random.Random(3)) == hard.play(early, random.Random(3))


# --- budgets and narrowing --------------------------------------------------------------


def first_decision(name, players, seed=2):
    game = make(name, players)
    deck = game.deck()
    random.Random(seed).shuffle(deck)
    deal = deal_of(game, 0, deck)
    return StateView(game.new_hand(0, deal.redact(1), viewer=1), 1)


def test_budgets():
    view = first_decision("briscola", 2)
    assert make_player(iterations=1, seconds=None, steps=None)(view, random.Random(0)) in view.legal
    start = time.perf_counter()
    assert make_player(iterations=None, seconds=0.05)(view, random.Random(0)) in view.legal
    assert time.perf_counter() - start < 1.0
    assert make_player(iterations=30, seconds=None, playout="random", steps=None)(view, random.Random(0)) in view.legal
    with pytest.raises(ValueError):
        make_player(iterations=None, seconds=None, steps=None)
    with pytest.raises(ValueError, match="unknown playout"):
        make_player(playout="oracle")
    game = make("briscola", 2)
    idle = StateView(game.new_hand(0, deal_of(game, 0, game.deck()).redact(0), viewer=0), 0)
    with pytest.raises(ValueError, match="nothing to play"):
        make_player(iterations=5, seconds=None, steps=None)(idle, random.Random(0))


def test_wide_choices_are_narrowed_to_legal_candidates():
    # The soloist's discard: a few of the 1,820, each legal.
    game = make("calabresella", 3)
    deck = game.deck()
    random.Random(4).shuffle(deck)
    full, _ = play_script(game, 0, " ".join(map(str, deck)), ["bid solo", "pass", "pass"])
    assert full.phase == "discard"
    candidates = discard_candidates(full, random.Random(0))
    hand = set(full.hands[1])
    assert 1 < len(candidates) <= 16 and len(set(candidates)) == len(candidates)
    assert all(len(a.cards) == 4 and set(a.cards) <= hand and list(a.cards) == sorted(a.cards) for a in candidates)
    # "2 with a target": the pass, and a few targets.
    bids = [Action(0, "pass")] + [Action(0, "bid", rank="2", target=t) for t in range(62, 121)]
    kept = thin_bids(bids)
    assert kept[0].kind == "pass" and 5 < len(kept) < 16
    assert {a.target for a in kept[1:]} >= {62, 63, 120}


def test_a_full_state_as_a_view_lists_discards_lazily():
    # The normal player in playouts reads `legal` of the soloist's discard.
    game = make("calabresella", 3)
    deck = game.deck()
    random.Random(4).shuffle(deck)
    full, _ = play_script(game, 0, " ".join(map(str, deck)), ["bid solo", "pass", "pass"])
    legal = FullView(full).legal
    every = full.legal_actions()
    assert len(legal) == len(every) == 1820 and list(legal) == every
    assert every[100] in legal and Action(1, "discard", cards=every[100].cards[::-1]) not in legal
    assert Action(1, "play", card=full.hands[1][0]) not in legal


def test_the_anchor_move_stays_unless_the_search_is_sure():
    kept, other = (Action(0, "play", card=Card.parse(c)) for c in ("4S", "AS"))
    root = Node()
    root.prior = kept
    root.finalists = [kept, other]

    def child(action, rewards):
        node = root.child(action, action, 0)
        node.samples = dict(enumerate(rewards))
        node.visits, node.total = len(rewards), sum(rewards)

    child(kept, [1, -1] * 30)
    child(other, [1, -1, 1, 1, -1, 1] * 10)  # better by 1/3 a deal: 1.86 standard errors
    assert best_action(root, (kept, other), confidence=2.0) == kept
    assert best_action(root, (kept, other), confidence=1.0) == other
    child(other, [1, -1] * 29 + [1, 1])  # better on one deal only: 1 standard error
    assert best_action(root, (kept, other), confidence=1.5) == kept
    child(other, [1] * 60)  # surely better
    assert best_action(root, (kept, other)) == other
    assert best_action(root, (kept,)) == kept  # a finalist that is not legal is never played
    root.prior = None
    assert best_action(root, (kept, other)) == other  # no anchor: the best mean


@pytest.mark.slow
def test_a_search_with_a_wall_clock_limit_stops_at_its_cpu_cap(monkeypatch):
    # The default players' safety net: a budget far above the cap ends at
    # CPU_SECONDS of CPU; without seconds the budget is the seed's alone.
    game = make("briscola", 2)
    full, views = next(iter(walk(game, 0, random.Random(3))))
    seat = full.current_player()
    view = StateView(views[seat], seat)
    monkeypatch.setattr(search_module, "CPU_SECONDS", 0.05)

    def cpu_of(player) -> float:
        start = time.process_time()
        player(view, random.Random(1))
        return time.process_time() - start

    capped = cpu_of(make_player(iterations=None, seconds=60.0, steps=10**9))
    assert capped < 0.5
    uncapped = cpu_of(make_player(iterations=None, seconds=None, steps=200_000))
    assert uncapped > 2 * capped
