"""An offline game survives the app going away: it is kept on disk as it goes
and resumed — from the home screen or `briscola play --resume` — with every
node rebuilt, mid-hand, the person holding the very cards it held."""

from __future__ import annotations

import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.app import SIZE, play_hand, table_of, wait_for
from helpers.home import terminal_env
from helpers.tmux import play_cards_until, session_name, tmux

from briscola_tui.cli import main
from briscola_tui.files.saved import NotResumable, Slot, saved_games
from briscola_tui.tables.offline import OfflineTable, Result
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.dialogs import ConfirmDelete
from briscola_tui.tui.screens.home import HomeScreen
from briscola_tui.tui.screens.summary import SummaryScreen
from engine import bots


def play_on(table: OfflineTable, rng: random.Random, stop_at_turn: int | None = None) -> Result:
    """The person's moves chosen by a random player: to the end, or until its `stop_at_turn`th turn."""
    person, turns = bots.get("random"), 0
    result = table.advance()
    while result is not Result.OVER:
        if result is Result.TURN:
            turns += 1
            if turns == stop_at_turn:
                return result
            result = table.advance(person(table.me.seat_view(), rng))
        else:
            result = table.advance()
    return result


def outcomes(table: OfflineTable) -> list:
    return [(v.ok, v.outcome.result if v.outcome else None) for v in table.table.host.session.verdicts]


@pytest.mark.slow
@pytest.mark.parametrize("game, players, stop_at_turn", [("briscola", 2, 5), ("chiamata", 5, 11)])
def test_a_resumed_table_ends_as_one_never_interrupted(tmp_path, game, players, stop_at_turn):
    """Two hands with fixed seeds: stopped mid-way (the second hand, for chiamata), rebuilt
    from disk alone, it reaches the very state of a table that was never stopped."""
    whole = OfflineTable(game, players, "random", 2, seed=3, deal_seed=4)
    assert play_on(whole, random.Random(1)) is Result.OVER

    person = random.Random(1)
    first = OfflineTable(game, players, "random", 2, seed=3, deal_seed=4, slot=Slot.new(game))
    assert play_on(first, person, stop_at_turn) is Result.TURN
    held = first.me.seat_view().hand
    [saved] = saved_games()
    assert (saved.game, saved.players, saved.names[0]) == (game, players, "you")
    folder = saved.slot.folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in [*folder.iterdir(), saved.slot.transcript])
    del first  # gone without a word, as a process the terminal took with it

    resumed = OfflineTable.resume(saved.slot)
    assert resumed.advance() is Result.TURN and resumed.me.seat_view().hand == held
    assert play_on_from_turn(resumed, person) is Result.OVER
    assert outcomes(resumed) == outcomes(whole)
    assert resumed.me.seat_view().scores == whole.me.seat_view().scores
    assert saved_games() == [] and not folder.exists()  # a finished series is not offered
    assert saved.slot.transcript.exists()  # its transcript stays, for the replay viewer


def play_on_from_turn(table: OfflineTable, rng: random.Random) -> Result:
    """Go on from the person's turn (the table has just said TURN)."""
    person = bots.get("random")
    result = table.advance(person(table.me.seat_view(), rng))
    while result is not Result.OVER:
        result = table.advance(person(table.me.seat_view(), rng) if result is Result.TURN else None)
    return result


@pytest.mark.slow
def test_resuming_a_finished_or_broken_game_says_why(tmp_path):
    done = OfflineTable("briscola", 2, "random", 1, seed=1, deal_seed=1, slot=Slot.new("briscola"))
    assert play_on(done, random.Random(0)) is Result.OVER
    assert not done.keeper.slot.folder.exists()
    with pytest.raises(NotResumable):
        OfflineTable.resume(done.keeper.slot)

    broken = OfflineTable("briscola", 2, "random", 1, seed=1, deal_seed=1, slot=Slot.new("briscola"))
    assert play_on(broken, random.Random(0), 2) is Result.TURN
    os.unlink(broken.keeper.slot.key("seat1"))
    with pytest.raises(NotResumable, match="key of seat1"):
        OfflineTable.resume(broken.keeper.slot)


