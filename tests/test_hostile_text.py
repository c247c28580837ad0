"""Untrusted text is data: nothing a peer or an outsider sends can crash a node or
reach its terminal as anything but text.

1. `visible` (engine/text.py) shows every control character as its escape; the
   name rule (`name_problem`) takes printable names of 1 to 20 characters.
2. Every node refuses a join whose name breaks the rule (a host cannot put one in
   the transcript), and the host does not order one.
3. The app shows names and reasons literally, never as markup: a player named
   `[/]` (Textual's MarkupError) or `[bold]x`, a spectator whose hello carries
   `[/]`; the hosting app and a joined app both keep running to the summary.
4. Names holding ESC sequences or a newline and a fake verdict, against a
   headless host, players and spectators: refused at the handshake with a
   reason (the client says it and exits 2, without retrying), `join --name`
   fails before it connects, and no raw control byte reaches any stdout; a host
   that orders such a join anyway is refused by every client.

The hostile clients are the stock `Client` with the name check of `briscola
join` skipped (HOSTILE_CLIENT); the hostile host is the stock `briscola host`
with its name checks switched off (LAX_HOST). Real processes on 127.0.0.1, ports
the OS picks, every wait bounded, every process killed at the end (`children`).
"""

from __future__ import annotations

import socket
import sys
import textwrap
import time
import unicodedata

import pytest
from helpers import network
from helpers.app import FixedLobby, table_of, wait_for
from helpers.network import CODE, WAIT, Child, Table, sit, wait_until

from briscola_tui.net.commands import SetupError, person_name
from briscola_tui.net.joining import join_options, player_identity
from briscola_tui.options import JoinOptions
from briscola_tui.tables.controller import Lobby, LobbySeat
from briscola_tui.tables.hosting_seat import hosting_table
from briscola_tui.tables.network import NetTable
from briscola_tui.tui.netapp import NetworkApp
from briscola_tui.tui.screens.dialogs import InfoScreen
from briscola_tui.tui.screens.lobby import LobbyScreen
from briscola_tui.tui.screens.netform_fields import FormError, host_args, person
from briscola_tui.tui.screens.netforms import JoinForm
from briscola_tui.tui.screens.summary import SummaryScreen
from briscola_tui.tui.widgets.literal import literal
from engine.text import MAX_NAME, name_problem, normal_name, visible
from protocol import handshake as hs
from protocol.errors import RemoteProtocolError
from protocol.host import Dropped, Host
from protocol.identity import Identity
from protocol.session import TableSession

SIZE = (80, 24)
HAND_WAIT = 240.0
"""The longest a hand may take under Pilot (the dealing is CPU work; a loaded machine is slow)."""

FAKE = "the table stopped: seat 0: cheated"
TITLE = "\x1b]0;pwned\x07Bo"  # OSC: set the terminal's title, ended by BEL
CLEAR = "\x1b[2JBo"  # CSI: clear the screen
FORGED = "Bo\n" + FAKE  # a line of its own
BACK = "Bo\r" + FAKE  # drawn over its own line
HOSTILE = (TITLE, CLEAR, FORGED, BACK)
RAW = ("\x1b", "\x07", "\r")


# --- 1. visible and the name rule ----------------------------------------------------------------


