"""The app through a club (issue 47, "a saved club in the settings and the forms"): the
settings keep the club the Host, Join and Watch forms go through at first (among those kept
here, or none: the LAN), the host form hosts through it (its port and address put aside), the
join form lists the club's tables (asked of a real `briscola club serve`) and joins one hosted
by a real `briscola host --headless --club` process, and a club that cannot be reached is said
in the form, what was typed kept. Without a club kept, or without the club extra, the settings
and the forms say so and stay on the LAN."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.app import wait_for
from helpers.club import ClubServer, ClubTable, join
from helpers.network import BRISCOLA, WAIT

from briscola_tui.files.settings import Settings
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.home import HomeScreen
from briscola_tui.tui.screens.netforms import HostForm, JoinForm, WatchForm
from briscola_tui.tui.screens.settings import SettingsScreen
from briscola_tui.tui.widgets.choices import Choices

os.environ["TEXTUAL_ANIMATIONS"] = "none"
SIZE = (80, 24)


def kept(club: ClubServer, folder: Path, member: str) -> Path:
    """`member` invited to the club and its invitation kept in the data folder `folder`."""
    join(folder, club.invite(member))
    return folder


def text(widget) -> str:
    return str(widget.render())


def rows(screen) -> list[str]:
    return str(screen.query_one(Choices).render()).splitlines()


async def opened(pilot, screen) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, HomeScreen), "the home screen", WAIT)
    pilot.app.push_screen(screen)
    await wait_for(pilot, lambda: pilot.app.screen is screen and screen.query("#club"), "the form", WAIT)


def club_listed(form) -> list[str]:
    options = form.query_one("#club-list")
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def club_row(pilot) -> list[str]:
    """The settings opened from the home screen, the cursor on the club: its row's words."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen", WAIT)
    app.push_screen(SettingsScreen())
    await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings", WAIT)
    await pilot.press("7")
    await pilot.pause()
    return rows(app.screen)[6].split()[1:]


