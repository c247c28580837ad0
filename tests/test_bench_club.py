"""bench/club.py runs end to end at tiny sizes (a club of its own, tables over TCP and through
it, two spectators, two transcripts synced): a change in the club's commands or links that
breaks the bench fails here, not when someone next measures. No figure is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_club_bench_measures_every_figure_at_tiny_sizes():
    argv = [sys.executable, "-m", "bench.club", "--runs", "1", "--hands", "1", "--spectators", "2"]
    done = subprocess.run(
        [*argv, "--transcripts", "2", "--timeout", "120", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    for key in ("move_ratio", "chiamata_ratio", "spectator_ratio", "host_peak_mib_watched"):
        assert found[key] > 0, (key, found)
    assert found["spectators"] == 2 and min(found["entries_each_spectator_saw"]) > 0  # every spectator saw the hand
    assert set(found["sync"]) >= {"put_s", "take_s"}  # (the bench checks both said 2)
