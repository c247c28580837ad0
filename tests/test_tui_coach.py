"""The coach at the table and in the summary (Pilot, 80x24, the deal and the computer's
choices seeded), and `briscola review` on a stored transcript (a real process):

- `h` at my turn shows hard's move and every card I may play with its estimate,
  "thinking" meanwhile, and the table goes on after it is closed;
- `h` when it is not my turn says so;
- at a network table whose host does not allow the coach, `h` says so (the controller's
  `coach_allowed`) and the summary offers no review;
- the summary's `r` reviews the hand just played, with its progress, and lists what it found
  (or says there was nothing);
- `briscola review` on a transcript `briscola selfplay` stored prints a line per hand and
  seat, progress on standard error; a seat out of range and a file that is not a transcript
  are one-line errors.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from helpers.app import app_for, picking, table_of, until

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)

os.environ["TEXTUAL_ANIMATIONS"] = "none"
SIZE = (80, 24)
DEADLINE = 120.0


def text_of(screen) -> str:
    from textual.widgets import Static

    return "\n".join(str(w.render()) for w in screen.query(Static))


async def test_h_shows_hards_move_and_every_choice_then_the_summary_reviews():
    from briscola_tui.tui.screens.dialogs import InfoScreen
    from briscola_tui.tui.screens.summary import SummaryScreen

    app = app_for("briscola", 2, ascii=None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: picking(app), "my first turn")
        table = table_of(app)
        legal = table.view.legal
        said = []
        say = table._say
        table._say = lambda text: (said.append(text), say(text))
        await pilot.press("h")
        assert said and said[0].startswith("The coach is thinking")  # at once, while the worker thinks

        def every_choice_shown(shown: str) -> bool:  # every card I may play, with its estimate
            lines = shown.split("\n")
            return all(any(str(a.card) in line or table.style_.card(a.card) in line for line in lines) for a in legal)

        await until(pilot, lambda: isinstance(app.screen, InfoScreen), "the coach's advice")
        await until(pilot, lambda: every_choice_shown(text_of(app.screen)), "every choice on the advice")
        shown = text_of(app.screen)
        assert "hard would play" in shown and "win" in shown
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "the table again")
        assert table.picker is not None and table.view.legal == legal  # nothing was played for me
        await pilot.press("1", "enter")  # the table goes on: my card is played
        end = time.monotonic() + DEADLINE
        while not isinstance(app.screen, SummaryScreen):
            assert time.monotonic() < end, "timed out waiting for the summary"
            if picking(app):
                await pilot.press("1", "enter")
            await pilot.pause(0.05)
        summary = app.screen
        assert "r: review" in str(summary.query_one("#summary-keys").render())
        assert len(summary.decisions) == 20 and all(view.seat == 0 for view, _ in summary.decisions)
        texts: list[str] = []  # every text the review showed, in order
        show = summary._show_review
        summary._show_review = lambda text: (texts.append(text), show(text))

        def reviewed() -> bool:
            return bool(texts) and texts[-1].startswith("Review")

        await pilot.press("r")
        await until(pilot, reviewed, "the review", timeout=240)
        assert any("reviewing decision" in t and "of 19" in t for t in texts)  # my 19 choices of more than one
        review = texts[-1]
        found = review.count("where hard would")
        assert found or "No decision where the coach's choice was clearly better (19 looked at)" in review
        if found:  # each finding was shown as soon as it was known, before the end
            assert any("reviewing decision" in t and "where hard would" in t for t in texts)
        await pilot.press("enter")
        await pilot.press("ctrl+q", "y")


async def test_h_when_it_is_not_my_turn_and_when_the_host_does_not_allow_it():
    app = app_for("chiamata", 5, ascii=None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: table_of(app) is not None and table_of(app).view is not None, "the table")
        table = table_of(app)
        table.decision.picker, saved = None, table.picker  # as while another seat thinks
        table.action_coach()
        assert "not your turn" in str(table.query_one("#notice").render())
        table.decision.picker = saved
        await until(pilot, lambda: picking(app), "my first turn")
        table.take(replace(table.shown, events=(), coach_allowed=False))  # as a network table without the rule `coach`
        await pilot.press("h")
        refused = "The host does not allow the coach at this table."
        await until(pilot, lambda: refused in str(table.query_one("#notice").render()), "the refusal")
        assert app.screen is table and table.advising is None
        await pilot.press("ctrl+q", "y")


def test_briscola_review_on_a_stored_transcript(tmp_path):
    env = {**os.environ, "BRISCOLA_HOME": str(tmp_path)}
    path = tmp_path / "t.bin"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "briscola_tui",
            "selfplay",
            "--transcript",
            str(path),
            "--hands",
            "1",
            "--seed",
            "2",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert made.returncode == 0, made.stderr
    run = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "review", str(path), "--seat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "hand 1, seat 1:"
    assert len(lines) >= 2 and all(
        line.startswith("  trick ") or line.startswith("  No decision") for line in lines[1:]
    )
    assert "hand 1, seat 1: decision 1 of " in run.stderr and "decision 19 of 19" in run.stderr
    wrong = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "review", str(path), "--seat", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert wrong.returncode == 2 and wrong.stderr.strip() == "briscola review: no seat 2 at this table (seats 0 to 1)"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a transcript at all")
    bad = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "review", str(junk)], capture_output=True, text=True, timeout=60, env=env
    )
    assert bad.returncode == 1 and "is not a briscola transcript" in bad.stderr and bad.stdout == ""
