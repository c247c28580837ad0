"""`briscola replay FILE` errors and edge cases, per docs/replay.md.

Illegal actions exit 2 with stderr `action N: reason`; a bad file exits 1
saying what is wrong; stdout stays empty in both cases.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from briscola_tui.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def run(capsys, tmp_path, doc, raw: str | None = None):
    path = tmp_path / "hand.json"
    path.write_text(raw if raw is not None else json.dumps(doc))
    status = cli_main(["replay", str(path)])
    out = capsys.readouterr()
    assert out.err == "" or out.err.startswith("briscola replay: "), out.err  # one line, the command's name first
    return status, out.out, out.err.removeprefix("briscola replay: ")


def assert_action_error(capsys, tmp_path, doc, index: int, words: str):
    status, out, err = run(capsys, tmp_path, doc)
    assert status == 2, err
    assert out == ""
    assert err.startswith(f"action {index}: "), err
    assert words in err
    return err


def assert_input_error(capsys, tmp_path, doc, words: str, raw: str | None = None):
    status, out, err = run(capsys, tmp_path, doc, raw)
    assert status == 1, err
    assert out == ""
    assert words in err, err
    assert not err.startswith("action ")


# --- illegal actions: exit 2 -------------------------------------------------


def test_out_of_turn(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["actions"][0]["seat"] = 1  # seat 0 leads
    assert_action_error(capsys, tmp_path, doc, 0, "it is seat 0's turn")  # the rule, in words (render.refusal)


def test_card_not_held(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["actions"][1]["card"] = "AS"  # seat 1 holds AD, KS, JC
    assert_action_error(capsys, tmp_path, doc, 1, "seat 1 does not hold AS")


def test_card_already_played(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["actions"][3]["card"] = "3D"  # played by seat 0 in the first trick
    assert_action_error(capsys, tmp_path, doc, 3, "3D")


def test_bid_not_lower(capsys, tmp_path):
    doc = fixture("chiamata_seed000_trick.json")
    doc["actions"][1] = {"seat": 2, "action": "bid", "rank": "K"}  # after a bid of 2
    assert_action_error(capsys, tmp_path, doc, 1, "2")
    doc = fixture("chiamata_seed000_score.json")
    doc["actions"][2] = {"seat": 3, "action": "bid", "rank": "2", "target": 79}  # not above 79
    assert_action_error(capsys, tmp_path, doc, 2, "above 79")


def test_chiamata_rank_auction_bid_without_a_single_rank(capsys, tmp_path):
    # Regression: these crashed (TypeError) or were accepted ("A3" is in "A3KQJ...").
    for bad in (
        {"seat": 1, "action": "bid", "target": 70},
        {"seat": 1, "action": "bid", "rank": "A3"},
        {"seat": 1, "action": "bid", "rank": ""},
    ):
        doc = fixture("chiamata_seed000_trick.json")
        doc["actions"][0] = bad
        assert_action_error(capsys, tmp_path, doc, 0, "a bid names a rank")


def test_chiamata_call_not_of_the_bid_rank(capsys, tmp_path):
    doc = fixture("chiamata_seed000_trick.json")
    doc["actions"][5]["card"] = "3S"  # the last bid was the 2, and 2S is not held by A
    assert_action_error(capsys, tmp_path, doc, 5, "two rule")


def test_not_following_suit_in_calabresella(capsys, tmp_path):
    doc = fixture("calabresella_seed002_trick.json")
    hands = doc["deal"]["hands"]
    assert any(c.endswith("C") for c in hands[1] if c != "AC")  # seat 1 has other clubs
    off_suit = next(c for c in hands[1] if not c.endswith("C") and c not in doc["actions"][3]["cards"])
    doc["actions"][5]["card"] = off_suit
    assert_action_error(capsys, tmp_path, doc, 5, "must follow suit")


def test_calabresella_bid_not_higher(capsys, tmp_path):
    doc = fixture("calabresella_seed002_trick.json")
    doc["actions"][2] = {"seat": 2, "action": "bid", "contract": "chiamo"}
    assert_action_error(capsys, tmp_path, doc, 2, "higher than solo")


def test_calabresella_discard_of_a_card_not_held(capsys, tmp_path):
    doc = fixture("calabresella_seed002_trick.json")
    doc["actions"][3]["cards"] = ["KC", "2D", "3D", "5D"]  # KC is seat 0's
    assert_action_error(capsys, tmp_path, doc, 3, "KC")


def test_action_after_the_hand_is_over(capsys, tmp_path):
    doc = fixture("calabresella_seed002_solo.json")
    n = len(doc["actions"])
    doc["actions"].append({"seat": 0, "action": "play", "card": "AS"})
    assert_action_error(capsys, tmp_path, doc, n, "over")


# --- bad files: exit 1 ---------------------------------------------------------


def test_invalid_json(capsys, tmp_path):
    assert_input_error(capsys, tmp_path, None, "JSON", raw='{"game": "briscola", ')


@pytest.mark.parametrize("key", ["game", "players", "dealer", "deal", "actions"])
def test_missing_key(capsys, tmp_path, key):
    doc = fixture("briscola_seed001.json")
    del doc[key]
    assert_input_error(capsys, tmp_path, doc, key)


def test_missing_deal_part(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    del doc["deal"]["briscola"]
    assert_input_error(capsys, tmp_path, doc, "briscola")
    doc = fixture("calabresella_seed002_solo.json")
    del doc["deal"]["monte"]
    assert_input_error(capsys, tmp_path, doc, "monte")


def test_action_missing_its_card(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    del doc["actions"][2]["card"]
    assert_input_error(capsys, tmp_path, doc, "actions[2]")


def test_unknown_card_in_the_deal(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["deal"]["hands"][0][0] = "8D"
    assert_input_error(capsys, tmp_path, doc, "8D")


def test_unknown_card_in_an_action(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["actions"][0]["card"] = "XX"
    assert_input_error(capsys, tmp_path, doc, "actions[0]")


def test_duplicate_card_in_the_deal(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["deal"]["stock"][0] = "3D"  # also in seat 0's hand
    assert_input_error(capsys, tmp_path, doc, "3D is dealt twice")


def test_wrong_card_count(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["deal"]["stock"].pop()
    assert_input_error(capsys, tmp_path, doc, "stock")
    doc = fixture("chiamata_seed000_score.json")
    doc["deal"]["hands"][0].pop()
    assert_input_error(capsys, tmp_path, doc, "seat 0")


def test_two_of_diamonds_in_the_three_player_deck(capsys, tmp_path):
    from engine.games import make

    deck = [str(c) for c in make("briscola", 3).deck()]
    assert "2D" not in deck and len(deck) == 39
    doc = {
        "game": "briscola",
        "players": 3,
        "dealer": 0,
        "options": {},
        "deal": {"hands": [deck[0:3], deck[3:6], deck[6:9]], "stock": deck[10:], "briscola": deck[9]},
        "actions": [],
    }
    status, out, err = run(capsys, tmp_path, doc)
    assert status == 0, err
    assert json.loads(out)["complete"] is False
    doc = copy.deepcopy(doc)
    doc["deal"]["stock"][0] = "2D"
    assert_input_error(capsys, tmp_path, doc, "2D not in the 3-player briscola deck")


def test_unknown_game_option_and_player_count(capsys, tmp_path):
    doc = fixture("briscola_seed001.json")
    doc["options"] = {"trump_exchange": "5"}
    assert_input_error(capsys, tmp_path, doc, "trump_exchange")
    doc = fixture("briscola_seed001.json")
    doc["players"] = 5
    assert_input_error(capsys, tmp_path, doc, "5")


def test_unreadable_file(capsys, tmp_path):
    status = cli_main(["replay", str(tmp_path / "missing.json")])
    out = capsys.readouterr()
    assert status == 1 and out.out == "" and "missing.json" in out.err


# --- outputs -------------------------------------------------------------------


def test_incomplete_hand_has_no_score(capsys, tmp_path):
    doc = fixture("chiamata_seed000_score.json")
    doc["actions"] = doc["actions"][:12]
    status, out, err = run(capsys, tmp_path, doc)
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["complete"] is False
    assert "score" not in data
    assert set(data) == {"complete", "tricks", "points", "result"}


def test_empty_actions_is_an_incomplete_hand(capsys, tmp_path):
    doc = fixture("calabresella_seed002_solo.json")
    doc["actions"] = []
    status, out, _ = run(capsys, tmp_path, doc)
    data = json.loads(out)
    assert status == 0 and data["complete"] is False and data["tricks"] == [] and "score" not in data


@pytest.mark.parametrize(
    "name, passes",
    [
        ("chiamata_seed000_score.json", [1, 2, 3, 4, 0]),
        ("calabresella_seed002_solo.json", [0, 1, 2]),
    ],
)
def test_all_pass_is_a_redeal(capsys, tmp_path, name, passes):
    doc = fixture(name)
    doc["actions"] = [{"seat": s, "action": "pass"} for s in passes]
    status, out, err = run(capsys, tmp_path, doc)
    assert status == 0, err
    data = json.loads(out)
    assert data["complete"] is True
    assert data["tricks"] == []
    assert data["result"] == {"redeal": True}
    assert data["score"] == [0] * len(passes)


@pytest.mark.slow
def test_stdin_and_subprocess_errors():
    doc = fixture("briscola_seed001.json")
    doc["actions"][0]["seat"] = 1
    run_ = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "replay", "-"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run_.returncode == 2
    assert run_.stdout == ""
    assert run_.stderr.startswith("briscola replay: action 0: ")
    run_ = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "replay", "-"],
        input="not json",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run_.returncode == 1 and run_.stdout == "" and run_.stderr


# --- what each game states for its replay files ---------------------------------

FIXTURE_OF = {
    "briscola": "briscola_seed001.json",
    "chiamata": "chiamata_seed000_score.json",
    "calabresella": "calabresella_seed002_solo.json",
}


@pytest.mark.parametrize("name", sorted(FIXTURE_OF))
def test_deal_keys_are_the_games(capsys, tmp_path, name):
    """Every `DEAL_KEYS` key is required; another game's key is unexpected."""
    from engine.games import GAMES

    game = GAMES[name].load()
    for key in game.DEAL_KEYS:
        doc = fixture(FIXTURE_OF[name])
        del doc["deal"][key]
        assert_input_error(capsys, tmp_path, doc, f"missing {key!r}")
    others = {k for g in GAMES.values() for k in g.load().DEAL_KEYS} - set(game.DEAL_KEYS)
    for key in sorted(others):
        doc = fixture(FIXTURE_OF[name])
        doc["deal"][key] = []
        assert_input_error(capsys, tmp_path, doc, f"unexpected key {key!r} for {name}")


def test_an_action_of_another_game_is_refused_by_the_rules(capsys, tmp_path):
    """Kinds are read for every game (exit 2 from the rules, not an input error)."""
    doc = fixture("briscola_seed001.json")
    doc["actions"][0] = {"seat": 0, "action": "bid", "contract": "solo"}
    assert_action_error(capsys, tmp_path, doc, 0, "'bid' is not allowed at this point of the hand")
    doc["actions"][0] = {"seat": 0, "action": "raise"}
    assert_input_error(capsys, tmp_path, doc, "raise needs 'raise'")
    doc["actions"][0] = {"seat": 0, "action": "knock"}
    assert_input_error(
        capsys, tmp_path, doc, "known: play, exchange, declare, pass, bid, call, return, discard, raise, take"
    )