def test_visible_shows_every_control_character_as_its_escape():
    assert visible("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07"
    assert visible("\x1b[2J") == "\\x1b[2J"
    assert visible(FORGED) == "Bo\\nthe table stopped: seat 0: cheated"
    assert visible("a\rb\tc\x00d\x7fe\x9bf\x85") == "a\\rb\\tc\\x00d\\x7fe\\x9bf\\x85"
    bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
    assert visible(bidi) == "\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c"
    assert visible("\u2028\u2029\ufeff\u200b\U000e0041\udcff") == "\\u2028\\u2029\\ufeff\\u200b\\U000e0041\\udcff"
    assert visible("a\nb\x1b", keep="\n") == "a\nb\\x1b"


def test_visible_leaves_printable_text_as_it_is():
    for text in ("[/]", "[bold]x[/bold]", "Bo \\x1b", "Niccolò", "日本語", "😀", "Ἀθῆναι", "שלום", "e\u0301"):
        assert visible(text) == text


def test_visible_makes_one_line_of_anything():
    every = "".join(chr(c) for c in range(0x110000))
    shown = visible(every)
    assert "\n" not in shown and "\r" not in shown and "\x1b" not in shown and "\x9b" not in shown
    assert not [ch for ch in shown if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    assert visible(shown) == shown  # escapes are printable: shown once, they stay


@pytest.mark.parametrize(
    "name", ["Bo", "[/]", "[bold]x", "Ann-Marie O'Neil", "x" * MAX_NAME, "Niccolò", "日本語", "😀", "seat 3", "a b"]
)
def test_names_the_rule_takes(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name, problem",
    [
        ("", "a name cannot be empty"),
        ("   ", "a name cannot be blank"),
        (" Bo", "a name cannot start or end with a space"),
        ("Bo ", "a name cannot start or end with a space"),
        ("x" * (MAX_NAME + 1), f"a name has at most {MAX_NAME} characters, not {MAX_NAME + 1}"),
        ("Niccol" + "o\u0300", "a name must be in Unicode normal form C (NFC)"),
        (TITLE, "a name cannot hold a control character (U+001B, \\x1b)"),
        (CLEAR, "a name cannot hold a control character (U+001B, \\x1b)"),
        (FORGED, "a name cannot hold a control character (U+000A, \\n)"),
        (BACK, "a name cannot hold a control character (U+000D, \\r)"),
        ("Bo\tBo", "a name cannot hold a control character (U+0009, \\t)"),
        ("Bo\x7f", "a name cannot hold a control character (U+007F, \\x7f)"),
        ("Bo\x9b2J", "a name cannot hold a control character (U+009B, \\x9b)"),
        ("\u202eoB", "a name cannot hold a bidi control (U+202E, \\u202e)"),
        ("Bo\u2066", "a name cannot hold a bidi control (U+2066, \\u2066)"),
        ("Bo\u200f", "a name cannot hold a bidi control (U+200F, \\u200f)"),
        ("Bo\u061c", "a name cannot hold a bidi control (U+061C, \\u061c)"),
        ("B\u200bo", "a name cannot hold a zero-width character (U+200B, \\u200b)"),
        ("Bo\u2028", "a name cannot hold a line break (U+2028, \\u2028)"),
        ("B\u00a0o", "a name cannot hold a space other than the plain one (U+00A0, \\xa0)"),
        ("\u3164", "a name cannot hold a blank filler (U+3164, \\u3164)"),
        ("Bo\ue000", "a name cannot hold a private-use character (U+E000, \\ue000)"),
        ("Bo\udcff", "a name cannot hold a surrogate (U+DCFF, \\udcff)"),
    ],
)
def test_names_the_rule_refuses_and_why(name, problem):
    assert name_problem(name) == problem


@pytest.mark.slow
def test_every_control_format_or_private_character_is_refused_in_a_name():
    kinds = ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")
    taken = [
        hex(c) for c in range(0x110000) if unicodedata.category(chr(c)) in kinds and not name_problem(f"B{chr(c)}o")
    ]
    assert taken == []
    spaces = [hex(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Zs" and c != 0x20]
    assert all(name_problem(f"B{chr(int(c, 16))}o") for c in spaces)


def test_a_name_given_on_the_command_line_or_in_a_form_is_checked_before_anything_connects():
    assert person_name("") == ""
    assert person_name("Niccol" + "o\u0300") == "Niccolò"  # sent in normal form C
    assert normal_name("Niccol" + "o\u0300") == "Niccolò"
    with pytest.raises(SetupError, match=r"^--name '\\x1b\[2JBo': a name cannot hold a control character"):
        person_name(CLEAR)
    with pytest.raises(SetupError, match=r"a name such as cpu1"):
        person_name("cpu1")
    args = JoinOptions(address="127.0.0.1:1", code="", name=FORGED, retry=1.0)
    with pytest.raises(SetupError, match=r"a name cannot hold a control character \(U\+000A, \\n\)"):
        join_options(args)
    with pytest.raises(FormError, match=r"^name: a name cannot hold a control character \(U\+001B"):
        person(TITLE)
    assert person("  Bo  ") == "Bo"  # the form trims what was typed
    values = {
        "table": ("briscola", 2),
        "bots": "1",
        "level": "random",
        "hands": "1",
        "code": "",
        "open": False,
        "coach": False,
        "port": "0",
        "bind": "127.0.0.1",
        "name": "x" * 21,
    }
    with pytest.raises(FormError, match=r"^name: a name has at most 20 characters, not 21$"):
        host_args(values)


# --- 2. every node checks a join's name -------------------------------------------------------------


def test_a_join_under_a_bad_name_is_not_ordered_and_no_node_takes_one():
    key = Identity.generate()
    host = Host(Identity.generate(), "briscola", 2)
    opening = host.open()
    seat = TableSession(0, key, FORGED)  # a seat that signs a join under a bad name
    join = [*seat.receive(opening).messages, *seat.start().messages][0]
    with pytest.raises(Dropped) as dropped:
        host.submit(join, "connection 7")  # the host does not order it...
    assert dropped.value.reason == "join name: a name cannot hold a control character (U+000A, \\n)"
    assert dropped.value.culprit == "connection 7"
    forged = host._wrap(join)  # ...and one that does (signs it as the next entry) is refused by every node
    for node in (TableSession(None), TableSession(1, Identity.generate(), "Ann")):
        node.receive(opening)
        with pytest.raises(RemoteProtocolError) as refused:
            node.receive(forged)
        assert refused.value.culprit == "host"
        assert refused.value.reason == "join name: a name cannot hold a control character (U+000A, \\n)"
        assert node.names == {}
    good = TableSession(0, key, "[/]")
    assert host.submit([*good.receive(opening).messages, *good.start().messages][0]).refused is None
    assert host.session.names == {0: "[/]"}


# --- 3. the app shows names and reasons literally ---------------------------------------------------


def rendered(screen, *ids: str) -> str:
    """What the widgets `ids` of `screen` show ("" for one not mounted yet)."""
    return "\n".join(str(found[0].render()) if (found := screen.query(f"#{i}")) else "" for i in ids)


async def test_the_lobby_a_dialog_and_a_form_show_hostile_text_as_it_is(tmp_path, monkeypatch):
    from briscola_tui.tui.app import BriscolaApp
    from briscola_tui.tui.widgets.cards import Style

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    lobby = Lobby(
        role="host",
        game="briscola",
        players=2,
        code="abc",
        seats=(
            LobbySeat(0, "[bold]x", "0123456789abcdef", False, True),
            LobbySeat(1, "[/]", "fedcba9876543210", False, False),
        ),
        status=f"connection lost ([/] {TITLE})",
        trouble=True,
        log=("connection 1 (spectator) joined as '[/]'", f"closing connection 2: {FORGED}", CLEAR),
    )
    app = BriscolaApp(ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(LobbyScreen(FixedLobby(lobby), Style(True)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.lobby is not None, "the lobby")
        screen = app.screen
        await wait_for(pilot, lambda: "[/]" in rendered(screen, "lobby-seats"), "the seats drawn")
        await wait_for(pilot, lambda: "connection lost" in rendered(screen, "lobby-waiting"), "the status drawn")
        seats = rendered(screen, "lobby-seats")
        assert "[bold]x" in seats and "[/]" in seats
        log = rendered(screen, "lobby-log").splitlines()
        assert log == [
            " connection 1 (spectator) joined as '[/]'",
            " closing connection 2: Bo\\nthe table stopped: seat 0: cheated",
            " \\x1b[2JBo",
        ]
        assert "connection lost ([/] \\x1b]0;pwned\\x07Bo)" in rendered(screen, "lobby-waiting")
        app.pop_screen()
        app.push_screen(
            LobbyScreen(FixedLobby(Lobby(role="player", failed=f"the host refused: [/] {FORGED}")), Style(True))
        )
        await wait_for(pilot, lambda: "refused" in rendered(app.screen, "lobby-waiting"), "the refusal drawn")
        assert rendered(app.screen, "lobby-waiting").splitlines() == [
            " the host refused: [/] Bo\\nthe table stopped: seat 0: cheated",
            " Escape: back",
        ]
        app.pop_screen()
        app.push_screen(InfoScreen("Last trick", "Last trick (led by [/]):\n\n  [bold]x  AS"))
        await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen) and app.screen.query("#body Static"), "it")
        assert "led by [/]" in str(app.screen.query_one("#body Static").render())
        app.pop_screen()
        app.push_screen(JoinForm())
        await wait_for(pilot, lambda: isinstance(app.screen, JoinForm) and app.screen.query("#address"), "the form")
        app.screen.query_one("#address").value = "[/]"
        await pilot.press("enter")
        assert "not '[/]'" in rendered(app.screen, "form-error")
        assert app.is_running
    assert str(literal(f"[/] {TITLE}")) == "[/] \\x1b]0;pwned\\x07Bo"


def home_for(monkeypatch, tmp_path):
    folder = tmp_path / "app"
    monkeypatch.setenv("BRISCOLA_HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return folder


def log_text(screen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log").lines)


async def play_to_the_summary(app, pilot, net: NetTable, shown: list[str]) -> None:
    """Play the first playable card at each of my turns until the hand summary shows; `shown` gets
    what the prompt says meanwhile (it names whom the table waits for)."""
    end = time.monotonic() + HAND_WAIT
    await wait_for(pilot, lambda: table_of(app) is not None, "the table", WAIT)
    screen = table_of(app)
    await wait_for(pilot, lambda: screen.is_mounted and screen.query("#prompt"), "the table drawn", WAIT)
    while not isinstance(app.screen, SummaryScreen):
        assert time.monotonic() < end, f"timed out playing the hand; said: {net.lobby().log[-8:]}"
        if app.screen is screen:
            shown.append(str(screen.query_one("#prompt").render()))
        if screen.mode == "card" and app.screen is screen:
            card = next(a.card for a in screen.view.legal if a.kind == "play")
            await pilot.press(str(screen.hand.index(card) + 1), "enter")
        await pilot.pause(0.02)
    await wait_for(pilot, lambda: app.screen.query("#summary-text"), "the summary's text", WAIT)


HOSTILE_CLIENT = textwrap.dedent("""
    # The stock client, with `briscola join`'s own name check skipped: ROLE ADDRESS CODE NAME.
    import asyncio, sys
    from engine import bots
    from briscola_tui.net.client import Client, Options
    from briscola_tui.net.listener import Listener
    from briscola_tui.net.commands import say
    from briscola_tui.net.joining import host_port, player_identity
    role, address, code, name = sys.argv[1:5]
    host, port = host_port(address)
    player = bots.get("random") if role == "player" else None
    options = Options(
        address=host, port=port, role=role, name=name, code=code, seat=-1, player=player, retry_seconds=5.0
    )
    identity = player_identity() if role == "player" else None
    sys.exit(asyncio.run(Client(options, Listener(say), identity).run()))
    """)


def hostile(children, label: str, role: str, address: str, name: str) -> Child:
    child = Child(label, [sys.executable, "-c", HOSTILE_CLIENT, role, address, CODE, name], children.folder / label)
    children.started.append(child)
    return child


@pytest.mark.slow
async def test_the_hosting_app_shows_a_spectator_named_markup_and_a_player_named_bold_as_they_are(
    children, tmp_path, monkeypatch
):
    home_for(monkeypatch, tmp_path)
    values = {
        "table": ("briscola", 2),
        "bots": "0",
        "level": "random",
        "hands": "1",
        "code": CODE,
        "open": False,
        "coach": False,
        "port": "0",
        "bind": "127.0.0.1",
        "name": "Ada",
    }
    net = hosting_table(host_args(values), player_identity())
    app = NetworkApp(net, ascii=True)
    shown: list[str] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and net.options.port, "the lobby", WAIT)
            address = f"127.0.0.1:{net.options.port}"
            watcher = hostile(children, "watcher", "spectator", address, "[/]")  # its hello carries the name
            await wait_for(
                pilot,
                lambda: "joined as '[/]'" in rendered(app.screen, "lobby-log"),
                "the lobby's log to name the spectator",
                WAIT,
            )
            bold = children.start(
                "bold", "join", address, "--code", CODE, "--bot", "random", "--name", "[bold]x", "--retry", "20"
            )
            await wait_for(pilot, lambda: table_of(app) is not None, "the table", WAIT)
            screen = table_of(app)
            await play_to_the_summary(app, pilot, net, shown)
            assert "[bold]x joins" in log_text(screen)
            summary = str(app.screen.query_one("#summary-text").render())
            assert "[bold]x" in summary
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    assert net.over and net.exit_status == 0
    assert any("[bold]x" in line for line in shown), shown[-5:]  # waiting for it, or it thinks
    assert bold.finish() == 0 and watcher.finish() == 0, children.report()
    assert net.client.session.names == {0: "Ada", 1: "[bold]x"}


@pytest.mark.slow
async def test_a_joined_app_shows_a_player_named_markup_as_it_is(children, tmp_path, monkeypatch):
    home_for(monkeypatch, tmp_path)
    table = Table(children, "briscola", players=2)
    markup = table.join("[/]")
    args = JoinOptions(address=table.address, code=CODE, name="Ada", retry=20.0)
    net = NetTable(join_options(args), player_identity())
    app = NetworkApp(net, ascii=True)
    shown: list[str] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: table_of(app) is not None, "the table", WAIT)
            screen = table_of(app)
            await play_to_the_summary(app, pilot, net, shown)
            log = log_text(screen)  # its join, or (joined before Ada's app came) the line of who is at the table
            assert "[/] joins" in log or "at the table: [/] (seat 0)" in log, log
            assert "[/]" in str(app.screen.query_one("#summary-text").render())
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.is_running, "the app to leave", WAIT)
    finally:
        net.stop()
    assert any("[/]" in line for line in shown), shown[-5:]
    scores = table.finish()
    assert str(list(net.client.session.series.scores)) == scores
    assert markup.proc.returncode == 0


# --- 4. headless: refused with a reason, never printed raw ----------------------------------------


def clean(child: Child) -> None:
    """No raw control byte, and no line forged by a name, on a process's output."""
    text = child.text
    assert not [b for b in RAW if b in text], child.tail()
    assert FAKE not in child.lines, child.tail()


@pytest.mark.slow
def test_hostile_names_are_refused_at_the_handshake_with_a_reason_and_never_printed_raw(children):
    table = Table(children, "briscola", players=2, bots=1)
    host = table.host
    reasons = {
        TITLE: r"\(U\+001B, \\x1b\)",
        CLEAR: r"\(U\+001B, \\x1b\)",
        FORGED: r"\(U\+000A, \\n\)",
        BACK: r"\(U\+000D, \\r\)",
    }
    knocking = [
        (hostile(children, f"{role}{i}", role, table.address, name), name)
        for i, name in enumerate(HOSTILE)
        for role in ("player", "spectator")
    ]
    for child, name in knocking:
        assert child.finish() == 2, child.tail()  # refused: not tried again
        child.wait_for(rf"^the host refused: name: a name cannot hold a control character {reasons[name]}$")
        assert "trying again" not in child.text
        clean(child)
    host.wait_for(r"^refusing connection \d+ \([^)]*\): name: a name cannot hold a control character \(U\+000D, \\r\)$")
    wait_until(
        lambda: len([line for line in host.lines if line.startswith("refusing connection")]) == len(knocking),
        "the host to say each refusal",
        kids=children,
    )

    with socket.socket() as probe:  # a port nothing listens on: `join --name` fails before it connects
        probe.bind(("127.0.0.1", 0))
        nowhere = probe.getsockname()[1]
    for name in HOSTILE:
        local = children.start(
            "local", "join", f"127.0.0.1:{nowhere}", "--name", name, "--code", CODE, "--bot", "random", "--retry", "0"
        )
        assert local.finish() == 2, local.tail()
        local.wait_for(r"^briscola join: --name '.*': a name cannot hold a control character \(U\+00(1B|0A|0D), ")
        assert "cannot reach" not in local.text
        clean(local)

    # A seat that passed the handshake under a good name, then signs a join under a bad one:
    # the host does not order it (and says why, escaped).
    key = Identity.generate()
    raw, seat, entries = sit(table.port, key)
    children.closers.append(raw)
    forger = TableSession(seat, key, FORGED)
    owed = [m for data in entries for m in forger.receive(data).messages] + forger.start().messages
    raw.send(hs.submit(owed[0]))
    host.wait_for(
        rf"^dropped a message from connection \d+ \(seat {seat}\): join name: a name cannot hold a control "
        r"character \(U\+000A, \\n\)$"
    )
    raw.close()

    table.join("Ann")  # the seat is still free, and the table goes on
    table.watch()
    scores = table.finish()
    table.verify_all(scores)
    for child in (host, *table.clients):
        clean(child)


LAX_HOST = textwrap.dedent("""
    # `briscola host` with its name checks switched off: it orders any name.
    import sys
    import protocol.handshake, protocol.lifecycle
    protocol.handshake.name_problem = protocol.lifecycle.name_problem = lambda name: None
    from briscola_tui.cli import main
    sys.exit(main(sys.argv[1:]))
    """)


@pytest.mark.slow
def test_a_host_that_orders_a_hostile_name_is_refused_by_every_client_and_nothing_prints_raw(children, monkeypatch):
    name = f"{TITLE}\x1b[2J\n{FAKE}"
    with monkeypatch.context() as patch:
        patch.setattr(network, "BRISCOLA", [sys.executable, "-c", LAX_HOST])
        table = Table(children, "briscola", players=3)
    watcher = table.watch()
    ann = table.join("Ann", seat=0)
    table.host.wait_for(r"^Ann joins \(seat 0\)$")
    wait_until(lambda: len([ln for ln in table.host.lines if " joined" in ln]) >= 2, "the watcher", kids=children)
    bad = hostile(children, "bad", "player", table.address, name)
    table.host.wait_for(r"^\\x1b\]0;pwned\\x07Bo\\x1b\[2J\\nthe table stopped: seat 0: cheated joins \(seat 1\)$")
    for client in (ann, watcher, bad):
        client.wait_for(
            r"^stopping: join name: a name cannot hold a control character \(U\+001B, \\x1b\) \[the host\]$"
        )
        assert client.finish() == 1, client.tail()
        clean(client)
    clean(table.host)
    assert table.host.proc.poll() is None  # (a lax host waits for seats; `children` ends it)


def test_a_joining_players_lobby_says_how_many_seats_the_hosts_computer_plays():
    from briscola_tui.tables.controller import Lobby, LobbySeat
    from briscola_tui.tui.screens.lobby import seats_text

    seats = (
        LobbySeat(0, "Ada", "47f8f6085b8ebdfc", False, False),
        LobbySeat(1, "Bea", "bbb49004543b5175", False, True),
        LobbySeat(2, "cpu2", "0c1d2e3f40516273", True, False),
        LobbySeat(3, "cpu3", "8899aabbccddeeff", True, False),
    )
    lines = seats_text(Lobby(role="player", game="briscola", players=4, seats=seats)).plain.splitlines()
    assert "   The host's computer plays 2 of 4: it sees those hands, and deduces more." in lines
    assert max(len(line) for line in lines) <= 80
    assert "computer plays" not in seats_text(Lobby(role="host", seats=seats)).plain  # the host knows
    assert "computer plays" not in seats_text(Lobby(role="player", seats=seats[:2])).plain
