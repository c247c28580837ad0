"""The screens in Italian, under Pilot at 80x24: the home menu with the setting language="it",
the settings screen's language row, and switching the setting back redraws in English; a few
words a player relies on (the rules, the summary's verdict, a form's refusal) and the English
ones unchanged."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from helpers.app import SIZE, wait_for

from briscola_tui import language
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.home import HomeScreen
from briscola_tui.tui.widgets.choices import Choices


@pytest.fixture
def home_in_italian(tmp_path, monkeypatch):
    """A home folder whose settings say language="it" (the environment says English)."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    (tmp_path / "settings.json").write_text(json.dumps({"language": "it"}))
    yield tmp_path
    language.choose("en")


def lines(widget) -> list[str]:
    return str(widget.render()).splitlines()


async def test_the_home_menu_and_the_settings_speak_italian_and_back_to_english(home_in_italian):
    from briscola_tui.tui.screens.settings import SettingsScreen

    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        assert language.current() == "it"
        menu = lines(app.screen.query_one("#home-menu", Choices))
        assert "Gioca contro il computer" in menu[0] and "Impostazioni" in menu[3] and "Esci" in menu[8]
        keys = str(app.screen.query_one("#home-keys").render())
        assert "ctrl+q esci" in keys and len(keys) <= SIZE[0] - 4  # the screen's padding

        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings screen")
        rows = lines(app.screen.query_one(Choices))
        assert rows[5].split()[1:] == ["lingua", "italiano"]
        assert rows[4].split()[-1] == "sì"  # the bell, on
        assert "Impostazioni" in str(app.screen.query_one("#setup-title").render())

        await pilot.press("6", "enter")  # it -> auto: the environment's English
        await pilot.pause()
        assert app.settings.language == "auto" and language.current() == "en"
        rows = lines(app.screen.query_one(Choices))
        assert rows[5].split()[1:] == ["language", "auto"]
        assert "Settings" in str(app.screen.query_one("#setup-title").render())
        assert "up/down choose" in str(app.screen.query_one("#setup-keys").render())

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen again")
        await pilot.pause()
        menu = lines(app.screen.query_one("#home-menu", Choices))
        assert "Play against the computer" in menu[0] and "Quit" in menu[8]
        assert "ctrl+q quit" in str(app.screen.query_one("#home-keys").render())
        assert "Dealt by mental poker" in str(app.screen.query_one("#home-sub").render())
    assert json.loads((home_in_italian / "settings.json").read_text())["language"] == "auto"


async def test_the_settings_show_english_by_its_name(tmp_path, monkeypatch):
    from briscola_tui.tui.screens.settings import SettingsScreen

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    (tmp_path / "settings.json").write_text(json.dumps({"language": "en"}))
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings screen")
        rows = lines(app.screen.query_one(Choices))
        assert rows[5].split()[1:] == ["language", "English"] and rows[4].split()[-1] == "on"


def test_the_rules_and_the_keys_in_italian(italian):
    from briscola_tui.tui.screens.dialogs import all_rules, help_text

    rules = all_rules()
    assert "prende la briscola più alta" in rules and "bisogna rispondere al seme" in rules
    assert "\n" not in rules.split("\n\n")[0]  # one paragraph a game, wrapped by the dialog
    keys = help_text("briscola")
    assert keys.startswith("1-9          scegli una carta")
    assert max(len(line) for line in keys.split("\n\n")[0].splitlines()) <= 58  # the dialog's width


def test_the_english_words_are_unchanged():
    from briscola_tui.tui.screens.dialogs import HELP, RULES, all_rules, help_text
    from briscola_tui.tui.screens.home import MENU

    assert language.current() == "en"
    assert all_rules() == RULES and help_text(None) == f"{HELP}\n\n{RULES}"
    assert MENU[0][0] == "Play against the computer"


def test_the_summary_and_a_refusal_in_italian(italian):
    from dataclasses import replace

    from briscola_tui.games.calabresella import soloist_lines
    from briscola_tui.tui.screens.netform_fields import FormError, whole
    from engine.games.calabresella_facts import CalabresellaResult

    result = CalabresellaResult(0, "solo", "none", soloist_thirds=21, success=True, multiplier=1)
    said = soloist_lines(result, ["tu", "Bea", "Cia"], SimpleNamespace(), (), None, ["you", "Bea", "Cia"])
    assert said[0] == "hai giocato solo: posta 2 per difensore"
    assert said[1] == "hai fatto 21 terzi su 35 (7 punti su 11); ne servono 18 (6 punti): riuscita"
    said = soloist_lines(replace(result, soloist=1), ["tu", "Bea", "Cia"], SimpleNamespace(), (), None, ["you", "Bea"])
    assert said[0] == "Bea ha giocato solo: posta 2 per difensore"
    with pytest.raises(FormError, match="un numero intero da 0 a 9"):
        whole("x", "porta", 0, 9)