def test_play_resume_with_nothing_to_resume(capsys):
    assert main(["play", "--resume"]) == 2
    assert "no unfinished game" in capsys.readouterr().err


@pytest.mark.slow
async def test_the_app_goes_away_mid_hand_and_resumes_from_home_with_the_same_cards():
    app = BriscolaApp({"game": "briscola", "players": 2, "hands": 1}, seed=1, deal_seed=1, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        table = table_of(app)
        dealt = table.view.hand
        for _ in range(2):  # two cards played, then the app goes
            await wait_for(pilot, lambda: table.mode == "card", "my turn")
            await pilot.press("1", "enter")
            await pilot.pause(0.05)
        await wait_for(pilot, lambda: table.mode == "card", "my third turn")
        held = table.view.hand
        app.exit()  # what the terminal going away does (SIGHUP: `BriscolaApp.terminal_gone`)
    assert len(held) == 3 and held != dealt

    app = BriscolaApp(seed=1, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        menu = [item.text for item in app.screen.query_one("#home-menu").items]
        assert menu[:2] == ["Play against the computer", "Resume an unfinished game"]
        await pilot.press("2", "enter")
        items = [item.text for item in app.screen.query_one("#home-menu").items]
        assert len(items) == 1 and "Briscola, 2p" in items[0] and "you 0 Bea 0" in items[0]
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        assert table_of(app).view.hand == held
        log = " ".join(" ".join(line.text.split()) for line in table_of(app).query_one("#log").lines)
        assert "Resumed in hand 1" in log
        await play_hand(app, pilot)
        summary = app.screen
        assert isinstance(summary, SummaryScreen)
        assert set(summary.view.last_hand.deal.hands[0]) == set(dealt)  # the same deal went on
        await pilot.press("enter")  # the hand asked for is over: back home, nothing left to resume
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        resume = app.screen.query_one("#home-menu").items[1]  # still there, so no other item moves: dim
        assert resume.text == "Resume an unfinished game (none)" and resume.dim
    assert saved_games() == []


async def leave_a_game_unfinished() -> None:
    """A game of Briscola for two, one card played, then the app goes away."""
    app = BriscolaApp({"game": "briscola", "players": 2, "hands": 1}, seed=1, deal_seed=1, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: table_of(app).mode == "card", "my second turn")
        app.exit()


@pytest.mark.slow
async def test_play_resume_says_what_it_does_while_the_game_is_rebuilt():
    await leave_a_game_unfinished()
    [saved] = saved_games()

    app = BriscolaApp(pace=0, resume=saved.slot)  # what `briscola play --resume` opens
    async with app.run_test(size=SIZE) as pilot:
        note = app.screen_stack[0].query_one("#resuming")
        assert f"Resuming {saved.slot.name}: replaying and checking its transcript" in str(note.render())
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        app.exit()


@pytest.mark.slow
async def test_an_unfinished_game_can_be_deleted_from_the_resume_menu():
    await leave_a_game_unfinished()
    [saved] = saved_games()
    app = BriscolaApp(seed=1, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        home = app.screen
        await pilot.press("2", "enter")  # Resume an unfinished game
        assert "d deletes one" in home.query_one("#home-menu").title
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete), "the confirmation")
        await pilot.press("n")  # kept
        await wait_for(pilot, lambda: app.screen is home, "back to the menu")
        assert saved_games() == [saved]
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete), "the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is home and not saved_games(), "the game deleted")
        assert "Resume an unfinished game" not in [item.text for item in home.query_one("#home-menu").items]
        assert f"Deleted {saved.slot.name}" in str(home.query_one("#home-note").render())
    assert saved.slot.transcript.exists() and not saved.slot.folder.exists()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None or not os.path.exists("/proc"), reason="needs tmux and /proc")
