"""Snapshots of the Textual client at 80x24 (pytest-textual-snapshot), every
deal and every computer choice fixed: update with --snapshot-update."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pytest_textual_snapshot")

from helpers.snapshots import SIZE, app_for, my_turn, settle, table, until  # noqa: E402

from briscola_tui.tui.app import BriscolaApp  # noqa: E402

os.environ["TEXTUAL_ANIMATIONS"] = "none"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_briscola_table(snap_compare, players):
    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))

    assert snap_compare(app_for("briscola", players), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_chiamata_table(snap_compare):
    async def run_before(pilot):
        app = pilot.app
        while not (my_turn(app) and table(app).mode == "card"):
            await until(pilot, lambda: my_turn(app))
            if table(app).mode != "card":
                await pilot.press("1", "enter")  # pass
                await pilot.pause(0.1)

    assert snap_compare(app_for("chiamata", deal_seed=2), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize(
    "bid, mode, keys", [("1", "card", ()), ("2", "grid", ("down", "right"))], ids=["table", "call_grid"]
)
@pytest.mark.slow
def test_calabresella(snap_compare, bid, mode, keys):
    """Pass (the others' contract, then my first card) or bid chiamo (the call grid)."""

    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))
        await pilot.press(bid, "enter")
        await until(pilot, lambda: my_turn(pilot.app) and table(pilot.app).mode == mode)
        await pilot.press(*keys)
        await settle(pilot)

    assert snap_compare(app_for("calabresella", deal_seed=1), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
@pytest.mark.parametrize("game, deal_seed", [("chiamata", 2), ("calabresella", 5)])
def test_auction(snap_compare, game, deal_seed):
    """My first bid: the others' bids so far in the seats, "no bid yet" or the bid to beat in the header."""

    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app) and table(pilot.app).view.phase == "auction")

    assert snap_compare(app_for(game, deal_seed=deal_seed), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_calabresella_discard(snap_compare):
    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))
        await pilot.press("3", "enter")  # bid solo
        await until(pilot, lambda: my_turn(pilot.app) and table(pilot.app).mode == "discard")
        await pilot.press("1", "right", "space")  # cards 1 and 2 ("1" "2" is card 12)
        await settle(pilot)

    assert snap_compare(app_for("calabresella"), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_hand_summary(snap_compare):
    async def run_before(pilot):
        from briscola_tui.tui.screens.summary import SummaryScreen

        app = pilot.app
        while not isinstance(app.screen, SummaryScreen):
            await until(pilot, lambda: isinstance(app.screen, SummaryScreen) or my_turn(app))
            if isinstance(app.screen, SummaryScreen):
                break
            view = table(app).view
            card = next(a.card for a in view.legal if a.kind == "play")
            await pilot.press(str(table(app).hand.index(card) + 1), "enter")
        await settle(pilot)

    assert snap_compare(app_for("briscola", 2), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_help_screen(snap_compare):
    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(app_for("briscola", 2), terminal_size=SIZE, run_before=run_before)


def home_app() -> BriscolaApp:
    app = BriscolaApp(ascii=False)
    app.CSS = "Input { &>.input--cursor { text-style: none; } }"
    return app


def test_home_screen(snap_compare):
    """Every item at its number, Resume (nothing to resume: dim) at 2."""

    async def run_before(pilot):
        from briscola_tui.tui.screens.home import HomeScreen

        await until(pilot, lambda: isinstance(pilot.app.screen, HomeScreen))

    assert snap_compare(home_app(), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_host_form(snap_compare):
    """The host form, its Open table box unticked (empty), the cursor on it."""

    async def run_before(pilot):
        from briscola_tui.tui.screens.home import HomeScreen
        from briscola_tui.tui.screens.netforms import HostForm

        await until(pilot, lambda: isinstance(pilot.app.screen, HomeScreen))
        await pilot.press("6", "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, HostForm) and pilot.app.screen.query("#open"))
        pilot.app.screen.query_one("#port").focus()
        await settle(pilot)

    assert snap_compare(home_app(), terminal_size=SIZE, run_before=run_before)


@pytest.fixture
def stored(tmp_path, monkeypatch):
    """A Briscola transcript for two, its deal fixed, in a data folder under the home folder
    (so the list names it as ~/...), written at a fixed time (UTC)."""
    import io
    import time
    from pathlib import Path

    from briscola_tui.tools.selfplay import selfplay

    home = Path.home() / "snapshot-data"
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    folder = home / "transcripts"
    folder.mkdir(parents=True)
    path = folder / "0123abcd-host.bin"
    assert selfplay("briscola", 2, 1, 1, str(path), {}, io.StringIO(), quiet=True, deal_seed=1) == 0
    os.utime(path, (1_700_000_000, 1_700_000_000))
    yield path
    monkeypatch.undo()
    time.tzset()


def test_replay_list(snap_compare, stored):
    async def run_before(pilot):
        from briscola_tui.tui.screens.replay import OpenReplay

        await pilot.press("3", "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, OpenReplay))

    assert snap_compare(home_app(), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_replay_viewer(snap_compare, stored):
    """A trick taken: every hand as backs (hidden), the trick's cards, the header within 80 columns."""

    async def run_before(pilot):
        from briscola_tui.tui.screens.replay import ReplayScreen

        await pilot.press("3", "enter")
        await pilot.pause(0.2)
        await pilot.press("1")
        await until(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen), timeout=60)
        await pilot.press("right", "right")
        await settle(pilot)

    assert snap_compare(home_app(), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_chiamata_two_rule(snap_compare):
    """Every computer player passes, I bid 2 holding 2♥ (deal seed 1): the call list marks
    "call 4♥ (two rule)" and the line under it says what the rule is."""
    from briscola_tui.tables.offline import OfflineTable
    from briscola_tui.tui.screens.table import TableScreen

    def passer(view, rng):
        return next(a for a in view.legal if a.kind == "pass")

    app = app_for("chiamata")
    app.play = None  # the home screen first; the table pushed below

    async def run_before(pilot):
        controller = OfflineTable(
            "chiamata", 5, "easy", 1, seed=1, deal_seed=1, choosers=dict.fromkeys(range(1, 5), passer)
        )
        pilot.app.push_screen(TableScreen(controller, pilot.app.style_))
        await until(pilot, lambda: my_turn(pilot.app))
        items = [item.text for item in table(pilot.app).picker.items]
        await pilot.press(*str(items.index("bid 2") + 1), "enter")
        await until(pilot, lambda: my_turn(pilot.app) and table(pilot.app).view.phase == "call")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


# --- issue 23: the auction, the header and the sides at every kind of decision ---------------


async def play_first(pilot) -> None:
    """Play my first legal card (or card-like choice)."""
    view = table(pilot.app).view
    card = next(a.card for a in view.legal if a.card is not None)
    await pilot.press(*str(table(pilot.app).hand.index(card) + 1), "enter")  # a digit per key: 12 is "1", "2"


async def play_until_tricks(pilot, tricks: int) -> None:
    """Play my first card each turn until `tricks` tricks are taken, and stop at my next turn."""
    app = pilot.app
    while True:
        await until(pilot, lambda: my_turn(app))
        if len(table(app).view.tricks) >= tricks:
            return
        await play_first(pilot)
        await pilot.pause(0.1)


@pytest.mark.slow
def test_chiamata_bid_with_a_target(snap_compare):
    """I bid the 2; a computer player bids the 2 with a target of 62: at my next bid the seats
    show each last bid in full and the header the bid to beat and who holds it."""

    async def run_before(pilot):
        app = pilot.app
        await until(pilot, lambda: my_turn(app) and table(app).view.phase == "auction")
        await pilot.press(*["right"] * (len(table(app).view.legal) - 1), "enter")  # bid 2, the last choice
        await pilot.pause(0.1)
        await until(pilot, lambda: my_turn(app))

    assert snap_compare(app_for("chiamata", deal_seed=5, level="normal"), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_chiamata_call(snap_compare):
    """I bid the 2 and the others pass: my call, the header naming me the caller, target 61."""

    async def run_before(pilot):
        app = pilot.app
        await until(pilot, lambda: my_turn(app) and table(app).view.phase == "auction")
        await pilot.press(*["right"] * (len(table(app).view.legal) - 1), "enter")  # bid 2, the last choice
        await pilot.pause(0.1)
        await until(pilot, lambda: my_turn(app) and table(app).view.phase == "call")

    assert snap_compare(app_for("chiamata", deal_seed=2), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_chiamata_partner_known(snap_compare):
    """Pass, then play until the called card has been played: the partner in the header, the
    caller's side and the others' points under the seats, the last trick kept."""

    async def run_before(pilot):
        app = pilot.app
        while True:
            await until(pilot, lambda: my_turn(app))
            view = table(app).view
            if view.phase == "play" and any("partner" in r or "alone" in r for r in view.roles.values()):
                break
            if table(app).mode == "card":
                await play_first(pilot)
            else:
                await pilot.press("1", "enter")  # pass
            await pilot.pause(0.1)

    assert snap_compare(app_for("chiamata", deal_seed=2), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_calabresella_playing_solo(snap_compare):
    """I bid solo and discard; a few tricks later: the soloist's thirds against the defenders'."""

    async def run_before(pilot):
        app = pilot.app
        await until(pilot, lambda: my_turn(app))
        await pilot.press("3", "enter")  # bid solo
        await until(pilot, lambda: my_turn(app) and table(app).mode == "discard")
        await pilot.press("2", "3", "4", "5", "enter")  # ("1" then "2" would be card 12)
        await play_until_tricks(pilot, 3)

    assert snap_compare(app_for("calabresella"), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_briscola_four_a_trick_later(snap_compare):
    """Briscola for 4 after two tricks: the two teams' points, the last trick kept."""

    async def run_before(pilot):
        await play_until_tricks(pilot, 2)

    assert snap_compare(app_for("briscola", 4), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_briscola_six_a_trick_later(snap_compare):
    """Briscola for 6 after two tricks: the two teams of three and their points, the last trick kept."""

    async def run_before(pilot):
        await play_until_tricks(pilot, 2)

    assert snap_compare(app_for("briscola", 6), terminal_size=SIZE, run_before=run_before)


def italian_settings():
    from briscola_tui.files.settings import Settings

    return Settings(language="it")


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)])
def test_italian_table(snap_compare, game, players):
    """Each game in Italian at 80x24 (the setting language="it"), at the player's first
    decision: a card in Briscola, a bid in the auctions."""

    async def run_before(pilot):
        await until(pilot, lambda: my_turn(pilot.app))

    app = app_for(game, players, settings=italian_settings())
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_italian_chiamata_play(snap_compare):
    """Chiamata in Italian once the auction is over: the caller, the called card, the target
    in the header, the sides' totals with the partner still unknown."""

    async def run_before(pilot):
        app = pilot.app
        while not (my_turn(app) and table(app).mode == "card"):
            await until(pilot, lambda: my_turn(app))
            if table(app).mode != "card":
                await pilot.press("1", "enter")  # pass

    assert snap_compare(app_for("chiamata", 5, settings=italian_settings()), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_italian_hand_summary(snap_compare):
    """The summary of a Chiamata hand in Italian (I pass, then play my first legal card each
    trick): the caller, the partner, the target, each seat's change."""

    async def run_before(pilot):
        from briscola_tui.tui.screens.summary import SummaryScreen

        app = pilot.app
        while not isinstance(app.screen, SummaryScreen):
            await until(pilot, lambda: isinstance(app.screen, SummaryScreen) or my_turn(app))
            if isinstance(app.screen, SummaryScreen):
                break
            if table(app).mode != "card":
                await pilot.press("1", "enter")  # pass
                continue
            view = table(app).view
            card = next(a.card for a in view.legal if a.kind == "play")
            await pilot.press(str(table(app).hand.index(card) + 1), "enter")
        await settle(pilot)

    assert snap_compare(app_for("chiamata", 5, settings=italian_settings()), terminal_size=SIZE, run_before=run_before)
