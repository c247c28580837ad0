"""The Textual app on a network table, under Pilot at 80x24, against real
`briscola` processes on 127.0.0.1 (the helpers of tests/helpers/network.py: OS-picked
ports, a deadline on every wait, every child killed at the end).

1. The app joins a `briscola host` process whose other seats are `briscola
   join --bot` processes: the lobby, then its seat played with key presses
   to the hand summary, which lists every trick; everybody ends with the same
   scores, and the app's stored transcript verifies.
2. The app watches: the table offers no game action at any time (no cards
   to choose, no choices, keys pressed change nothing) and shows only public
   cards, the series score and no hand row, up to the hand summary. A
   spectator that comes mid-hand, and a player that leaves and comes back
   mid-hand, see every trick of the hand in its summary too.
3. The app hosts (its TableServer in this process, its person at seat 0)
   with a computer player of its own and a `join --bot` process.
4. The forms name a bad field; a wrong join code, a host that does not
   answer and a port already taken show in the lobby, and nothing crashes.
5. A connection cut under the app shows "connection lost" and the hand goes
   on by itself.
   A time limit shows a clock beside the seat that owes a move.
6. `briscola join` in a terminal (a pseudo-terminal here) that goes away
   (SIGHUP): the app exits cleanly (status 0), and the same command takes
   the seat back and finishes the hand, which verifies.
   `briscola host` in a terminal, waiting for a seat that never moves:
   its terminal going away, or ctrl+q and y, ends it at once (status 0).
7. A snapshot of the lobby (fixed data) at 80x24.
"""

from __future__ import annotations

import fcntl
import html
import os
import pty
import re
import signal
import socket
import struct
import subprocess
import termios
import time

import pytest
from helpers.app import FixedLobby, table_of, wait_for
from helpers.network import BRISCOLA, CODE, ROOT, WAIT, Human, Proxy, Table

from briscola_tui.net.joining import join_options, player_identity, watch_options
from briscola_tui.options import JoinOptions, WatchOptions
from briscola_tui.tables.controller import Lobby, LobbySeat
from briscola_tui.tables.hosting_seat import hosting_table
from briscola_tui.tables.network import NetTable
from briscola_tui.tui.netapp import NetworkApp
from briscola_tui.tui.screens.dialogs import ConfirmQuit
from briscola_tui.tui.screens.home import MENU, HomeScreen
from briscola_tui.tui.screens.lobby import LobbyScreen
from briscola_tui.tui.screens.netform_fields import host_args
from briscola_tui.tui.screens.netforms import HostForm, JoinForm, WatchForm
from briscola_tui.tui.screens.summary import SummaryScreen

