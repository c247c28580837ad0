"""The terminal the app draws in (issue 23): its encoding read once, at start-up; with ASCII
nothing but 7-bit characters on any screen; a terminal smaller than 80x24 told so."""

from __future__ import annotations

import io
import os
import shutil
import signal
import sys
import time

import pytest
from helpers.app import SIZE, table_of, wait_for
from helpers.home import terminal_env
from helpers.tmux import capture, session_name, tmux
from textual.widgets import Static

from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.widgets.cards import ascii_text
from engine.cards import Card

tmux_needed = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def app_in_a_utf8_terminal() -> BriscolaApp:
    """The app made while standard output is UTF-8 (as a terminal's), and then runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
        return BriscolaApp(seed=1, deal_seed=1, pace=0)


@pytest.mark.slow
async def test_a_setting_changed_keeps_the_glyphs_of_a_utf8_terminal():
    """Settings, four-colour deck on, back home, a new game: its cards in glyphs, the terminal
    being UTF-8 and ASCII "auto". (The style was made again with the setting, reading the
    encoding of `sys.stdout` then: Textual's capture of prints, which has none, so ASCII.)"""
    app = app_in_a_utf8_terminal()
    assert app.settings.ascii == "auto" and not app.style_.ascii
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HomeScreen", "the home screen")
        await pilot.press("4", "enter")  # Settings
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


def seven_bit(screen: str) -> list[str]:
    """The lines of `screen` with a character above 127 (none, in ASCII)."""
    return [line for line in screen.splitlines() if any(ord(char) > 127 for char in line)]


def wait_pane(name: str, text: str, end: float, shown: bool = True) -> str:
    """The pane once it shows `text` (`shown` False: once it no longer does); the test fails
    at `end` (time.monotonic)."""
    screen = capture(name)
    while (text in screen) != shown:
        assert time.monotonic() < end, f"no {text!r} in time; the screen was:\n{screen}"
        time.sleep(0.2)
        screen = capture(name)
    return screen


def start(name: str, command: str, home) -> int:
    """`command` in a new 80x24 session, in a UTF-8 terminal; the pid of its process."""
    env = (
        f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TEXTUAL_ANIMATIONS=none "
        f"PYTHONPATH={os.getcwd()} BRISCOLA_HOME={home}"
    )
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", os.getcwd(), f"exec env {env} {command}")
    return int(tmux("display-message", "-p", "-t", name, "#{pane_pid}").strip())


def stop(name: str, pid: int) -> None:
    """The session killed, and its process gone (killed if it outlives the hang-up by 30 s)."""
    tmux("kill-session", "-t", name, check=False)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    pytest.fail(f"the app (pid {pid}) was still running 30 s after its terminal went away")


@tmux_needed
def test_this_terminal_shows_what_is_not_ascii(tmp_path):
    """The control for the test below: this tmux passes a glyph through (were it to show `_`
    for it, as tmux does in a terminal it takes for ASCII, every screen would pass)."""
    name = session_name("briscola-glyph")
    pid = start(name, "sh -c \"printf '\\342\\231\\240 \\342\\224\\202 ready\\n'; sleep 30\"", tmp_path)
    try:
        screen = wait_pane(name, "ready", time.monotonic() + 10)
        assert "\u2660 \u2502 ready" in screen
    finally:
        stop(name, pid)


@pytest.mark.slow
@tmux_needed
def test_ascii_in_italian_is_seven_bit_too(tmp_path):
    """Italian has accented letters ("dà le carte", "è"): with --ascii they show as plain
    letters, and the table and the help are 7-bit as in English."""
    name = session_name("briscola-ascii-it")
    command = (
        f"env LANGUAGE=it {sys.executable} -m briscola_tui.cli play --game chiamata --ascii "
        "--seed 1 --deal-seed 1 --pace 0"
    )
    pid = start(name, command, tmp_path)
    end = time.monotonic() + 90
    try:
        screen = wait_pane(name, "La tua offerta: 1-", end)
        assert "il tuo punteggio" in screen and "|dai le carte per primo" in screen, screen
        assert seven_bit(screen) == [], screen
        tmux("send-keys", "-t", name, "?")
        screen = wait_pane(name, "Escape o Enter: chiudi", end)
        assert "| Aiuto" in screen and "passa da una carta o voce all'altra" in screen
        assert seven_bit(screen) == [], screen
        tmux("send-keys", "-t", name, "End")  # the rules of the game, under the keys
        screen = wait_pane(name, "piu bass", end)  # "più bassa", its accent dropped
        assert seven_bit(screen) == [], screen
    finally:
        stop(name, pid)


@pytest.mark.slow
@tmux_needed
def test_ascii_draws_only_seven_bit_characters_in_a_real_terminal(tmp_path):
    """`briscola play --ascii` in a UTF-8 tmux at 80x24, Chiamata bidding by points: the table
    (seats, log and its separator, the hand, the choices), the help with its scroll bar, and the
    number box of a target: not one character above 127 on screen."""
    name = session_name("briscola-ascii")
    command = (
        f"{sys.executable} -m briscola_tui.cli play --game chiamata -o auction=points --ascii "
        "--seed 1 --deal-seed 1 --pace 0"
    )
    pid = start(name, command, tmp_path)
    end = time.monotonic() + 90
    try:
        screen = wait_pane(name, "Your bid: 1-2, Enter", end)
        assert "|you deal first" in screen  # the log's separator, in ASCII
        assert seven_bit(screen) == [], screen
        tmux("send-keys", "-t", name, "?")
        screen = wait_pane(name, "Escape or Enter: close", end)
        assert "+-----" in screen and "| Help" in screen  # the dialog's border
        assert seven_bit(screen) == [], screen
        tmux("send-keys", "-t", name, "Escape")
        wait_pane(name, "Escape or Enter: close", end, shown=False)  # (a key sent before: alt+key)
        tmux("send-keys", "-t", name, "2", "Enter")
        screen = wait_pane(name, "Type a target from", end)
        tmux("send-keys", "-t", name, "6")
        screen = wait_pane(name, "|  6 ", end)  # the number box, its cursor after the 6
        assert seven_bit(screen) == [], screen
    finally:
        stop(name, pid)


def test_ascii_text_keeps_every_cell():
    assert ascii_text("╭──╮ │x│ ╰┴─╯") == "+--+ |x| ++-+"
    assert ascii_text("▁▄▇ ▐X▌ ▼ A♠ 3♥ · … ←") == "    [X] v AS 3H - . <"
    assert ascii_text("José 陈") == "Jose ??"  # a wide character: two cells, two marks


@pytest.mark.slow
async def test_ascii_borders_are_the_screens_own():
    """The ASCII setting turned on in Settings: the app's `-ascii` class (which the screens'
    .tcss rules follow: the log's separator, the dialogs' borders) and the last-word filter; a
    game then draws its borders in ASCII itself."""
    app = app_in_a_utf8_terminal()
    assert not app.has_class("-ascii") and app.ascii_only not in app.get_line_filters()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HomeScreen", "the home screen")
        await pilot.press("4", "enter")  # Settings
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "the settings")
        await pilot.press("enter")  # ASCII cards: auto -> on
        assert app.settings.ascii == "on" and app.style_.ascii
        assert app.has_class("-ascii") and app.ascii_only in app.get_line_filters()
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HomeScreen", "the home screen")
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SetupScreen", "the setup")
        await pilot.press("enter")
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode != "wait", "my turn")
        assert app.screen.query_one("#log").styles.border_left[0] == "ascii"
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "InfoScreen", "the help")
        assert app.screen.query_one("#dialog").styles.border_top[0] == "ascii"


