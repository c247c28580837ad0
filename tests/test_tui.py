"""The Textual client under Pilot at 80x24: whole hands against the computer
with key presses only, from the home screen or `play` to the hand summary."""

from __future__ import annotations

import asyncio
import time

import pytest

from briscola_tui.app import BriscolaApp
from briscola_tui.cli import main
from briscola_tui.screens.dialogs import ConfirmQuit, InfoScreen
from briscola_tui.screens.home import HomeScreen
from briscola_tui.screens.summary import SummaryScreen
from briscola_tui.screens.table import TableScreen

SIZE = (80, 24)
DEADLINE = 60.0


@pytest.fixture(autouse=True)
def own_home(tmp_path, monkeypatch):
    """Settings and data in a fresh folder: never the user's own."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)


def make_app(game="briscola", players=2, **kwargs) -> BriscolaApp:
    play = None if game is None else {"game": game, "players": players, "hands": kwargs.pop("hands", 1)}
    return BriscolaApp(play, seed=kwargs.pop("seed", 1), deal_seed=kwargs.pop("deal_seed", 1), pace=0, **kwargs)


async def wait_for(pilot, condition, what: str, timeout: float = DEADLINE) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def table_of(app) -> TableScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)


async def play_hand(app, pilot, seen: dict | None = None, pick: dict | None = None) -> None:
    """Press keys until the hand summary shows: the first legal choice each time
    (`pick`: the digit to press instead in a phase)."""
    seen = {} if seen is None else seen
    await wait_for(pilot, lambda: table_of(app) is not None, "the table")
    end = time.monotonic() + DEADLINE
    while not isinstance(app.screen, SummaryScreen):
        assert time.monotonic() < end, "timed out playing the hand"
        table = table_of(app)
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen) or table.mode != "wait", "my turn")
        if isinstance(app.screen, SummaryScreen):
            break
        seen[table.mode] = seen.get(table.mode, 0) + 1
        view = table.view
        if table.mode == "card":
            playable = [a.card for a in view.legal if a.kind in ("play", "return")]
            await pilot.press(str(table.hand.index(playable[0]) + 1), "enter")
        elif table.mode == "discard":
            count = len(view.legal[0].cards)
            await pilot.press(*[str(i) for i in range(1, count + 1)], "enter")
        elif table.mode == "choose":
            await pilot.press((pick or {}).get(view.phase, "1"), "enter")
            if table.mode == "target":
                await pilot.press(*str(min(table.group.targets)), "enter")
        await pilot.pause(0.01)


async def test_briscola_two_players_to_the_summary_and_out():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot)
        text = str(app.screen.query_one("#summary-text").render())
        assert "As dealt" in text and "series" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.is_running, "the app to exit", 10)


@pytest.mark.parametrize("menu, game, players", [
    (1, "briscola", 2), (2, "briscola", 3), (3, "briscola", 4), (4, "briscola", 6),
    (5, "chiamata", 5), (6, "calabresella", 3),
])
async def test_a_whole_hand_of_every_game_from_the_home_screen(menu, game, players):
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        await pilot.press("1", "enter", str(menu), "enter")
        await wait_for(pilot, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table.controller.game == game and table.controller.players == players
        await play_hand(app, pilot)
        assert app.screen.view.last_hand is not None


@pytest.mark.parametrize("game, deal_seed, mode, pick", [
    ("chiamata", 2, "choose", None), ("calabresella", 5, "discard", {"auction": "3"}),  # 3: bid solo
])
async def test_auctions_and_discards_are_reached(game, deal_seed, mode, pick):
    app = BriscolaApp({"game": game, "hands": 1}, seed=3, deal_seed=deal_seed, pace=0, level="easy")
    seen: dict = {}
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot, seen, pick)
    assert seen.get(mode)


async def test_help_last_trick_score_and_quit_asks_first():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        for key in ("question_mark", "t", "s"):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), f"the {key} screen", 10)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table again", 10)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit), "the question", 10)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table again", 10)
        await pilot.press("ctrl+q", "y")
        await wait_for(pilot, lambda: not app.is_running, "the app to exit", 10)


async def test_clicking_a_card_twice_plays_it():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        table = table_of(app)
        before = len(table.view.hand) + len(table.view.trick)
        await pilot.click("#hand", offset=(4, 1))
        await pilot.click("#hand", offset=(4, 1))
        await wait_for(pilot, lambda: table.view.history and any(a.seat == 0 for a in table.view.history),
                       "my card played", 10)


def test_help_still_prints(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "play" in out and "selfplay" in out and "verify" in out
