"""bench/tui.py times a table by wrapping a few of the app's methods from outside (its
WAITS script). A rename in the app would break the bench only when someone next runs
it, as `TableScreen._act` did; this names each method it wraps, so the rename fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_method_the_waits_bench_wraps_or_calls_exists():
    from bench import tui as bench
    from briscola_tui.tables import offline
    from briscola_tui.tui.app import BriscolaApp
    from briscola_tui.tui.screens.table import TableScreen
    from protocol.local import LocalTable

    owners = {"LocalTable": LocalTable, "TableScreen": TableScreen, "offline.OfflineTable": offline.OfflineTable}
    wrapped = re.findall(r"^([A-Za-z.]+)\.(\w+) = timed_", bench.WAITS, re.M)
    assert len(wrapped) >= 5
    for owner, name in wrapped:
        assert hasattr(owners[owner], name), f"bench/tui.py wraps {owner}.{name}, which is gone"
    for name in re.findall(r"self\.call_later\(self\.(\w+)", bench.WAITS):
        assert hasattr(TableScreen, name), f"bench/tui.py calls TableScreen.{name}, which is gone"
    assert hasattr(BriscolaApp, "_display")
