"""Snapshots at 80x24 (and at 120x40 and 200x60, issue 35 item 1: the seats around the trick,
larger cards) of the table of every game right after my card goes down, and of
Briscola right after a draw, while a computer player is about to move: the hand shows
the cards I hold then (not the card just played, and the card just drawn). Every deal and
computer choice is fixed; the table is held still at that moment by a controller that
waits there (update with --snapshot-update)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import pytest

pytest.importorskip("pytest_textual_snapshot")

from helpers.snapshots import SIZE, app_for, settle, table  # noqa: E402

from briscola_tui.tables.offline import OfflineTable  # noqa: E402

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)

os.environ["TEXTUAL_ANIMATIONS"] = "none"
HOLD = 60.0
"""The longest the table is held still (the snapshot is taken well before)."""


@pytest.fixture(autouse=True)
def no_thinking_mark(monkeypatch):
    # The seat held still would show "thinking" once the screen's timer passed THINKING_DELAY, on a
    # loaded machine or not: never, so that the picture is the same every time.
    monkeypatch.setattr("briscola_tui.tui.frame.THINKING_DELAY", HOLD * 10)


class Holding:
    """Holds the offline table still the first time `moment(view)` is true as a computer
    player is about to move (the screen has just been given that view)."""

    def __init__(self, moment: Callable[[object], bool]) -> None:
        self.moment, self.held, self.release = moment, threading.Event(), threading.Event()

    def install(self, monkeypatch) -> None:
        advance, close = OfflineTable.advance, OfflineTable.close
        holding = self

        def held_advance(table: OfflineTable, action=None, moved=None):
            def then(seat):
                moved(seat)
                if seat is not None and not holding.held.is_set() and holding.moment(table.me.seat_view()):
                    holding.held.set()
                    holding.release.wait(HOLD)

            return advance(table, action, then if moved is not None else None)

        def released(table: OfflineTable) -> None:
            holding.release.set()
            close(table)

        monkeypatch.setattr(OfflineTable, "advance", held_advance)
        monkeypatch.setattr(OfflineTable, "close", released)


def my_card_down(view) -> bool:
    """My card is on the table, the trick going on with another seat."""
    last = view.history[-1] if view.history else None
    return last is not None and last.seat == view.seat and last.kind == "play" and last.card in view.trick


class AfterDraw:
    """A draw has just given me a card: a new trick, my hand full again, the stock smaller."""

    def __init__(self) -> None:
        self.stock: int | None = None

    def __call__(self, view) -> bool:
        if self.stock is None:
            self.stock = view.stock
        return view.stock is not None and view.stock < (self.stock or 0) and not view.trick and len(view.hand) == 3


async def play_until_held(pilot, holding: Holding) -> None:
    """Choose the first legal action at each of my turns until the table is held."""
    app = pilot.app
    while not holding.held.is_set():
        screen = table(app)
        if screen.picker is not None and screen.view.legal and app.screen is screen:
            screen.act(screen.view.legal[0])
        await pilot.pause(0.02)
    await settle(pilot)


CASES = [("briscola", 2, 5), ("briscola", 3, 5), ("briscola", 4, 5), ("briscola", 6, 5), ("chiamata", 5, 2)]


@pytest.mark.parametrize("game, players, deal_seed", [*CASES, ("calabresella", 3, 1)])
def test_after_my_card(snap_compare, monkeypatch, game, players, deal_seed):
    holding = Holding(my_card_down)
    holding.install(monkeypatch)

    async def run_before(pilot):
        await play_until_held(pilot, holding)
        screen = table(pilot.app)
        assert sorted(screen.query_one("#hand").cards) == sorted(screen.view.hand)
        assert screen.view.history[-1].card not in screen.query_one("#hand").cards

    app = app_for(game, players, deal_seed=deal_seed)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


SIZES = [(80, 24), (120, 40), (200, 60)]
"""80x24, and terminals with room: the seats around the trick, the cards larger (`screens.table_layout`)."""


def my_turn_on_a_trick(screen) -> bool:
    """My turn to play, a card or more on the table already."""
    view = screen.view
    return screen.picker is not None and view is not None and bool(view.trick) and view.phase == "play"


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game, players, deal_seed", [*CASES, ("calabresella", 3, 1)])
def test_my_turn_at_every_size(snap_compare, game, players, deal_seed, size):
    """My turn with the others' cards on the table, in every game, at 80x24 and with room: the
    cards on the table and my hand as the view has them (the first legal choice until then)."""

    async def run_before(pilot):
        app = pilot.app
        end = time.monotonic() + HOLD
        while not (app.screen is table(app) and my_turn_on_a_trick(table(app))):
            assert time.monotonic() < end, "timed out"
            screen = table(app)
            if screen.picker is not None and screen.view.legal and app.screen is screen:
                screen.act(screen.view.legal[0])
            await pilot.pause(0.02)
        await settle(pilot)
        screen = table(app)
        assert screen.picker.query_one("Hand").cards == screen.hand
        shown = str(screen.query_one("#seats").render())
        assert all(screen.style_.card(card) in shown for card in screen.view.trick)
        assert (screen.query_one("#seats").ring is not None) == (size != (80, 24))

    assert snap_compare(app_for(game, players, deal_seed=deal_seed), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_after_a_draw(snap_compare, monkeypatch, players):
    holding = Holding(AfterDraw())
    holding.install(monkeypatch)

    async def run_before(pilot):
        await play_until_held(pilot, holding)
        screen = table(pilot.app)
        assert len(screen.query_one("#hand").cards) == 3
        assert sorted(screen.query_one("#hand").cards) == sorted(screen.view.hand)

    assert snap_compare(app_for("briscola", players, deal_seed=5), terminal_size=SIZE, run_before=run_before)
