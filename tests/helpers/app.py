"""Driving the Textual client under Pilot at 80x24: waits with a deadline, the
table screen, a whole hand played by key presses (tests/test_tui.py,
test_offline_resume.py, test_tui_network.py)."""

from __future__ import annotations

import time

import pytest

from briscola_tui.tables.controller import Lobby
from briscola_tui.tui.screens.summary import SummaryScreen
from briscola_tui.tui.screens.table import TableScreen
from briscola_tui.tui.widgets import picker

SIZE = (80, 24)
DEADLINE = 60.0


async def wait_for(pilot, condition, what: str, timeout: float = DEADLINE) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def table_of(app) -> TableScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)


async def play_hand(app, pilot, seen: dict | None = None, pick: dict | None = None) -> None:
    """Press keys until the hand summary shows: the first legal choice each time
    (`pick`: the digit to press instead in a phase)."""
    seen = {} if seen is None else seen
    await wait_for(pilot, lambda: table_of(app) is not None, "the table")
    end = time.monotonic() + DEADLINE
    while not isinstance(app.screen, SummaryScreen):
        assert time.monotonic() < end, "timed out playing the hand"
        table = table_of(app)
        await wait_for(
            pilot, lambda table=table: isinstance(app.screen, SummaryScreen) or table.mode != "wait", "my turn"
        )
        if isinstance(app.screen, SummaryScreen):
            break
        seen[table.mode] = seen.get(table.mode, 0) + 1
        view = table.view
        if table.mode == "card":
            playable = [a.card for a in view.legal if a.kind in ("play", "return")]
            await pilot.press(*str(table.hand.index(playable[0]) + 1), "enter")  # card 12: "1" "2"
        elif table.mode == "discard":
            count = len(view.legal[0].cards)
            await pilot.press(*[str(i) for i in range(2, count + 2)], "enter")  # ("1" "2" would be card 12)
        elif table.mode == "grid":  # a call out of the whole deck: move, then call
            await pilot.press("down", "right", "enter")
        elif table.mode == "choose":
            await pilot.press(*(pick or {}).get(view.phase, "1"), "enter")
            if table.mode == "target":
                await pilot.press(*str(min(table.picker.group.targets)), "enter")
        await pilot.pause(0.01)


async def turn_of(app, pilot, mode: str, phase: str | None = None) -> TableScreen:
    """The table once it asks me for a `mode` of decision (in the game's `phase`, if given)."""

    def asked() -> bool:
        table = table_of(app)
        return table is not None and table.mode == mode and (phase is None or table.view.phase == phase)

    await wait_for(pilot, asked, f"my turn ({mode}, {phase})")
    table = table_of(app)
    assert table is not None
    return table


def prompt_of(table: TableScreen) -> str:
    """The prompt line: what to do, or what was refused and why."""
    return str(table.query_one("#prompt").render())


class FixedLobby:
    """A lobby controller (`tables.controller.LobbyController`) that only has one lobby to
    show, which never changes (for snapshots and text checks)."""

    def __init__(self, lobby: Lobby):
        self._lobby = lobby

    def lobby(self) -> Lobby:
        return self._lobby

    def watch(self, changed) -> None:
        pass

    def unwatch(self, changed) -> None:
        pass

    def stop(self) -> None:
        pass


@pytest.fixture(autouse=True)
def patient_digits(monkeypatch):
    """A first digit waits 3 s for a second in the tests that use it, not 1: on a loaded machine two
    keys pressed one after the other can be more than a second apart."""
    monkeypatch.setattr(picker, "NUMBER_WAIT", 3.0)