async def test_without_a_club_kept_the_settings_and_the_forms_say_so_and_stay_on_the_lan(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        assert await club_row(pilot) == ["club", "none", "(the", "LAN)"]
        assert "no club is kept here: briscola club add keeps one" in text(app.screen.query_one("#setup-help"))
        await pilot.press("enter")  # (nothing else to choose)
        await pilot.pause()
        assert app.settings.club == "" and rows(app.screen)[6].split()[1:3] == ["club", "none"]
        await pilot.press("escape")
        for kind in (HostForm, JoinForm):
            form = kind()
            await opened(pilot, form)
            choice = form.query_one("#club")
            assert (
                choice.value == ""
                and choice.disabled
                and "no club kept here" in text(choice.query_one("SelectCurrent #label"))
            )
            assert not form.query_one("#form-club").display
            if kind is JoinForm:
                assert form.query_one("#lan-list").display is not None and not form.query_one("ClubTables").display
            else:
                assert not form.query_one("#port").disabled
            app.pop_screen()


@pytest.mark.slow
async def test_the_settings_keep_a_club_kept_here_and_the_forms_open_through_it(club, tmp_path, monkeypatch):
    home = kept(club, tmp_path / "anna", "anna")
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen", WAIT)
        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings", WAIT)
        await pilot.press("7", "enter")  # none -> friends
        await pilot.pause()
        assert rows(app.screen)[6].split()[1:] == ["club", "friends"]
        assert "the club the Host, Join and Watch forms go through" in text(app.screen.query_one("#setup-help"))
        await pilot.press("escape")
        form = HostForm()
        await opened(pilot, form)
        assert form.query_one("#club").value == "friends"
        assert all(form.query_one(f"#{ident}").disabled for ident in ("port", "bind", "advertise"))
        note = text(form.query_one("#form-club"))
        assert "Through the club friends" in note and "no port to open" in note
        form.query_one("#club").value = ""  # the LAN, for this table only
        await pilot.pause()
        assert not form.query_one("#port").disabled and not form.query_one("#form-club").display
    assert json.loads((home / "settings.json").read_text())["club"] == "friends"
    (home / "clubs" / "friends.json").unlink()  # (no longer kept: said, and the forms on the LAN)
    app = BriscolaApp()
    async with app.run_test(size=SIZE) as pilot:
        assert await club_row(pilot) == ["club", "friends", "(not", "kept", "here)"]
        await pilot.press("escape")
        form = HostForm()
        await opened(pilot, form)
        assert form.query_one("#club").value == "" and not form.query_one("#port").disabled


@pytest.mark.slow
async def test_the_host_form_hosts_through_the_club_and_the_club_lists_the_table(club, tmp_path, monkeypatch):
    home = kept(club, tmp_path / "anna", "anna")
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    from briscola_tui.tui.screens.lobby import LobbyScreen

    app = BriscolaApp(settings=Settings(club="friends"))
    async with app.run_test(size=SIZE) as pilot:
        form = HostForm()
        await opened(pilot, form)
        form.query_one("#table").value = ("briscola", 3)
        form.query_one("#bots").value = "1"
        form.query_one("#name").value = "Anna"
        form.query_one("#port").value = "not a port"  # (put aside through a club)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen.controller
        sitting = lambda: any(s.name == "Anna" and s.me for s in lobby.lobby().seats)  # noqa: E731
        await wait_for(pilot, lambda: sitting() or lobby.lobby().failed, "Anna at her table", WAIT)
        assert not lobby.lobby().failed, lobby.lobby()
        code = lobby.lobby().code
        await pilot.pause(0.1)
        friends = text(app.screen.query_one("#lobby-friends")).splitlines()
        assert friends[2:] == [
            f"   briscola join {code} --club friends",
            f"   briscola watch {code} --club friends  (to watch)",
        ]
        listing = await asyncio.to_thread(
            subprocess.run,
            [*BRISCOLA, "tables", "--club", "friends", "--json"],
            capture_output=True,
            text=True,
            timeout=WAIT,
            env={**os.environ, "BRISCOLA_HOME": str(home)},
        )
        assert listing.returncode == 0, listing.stderr
        (record,) = json.loads(listing.stdout)
        assert record["via"] == "anna" and record["plate"] == int(code.split("-")[0])
        await pilot.press("escape")


@pytest.mark.slow
async def test_the_join_form_lists_the_clubs_tables_and_joins_one_by_its_code(club, children, tmp_path, monkeypatch):
    bruno = kept(club, tmp_path / "bruno", "bruno")
    anna = kept(club, tmp_path / "anna", "anna")
    table = ClubTable(children, bruno, "--name", "Bruno")  # (two seats: Bruno's computer-less table waits)
    monkeypatch.setenv("BRISCOLA_HOME", str(anna))
    from briscola_tui.tui.screens.lobby import LobbyScreen

    app = BriscolaApp(settings=Settings(club="friends"))
    async with app.run_test(size=SIZE) as pilot:
        form = JoinForm()
        await opened(pilot, form)
        await wait_for(pilot, lambda: club_listed(form), "the club's tables", WAIT)
        (row,) = club_listed(form)
        plate, secret = table.code.split("-")
        assert row.split()[0] == plate and "host Bruno" in row
        assert "Tables at the club friends" in text(form.query_one("#club-status"))
        assert not form.query_one("LanTables").display
        form.query_one("#club-list").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: form.query_one("#code").has_focus, "the focus in the code", WAIT)
        form.query_one("#name").value = "Anna"
        await pilot.press(*secret, "enter")  # (the plate put in front: the picked table's)
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen.controller
        await wait_for(
            pilot, lambda: any(s.name == "Anna" and s.me for s in lobby.lobby().seats) or lobby.lobby().failed, "Anna"
        )
        assert not lobby.lobby().failed, lobby.lobby()
        assert "Playing at the table at the club friends" in text(app.screen.query_one("#lobby-friends"))
        await pilot.press("escape")


@pytest.mark.slow
async def test_a_club_that_cannot_be_reached_is_said_in_the_form_and_nothing_typed_is_lost(club, tmp_path, monkeypatch):
    home = kept(club, tmp_path / "anna", "anna")
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    url = club.url
    club.close()
    app = BriscolaApp(settings=Settings(club="friends"))
    async with app.run_test(size=SIZE) as pilot:
        form = WatchForm()
        await opened(pilot, form)
        status = form.query_one("#club-status")
        unreachable = f"the club friends cannot be reached at {url}: Connection refused"
        await wait_for(pilot, lambda: unreachable in text(status), "the club's line", WAIT)
        assert "ctrl+r asks again" in text(status)
        form.query_one("#code").value = "42-abcdef"
        await pilot.press("enter")
        error = form.query_one("#form-error")
        await wait_for(pilot, lambda: unreachable in text(error), "the line under the fields", WAIT)
        assert app.screen is form and form.query_one("#code").value == "42-abcdef"
        monkeypatch.setitem(sys.modules, "nats", None)  # (the club extra not installed)
        await pilot.press("ctrl+r")
        missing = "a club needs nats-py and nkeys, which are not installed: pip install 'briscola-tui[club]'"
        await wait_for(pilot, lambda: missing in text(status), "the missing extra said", WAIT)
