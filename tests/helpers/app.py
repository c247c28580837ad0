"""Driving the Textual client under Pilot at 80x24: an app opened straight into a table,
waits with a deadline, the table screen and whose turn it is, a whole hand played by key
presses; and the last line of a command's output. Every test of the app takes these from
here (none defines its own)."""

from __future__ import annotations

import time

import pytest

from briscola_tui.files.settings import Settings
from briscola_tui.tables.controller import Lobby
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.summary import SummaryScreen
from briscola_tui.tui.screens.table import TableScreen
from briscola_tui.tui.widgets import picker

SIZE = (80, 24)
DEADLINE = 60.0


def app_for(
    game: str,
    players: int | None = None,
    *,
    seed: int = 3,
    deal_seed: int = 5,
    level: str = "easy",
    settings: Settings | None = None,
    ascii: bool | None = False,
    steady_cursor: bool = False,
) -> BriscolaApp:
    """The app opened straight into one hand of `game` against computer players, its deals
    and their moves fixed by the seeds, no pause between moves. `steady_cursor`: an input's
    cursor drawn without its blink, for snapshots."""
    app = BriscolaApp(
        {"game": game, "players": players, "hands": 1},
        ascii=ascii,
        seed=seed,
        deal_seed=deal_seed,
        pace=0,
        level=level,
        settings=settings,
    )
    if steady_cursor:
        app.CSS = "Input { &>.input--cursor { text-style: none; } }"
    return app


def my_turn(app, mode: str | None = None) -> bool:
    """The table asks the person for something (`mode`: that thing, e.g. "card")."""
    table = table_of(app)
    return table is not None and table.mode != "wait" and (mode is None or table.mode == mode)


def picking(app) -> bool:
    """The table is the screen on top and the person picks from its view now."""
    table = table_of(app)
    return table is not None and app.screen is table and table.view is not None and table.picker is not None


async def until(pilot, condition, what: str = "the condition", timeout: float = 2 * DEADLINE) -> None:
    """Wait for `condition()` (AssertionError naming `what` past `timeout`), then a few
    refresh rounds so that what it waited for is on the screen."""
    await wait_for(pilot, condition, what, timeout)
    for _ in range(3):
        await pilot.pause(0.05)


def last_line(text: str) -> str:
    """The last line of a command's output."""
    return text.rstrip("\n").rsplit("\n", 1)[-1]


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