@pytest.mark.slow
async def test_a_terminal_too_small_says_so_until_it_grows_back():
    """Below 80x24 the table makes way for one line saying what it needs, and takes no keys
    meanwhile (a card is never played unseen); at 80x24 again the table is back as it was."""
    from briscola_tui.tui.screens.toosmall import TooSmall

    app = BriscolaApp({"game": "briscola", "players": 2, "hands": 1}, ascii=True, seed=1, deal_seed=1, pace=0)
    async with app.run_test(size=(70, 20)) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode != "wait", "my turn")
        assert isinstance(app.screen, TooSmall)
        words = str(app.screen.query_one("#too-small", Static).render())
        assert "needs at least 80x24: the terminal is 70x20" in words
        await pilot.press("1", "enter")  # nothing happens: the table is not shown
        await pilot.pause(0.2)
        assert table_of(app).mode != "wait" and len(table_of(app).hand) == 3
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.screen is table_of(app), "the table again")
        await pilot.resize_terminal(79, 30)
        await wait_for(pilot, lambda: isinstance(app.screen, TooSmall), "the message again")
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: app.screen is table_of(app), "the table again")
        assert app.screen.query_one("#log").styles.width.value == 33  # a third of the width


@pytest.mark.slow
async def test_a_large_terminal_gets_a_larger_table_centred_beyond_200x60():
    """At 230x70 the table takes 200 columns, centred, the log a third of them, and about 60
    rows, centred too (at 80x24 the log keeps its 28 columns)."""
    app = BriscolaApp({"game": "briscola", "players": 2, "hands": 1}, ascii=True, seed=1, deal_seed=1, pace=0)
    async with app.run_test(size=(230, 70)) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode != "wait", "my turn")
        await pilot.pause(0.2)
        screen = app.screen
        header, top, log = (screen.query_one(f"#{name}") for name in ("header", "top", "log"))
        assert header.region.x == 15 and header.region.width == 200
        assert log.region.width == 66 and top.region.width == 200
        keys = screen.query_one("#keys").region
        assert header.region.y > 0 and keys.bottom - header.region.y <= 60
        assert abs(header.region.y - (70 - keys.bottom)) <= 1  # as much room above as below
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.2)
        assert log.region.width == 28 and header.region.x == 0


@pytest.mark.slow
@tmux_needed
def test_no_color_sends_no_colour_at_all(tmp_path):
    """NO_COLOR=1 in a 256-colour terminal: the table is drawn with bold, dim and reverse only;
    not one colour is sent, not even the greys Textual's own NO_COLOR filter turns colours into."""
    import re

    name = session_name("briscola-no-color")
    pid = start(
        name, f"env NO_COLOR=1 {sys.executable} -m briscola_tui.cli play --seed 1 --deal-seed 1 --pace 0", tmp_path
    )
    try:
        wait_pane(name, "Play a card", time.monotonic() + 60)
        drawn = tmux("capture-pane", "-e", "-p", "-t", name)  # with the terminal's escape sequences
        styles = re.findall(r"\x1b\[([0-9;]*)m", drawn)
        assert styles, drawn  # (the capture carries them: bold and reverse at least)
        colours = [s for s in styles if re.search(r"(^|;)([34][0-7]|9[0-7]|10[0-7]|[34]8;[25])(;|$)", s)]
        assert colours == [], sorted(set(colours))
    finally:
        stop(name, pid)
