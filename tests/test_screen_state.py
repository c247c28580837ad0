"""The table shows the game as it is: after every update the table screen receives,
the hand it draws is the view's hand, each seat's line shows the view's count of cards,
and the cards on the table are the view's trick.

Whole hands of every game and table size against the computer (random choices of mine,
each a seed), and at a network table against real `briscola` processes, with the app
leaving mid-hand and the same command taking the seat back; a spectator draws no hand.
The check runs inside the screen's one painting method, so no update goes unchecked."""

from __future__ import annotations

import random
import re
import time

import pytest
from helpers.app import SIZE, table_of, wait_for
from helpers.network import CODE, WAIT, Table

from briscola_tui.net.joining import join_options, player_identity, watch_options
from briscola_tui.options import JoinOptions, WatchOptions
from briscola_tui.tables.network import NetTable
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.netapp import NetworkApp
from briscola_tui.tui.screens.summary import SummaryScreen
from briscola_tui.tui.screens.table import TableScreen
from briscola_tui.tui.widgets.hand import Hand
from briscola_tui.tui.widgets.seats import SeatsPanel

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)

HAND_WAIT = 240.0
SEAT_LINE = re.compile(r"^ .{6} +(\d+) cards? ")


def seat_order(view) -> list[int]:
    """The seats in the order the panel lists them: after mine, mine last."""
    if view.seat is None:
        return list(range(view.players))
    return [*range(view.seat + 1, view.players), *range(0, view.seat + 1)]


def check_shown(screen: TableScreen) -> None:
    """What the widgets draw now against the view the screen was given."""
    view = screen.view
    if view is None:
        return
    hand = screen.query_one("#hand", Hand)
    picker = screen.picker
    if view.seat is None:
        assert not hand.display, "a spectator is shown a hand"
    elif picker is not None and picker.SHOWS_HAND:
        assert sorted(picker.hand) == sorted(view.hand), (picker.hand, view.hand)
    else:
        # My decision sent and not yet in a view: its cards are on their way out of the hand.
        sent = screen.sending.action
        going = () if sent is None or sent.kind not in ("play", "return", "discard") else (sent.card, *sent.cards)
        held = [card for card in view.hand if card not in going]
        assert hand.display and sorted(hand.cards) == sorted(held), (hand.cards, view.hand, sent)
    lines = screen.query_one(SeatsPanel)._lines().plain.split("\n")
    style = screen.style_
    on_table = {(view.trick_leader + i) % view.players: card for i, card in enumerate(view.trick)}
    for seat, line in zip(seat_order(view), lines):
        shown = SEAT_LINE.match(line)
        assert shown is not None, line
        held = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0  # (between hands: none)
        assert int(shown.group(1)) == held, (seat, line, view.hand_sizes)
        if seat in on_table:
            assert f"[{style.card(on_table[seat]):^4}]" in line, (seat, line, view.trick)


class Checked:
    """Counts the paints checked (the check raises inside the app: the test sees it fail)."""

    def __init__(self, monkeypatch) -> None:
        self.paints = 0
        self.hands: set[tuple] = set()
        paint = TableScreen.paint

        def checked(screen: TableScreen) -> None:
            paint(screen)
            if screen.view is not None:
                check_shown(screen)
                self.paints += 1
                self.hands.add(screen.view.hand)

        monkeypatch.setattr(TableScreen, "paint", checked)


async def choose_until_summary(app, pilot, rng: random.Random, deadline: float) -> None:
    """Random legal choices of mine, straight to the screen, until the hand's summary shows."""
    while not isinstance(app.screen, SummaryScreen):
        assert time.monotonic() < deadline, "timed out playing the hand"
        screen = table_of(app)
        if screen is not None and app.screen is screen and screen.picker is not None and screen.view.legal:
            screen.act(rng.choice(screen.view.legal))
        await pilot.pause(0.01)
    await wait_for(pilot, lambda: app.screen.query("#summary-review"), "the summary, mounted")


@pytest.mark.parametrize(
    "game, players",
    [("briscola", 2), ("briscola", 3), ("briscola", 4), ("briscola", 6), ("chiamata", 5), ("calabresella", 3)],
)
@pytest.mark.parametrize("seed", [1, 2])
async def test_the_shown_hand_counts_and_trick_are_the_views_at_every_update_offline(monkeypatch, game, players, seed):
    checked = Checked(monkeypatch)
    play = {"game": game, "players": players, "hands": 1}
    app = BriscolaApp(play, seed=seed, deal_seed=seed, pace=0, level="random")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None, "the table")
        await choose_until_summary(app, pilot, random.Random(seed), time.monotonic() + 120)
    assert checked.paints > 10
    assert len(checked.hands) > 5  # the hand changed under the checks: every card played and drawn


def joining(address: str) -> NetTable:
    args = JoinOptions(address=address, code=CODE, name="Ada", seat=-1, bot=None, retry=20.0)
    return NetTable(join_options(args), player_identity())


async def test_the_shown_hand_is_the_views_at_a_network_table_from_the_deal_and_after_coming_back(
    children, monkeypatch
):
    checked = Checked(monkeypatch)
    table = Table(children, "briscola", players=3, bots=1)
    table.join("Bo")
    rng = random.Random(3)
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: table_of(app) is not None, "the table", WAIT)
            screen = table_of(app)
            dealt = lambda: screen.view is not None and screen.view.hand  # noqa: E731
            await wait_for(pilot, dealt, "the deal", HAND_WAIT)
            # From the deal on, before any turn of mine: the hand shows.
            assert sorted(screen.query_one("#hand", Hand).cards) == sorted(screen.view.hand)
            end = time.monotonic() + HAND_WAIT
            while len(screen.view.tricks) < 3:  # three tricks, then ctrl+q mid-hand (the seat is kept)
                assert time.monotonic() < end, "timed out playing three tricks"
                if app.screen is screen and screen.picker is not None and screen.view.legal:
                    screen.act(rng.choice(screen.view.legal))
                await pilot.pause(0.01)
            await pilot.press("ctrl+q", "y")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    before = checked.paints
    net = joining(table.address)  # the same command again: the same key takes the seat back
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: table_of(app) is not None, "the table again", WAIT)
            screen = table_of(app)
            back = lambda: screen.view is not None and screen.view.hand and screen.view.tricks  # noqa: E731
            await wait_for(pilot, back, "the hand so far", HAND_WAIT)
            assert sorted(screen.query_one("#hand", Hand).cards) == sorted(screen.view.hand)
            await choose_until_summary(app, pilot, rng, time.monotonic() + HAND_WAIT)
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    table.finish()
    assert before > 10 and checked.paints > before + 10


async def test_a_spectator_is_never_shown_a_hand_and_sees_the_counts_and_trick(children, monkeypatch):
    checked = Checked(monkeypatch)
    table = Table(children, "briscola", players=2, bots=1)
    table.join("Bo")
    net = NetTable(watch_options(WatchOptions(address=table.address, code=CODE, retry=20.0)))
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary", HAND_WAIT)
            await wait_for(pilot, lambda: app.screen.query("#summary-review"), "the summary, mounted")
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    table.finish()
    assert checked.paints > 10