SIZE = (80, 24)
HAND_WAIT = 240.0
"""The longest a hand may take (the dealing is CPU work; a loaded machine is slow)."""
CARD = re.compile(r"\b([A2-7JQK][SHDC])\b")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The app's own data folder (its key, its seat's store, its copy of the transcript)."""
    folder = tmp_path / "app"
    monkeypatch.setenv("BRISCOLA_HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return folder


def joining(address: str, name: str = "Ada") -> NetTable:
    args = JoinOptions(address=address, code=CODE, name=name, retry=20.0)
    return NetTable(join_options(args), player_identity())


def verify(path) -> str:
    done = subprocess.run([*BRISCOLA, "verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


async def lobby_then_table(app, pilot) -> None:
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) or table_of(app) is not None, "the lobby", WAIT)
    await wait_for(pilot, lambda: table_of(app) is not None, "the table", WAIT)


async def play_my_hand(app, pilot, net: NetTable, seen: dict | None = None) -> None:
    """Play the first playable card at each of my turns until the hand summary shows (a
    Briscola hand: cards only); on a time-out, say what the network side was doing."""
    seen = {} if seen is None else seen
    end = time.monotonic() + HAND_WAIT
    while not isinstance(app.screen, SummaryScreen):
        screen = table_of(app)
        await until_my_turn(app, pilot, net, max(1.0, end - time.monotonic()))
        if screen.mode == "card" and app.screen is screen:
            seen["card"] = seen.get("card", 0) + 1
            card = next(a.card for a in screen.view.legal if a.kind == "play")
            await pilot.press(str(screen.hand.index(card) + 1), "enter")
        await pilot.pause(0.01)
    await wait_for(pilot, lambda: app.screen.query("#summary-text"), "the summary's text", WAIT)


async def until_my_turn(app, pilot, net: NetTable, timeout: float) -> None:
    """Until the table asks me for a card or the summary shows; on a time-out, say what the
    network side was doing."""
    screen = table_of(app)
    try:
        await wait_for(
            pilot, lambda: isinstance(app.screen, SummaryScreen) or screen.mode == "card", "my turn", timeout
        )
    except AssertionError as error:
        view = screen.view
        raise AssertionError(
            f"{error}; screens {app.screen_stack}, mode {screen.mode}, turn {view and view.turn}, "
            f"phase {view and view.table_phase}, awaiting {net.client and net.client.awaiting()}; "
            f"said: {net.lobby().log[-8:]}"
        ) from None


async def the_play(app, pilot):
    """The table screen, once its hand is in play (dealt)."""
    await lobby_then_table(app, pilot)
    screen = table_of(app)
    await wait_for(pilot, lambda: screen.view is not None and screen.view.table_phase == "play", "the play", HAND_WAIT)
    return screen


async def my_first_turn(app, pilot, net: NetTable):
    """The table screen, once it asks me for a card."""
    await lobby_then_table(app, pilot)
    await until_my_turn(app, pilot, net, HAND_WAIT)
    return table_of(app)


@pytest.mark.slow
async def test_the_app_joins_a_host_process_and_plays_its_seat_to_the_summary(children, home):
    table = Table(children, "briscola", players=3)
    bots = [table.join("Bo"), table.join("Cy")]
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_then_table(app, pilot)
            seen: dict = {}
            await play_my_hand(app, pilot, net, seen)
            assert seen.get("card", 0) >= 10  # 3 players, 40 cards: 13 or 14 cards each, all played by keys
            text = str(app.screen.query_one("#summary-text").render())
            assert "As dealt" in text
            assert tricks_listed(app) == 13  # 3 players: the 2 of clubs out, 13 tricks
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    scores = table.finish()
    assert net.over and net.exit_status == 0
    assert str(list(net.client.session.series.scores)) == scores
    assert all(bot.proc.returncode == 0 for bot in bots)
    (copy,) = (home / "transcripts").glob("*-seat*.bin")
    assert "all checks pass" in verify(copy)


@pytest.mark.slow
@pytest.mark.parametrize("role", ["player", "spectator"])
async def test_a_joined_seat_and_a_spectator_count_the_hands_asked_for_as_the_host_does(children, home, role):
    """Issue 46: the host's header said "hand 1 of 1" and a joined player's "hand 1": the hands
    asked for (`--hands`) go in the signed table message as the table rule `hands`, and every
    seat and spectator counts them."""
    from briscola_tui.tui.widgets.header import TableHeader

    table = Table(children, "briscola", players=2, bots=1, extra=("--hands", "1"))
    if role == "player":
        net = joining(table.address)
    else:
        table.join("Bo")
        net = NetTable(watch_options(WatchOptions(address=table.address, code=CODE, retry=20.0)))
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_then_table(app, pilot)
            await wait_for(pilot, lambda: table_of(app).shown is not None, "the table's first update", WAIT)
            header = table_of(app).query_one(TableHeader)
            await wait_for(pilot, lambda: "hand 1" in header.header_text().plain, "the hand's number", WAIT)
            assert "hand 1 of 1" in header.header_text().plain
            assert net.hands == 1
    finally:
        net.stop()


def public_cards(view) -> set[str]:
    """Every card a spectator may know now: those played, the face-up card."""
    cards = {str(a.card) for a in view.history if a.card is not None}
    cards |= {str(c) for a in view.history for c in a.cards}
    cards |= {str(c) for c in view.trick}
    if view.faceup is not None:
        cards.add(str(view.faceup))
    return cards


def screen_text(screen) -> str:
    parts = [
        str(screen.query_one(f"#{name}").render()) for name in ("header", "seats", "hand", "choices", "prompt", "keys")
    ]
    parts += [line.text for line in screen.query_one("#log").lines]
    return "\n".join(parts)


def tricks_listed(app) -> int:
    """The tricks the summary showing lists (its "Tricks" part: one numbered line each)."""
    text = str(app.screen.query_one("#summary-text").render())
    _, _, tricks = text.partition("\n Tricks\n")
    return len(re.findall(r"(?m)^ +\d+\. ", tricks.split("\n\n")[0]))


def on_screen(app) -> str:
    """What the terminal shows now, as text (the screen's SVG, its markup taken off)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


@pytest.mark.slow
async def test_a_spectator_app_offers_no_game_action_and_shows_only_public_cards(children, home):
    table = Table(children, "briscola", players=2, bots=1)
    person = Human(seed=1, delay=0.2, hold_at=1)  # a person's pace: the spectator sees each card go down
    table.join("Bo", human=person)  # (and after one move, Bo waits for the spectator to be there)
    net = NetTable(watch_options(WatchOptions(address=table.address, code=CODE, retry=20.0)))
    app = NetworkApp(net, ascii=True)
    looks = 0
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_then_table(app, pilot)
            screen = table_of(app)
            end = time.monotonic() + HAND_WAIT
            while not isinstance(app.screen, SummaryScreen):
                assert time.monotonic() < end, "timed out watching the hand"
                view = screen.view
                if view is not None and view.table_phase == "play":
                    looks += 1
                    person.go.set()
                    assert view.seat is None and view.hand == () and view.legal == ()
                    names, header = view.names, str(screen.query_one("#header").render())  # (no wait between)
                    assert f"{names[0]} {view.scores[0]} - {view.scores[1]} {names[1]}" in header
                    assert "(no cards)" not in on_screen(app) and not screen.query_one("#hand").display
                    assert screen.mode == "wait" and not screen.query_one("#choices").items
                    shown = set(CARD.findall(screen_text(screen)))
                    assert shown <= public_cards(view), shown - public_cards(view)
                    await pilot.press("1", "l")  # a seat's keys (a summary ignores these): nothing to act on
                    if app.screen is screen:  # and Enter, Space (not pressed: they would close a summary)
                        screen.action_confirm()
                        screen.action_space()
                    assert screen.mode == "wait" and not screen.query_one("#choices").items
                await pilot.pause(0.05)
            assert tricks_listed(app) == 20
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    assert looks > 5
    scores = table.finish()
    assert str(list(net.client.session.series.scores)) == scores
    assert "spectator" not in "".join(line for line in table.host.lines if line.startswith("closing")), table.host.text


@pytest.mark.slow
async def test_a_spectator_app_that_comes_mid_hand_shows_the_scores_and_lists_every_trick(children, home):
    table = Table(children, "briscola", players=3, bots=1)
    person = Human(seed=2, hold_at=4)  # Bo plays 4 cards, then waits for the spectator to be there
    table.join("Bo", human=person)
    table.join("Cy")
    end = time.monotonic() + HAND_WAIT
    while person.moves < 4:
        assert time.monotonic() < end, "timed out waiting for Bo's cards"
        time.sleep(0.05)
    net = NetTable(watch_options(WatchOptions(address=table.address, code=CODE, retry=20.0)))
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_then_table(app, pilot)
            screen = table_of(app)
            await wait_for(pilot, lambda: screen.view is not None and screen.view.tricks, "the tricks so far", WAIT)
            view = screen.view
            everyone = ", ".join(f"{name} {score}" for name, score in zip(view.names, view.scores, strict=True))
            assert f"scores {everyone}" in str(screen.query_one("#header").render())
            assert "(no cards)" not in on_screen(app) and not screen.query_one("#hand").display
            person.go.set()
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary", HAND_WAIT)
            await wait_for(pilot, lambda: app.screen.query("#summary-text"), "the summary's text", WAIT)
            assert tricks_listed(app) == 13  # the tricks before it came too
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        person.go.set()
        net.stop()
    table.finish()


@pytest.mark.slow
async def test_the_summary_lists_every_trick_after_the_app_left_and_came_back_mid_hand(children, home):
    table = Table(children, "briscola", players=2, bots=1)
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await my_first_turn(app, pilot, net)
            for _ in range(3):  # three cards of mine, then ctrl+q (the seat is kept)
                await until_my_turn(app, pilot, net, HAND_WAIT)
                card = next(a.card for a in screen.view.legal if a.kind == "play")
                await pilot.press(str(screen.hand.index(card) + 1), "enter")
                await wait_for(pilot, lambda card=card: card not in screen.view.hand, "my card to go", WAIT)
            await wait_for(pilot, lambda: len(screen.view.tricks) >= 2, "two tricks taken", WAIT)
            await pilot.press("ctrl+q", "y")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    net = joining(table.address)  # the same command again: the same key takes the seat back
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_then_table(app, pilot)
            await play_my_hand(app, pilot, net)
            assert tricks_listed(app) == 20  # those taken before it left too
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    table.finish()


@pytest.mark.slow
async def test_the_app_hosts_a_table_with_its_person_at_seat_0(children, home):
    values = {
        "table": ("briscola", 3),
        "bots": "1",
        "level": "random",
        "hands": "1",
        "code": CODE,
        "open": False,
        "coach": True,  # the form's tick: the table rule coach, signed in the table message
        "port": "0",
        "bind": "127.0.0.1",
        "name": "Ada",
    }
    net = hosting_table(host_args(values), player_identity())
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LobbyScreen) and net.lobby().seats and net.lobby().seats[0].name,
                "the lobby with my seat taken",
                WAIT,
            )
            lobby = net.lobby()
            assert lobby.coach is True
            assert "coach allowed (h at the table)" in str(app.screen.query_one("#lobby-waiting").render())
            assert lobby.code == CODE and lobby.addresses == (f"127.0.0.1:{net.options.port}",)
            assert [(s.name, s.me, s.computer) for s in lobby.seats] == [
                ("Ada", True, False),
                ("", False, False),
                ("cpu2", False, True),
            ]
            await wait_for(
                pilot,
                lambda: (
                    f"briscola join 127.0.0.1:{net.options.port} --code {CODE}"
                    in str(app.screen.query_one("#lobby-friends").render())
                ),
                "the lines to give friends",
                WAIT,
            )
            await wait_for(
                pilot,
                lambda: "waiting for players to take seat 1" in str(app.screen.query_one("#lobby-waiting").render()),
                "the lobby to say so",
                WAIT,
            )
            bo = children.start(
                "Bo",
                "join",
                f"127.0.0.1:{net.options.port}",
                "--code",
                CODE,
                "--bot",
                "random",
                "--name",
                "Bo",
                "--retry",
                "20",
            )
            await lobby_then_table(app, pilot)
            screen = table_of(app)
            await wait_for(pilot, lambda: screen.shown is not None, "the table's first update", WAIT)
            assert screen.shown.coach_allowed  # the table rule, as the table screen is given it
            log = net.lobby().log  # each line said once: the host's lines and my seat's, not both
            assert log.count("Ada joins (seat 0)") + log.count("you join (seat 0)") == 1, log
            assert log.count("Bo joins (seat 1)") == 1 and sum(line.startswith("at the table:") for line in log) <= 1, (
                log
            )
            await play_my_hand(app, pilot, net)
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    assert bo.finish() == 0
    scores = bo.wait_for(r"^the table is over: scores (\[[^\]]*\])").group(1)
    assert str(list(net.client.session.series.scores)) == scores
    assert "all checks pass" in verify(net.hosting.log.path)


