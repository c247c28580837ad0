"""The rule book's worked examples, reproduced here as tests (the rules: docs/rules.md).

Each example is checked twice: through the engine API (build the state,
apply the actions, read the tricks and scores) and from outside through the
`briscola replay` command on the committed replay files in tests/fixtures/
(made by tests/fixtures/generate.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from briscola_tui.cli import main as cli_main
from engine.cards import BRISCOLA_ORDER, Card, points_table, strength_table
from engine.deal import Deal
from engine.games import make
from engine.replay import read_replay, resolve_chance
from engine.state import CHANCE, Action
from engine.tricks import trick_value, trick_winner

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
BRISCOLA_STRENGTH = strength_table(BRISCOLA_ORDER)
BRISCOLA_POINTS = points_table({"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2})


def C(text: str) -> Card:
    return Card.parse(text)


def parse_cards(texts) -> list[Card]:
    return [Card.parse(t) for t in texts]


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def play_fixture(name: str):
    """The fixture's hand through the API: make, new_hand, apply, resolve_chance."""
    doc = load(name)
    game, dealer, deal, actions = read_replay(doc)
    state = game.new_hand(dealer, deal)
    for action in actions:
        resolve_chance(state)
        state.apply(action)
    resolve_chance(state)
    return state


def replay_cli(capsys, name: str) -> dict:
    status = cli_main(["replay", str(FIXTURES / name)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.err == ""
    return json.loads(captured.out)


# --- Briscola, seed 001 (two players, trump hearts) --------------------------


def briscola_seed001_state():
    """Player 1 = seat 0, player 2 = seat 1 (the dealer); 5H face up."""
    game = make("briscola", 2)
    hands = [parse_cards(["3D", "2H", "4C"]), parse_cards(["AD", "KS", "JC"])]
    faceup = C("5H")
    used = {*hands[0], *hands[1], faceup}
    stock = [c for c in make("briscola", 2).deck() if c not in used]
    return game.new_hand(1, Deal(hands, stock, faceup))


def test_briscola_seed001_three_tricks_through_the_api():
    state = briscola_seed001_state()
    assert state.trump == "H"
    assert state.current_player() == 0  # the dealer's right-hand neighbour leads

    # 1. Player 1 leads 3D (10); player 2 takes it with AD: 21 points to player 2.
    state.apply(Action(0, "play", C("3D")))
    state.apply(Action(1, "play", C("AD")))
    trick = state.tricks[-1]
    assert (trick.winner, trick.points) == (1, 21)
    assert state.captured == [0, 21]

    # 2. Player 2 draws first, then player 1.
    assert state.current_player() == CHANCE
    need = state.need()
    assert need.kind == "draw"
    assert need.audiences == (1, 0)
    first_two = state.stock[:2]
    resolve_chance(state)
    assert first_two[0] in state.hands[1] and first_two[1] in state.hands[0]

    # Player 2 leads KS (4); player 1 trumps with 2H, the lowest trump: 4 points to player 1.
    assert state.current_player() == 1
    state.apply(Action(1, "play", C("KS")))
    state.apply(Action(0, "play", C("2H")))
    trick = state.tricks[-1]
    assert (trick.leader, trick.winner, trick.points) == (1, 0, 4)

    # 3. Player 1 leads 4C (0); player 2 plays JC, the higher club, and wins 2 points.
    resolve_chance(state)
    assert state.current_player() == 0
    state.apply(Action(0, "play", C("4C")))
    state.apply(Action(1, "play", C("JC")))
    trick = state.tricks[-1]
    assert (trick.leader, trick.winner, trick.points) == (0, 1, 2)
    assert state.captured == [4, 23]


def test_briscola_seed001_trump_two_beats_any_other_king():
    for suit in "DSC":
        king = C("K" + suit)
        assert trick_winner([king, C("2H")], "H", BRISCOLA_STRENGTH) == 1
        assert trick_winner([C("2H"), king], "H", BRISCOLA_STRENGTH) == 0


def test_briscola_seed001_another_non_trump_suit_would_lose():
    # The club J wins over the led 4C...
    assert trick_winner([C("4C"), C("JC")], "H", BRISCOLA_STRENGTH) == 1
    # ...but any card of another non-trump suit, even an ace, loses to it.
    for other in ("AD", "3D", "KS", "AS", "JD"):
        assert trick_winner([C("4C"), C(other)], "H", BRISCOLA_STRENGTH) == 0
    # And a trump would have won.
    assert trick_winner([C("4C"), C("4H")], "H", BRISCOLA_STRENGTH) == 1
    assert trick_value([C("4C"), C("JC")], BRISCOLA_POINTS) == 2


def test_briscola_seed001_dealing_dealer_seat1_faceup_5h():
    """Player 2 (seat 1) deals 3 cards to player 1 and themself, turns up 5H."""
    game = make("briscola", 2)
    plan = game.plan(1)
    # One card at a time from the dealer's right-hand neighbour (seat 0).
    assert plan.hands == ((0, 2, 4), (1, 3, 5))
    assert plan.faceup == 6
    assert plan.stock == tuple(range(7, 40))
    deck = list(make("briscola", 2).deck())
    five_hearts = deck.index(C("5H"))
    deck[6], deck[five_hearts] = deck[five_hearts], deck[6]
    deal = plan.deal(deck)
    assert [len(h) for h in deal.hands] == [3, 3]
    assert deal.faceup is C("5H")
    state = game.new_hand(1, deal)
    assert state.trump == "H"
    assert state.current_player() == 0
    assert state.pile_left() == 34  # the face-up card is drawn last


def test_briscola_seed001_through_replay(capsys):
    out = replay_cli(capsys, "briscola_seed001.json")
    assert out["complete"] is False
    assert "score" not in out
    assert out["tricks"] == [
        {"leader": 0, "cards": ["3D", "AD"], "winner": 1, "points": 21},
        {"leader": 1, "cards": ["KS", "2H"], "winner": 0, "points": 4},
        {"leader": 0, "cards": ["4C", "JC"], "winner": 1, "points": 2},
    ]
    assert out["points"] == [4, 23]


def test_briscola_seed001_fixture_matches_api():
    state = play_fixture("briscola_seed001.json")
    assert [(t.winner, t.points) for t in state.tricks] == [(1, 21), (0, 4), (1, 2)]
    assert state.dealer == 1 and state.trump == "H"


# --- Briscola Chiamata, seed 000 ---------------------------------------------


def test_chiamata_seed000_trick_through_the_api():
    state = play_fixture("chiamata_seed000_trick.json")
    # A (seat 1) called 2S: trump is spades.
    assert (state.caller, state.called, state.trump) == (1, C("2S"), "S")
    (trick,) = state.tricks
    assert trick.cards == tuple(parse_cards(["AH", "2S", "3H", "7S", "4C"]))
    assert trick.leader == 1  # the dealer's right-hand neighbour, not chosen by the caller
    # D (seat 4) wins with 7S, the highest trump: 11 + 0 + 10 + 0 + 0 = 21.
    assert (trick.winner, trick.points) == (4, 21)
    # B (seat 2) revealed themself as the partner by playing 2S.
    assert state.partner == 2 and state.partner_known


def test_chiamata_seed000_partner_revealed_by_the_play_in_a_view():
    """Before 2S is played, seat 3 cannot know the partner; the play reveals it."""
    doc = load("chiamata_seed000_trick.json")
    game, dealer, deal, actions = read_replay(doc)
    view = game.new_hand(dealer, deal.redact(3), viewer=3)
    for action in actions:
        if action.kind == "play" and action.card == C("2S"):
            assert view.outcome().result.json()["partner"] == "unknown"
        view.apply(action)
    assert view.outcome().result.partner == 2
    assert view.tricks[0].winner == 4 and view.tricks[0].points == 21


def test_chiamata_seed000_every_discard_is_legal():
    """B holds hearts yet plays 2S on the heart lead: no obligation to follow suit."""
    doc = load("chiamata_seed000_trick.json")
    game, dealer, deal, actions = read_replay(doc)
    assert any(c.suit == "H" for c in deal.hands[2])
    state = game.new_hand(dealer, deal)
    for action in actions:
        if action.kind == "play":
            assert action in state.legal_actions()
        state.apply(action)
    assert len(state.tricks) == 1


def test_chiamata_seed000_trick_through_replay(capsys):
    out = replay_cli(capsys, "chiamata_seed000_trick.json")
    assert out["complete"] is False
    assert "score" not in out
    assert out["tricks"] == [{"leader": 1, "cards": ["AH", "2S", "3H", "7S", "4C"], "winner": 4, "points": 21}]
    assert out["points"] == [0, 0, 0, 0, 21]
    assert out["result"]["partner"] == 2
    assert out["result"]["trump"] == "S"
    assert out["result"]["called"] == "2S"


def test_chiamata_seed000_score_through_the_api():
    state = play_fixture("chiamata_seed000_score.json")
    out = state.outcome()
    assert out.complete
    assert out.result.target == 80
    assert out.result.side_points == 82
    assert out.result.success is True
    assert out.result.multiplier == 1
    caller, partner = out.result.caller, out.result.partner
    assert (caller, partner) == (1, 0)
    # u = 2 for a target of 80: A (caller) +4, B (partner) +2, the others -2 each.
    assert out.score[caller] == 4
    assert out.score[partner] == 2
    assert [out.score[s] for s in range(5) if s not in (caller, partner)] == [-2, -2, -2]
    assert sum(out.score) == 0
    assert sum(out.points) == 120


def test_chiamata_seed000_score_through_replay(capsys):
    out = replay_cli(capsys, "chiamata_seed000_score.json")
    assert out["complete"] is True
    assert out["score"] == [2, 4, -2, -2, -2]
    assert sum(out["score"]) == 0
    assert out["result"]["target"] == 80 and out["result"]["side_points"] == 82
    assert len(out["tricks"]) == 8


# --- Calabresella, seed 002 --------------------------------------------------


def test_calabresella_seed002_trick_through_the_api():
    state = play_fixture("calabresella_seed002_trick.json")
    trick = state.tricks[-1]
    assert trick.cards == tuple(parse_cards(["KC", "AC", "2C"]))
    # The 2 outranks the ace: the third player (seat 2) wins.
    assert trick.winner == 2
    # 1 + 3 + 1 = 5 thirds, not rounded on its own.
    assert trick.points == 5
    assert state.captured[2] == 5


def test_calabresella_seed002_trick_through_replay(capsys):
    out = replay_cli(capsys, "calabresella_seed002_trick.json")
    assert out["complete"] is False
    assert out["tricks"] == [{"leader": 0, "cards": ["KC", "AC", "2C"], "winner": 2, "points": 5}]
    assert out["points"] == [0, 0, 5]


def test_calabresella_seed002_solo_through_the_api():
    state = play_fixture("calabresella_seed002_solo.json")
    out = state.outcome()
    assert out.complete and out.result.contract == "solo"
    soloist = out.result.soloist
    defenders = [s for s in range(3) if s != soloist]
    # Soloist 18 thirds (with the monte and the last trick), defenders 17.
    assert out.points[soloist] == 18 == out.result.soloist_thirds
    assert sum(out.points[s] for s in defenders) == 17
    assert sum(out.points) == 35
    assert out.result.success is True and out.result.multiplier == 1
    # Solo: price 2 from each defender: +4, -2, -2, summing to 0.
    assert out.score[soloist] == 4
    assert [out.score[s] for s in defenders] == [-2, -2]
    assert sum(out.score) == 0


def test_calabresella_seventeen_thirds_is_a_loss():
    """The same deal and Solo, played so the soloist ends with 17 thirds: a loss."""
    import random

    doc = load("calabresella_seed002_solo.json")
    game, dealer, deal, actions = read_replay(doc)
    opening = actions[:3]  # seat 0 bids solo, the others pass
    rng = random.Random(0)
    for _ in range(3000):
        state = game.new_hand(dealer, deal)
        for action in opening:
            state.apply(action)
        while True:
            resolve_chance(state)
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        out = state.outcome()
        if out.result.soloist_thirds == 17 and out.result.multiplier == 1:
            break
    else:
        pytest.fail("no 17-thirds hand found")
    assert out.result.success is False
    assert out.score == [-4, 2, 2]


def test_calabresella_seed002_solo_through_replay(capsys):
    out = replay_cli(capsys, "calabresella_seed002_solo.json")
    assert out["complete"] is True
    assert out["result"]["soloist_thirds"] == 18
    assert out["points"][0] == 18 and sum(out["points"]) == 35
    assert out["score"] == [4, -2, -2]


# --- the command in a real process --------------------------------------------


@pytest.mark.parametrize(
    "name, score",
    [("chiamata_seed000_score.json", [2, 4, -2, -2, -2]), ("calabresella_seed002_solo.json", [4, -2, -2])],
)
def test_replay_command_in_a_subprocess(name, score):
    run = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "replay", str(FIXTURES / name)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    out = json.loads(run.stdout)
    assert out["complete"] is True and out["score"] == score


def test_replay_command_subprocess_briscola_example():
    run = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "replay", str(FIXTURES / "briscola_seed001.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert [(t["winner"], t["points"]) for t in out["tricks"]] == [(1, 21), (0, 4), (1, 2)]
