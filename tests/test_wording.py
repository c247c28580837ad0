"""Words a player reads: a count and its noun agree ("1 point", "2 points"), roles are listed
with commas, a stopped table says so in words, and `--cheater`'s default is the one its
`--help` names."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from briscola_tui.render import render
from engine.cards import Card
from protocol.events import TrickTaken

CARDS = tuple(Card.parse(c) for c in ("4S", "5S"))


@pytest.mark.parametrize(
    "points, unit, worth",
    [
        (1, "point", "for 1 point"),
        (2, "point", "for 2 points"),
        (1, "third", "for 1 third"),
        (0, "point", "for 0 points"),
    ],
)
def test_a_trick_is_worth_one_point_not_one_points(points, unit, worth):
    line = render(TrickTaken(1, CARDS, points, unit))
    assert line == f"seat 1 takes the trick (4S 5S) {worth}"


def test_the_summary_counts_card_points_and_thirds_in_words():
    from briscola_tui.games.base import side_points_lines
    from briscola_tui.games.calabresella import soloist_lines
    from briscola_tui.tui.widgets.cards import Style
    from engine.games.briscola_facts import BriscolaResult
    from engine.games.calabresella_facts import CalabresellaResult

    view = SimpleNamespace(players=2, game="briscola", options={})
    lines = side_points_lines(view, BriscolaResult(1, "S", (1, 119)), ["Ada", "Bo"])
    assert lines[:2] == ["Ada: 1 card point of 120", "Bo: 119 card points of 120"]
    result = CalabresellaResult(0, "solo", "none", soloist_thirds=4, success=False, multiplier=1)
    lines = soloist_lines(result, ["Ada", "Bo", "Cy"], Style(ascii=True))
    assert any(
        line.startswith("Ada took 4 thirds of 35 (1 point of 11); 18 thirds (6 points) needed: ") for line in lines
    ), lines


def test_cheater_help_names_every_default(capsys):
    from briscola_tui.cli import main

    with pytest.raises(SystemExit):
        main(["selfplay", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--cheater N with --cheat: the cheating seat (default 1; substitute and tag-card: seat 0" in text


def test_a_called_card_no_defender_holds_is_not_said_to_be_the_callers():
    """Chiamo of a card in the monte: before the monte is shown nobody knows where it lies,
    so the log says the monte or the soloist's hand, never "the caller holds it"."""
    from protocol.events import HandedOver

    line = render(HandedOver(None, Card.parse("3S")))
    assert line == "no defender holds 3S: it is in the monte or the soloist's hand"
    assert render(HandedOver(1, Card.parse("3S")), names=("you", "Bea", "Cleo")) == "Bea hands over 3S"
