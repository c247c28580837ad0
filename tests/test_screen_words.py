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
