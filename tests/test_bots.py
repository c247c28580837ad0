"""The computer players easy and normal, and bench/arena.py (docs/bots.md).

- Every level returns one of the seat's legal actions at every decision of
  every game: seeded hands played through the seats' views, with auctions
  steered so that every phase comes up (the Chiamata two rule and targets,
  the Calabresella call, return, discards, raises and take).
- A player reads only its own seat's view: it touches nothing of the view
  but `seat`, `legal` and `state`, and at sampled positions it does the same
  when every card it cannot see is dealt differently (a deal sampled by
  engine.determinize, replayed to the same view).
- The normal player's rules in a few set positions: trump a rich trick,
  duck a poor one, load a partner's safe trick and not an unsafe one,
  declare, exchange, bid with a strong hand only, build a discard without
  listing the 1,820 choices; the two-player endgame played as a plain
  minimax over every lie of the unseen cards would.
- bench/arena.py: well-formed figures, the same whatever --jobs, normal
  clearly ahead of random in every game and of easy at Briscola (fixed
  seeds: the figures are reproducible, the margins wide).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys

import pytest
from helpers.views import redact_action, views_of

from bench import arena
from engine.bots import StateView, easy, get, normal
from engine.bots.heuristics import Table, beats
from engine.cards import Card
from engine.deal import Deal
from engine.determinize import Determinizer
from engine.games import make
from engine.games.calabresella import CalabresellaState
from engine.state import CHANCE, Action

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LEVELS = ["easy", "normal"]
ALLOWED = {"seat", "legal", "state"}


class Spy:
    """A view that records which of its attributes a player reads."""

    def __init__(self, view):
        self._view = view
        self.touched: set[str] = set()

    def __getattr__(self, name):
        self.touched.add(name)
        return getattr(self._view, name)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def same_view_elsewhere(game, dealer, view, seat, rng):
    """The seat's view rebuilt on another deal consistent with it (and that deal)."""
    determinizer = Determinizer(view)
    sample = determinizer.sample_deal(rng)
    public = bool(game.options.get("open_hands"))
    seen = game.new_hand(dealer, sample.deal.redact(seat, public_hands=public), viewer=seat)
    determinizer.replay(sample, seen)
    return seen, sample.deal


class Hand:
    """One hand played through the seats' views: scripted actions first
    (each when its seat is to act), then `level` for every seat."""

    def __init__(self, game, dealer, deal, level, script=(), seed=0, probe_every=0):
        self.game, self.dealer, self.deal = game, dealer, deal
        self.player = get(level)
        self.full = game.new_hand(dealer, deal)
        self.views = views_of(game, dealer, deal)
        self.script = list(script)
        self.rng = random.Random(seed)
        self.probe_every = probe_every
        self.decisions: set[tuple[str, str]] = set()
        self.probed = 0
        self.moved_hidden = 0  # probes where the other deal placed some hidden card differently

    def run(self) -> Hand:
        full = self.full
        moves = 0
        while not full.is_over():
            turn = full.current_player()
            need = None
            if turn == CHANCE:
                action, need = full.chance_outcome(), full.need()
            elif self.script and self.script[0].seat == turn:
                action = self.script.pop(0)
            else:
                moves += 1
                if self.probe_every and moves % self.probe_every == 0:
                    self.probe(turn)
                action = self.decide(turn)
            full.apply(action)
            for seat, view in enumerate(self.views):
                view.apply(redact_action(action, need, seat))
        assert not self.script, f"script not used up: {self.script}"
        return self

    def decide(self, turn: int) -> Action:
        view = StateView(self.views[turn], turn)
        spy = Spy(view)
        history = len(self.views[turn].history)
        action = self.player(spy, random.Random(self.rng.random()))
        assert spy.touched <= ALLOWED, f"the player read {spy.touched - ALLOWED}"
        assert action in view.legal, f"{action} is not legal for seat {turn} ({self.full.phase})"
        assert action in self.full.legal_actions()
        assert len(self.views[turn].history) == history  # the view is left as it was
        self.decisions.add((self.full.phase, action.kind))
        return action

    def probe(self, turn: int) -> None:
        """The same decision when the cards the seat cannot see lie elsewhere."""
        view = self.views[turn]
        seed = self.rng.random()
        mine = self.player(StateView(view, turn), random.Random(seed))
        for k in range(2):
            seen, deal = same_view_elsewhere(self.game, self.dealer, view, turn, random.Random(seed + k))
            assert sorted(seen.hands[turn]) == sorted(view.hands[turn]) and seen.history == view.history
            assert self.player(StateView(seen, turn), random.Random(seed)) == mine
            others = [sorted(h) for s, h in enumerate(deal.hands) if s != turn]
            truth = [sorted(h) for s, h in enumerate(self.deal.hands) if s != turn]
            self.moved_hidden += others != truth
            self.probed += 1