def test_sighup_in_a_real_terminal_exits_cleanly_and_the_game_resumes(tmp_path):
    """`briscola play` under tmux, one card played, then SIGHUP (what the terminal going
    away sends): exit status 0; then `briscola play --resume` plays the same game to the summary."""
    name = session_name("briscola-hup")
    rc = tmp_path / "rc"
    command = (
        f"{sys.executable} -m briscola_tui.cli play --game briscola --players 2 --hands 1 "
        f"--seed 1 --deal-seed 1 --pace 0; echo $? > {rc}"
    )
    env = (
        f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none PYTHONPATH={os.getcwd()} "
        f"BRISCOLA_HOME={os.environ['BRISCOLA_HOME']}"
    )  # the test's HOME and XDG folders (helpers/home.py); settings and the saved game in a fresh folder
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", os.getcwd(), f"env {env} sh -c '{command}'")
    try:
        shell = int(tmux("list-panes", "-t", name, "-F", "#{pane_pid}").split()[0])
        screen = wait_screen(name, "Play a card")
        tmux("send-keys", "-t", name, "1", "Enter")
        screen = wait_screen(name, "Play a card", after=screen)
        app = child_of(shell)
        os.kill(app, signal.SIGHUP)
        end = time.monotonic() + 20
        while not rc.exists() and time.monotonic() < end:
            time.sleep(0.1)
        assert rc.exists() and rc.read_text().strip() == "0", "the app did not exit cleanly on SIGHUP"
    finally:
        tmux("kill-session", "-t", name, check=False)
    [saved] = saved_games()
    assert saved.slot.transcript.exists()

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
        f"env {env} sh -c '{sys.executable} -m briscola_tui.cli play --resume --pace 0; echo exit status $?; sleep 30'",
    )
    try:  # `play --resume`: the same game, played on to the summary
        screen = wait_screen(name, "Play a card")
        assert "Briscola" in screen and "hand 1 of 1" in screen
        screen = play_cards_until(name, "As dealt", time.monotonic() + 90)
        assert "As dealt" in screen, screen
        tmux("send-keys", "-t", name, "Enter")
        assert "exit status 0" in wait_screen(name, "exit status")
    finally:
        tmux("kill-session", "-t", name, check=False)
    assert saved_games() == []


def wait_screen(name: str, text: str, after: str = "", timeout: float = 60) -> str:
    """The pane once it shows `text` (and differs from `after`)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = tmux("capture-pane", "-p", "-t", name, check=False)
        if text in screen and screen != after:
            return screen
        time.sleep(0.2)
    pytest.fail(f"no {text!r} in time; the screen was:\n{screen}")


def child_of(pid: int) -> int:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def test_a_disk_that_fails_mid_game_is_said_and_the_game_plays_on(monkeypatch):
    table = OfflineTable("briscola", 2, "random", 1, seed=1, deal_seed=1, slot=Slot.new("briscola"))
    assert table.advance() is Result.TURN and saved_games() != []

    def full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("briscola_tui.files.atomic.replace_file", full)  # every file the game keeps
    assert play_on_from_turn(table, random.Random(0)) is Result.OVER  # the hand is played to the end all the same
    assert table.save_problem == "the game could not be kept on disk: No space left on device"
    assert saved_games() == []  # not offered: it could not be resumed


@pytest.mark.slow
def test_after_a_hangup_a_shutdown_that_hangs_still_ends_the_process(tmp_path):
    """Should Textual's shutdown hang once the terminal is gone (its output thread may have died
    on a write to the dead terminal), the process ends all the same, HANGUP_GRACE seconds on."""
    script = (
        "import time\n"
        "from briscola_tui.tui import app\n"
        "app.HANGUP_GRACE = 0.5\n"
        "table = app.BriscolaApp.__new__(app.BriscolaApp)\n"
        "table.exit = lambda *args, **kwargs: None  # an exit that never completes\n"
        "table.terminal_gone()\n"
        "time.sleep(60)  # a shutdown stuck for ever\n"
        "raise SystemExit(5)\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=os.getcwd(),
        capture_output=True,
        timeout=30,
        env={**os.environ, "BRISCOLA_HOME": str(tmp_path)},
    )
    assert done.returncode == 0 and time.monotonic() - started < 20
