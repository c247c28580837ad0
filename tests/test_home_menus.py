"""The home screen's numbered lists under Pilot at 80x24: the menu keeps each item's number
whether or not a game can be resumed, choices laid in columns are numbered in reading order,
and the host form's Open table box is empty until it is ticked."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from helpers.app import SIZE, wait_for
from textual.app import App

from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.home import HomeScreen
from briscola_tui.tui.widgets.choices import Choice, Choices


def unfinished():
    return SimpleNamespace(when=0, names=["you", "Bea"], scores=[1, 0], game="briscola", players=2, played=1, slot="s")


@pytest.mark.parametrize("saved", [[], [unfinished()]], ids=["nothing to resume", "a game to resume"])
async def test_the_home_menu_keeps_its_numbers_when_a_game_can_be_resumed(saved, monkeypatch):
    from briscola_tui.files import saved as saved_module
    from briscola_tui.tui.screens.replay import OpenReplay

    monkeypatch.setattr(saved_module, "saved_games", lambda: list(saved))
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        menu = app.screen.query_one("#home-menu", Choices)
        values = [item.action for item in menu.items]
        assert values == ["play", "resume", "replay", "settings", "rules", "host", "join", "watch", "quit"]
        shown = str(menu.render()).splitlines()
        assert shown[1].split()[0] == "2" and "Resume an unfinished game" in shown[1]
        assert shown[2].split()[:2] == ["3", "Replay"] and shown[8].split()[:2] == ["9", "Quit"]
        assert menu.items[1].dim == (not saved)
        await pilot.press("2", "enter")
        if saved:
            assert menu.title.startswith("Resume") and len(menu.items) == 1
            await pilot.press("escape")
        else:
            assert "No unfinished game" in str(app.screen.query_one("#home-note").render())
        await pilot.press("3", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenReplay), "the replay list")


class OneList(App):
    def compose(self):
        yield Choices()


async def test_choices_in_columns_are_numbered_in_reading_order():
    app = OneList()
    async with app.run_test(size=SIZE) as pilot:
        choices = app.query_one(Choices)
        choices.show([Choice(f"bid {rank}") for rank in "A3KQJ7654"])
        await pilot.pause()
        rows = [line.split() for line in str(choices.render()).splitlines()]
        assert rows[0] == [">1", "bid", "A", "2", "bid", "3", "3", "bid", "K"]
        assert rows[2] == ["7", "bid", "6", "8", "bid", "5", "9", "bid", "4"]
        cell = len(" 1  bid A") + 3
        assert [choices.index_at(cell * column, 1) for column in range(3)] == [3, 4, 5]  # a click: the second row
        assert choices.on_page(5) == 4


async def test_the_host_forms_open_table_box_is_empty_until_ticked():
    from briscola_tui.tui.screens.netforms import HostForm

    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        app.push_screen(HostForm())
        await wait_for(pilot, lambda: isinstance(app.screen, HostForm) and app.screen.query("#open"), "the form")
        box = app.screen.query_one("#open")
        assert not box.value and "X" not in str(box.render()).split()[0]
        box.focus()
        await pilot.press("space")
        await pilot.pause()
        assert box.value and "X" in str(box.render()).split()[0]
        await pilot.press("space")
        await pilot.pause()
        assert not box.value and "X" not in str(box.render()).split()[0]