def shuffled(game, seed: int, wanted: dict[int, list[Card]] | None = None, dealer: int = 0) -> Deal:
    """A seeded deal; `wanted[seat]`: cards dealt to that seat."""
    deck = game.deck()
    random.Random(seed).shuffle(deck)
    plan = game.plan(dealer)
    for seat, want in (wanted or {}).items():
        for position, card in zip(plan.hands[seat], want):
            other = deck.index(card)
            deck[position], deck[other] = deck[other], deck[position]
    return plan.deal(deck)


def auction(dealer: int, n: int, bids: dict[int, Action]) -> list[Action]:
    """One round of the auction from dealer+1: the given bids, passes elsewhere."""
    seats = [(dealer + 1 + i) % n for i in range(n)]
    return [bids.get(s, Action(s, "pass")) for s in seats]


# --- every decision of every game -------------------------------------------------

BRISCOLA = [
    (2, {}),
    (3, {}),
    (4, {}),
    (6, {}),
    (2, {"trump_exchange": "2", "black_hand": True, "open_hands": True}),
    (4, {"trump_exchange": "7", "seven_second": True, "black_hand": True}),
    (2, {"scoring": "game_points"}),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players, options", BRISCOLA, ids=[f"{n}-{'-'.join(o) or 'plain'}" for n, o in BRISCOLA])
def test_briscola_every_decision_is_legal(level, players, options):
    game = make("briscola", players, options)
    decided = set()
    for seed in range(3):
        hand = Hand(
            game, seed % players, shuffled(game, seed, dealer=seed % players), level, seed=seed, probe_every=7
        ).run()
        decided |= hand.decisions
    assert ("play", "play") in decided


@pytest.mark.parametrize("level", LEVELS)
def test_briscola_exchange_and_black_hand_decisions(level):
    game = make("briscola", 2, {"trump_exchange": "2", "black_hand": True})
    deck = game.deck()
    random.Random(3).shuffle(deck)
    plan = game.plan(0)
    # Seat 1 (to lead) holds the 2 of the face-up suit, then a black hand too.
    for wanted in (
        {plan.faceup: Card.parse("AS"), plan.hands[1][0]: Card.parse("2S")},
        {
            plan.faceup: Card.parse("5S"),
            plan.hands[1][0]: Card.parse("AS"),
            plan.hands[1][1]: Card.parse("3S"),
            plan.hands[1][2]: Card.parse("KS"),
        },
    ):
        deck = game.deck()
        random.Random(3).shuffle(deck)
        for position, card in wanted.items():
            other = deck.index(card)
            deck[position], deck[other] = deck[other], deck[position]
        Hand(game, 0, plan.deal(deck), level).run()


CHIAMATA = [
    ({}, None),  # the players' own auction
    ({"auction": "points"}, None),
    ({"call": "at_least"}, None),
    ({}, "two"),  # the first speaker bids 2 holding a 2, the rest pass: the two rule
    ({}, "target"),  # 2, then 2 with a target 70, then the players go on
    ({"call": "at_least", "scoring": "flat", "cappotto": "points"}, "two"),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("options, steer", CHIAMATA, ids=[f"{'-'.join(o) or 'rank'}-{s}" for o, s in CHIAMATA])
def test_chiamata_every_decision_is_legal(level, options, steer):
    game = make("chiamata", 5, options)
    decided = set()
    for seed in range(3):
        dealer = seed % 5
        first, second = (dealer + 1) % 5, (dealer + 2) % 5
        wanted = {first: cards("2S 4S")} if steer == "two" else None
        script = []
        if steer == "two":
            script = auction(dealer, 5, {first: Action(first, "bid", rank="2")})
        elif steer == "target":
            script = [Action(first, "bid", rank="2"), Action(second, "bid", rank="2", target=70)]
        hand = Hand(game, dealer, shuffled(game, seed, wanted, dealer), level, script, seed=seed, probe_every=6).run()
        decided |= hand.decisions
    phases = {phase for phase, _ in decided}
    assert {"call", "play"} <= phases
    if steer != "two":
        assert "auction" in phases


CALABRESELLA = [
    None,  # the players' own auction
    ("chiamo", None),
    ("solo", None),
    ("solissimo", None),  # the soloist's call, return, discard, raise
    ("solissimo", "dividete"),
    ("solissimo", "scegliete"),  # the defenders' take and discards
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("steer", CALABRESELLA, ids=["auction", "chiamo", "solo", "solissimo", "dividete", "scegliete"])
def test_calabresella_every_decision_is_legal(level, steer):
    game = make("calabresella", 3)
    decided = set()
    for seed in range(4):
        dealer = seed % 3
        first = (dealer + 1) % 3
        script = []
        if steer is not None:
            contract, raise_ = steer
            script = [Action(first, "bid", contract=contract)]
            if contract != "solissimo":
                script += [Action((first + 1) % 3, "pass"), Action((first + 2) % 3, "pass")]
            if raise_:
                script.append(Action(first, "raise", choice=raise_))
        hand = Hand(
            game, dealer, shuffled(game, 40 + seed, dealer=dealer), level, script, seed=seed, probe_every=5
        ).run()
        decided |= hand.decisions
    phases = {phase for phase, _ in decided}
    expected = {
        None: {"auction"},
        ("chiamo", None): {"call", "return", "discard", "play"},
        ("solo", None): {"discard", "play"},
        ("solissimo", None): {"raise", "play"},
        ("solissimo", "dividete"): {"discard", "play"},
        ("solissimo", "scegliete"): {"take", "play"},
    }[steer]
    assert expected <= phases, phases


# --- only the seat's own view -------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name, players", [("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)])
def test_a_player_decides_the_same_whatever_it_cannot_see(level, name, players):
    """At sampled positions the hidden cards are dealt again (consistently with
    the view) and the seat's view rebuilt: the decision does not change."""
    game = make(name, players)
    probed = moved = 0
    for seed in range(3):
        script = []
        if name == "calabresella":
            first = (seed % 3 + 1) % 3
            script = [
                Action(first, "bid", contract="solo"),
                Action((first + 1) % 3, "pass"),
                Action((first + 2) % 3, "pass"),
            ]
        hand = Hand(
            game,
            seed % players,
            shuffled(game, 100 + seed, dealer=seed % players),
            level,
            script,
            seed=seed,
            probe_every=3,
        ).run()
        probed += hand.probed
        moved += hand.moved_hidden
    assert probed >= 10
    assert moved >= probed // 2  # the other deals really are other deals


# --- the normal player's rules in set positions ------------------------------------


def briscola_position(players: int, hands: list[str], faceup: str, dealer: int, plays: list[str], options=None):
    """A Briscola hand with these hands (the rest in the stock) after `plays`
    (cards played in turn from seat dealer+1); the view of the seat to act."""
    game = make("briscola", players, options or {})
    dealt = [cards(h) for h in hands]
    used = {c for h in dealt for c in h} | {Card.parse(faceup)}
    stock = [c for c in game.deck() if c not in used]
    deal = Deal(dealt, stock, Card.parse(faceup))
    views = views_of(game, dealer, deal)
    full = game.new_hand(dealer, deal)
    for text in plays:
        action = Action(full.current_player(), "play", Card.parse(text))
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, None, seat))
    turn = full.current_player()
    return StateView(views[turn], turn)


def normal_card(view) -> str:
    action = normal.play(view, random.Random(0))
    assert action in view.legal
    return str(action.card) if action.card else action.kind


def test_normal_trumps_a_rich_trick_and_ducks_a_poor_one():
    # Trump spades; seat 1 leads, seat 0 answers last.
    assert normal_card(briscola_position(2, ["4S 5D KH", "AC 6C 7C"], "6S", 0, ["AC"])) == "4S"
    assert normal_card(briscola_position(2, ["4S 6D KH", "5C 6C 7C"], "7S", 0, ["5C"])) == "6D"


def test_normal_wins_a_poor_trick_with_a_three_rather_than_risk_it():
    assert normal_card(briscola_position(2, ["4S 3C KH", "AC 6C 7C"], "6S", 0, ["7C"])) == "3C"


def test_normal_loads_a_partners_safe_trick_only():
    # Four players, 0&2 against 1&3; trump spades.
    # Seat 1 leads, partner 2 plays the ace of trump, seat 3 passes: seat 0, last, loads its ace.
    safe = briscola_position(4, ["AH 6D 2S", "5C 6C 7C", "AS 4C 5H", "4D 7D 7H"], "6S", 0, ["5C", "AS", "4D"])
    assert normal_card(safe) == "AH"
    # Seat 0 leads KC, seat 1 plays low; seat 2 is to play with seat 3 still to come: no load.
    unsafe = briscola_position(4, ["KC 4C 5H", "5C 6C 7C", "AH 6D JD", "4D 7D 7H"], "6S", 3, ["KC", "5C"])
    assert normal_card(unsafe) == "6D"


def test_normal_declares_a_black_hand_and_exchanges_for_a_better_card():
    black = briscola_position(2, ["4D 5D 6D", "AS 3S KS"], "5S", 0, [], {"black_hand": True})
    assert normal_card(black) == "declare"
    swap = briscola_position(2, ["4D 5D 6D", "2S 4C 6C"], "AS", 0, [], {"trump_exchange": "2"})
    assert normal_card(swap) == "exchange"
    # With the seven second the 7 of trump is worth 10: not swapped for a king.
    keep = briscola_position(2, ["4D 5D 6D", "7S 4C 6C"], "KS", 0, [], {"trump_exchange": "7", "seven_second": True})
    assert normal_card(keep) != "exchange"


def brute_force(table: Table) -> dict:
    """Each card's total over the endgame scenarios, by plain minimax."""
    state, me = table.state, table.me
    unseen = set(table.unseen)
    if state.pile_left() == 0:
        scenarios = [((), unseen)]
    else:
        scenarios = [((c, state.faceup), unseen - {c}) for c in unseen]

    def value(hands, leader, trick, points, seat, card, draw):
        hands = dict(hands)
        hands[seat] = tuple(c for c in hands[seat] if c is not card)
        trick = trick + [card]
        if len(trick) == 1:
            return best(hands, leader, trick, points, 1 - seat, draw)
        winner = (leader + beats(trick[1], trick[0], table.trump, table.strength)) % 2
        if winner == me:
            points += table.value[trick[0].index] + table.value[trick[1].index]
        if draw:
            hands[winner] += (draw[0],)
            hands[1 - winner] += (draw[1],)
        elif not hands[0]:
            return points + (1000 if points > 60 else -1000 if points < 60 else 0)
        return best(hands, winner, [], points, winner, ())

    def best(hands, leader, trick, points, seat, draw):
        values = [value(hands, leader, trick, points, seat, c, draw) for c in hands[seat]]
        return max(values) if seat == me else min(values)

    totals = dict.fromkeys(table.hand, 0.0)
    for draw, theirs in scenarios:
        hands = {me: tuple(table.hand), 1 - me: tuple(theirs | table.known[1 - me])}  # the face-up card drawn
        for card in table.hand:
            totals[card] += value(hands, table.leader, list(table.trick), state.captured[me], me, card, draw)
    return totals


def test_normal_plays_the_two_player_endgame_exactly():
    """With the last face-down card (or none) left, the card played is one a
    plain minimax over every way the unseen cards can lie rates best."""
    game = make("briscola", 2)
    checked = 0
    for seed in range(12):
        hand = Hand(game, seed % 2, shuffled(game, 300 + seed, dealer=seed % 2), "random", seed=seed)
        full, views = hand.full, hand.views
        while not full.is_over():
            turn = full.current_player()
            if turn == CHANCE:
                action, need = full.chance_outcome(), full.need()
            else:
                need = None
                if full.pile_left() in (0, 2):
                    table = Table(views[turn].clone(), turn)
                    totals = brute_force(table)
                    assert totals[normal.endgame_card(table)] == max(totals.values())
                    checked += 1
                action = full.random_legal(hand.rng)
            full.apply(action)
            for seat, view in enumerate(views):
                view.apply(redact_action(action, need, seat))
    assert checked == 12 * 8


def first_speaker_view(name: str, hand: str, seed: int = 0):
    game = make(name, 5 if name == "chiamata" else 3)
    deal = shuffled(game, seed, {1: cards(hand)})
    return StateView(game.new_hand(0, deal.redact(1), viewer=1), 1)


def test_normal_bids_a_strong_hand_and_passes_a_weak_one():
    assert normal.play(first_speaker_view("chiamata", "AH 3H KH QH JH AS AD 3C"), random.Random(0)).kind == "bid"
    assert normal.play(first_speaker_view("chiamata", "2H 4S 5S 4D 5D 6D 4C 5C"), random.Random(0)).kind == "pass"
    strong = first_speaker_view("calabresella", "3D 2D AD 3H 2H AH 3S 2S AS 3C 2C AC")
    assert normal.play(strong, random.Random(0)).kind == "bid"
    weak = first_speaker_view("calabresella", "4D 5D 6D 4H 5H 6H 4S 5S 6S 4C 5C 6C")
    assert normal.play(weak, random.Random(0)).kind == "pass"


@pytest.mark.parametrize("player", [easy.play, normal.play], ids=["easy", "normal"])
def test_a_discard_is_built_without_listing_every_choice(player, monkeypatch):
    game = make("calabresella", 3)
    deal = shuffled(game, 5)
    full = game.new_hand(0, deal)
    views = views_of(game, 0, deal)
    steps = [Action(1, "bid", contract="solo"), Action(2, "pass"), Action(0, "pass")]
    while full.phase != "discard":
        action, need = (full.chance_outcome(), full.need()) if full.current_player() == CHANCE else (steps.pop(0), None)
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, need, seat))
    view = StateView(views[1], 1)
    assert len(view.legal) == 1820

    def refuse(self):
        raise AssertionError("the player listed every discard")

    monkeypatch.setattr(CalabresellaState, "legal_actions", refuse)
    action = player(view, random.Random(0))
    monkeypatch.undo()
    assert action in view.legal and len(action.cards) == 4