@pytest.mark.slow
async def test_forms_name_a_bad_field_and_the_lobby_shows_a_refusal_or_no_answer(children, home):
    from briscola_tui.tui.app import BriscolaApp

    table = Table(children, "briscola", players=2, bots=1)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        silent = probe.getsockname()[1]
    app = BriscolaApp(ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen", WAIT)
        join = next(i for i, (_, value) in enumerate(MENU) if value == "join")
        await pilot.press(str(join + 1), "enter")  # the home screen's "Join a table"
        await wait_for(pilot, lambda: isinstance(app.screen, JoinForm), "the join form", WAIT)
        form = app.screen
        form.query_one("#address").value = "no port here"
        await pilot.press("enter")
        assert "expected HOST:PORT" in str(form.query_one("#form-error").render())
        form.query_one("#address").value = table.address
        form.query_one("#seat").value = "9"
        await pilot.press("enter")
        assert "seat: a whole number from 0 to 5" in str(form.query_one("#form-error").render())
        form.query_one("#seat").value = ""
        form.query_one("#name").value = "cpu1"
        await pilot.press("enter")
        assert "name: a name such as cpu1" in str(form.query_one("#form-error").render())
        form.query_one("#name").value = "Ann"
        form.query_one("#code").value = "wrong"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen
        await wait_for(pilot, lambda: lobby.controller.lobby().failed, "the refusal", WAIT)
        assert lobby.controller.lobby().failed == "the host refused: wrong join code"
        waiting = lobby.query_one("#lobby-waiting")
        await wait_for(pilot, lambda: "wrong join code" in str(waiting.render()), "the refusal shown", WAIT)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, LobbyScreen), "back home", WAIT)

        app.push_screen(WatchForm())
        await wait_for(
            pilot, lambda: isinstance(app.screen, WatchForm) and app.screen.query("#address"), "the form", WAIT
        )
        app.screen.query_one("#address").value = f"127.0.0.1:{silent}"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen
        await wait_for(
            pilot,
            lambda: f"nothing answers at 127.0.0.1:{silent}" in str(lobby.query_one("#lobby-waiting").render()),
            "the lobby to say so",
            WAIT,
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, LobbyScreen), "back home", WAIT)
        await wait_for(pilot, lambda: not lobby.controller.thread.is_alive(), "the client to stop", WAIT)

        app.push_screen(HostForm())  # on a port already taken
        await pilot.pause(0.2)
        form = app.screen
        form.query_one("#bots").value = "2"
        await pilot.press("ctrl+s")  # (the focus is on the game's list, where Enter opens it)
        assert "computer players: a whole number from 0 to 1" in str(form.query_one("#form-error").render())
        form.query_one("#bots").value = "1"
        form.query_one("#port").value = str(table.port)
        form.query_one("#bind").value = "127.0.0.1"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen
        await wait_for(
            pilot,
            lambda: f"cannot listen on port {table.port}" in str(lobby.query_one("#lobby-waiting").render()),
            "the lobby to say so",
            WAIT,
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, LobbyScreen), "back home", WAIT)
    assert "wrong join code" in table.host.text  # refused, and the host goes on
    assert table.host.proc.poll() is None


