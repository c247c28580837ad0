"""What the snapshot tests share (tests/test_tui_snapshots.py, test_screen_snapshots.py,
test_terminal_snapshots.py): the app with a steady cursor, waits that end with the screen
settled, and the table screen."""

from __future__ import annotations

from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.table import TableScreen
from helpers.app import SIZE, my_turn, table_of, wait_for
from helpers.app import app_for as plain_app_for

__all__ = ["SIZE", "app_for", "my_turn", "settle", "table", "until"]


def app_for(game: str, players: int | None = None, **kwargs) -> BriscolaApp:
    """`helpers.app.app_for` with an input's cursor drawn without its blink."""
    return plain_app_for(game, players, steady_cursor=True, **kwargs)


async def until(pilot, condition, timeout: float = 30.0) -> None:
    """Wait for `condition()`, then until the screen has settled (`settle`)."""
    await wait_for(pilot, condition, "the snapshot's moment", timeout)
    await settle(pilot)


async def settle(pilot, timeout: float = 10.0):
    """Let what was just written reach the screen, however loaded the machine: a few
    refresh rounds, and until every log has scrolled to its last line (a log scrolls
    after a refresh: under load a snapshot once caught it two lines short)."""
    import time

    from textual.widgets import RichLog

    end = time.monotonic() + timeout
    while True:
        for _ in range(3):
            await pilot.wait_for_scheduled_animations()
            await pilot.pause(0.05)
        logs = list(pilot.app.screen.query(RichLog))
        if all(not log._deferred_renders and (not log.auto_scroll or log.scroll_y >= log.max_scroll_y) for log in logs):
            return
        if time.monotonic() >= end:
            # Under heavy load a log has been seen short of its end for the whole wait: scroll it
            # there as it would itself (what the snapshot checks is the screen's content).
            for log in logs:
                if log.auto_scroll:
                    log.scroll_end(animate=False, immediate=True)
            await pilot.pause(0.1)
            return


def table(app) -> TableScreen:
    found = table_of(app)
    assert found is not None, "no table screen"
    return found