def test_sides_as_each_chiamata_seat_sees_them():
    game = make("chiamata", 5)
    deal = shuffled(game, 9, {1: cards("AH 3H KH QH JH AS AD 3C"), 3: cards("7H")})
    views = views_of(game, 0, deal)
    called = Card.parse("7H")
    for action in auction(0, 5, {1: Action(1, "bid", rank="7")}) + [Action(1, "call", card=called)]:
        for view in views:
            view.apply(action)
    caller, partner, defender = (Table(views[s], s) for s in (1, 3, 4))
    assert caller.friendly(3) == pytest.approx(0.25) and caller.friendly(4) == pytest.approx(0.25)
    assert partner.friendly(1) == 1.0 and partner.friendly(4) == 0.0
    assert defender.friendly(1) == 0.0 and defender.friendly(3) == pytest.approx(2 / 3)


# --- bench/arena.py ---------------------------------------------------------------------

BRISCOLA_KEYS = {
    "a_win_rate",
    "a_win_ci95",
    "a_avg_score",
    "b_avg_score",
    "diff_ci95",
    "a_ms_per_move",
    "b_ms_per_move",
    "hands",
}
SCORE_KEYS = {"a_avg_score", "b_avg_score", "diff_ci95", "a_ms_per_move", "b_ms_per_move", "hands"}


