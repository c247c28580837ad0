"""`briscola play` in a real terminal (tmux, 80x24): keys in with send-keys,
the screen read back with capture-pane, until the hand summary shows."""

from __future__ import annotations

import os
import shutil
import sys
import time

import pytest
from helpers.home import terminal_env
from helpers.tmux import play_cards_until, session_name, tmux

pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"), pytest.mark.slow]


def test_play_briscola_in_tmux_to_the_summary(tmp_path):
    name = session_name("briscola-test")
    command = (
        f"{sys.executable} -m briscola_tui.cli play --game briscola --players 2 --hands 1 "
        f"--seed 1 --deal-seed 1 --pace 0"
    )
    env = (
        f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none PYTHONPATH={os.getcwd()} "
        f"BRISCOLA_HOME={tmp_path}"
    )  # settings and the transcript kept in a fresh folder
    tmux(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        "80",
        "-y",
        "24",
        "-c",
        os.getcwd(),
        f"env {env} {command}; echo exit status $?; sleep 30",
    )
    try:
        screen = play_cards_until(name, "As dealt", time.monotonic() + 90)  # one card at each turn
        if "As dealt" not in screen:
            pytest.fail(f"no hand summary in time; the screen was:\n{screen}")
        assert "Hand 1" in screen and "series" in screen
        tmux("send-keys", "-t", name, "Enter")  # done: `play --hands 1` exits
        end = time.monotonic() + 20
        while "exit status 0" not in screen and time.monotonic() < end:
            time.sleep(0.3)
            screen = tmux("capture-pane", "-p", "-t", name, check=False)
        assert "exit status 0" in screen
        assert "briscola play: the game is over after 1 hand: you " in screen  # the scores, as the app closes
        assert len(list((tmp_path / "transcripts").glob("offline-briscola-*.bin"))) == 1
    finally:
        tmux("kill-session", "-t", name, check=False)


def test_quitting_play_in_tmux_says_how_to_take_the_game_up_again(tmp_path):
    name = session_name("briscola-test")
    command = f"{sys.executable} -m briscola_tui.cli play --game briscola --seed 1 --deal-seed 1 --pace 0"
    env = (
        f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none PYTHONPATH={os.getcwd()} "
        f"BRISCOLA_HOME={tmp_path}"
    )  # the test's HOME and XDG folders (helpers/home.py), settings and the transcript in a fresh folder
    tmux(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        "80",
        "-y",
        "24",
        "-c",
        os.getcwd(),
        f"env {env} {command}; echo exit status $?; sleep 30",
    )
    try:
        screen, end = "", time.monotonic() + 90
        while "Play a card" not in screen:
            assert time.monotonic() < end, f"no turn in time; the screen was:\n{screen}"
            time.sleep(0.3)
            screen = tmux("capture-pane", "-p", "-t", name, check=False)
        tmux("send-keys", "-t", name, "C-q")
        while "Leave the game in progress?" not in screen:
            assert time.monotonic() < end, f"no question; the screen was:\n{screen}"
            time.sleep(0.3)
            screen = tmux("capture-pane", "-p", "-t", name, check=False)
        tmux("send-keys", "-t", name, "y")
        while "exit status 0" not in screen:
            assert time.monotonic() < end, f"the app did not exit; the screen was:\n{screen}"
            time.sleep(0.3)
            screen = tmux("capture-pane", "-p", "-t", name, check=False)
        assert "briscola play: the game is kept; briscola play --resume" in screen.replace("\n", "")
    finally:
        tmux("kill-session", "-t", name, check=False)