@pytest.mark.slow
async def test_a_cut_connection_shows_and_the_hand_goes_on_by_itself(children, home):
    table = Table(children, "briscola", players=2, bots=1)
    proxy = Proxy(table.port)
    children.closers.append(proxy)
    net = joining(f"127.0.0.1:{proxy.port}")
    statuses: list = []  # what the table screen is given to show above the seats (`status`)
    link = net.link
    net.link = lambda trouble: (statuses.append(trouble), link(trouble))
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await my_first_turn(app, pilot, net)
            proxy.cut()
            view = screen.view
            card = next(a.card for a in view.legal if a.kind == "play")
            await pilot.press(str(screen.hand.index(card) + 1), "enter")
            await wait_for(
                pilot,
                lambda: "connection lost" in "\n".join(line.text for line in screen.query_one("#log").lines),
                "the log to say the connection was lost",
                WAIT,
            )
            await play_my_hand(app, pilot, net)
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    assert proxy.accepted >= 2  # it came back through the proxy by itself
    lost = [i for i, status in enumerate(statuses) if status and status.startswith("connection lost")]
    assert lost and None in statuses[lost[0] :]  # shown, then cleared once the connection was back
    scores = table.finish()
    assert str(list(net.client.session.series.scores)) == scores


@pytest.mark.slow
async def test_a_time_limit_shows_a_clock_on_the_seat_that_owes(children, home):
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "60"))
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await my_first_turn(app, pilot, net)
            assert screen.shown.deadline is not None
            seat, ends = screen.shown.deadline
            assert seat == screen.view.seat and 0 < ends - time.monotonic() <= 60
            await wait_for(
                pilot,
                lambda: re.search(r"<- to play \d+s", str(screen.query_one("#seats").render())),
                "the clock beside my seat",
                5,
            )
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit), "the question", WAIT)
            assert app.screen.kept == "Your seat is kept: the same join command takes it back."
            await pilot.press("y")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()


