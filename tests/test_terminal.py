"""The terminal the app draws in (issue 23): its encoding read once, at start-up; with ASCII
nothing but 7-bit characters on any screen; a terminal smaller than 80x24 told so."""

from __future__ import annotations

import io
import sys

from helpers.app import SIZE, table_of, wait_for

from briscola_tui.tui.app import BriscolaApp
from engine.cards import Card


async def test_a_setting_changed_keeps_the_glyphs_of_a_utf8_terminal(monkeypatch):
    """Settings, four-colour deck on, back home, a new game: its cards in glyphs, the terminal
    being UTF-8 and ASCII "auto". (The style was made again with the setting, reading the
    encoding of `sys.stdout` then: Textual's capture of prints, which has none, so ASCII.)"""
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    app = BriscolaApp(seed=1, deal_seed=1, pace=0)
    monkeypatch.undo()  # the terminal as it was when the app was made: UTF-8
    assert app.settings.ascii == "auto" and not app.style_.ascii
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "enter")  # Settings
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "the settings")
        await pilot.press("down", "enter")  # four-colour deck: on
        assert app.settings.four_colour
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HomeScreen", "the home screen")
        await pilot.press("1", "enter")  # Play against the computer: the setup
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SetupScreen", "the setup")
        await pilot.press("enter")
        await wait_for(pilot, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table is not None
        assert not table.style_.ascii and table.style_.four_colour
        assert table.style_.card(Card.parse("AS")) == "A\u2660"  # the spade glyph