@pytest.mark.parametrize("game, keys", [("briscola", BRISCOLA_KEYS), ("calabresella", SCORE_KEYS)])
def test_arena_prints_its_figures_as_json(game, keys):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.arena",
            "--game",
            game,
            "--a",
            "normal",
            "--b",
            "random",
            "--hands",
            "2",
            "--seed",
            "3",
            "--jobs",
            "1",
            "--budget",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    figures = json.loads(run.stdout)
    assert keys <= set(figures)
    assert figures["hands"] == 2 and figures["a_ms_per_move"] >= 0
    lo, hi = figures["diff_ci95"]
    assert lo <= figures["a_avg_score"] - figures["b_avg_score"] <= hi
    if "a_win_ci95" in figures:
        lo, hi = figures["a_win_ci95"]
        assert 0 <= lo <= figures["a_win_rate"] <= hi <= 1


def test_arena_says_how_far_a_long_match_is():
    # progress on standard error (standard output keeps only the figures);
    # a line every 5% of the deals, at most one in 5 s, and one at the end
    clock = iter([0.0, 1.0, 6.0, 37.0, 40.0, 41.0])  # the start, after each of 4 deals, the end
    err = io.StringIO()
    progress = arena.Progress(40, err)
    progress.start = progress.last = next(clock)
    arena.time.monotonic, real = (lambda: next(clock)), arena.time.monotonic
    try:
        for deal in range(4):
            assert progress.step(deal) == deal
        progress.done()
    finally:
        arena.time.monotonic = real
    assert err.getvalue().splitlines() == [
        "arena: 2/40 deals, 6 s, about 114 s left",  # 5% (deal 1 was not)
        "arena: 3/40 deals, 37 s, about 7.6 min left",  # not 5% more, but 30 s since the last line
        "arena: 40 deals in 41 s",  # (deal 4, 5% more, came within 5 s of the last line)
    ]
    quiet = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.arena",
            "--game",
            "briscola",
            "--a",
            "normal",
            "--b",
            "random",
            "--hands",
            "2",
            "--jobs",
            "1",
            "--quiet",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    assert quiet.stderr == "" and json.loads(quiet.stdout)["hands"] == 2


