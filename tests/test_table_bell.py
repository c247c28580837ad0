"""The bell (issue 23, item 7b): my turn after a wait of more than `BELL_WAIT` rings the
terminal bell, for a player in another window; not with the setting off, not for a turn
that comes without a wait."""

from __future__ import annotations

import pytest
from helpers.app import SIZE, turn_of, wait_for

from briscola_tui.files.settings import Settings
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens import table as table_module


async def bells_over_two_cards(monkeypatch, pace: float, bell: bool) -> list:
    """Play two cards of Briscola for 2, the computer taking `pace` seconds a move: the bells
    rung from my first card on (the first turn, after the deal, is not counted)."""
    app = BriscolaApp({"game": "briscola", "players": 2, "hands": 1}, seed=1, deal_seed=1, pace=pace,
                      settings=Settings(bell=bell))  # fmt: skip
    rung: list = []
    monkeypatch.setattr(app, "bell", lambda: rung.append(True))
    async with app.run_test(size=SIZE) as pilot:
        for card in range(2):
            table = await turn_of(app, pilot, "card")
            if card == 0:
                rung.clear()
            moves = len(table.view.history)
            await pilot.press("1", "enter")
            await wait_for(pilot, lambda t=table, m=moves: len(t.view.history) > m + 1, "my card and the other's")
        await turn_of(app, pilot, "card")
    return rung


@pytest.mark.slow
async def test_the_bell_rings_when_my_turn_comes_after_a_wait(monkeypatch):
    assert await bells_over_two_cards(monkeypatch, pace=1.3, bell=True)


@pytest.mark.slow
async def test_no_bell_with_the_setting_off(monkeypatch):
    assert not await bells_over_two_cards(monkeypatch, pace=1.3, bell=False)


@pytest.mark.slow
async def test_no_bell_when_my_turn_comes_without_a_wait(monkeypatch):
    """The computer moves at once: each turn comes well within the threshold (5 s here, so that a
    loaded machine's deal of the next cards is not taken for a wait)."""
    monkeypatch.setattr(table_module, "BELL_WAIT", 5.0)
    assert not await bells_over_two_cards(monkeypatch, pace=0, bell=True)


def test_the_bell_setting_is_saved_and_read_back(tmp_path):
    from briscola_tui.files import settings

    assert Settings().bell is True  # on by default
    path = tmp_path / "settings.json"
    Settings(bell=False).save(path)
    assert settings.load(path).bell is False and not settings.load(path).problem
