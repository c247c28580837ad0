"""What the screens write in a game's own words and units (issue 46): Calabresella's tricks in
thirds in the summary, the log and headless; the replay viewer's header and called card; the
prompt once a card is played."""

from __future__ import annotations

import re

import pytest
from helpers.app import SIZE, app_for, play_hand


@pytest.mark.slow
async def test_the_calabresella_summary_counts_every_trick_in_thirds():
    app = app_for("calabresella", 3)
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot)
        text = str(app.screen.query_one("#summary-text").render())
    assert "of 35" in text  # the header counts thirds...
    tricks = re.findall(r"takes? the trick \(.*\) for (\d+) (\w+)", text)
    assert len(tricks) == 12
    assert {unit for n, unit in tricks} <= {"third", "thirds"}, tricks  # ...and so does every trick


def test_italian_bids_say_the_rank_as_italian_players_do(italian):
    from briscola_tui.render import render
    from briscola_tui.tui.widgets.cards import Style
    from engine.actions import Action
    from protocol.events import Acted

    def said(action: Action, style: Style | None = None) -> str:
        return render(Acted(action), style or Style(), ("Ada", "Bea"))

    assert said(Action(1, "bid", rank="Q")) == "Bea: offro donna"
    assert said(Action(1, "bid", rank="Q"), Style(names="italian")) == "Bea: offro cavallo"
    assert said(Action(1, "bid", rank="A")) == "Bea: offro asso"
    assert said(Action(1, "bid", rank="3")) == "Bea: offro 3"  # (a number as on the cards)
    assert Style().action(Action(0, "bid", rank="K")) == "offro re"  # the auction's choices


def test_english_bids_keep_the_rank_letters():
    from briscola_tui.tui.widgets.cards import Style
    from engine.actions import Action

    assert Style().action(Action(0, "bid", rank="K")) == "bid K"
    assert Style().action(Action(0, "bid", rank="2", target=70)) == "bid 2 target 70"