def test_arena_budgets():
    assert arena.parse_budget("200") == (200, None, None)
    assert arena.parse_budget("0.05s") == (None, 0.05, None)
    assert arena.parse_budget("1000/300steps") == (1000, None, 300)
    for bad in ("lots", "0", "-3steps", "2/steps"):
        with pytest.raises(argparse.ArgumentTypeError):
            arena.parse_budget(bad)
    # hard held to a few steps a move: a tiny match still gives its figures, the same again
    one, two = (arena.run("briscola", 2, "hard", "normal", 1, seed=5, jobs=1, budget="40steps") for _ in range(2))
    assert without_timing(one) == without_timing(two) and one["a_moves"] > 0


@pytest.mark.slow
def test_arena_text_report_and_bad_arguments():
    script = ["-m", "bench.arena"]
    run = subprocess.run(
        [sys.executable, *script, "--game", "chiamata", "--a", "easy", "--b", "random", "--hands", "1", "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    assert "average score per hand" in run.stdout and "CPU per move" in run.stdout
    for args in (["--a", "nobody", "--b", "random"], ["--a", "easy", "--b", "random", "--budget", "lots"]):
        failed = subprocess.run(
            [sys.executable, *script, "--game", "briscola", "--hands", "1", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        assert failed.returncode == 2 and "error" in failed.stderr


def test_an_arena_player_that_sees_hands_is_shown_every_hand_and_no_stock_card():
    """bench/oracle.py's bound: a `sees_hands` player's views hold the other
    seat's cards, never the stock's; the other seat's views hold neither."""
    unseen = {"sighted": [], "plain": []}

    def watcher(label, sees):
        def play(view, rng):
            state = view.state
            other = 1 - view.seat
            stock_seen = sum(card is not None for card in state.stock[state.drawn :])
            unseen[label].append((state.unknown[other], len(state.hands[other]), stock_seen))
            return view.legal[0]

        play.sees_hands = sees
        return play

    game = make("briscola", 2, {})
    deal = game.plan(0).deal(game.deck())
    clock = {"a": 0.0, "b": 0.0, "a_max": 0.0, "b_max": 0.0}
    players = [watcher("sighted", True), watcher("plain", False)]
    arena.play_hand(game, 0, deal, players, [random.Random(0)] * 2, clock, {"a": 0, "b": 0}, ["a", "b"])
    assert len(unseen["sighted"]) == len(unseen["plain"]) == 20
    assert all(hidden == 0 for hidden, _, _ in unseen["sighted"])
    assert all(held >= 2 for _, held, _ in unseen["sighted"][:10]) and all(h[1] == 0 for h in unseen["plain"][:10])
    assert all(stock == 0 for _, _, stock in unseen["sighted"] + unseen["plain"])


def without_timing(figures: dict) -> dict:
    return {k: v for k, v in figures.items() if not k.endswith(("ms_per_move", "_max_ms"))}


def test_arena_figures_do_not_depend_on_the_number_of_jobs():
    one = arena.run("briscola", 4, "normal", "easy", 4, seed=11, jobs=1)
    two = arena.run("briscola", 4, "normal", "easy", 4, seed=11, jobs=2)
    assert without_timing(one) == without_timing(two)
    assert one["a_moves"] == 4 * 2 * 20 and one["b_moves"] == 4 * 2 * 20  # each level plays half the cards


@pytest.mark.parametrize(
    "game, players, hands", [("briscola", 2, 30), ("briscola", 4, 30), ("chiamata", 5, 15), ("calabresella", 3, 40)]
)
def test_normal_beats_random(game, players, hands):
    figures = arena.run(game, players, "normal", "random", hands, seed=2024, jobs=1)
    assert figures["diff_ci95"][0] > 0
    if game == "briscola":
        assert figures["a_win_ci95"][0] > 0.6


@pytest.mark.slow
def test_normal_beats_easy_at_briscola():
    figures = arena.run("briscola", 2, "normal", "easy", 60, seed=2024, jobs=1)
    assert figures["diff_ci95"][0] > 0 and figures["a_win_rate"] > 0.6