@pytest.mark.slow
async def test_a_seat_gone_and_back_is_said_at_once_over_a_dialog(children, home):
    # The table is pushed: whatever is on top of it (here the help), a seat going away and coming
    # back is said within a second, in a toast, with no key pressed.
    table = Table(children, "briscola", players=2)
    bo = table.join("Bo", human=lambda child, line: None)  # a person who never plays a card
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await the_play(app, pilot)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: app.screen is not screen, "the help on top", WAIT)

            def toasts() -> list[str]:
                return [str(n.message) for n in app._notifications]

            bo.proc.kill()
            await wait_for(pilot, lambda: "Bo is away (no connection)" in toasts(), "a toast: Bo away", WAIT)
            assert app.screen is not screen  # nothing was closed for it
            table.restart(bo)
            await wait_for(pilot, lambda: "Bo is back" in toasts(), "a toast: Bo back", WAIT)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen, "the table again", WAIT)
            assert not screen.shown.away  # the table beneath was drawn all along
            await pilot.press("ctrl+q", "y")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()


@pytest.mark.slow
async def test_a_seat_whose_player_is_gone_shows_as_away_until_it_is_back(children, home):
    table = Table(children, "briscola", players=2)
    bo = table.join("Bo", human=lambda child, line: None)  # a person who never plays a card
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await the_play(app, pilot)

            def seats() -> str:
                return str(screen.query_one("#seats").render())

            assert "away" not in seats()
            bo_seat = screen.view.names.index("Bo")  # 1 mostly; 0 when the app's join reached the host first
            bo.proc.kill()
            await wait_for(pilot, lambda: re.search(r"Bo .*<- away", seats()), "Bo's seat shown away", WAIT)
            assert screen.shown.away == {bo_seat} and any(
                line == "Bo is away (no connection)" for line in net.lobby().log
            )
            table.restart(bo)
            await wait_for(pilot, lambda: "away" not in seats() and not screen.shown.away, "Bo back", WAIT)
            assert "Bo is back" in net.lobby().log
            await pilot.press("ctrl+q", "y")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()


