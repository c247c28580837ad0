"""Snapshots of the table in terminals of other sizes than 80x24 (issue 23, item 11): the room of
100x30 used (a wider log), and 70x20 too small, said so (pytest-textual-snapshot; update with
--snapshot-update)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pytest_textual_snapshot")

from helpers.snapshots import app_for, my_turn, until  # noqa: E402

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)

os.environ["TEXTUAL_ANIMATIONS"] = "none"


def test_briscola_table_at_100x30(snap_compare):
    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))

    assert snap_compare(app_for("briscola", 4), terminal_size=(100, 30), run_before=run_before)


def test_a_terminal_too_small_is_told_so(snap_compare):
    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))

    assert snap_compare(app_for("briscola", 2), terminal_size=(70, 20), run_before=run_before)
