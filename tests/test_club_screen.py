"""The Club screen under Pilot at 80x24: reached from the home screen with `c`, it reads this
machine's transcripts into the ledger and shows the league of each game family, names as
they are, and the rating over time of the chosen person as a plot."""

from __future__ import annotations

import io

import pytest
from helpers.app import SIZE, wait_for
from textual.widgets import DataTable
from textual_plotext import PlotextPlot

from briscola_tui.files.folders import subfolder
from briscola_tui.tools.selfplay import selfplay
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.club import ClubScreen
from briscola_tui.tui.screens.home import HomeScreen

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)


def _tables() -> None:
    folder = subfolder("transcripts")
    for seed, seats in ((1, ["normal", "random"]), (2, ["easy", "normal"])):
        path = folder / f"t{seed}.bin"
        selfplay("briscola", 2, None, seed, str(path), {"match": 2}, io.StringIO(), quiet=True, seats=seats)
    selfplay(
        "calabresella",
        3,
        2,
        3,
        str(folder / "k.bin"),
        {},
        io.StringIO(),
        quiet=True,
        seats=["normal", "easy", "random"],
    )


async def _club(pilot, app) -> ClubScreen:
    """The Club screen, opened from the home screen with `c`, once its league is shown."""
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(app.screen, ClubScreen) and app.screen.rows, "the league")
    screen = app.screen
    assert isinstance(screen, ClubScreen)
    return screen


def _labels(screen: ClubScreen) -> set[str]:
    league = screen.query_one("#club-league", DataTable)
    return {str(league.get_row_at(k)[1]) for k in range(league.row_count)}


async def test_the_club_screen_shows_the_league_and_a_plot_of_the_chosen_person():
    _tables()
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        screen = await _club(pilot, app)
        assert _labels(screen) == {"normal", "random", "easy"}
        assert "3 verified tables in the ledger" in str(screen.query_one("#club-note").render())
        plot = screen.query_one("#club-plot", PlotextPlot)
        first = screen.rows[0].person.label
        assert first in str(plot.plt.build())  # the title names the person plotted
        person = str(screen.query_one("#club-person").render())
        assert person.startswith(f"{first} ") and "points/hand" in person
        await pilot.press("down")
        second = screen.rows[1].person.label
        await wait_for(pilot, lambda: second in str(plot.plt.build()), "the plot follows the cursor")
        await pilot.press("right")
        await wait_for(pilot, lambda: "Calabresella" in str(screen.query_one("#club-title").render()), "the next game")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "back home")


async def test_the_club_screen_shows_only_the_roster_and_says_which_hands_are_not_rated():
    """A table of keys nobody in this data folder played with: in the ledger, not in the league."""
    from helpers.ledger_tables import play

    from protocol.identity import Identity

    _tables()
    play(subfolder("transcripts") / "strangers.bin", [Identity.generate(), Identity.generate()], ["Zed", "Yan"])
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _club(pilot, app)
        assert _labels(screen) == {"normal", "random", "easy"}  # not Zed, not Yan
        note = str(screen.query_one("#club-note").render())
        assert "4 verified tables in the ledger" in note and "not rated: someone at them is not in your roster" in note