@pytest.mark.slow
async def test_the_lobby_shows_a_seat_taken_by_a_player_now_gone_as_away(children, home):
    table = Table(children, "briscola", players=3)
    bo = table.join("Bo", human=lambda child, line: None)
    bo.wait_for(r"^seat \d at table ")
    bo.proc.kill()
    bo.finish()
    net = joining(table.address)
    app = NetworkApp(net, ascii=True)
    try:
        async with app.run_test(size=SIZE) as pilot:

            def seats() -> str:
                return str(app.screen.query_one("#lobby-seats").render()) if isinstance(app.screen, LobbyScreen) else ""

            await wait_for(  # Ada's seat is hers before her join is ordered: wait for both
                pilot,
                lambda: re.search(r"Bo +away", seats()) and re.search(r"Ada +you ", seats()),
                "Bo's seat shown away and Ada's as hers",
                WAIT,
            )
            await pilot.press("escape")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()


@pytest.mark.slow
def test_the_terminal_going_away_ends_the_app_cleanly_and_the_seat_is_taken_back(children):
    table = Table(children, "briscola", players=2, bots=1)
    home = children.folder / "Ada"  # the folder `table.join("Ada")` uses below: the same key, the same seat
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    os.set_blocking(master, False)
    env = {**os.environ, "BRISCOLA_HOME": str(home), "TERM": "xterm-256color"}
    app = subprocess.Popen(
        [*BRISCOLA, "join", table.address, "--code", CODE, "--name", "Ada", "--ascii"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(slave)
    try:
        shown, end = b"", time.monotonic() + HAND_WAIT
        while b"Play a card" not in shown:
            assert time.monotonic() < end and app.poll() is None, f"no turn on the screen:\n{shown[-2000:]!r}"
            try:
                shown += os.read(master, 65536)
            except BlockingIOError:
                time.sleep(0.05)
        app.send_signal(signal.SIGHUP)  # the terminal goes away
        os.close(master)
        assert app.wait(WAIT) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
    again = table.join("Ada")  # the same command, headless, a computer player at the keys
    scores = table.finish()
    assert "seat 0 at table" in again.text  # the seat the app held (the host's computer player has seat 1)
    table.verify_all(scores)


@pytest.mark.slow
@pytest.mark.parametrize("leave", ["hangup", "ctrl+q"])
def test_the_host_app_leaves_at_once_while_it_waits_for_another_seats_move(children, leave):
    # The app waits (in a worker thread) for a person who does not move; its terminal going away,
    # or ctrl+q and y, must end it rather than leave the process waiting for that move for ever.
    port_file = children.folder / "port"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    os.set_blocking(master, False)
    env = {**os.environ, "BRISCOLA_HOME": str(children.folder / "Ada"), "TERM": "xterm-256color"}
    app = subprocess.Popen(
        [
            *BRISCOLA,
            "host",
            "--game",
            "briscola",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--port-file",
            str(port_file),
            "--code",
            CODE,
            "--name",
            "Ada",
            "--hands",
            "1",
            "--ascii",
        ],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(slave)
    try:
        shown, end = b"", time.monotonic() + HAND_WAIT

        def read() -> None:
            nonlocal shown
            assert time.monotonic() < end and app.poll() is None, (
                f"not on the screen:\n{shown[-2000:]!r}\n{children.report()}"
            )
            try:
                shown += os.read(master, 65536)
            except BlockingIOError:
                time.sleep(0.05)

        while not (port_file.exists() and port_file.read_text().strip().isdigit()):
            read()
        children.start(
            "Bo",
            "join",
            f"127.0.0.1:{port_file.read_text().strip()}",
            "--code",
            CODE,
            "--name",
            "Bo",
            "--retry",
            "20",
            driver=lambda child, line: None,
        )  # takes seat 1, never answers its turn
        # Bo is a person: the table says it waits for Bo (a computer player would be "thinking")
        while b"Play a card" not in shown and b"waiting for Bo" not in shown:
            read()
        if b"waiting for Bo" not in shown:  # my turn first: I play, then the table waits for Bo
            os.write(master, b"1\r")
            while b"waiting for Bo" not in shown:
                read()
        if leave == "hangup":
            app.send_signal(signal.SIGHUP)  # the terminal goes away
            os.close(master)
            master = None
        else:
            os.write(master, b"\x11")  # ctrl+q, then y to the question
            while b"Leave the game" not in shown:
                read()
            os.write(master, b"y")
        # The pty is read until the app is gone: a terminal nobody reads blocks the app's last
        # writes (restoring the screen) once its buffer fills, and the app would seem to hang.
        end = time.monotonic() + WAIT
        while app.poll() is None and time.monotonic() < end:
            if master is None:
                time.sleep(0.05)
                continue
            try:
                os.read(master, 65536)
            except BlockingIOError:
                time.sleep(0.05)
            except OSError:  # the app closed its side
                time.sleep(0.05)
        assert app.wait(1) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
        if master is not None:
            os.close(master)


# --- the lobby, drawn ----------------------------------------------------------------------


LOBBY = Lobby(
    role="host",
    game="chiamata",
    players=5,
    code="3tvbdj",
    level="normal",
    addresses=("192.168.1.20:7777", "127.0.0.1:7777"),
    seats=(
        LobbySeat(0, "Ada", "47f8f6085b8ebdfc", False, True),
        LobbySeat(1, "Bruno", "bbb49004543b5175", False, False),
        LobbySeat(2, "", "", False, False),
        LobbySeat(3, "cpu3", "0c1d2e3f40516273", True, False),
        LobbySeat(4, "cpu4", "8899aabbccddeeff", True, False),
    ),
    waiting="waiting for players to take seat 2",
    status="connected",
    log=("connection 1 (seat 0) joined as 'Ada'", "connection 2 (seat 1) joined as 'Bruno'"),
)


def test_the_lobby_snapshot(snap_compare):
    pytest.importorskip("pytest_textual_snapshot")
    from briscola_tui.tui.app import BriscolaApp
    from briscola_tui.tui.widgets.cards import Style

    class LobbyApp(BriscolaApp):
        def on_mount(self) -> None:
            self.call_later(lambda: self.push_screen(LobbyScreen(FixedLobby(LOBBY), Style(False))))

    async def run_before(pilot):
        await pilot.pause(0.3)

    assert snap_compare(LobbyApp(ascii=False), terminal_size=SIZE, run_before=run_before)
