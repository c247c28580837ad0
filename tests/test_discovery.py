"""Tables found on the LAN (net/mdns.py, announcing.py, finding.py; issue: find the table),
with real `briscola` processes on a LAN of private network namespaces (helpers/netns.py:
three machines on one switch, 10.77.0.1-3), never on this machine's own network: a host
announces its table, friends join it and a spectator watches it by the join code alone,
a second table on the same LAN is not mistaken for it, a host that leaves is gone from a
live list, and hostile announcements (huge and escaped names, another version, a
thousand records) are shown literally, bounded, and never crash a browser.

Outside a namespace the guard holds (tests/conftest.py): no test may multicast from this
machine's network; BRISCOLA_NO_MULTICAST is set for every test, and these remove it only
for the processes they start inside the namespaces."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from helpers.home import terminal_env
from helpers.netns import Machine, lan, why_no_lan
from helpers.network import BRISCOLA, Child
from helpers.tmux import session_name, tmux

from briscola_tui.net import mdns

ON = ["env", "-u", "BRISCOLA_NO_MULTICAST"]
"""Before a command started inside a namespace: multicast allowed there."""
WAIT = 40.0

BROWSER = textwrap.dedent(
    """
    import asyncio, json
    from briscola_tui.net.mdns import Browser

    async def main():
        browser = Browser(lambda: print(json.dumps([[s.announcement.table, s.announcement.seated]
                                                   for s in browser.tables()]), flush=True))
        await browser.start()
        await asyncio.sleep(600)

    asyncio.run(main())
    """
)
"""A live list (as the join and watch forms keep), printed each time it changes."""


DEAD_HOST_SECONDS = 31.0
"""How long a host killed without its goodbye stays in a live list at most, as docs/network.md
says (mdns.EXPIRE_SECONDS, and a second for the sweep that drops it)."""

needs_lan = pytest.mark.skipif(why_no_lan() is not None, reason=why_no_lan() or "")


@pytest.fixture(scope="module")
def machines():
    with lan(3) as found:
        yield found


def start(children, machine: Machine, name: str, *args: str, driver=None) -> Child:
    """`briscola ARGS` on `machine`, with a data folder of its own."""
    child = Child(name, machine.argv([*ON, *BRISCOLA, *args]), children.folder / name, driver)
    children.started.append(child)
    return child


def host(children, machine: Machine, name: str, *args: str) -> tuple[Child, str, str]:
    """A headless host on `machine`: the child, its join code and its table id, once announced."""
    child = start(children, machine, name, "host", "--port", "0", "--headless", "--name", name, *args)
    table = child.wait_for(r"table ([0-9a-f]{32})", WAIT).group(1)
    code = child.wait_for(r"with the code alone: briscola join (\S+)", WAIT).group(1)
    return child, code, table


def listen(machine: Machine, seconds: float = 3.0) -> list[dict]:
    """`briscola tables --json` on `machine`."""
    argv = machine.argv([*ON, *BRISCOLA, "tables", "--json", "--wait", str(seconds)])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
@needs_lan
def test_friends_and_a_spectator_find_the_table_by_its_code_alone(machines, children):
    a, b, c = machines
    first, code, table = host(children, a, "Ada", "--game", "briscola", "--players", "3", "--bots", "1", "--hands", "1")
    other, other_code, other_table = host(children, c, "Cat", "--game", "briscola", "--players", "2", "--bots", "1")
    assert code.split("-")[0] != other_code.split("-")[0]  # the second host picked a plate not in use
    other.wait_for(r"cpu1 joins", WAIT)  # (its computer player seated: one seat free from now on)
    heard = {t["table"]: t for t in listen(b)}
    assert heard[table]["plate"] == int(code.split("-")[0]) and heard[table]["addresses"] == [a.address]
    assert heard[other_table]["host"] == "Cat" and heard[other_table]["free"] == 1
    assert code.split("-")[1] not in json.dumps(heard)  # the secret is in no record
    plate = code.split("-")[0]
    guess = start(children, b, "guess", "join", f"{plate}-zzzzzz", "--headless", "--bot", "easy")
    assert guess.finish(WAIT) == 2 and "wrong join code" in guess.text  # the plate alone gets nothing
    watcher = start(children, c, "watcher", "watch", code, "--headless")
    joins = [
        start(children, m, n, "join", code, "--name", n, "--bot", "easy", "--headless")
        for m, n in ((b, "Bea"), (c, "Cy"))
    ]
    for child in (*joins, watcher, first):
        assert child.finish(WAIT) == 0, child.tail()
    assert "Bea joins" in first.text and "Cy joins" in first.text
    assert "joins" not in other.text.replace("cpu1 joins", "")  # nobody went to the other table
    assert f"watching at table {table}" in watcher.text and "the table is over" in watcher.text
    assert all(table in join.text for join in joins)


@pytest.mark.slow
@needs_lan
def test_a_list_follows_the_seats_and_drops_a_host_that_leaves(machines, children):
    a, b, _c = machines
    table_host, code, table = host(children, a, "Ada", "--game", "briscola", "--players", "3")
    browser = Child("browser", b.argv([*ON, sys.executable, "-c", BROWSER]), children.folder / "browser")
    children.started.append(browser)
    browser.wait_for(rf'\[\["{table}", \[\]\]\]', WAIT)  # the table, nobody seated yet
    start(children, b, "Bea", "join", code, "--name", "Bea", "--headless", driver=lambda child, line: None)
    browser.wait_for(rf'\[\["{table}", \["Bea"\]\]\]', WAIT)  # refreshed as the seat filled
    table_host.proc.send_signal(signal.SIGINT)
    table_host.finish(WAIT)
    browser.wait_for(r"^\[\]$", 10)  # its goodbye: gone from the list at once, not when it expires


FORGER = [sys.executable, "tests/helpers/forger.py"]
"""Hostile announcements, made with zeroconf's own API (helpers/forger.py)."""


def lie(children, machine: Machine, kind: str, *args: str, wait: str = "announced") -> Child:
    """Hostile announcements of `kind` from `machine` (helpers/forger.py), until the test ends."""
    argv = machine.argv([*ON, *FORGER, machine.address, kind, *args])
    liar = Child(kind, argv, children.folder / kind)
    children.started.append(liar)
    liar.wait_for(wait, 60)
    return liar


@pytest.mark.slow
@needs_lan
def test_a_thousand_tables_are_bounded(machines, children):
    a, b, _c = machines
    lie(children, b, "flood", "1000")
    tables = listen(a, 4.0)
    assert len(tables) == mdns.MAX_TABLES  # kept up to the bound, no crash, no more
    assert len({t["table"] for t in tables}) == mdns.MAX_TABLES


@pytest.mark.slow
@needs_lan
def test_hostile_announcements_are_bounded_and_shown_literally(machines, children):
    a, b, _c = machines
    lie(children, b, "names")
    tables = listen(a)
    by_port = {t["port"]: t for t in tables}  # (the forger's table n answers on port 4000 + n)
    assert by_port[4001]["host"] == "x" * 20  # a name cut to a name's length
    assert by_port[4002]["host"] == "\x1b[2J[bold]boom[/]\u202e"  # as it came (JSON escapes it)
    assert len(tables) == 2  # another version: left out
    lines = subprocess.run(
        a.argv([*ON, *BRISCOLA, "tables", "--wait", "4"]), capture_output=True, text=True, timeout=60
    ).stdout
    assert "\x1b" not in lines and "\u202e" not in lines  # never a control character on the terminal
    assert "host \\x1b[2J[bold]boom[/]\\u202e " in lines  # but its escape, literally
    assert f"host {'x' * 20} " in lines


@needs_lan
def test_tables_returns_in_its_time_under_a_flood(machines, children):
    """Issue 44, item 6b: `briscola tables --wait S` returns within S + 1 s, whatever arrives
    meanwhile (3,000 records, and pointers to records that never come)."""
    a, b, c = machines
    lie(children, b, "flood", "3000")
    lie(children, c, "pointers", "3000")
    began = time.monotonic()
    done = subprocess.run(
        a.argv([*ON, *BRISCOLA, "tables", "--json", "--wait", "3"]), capture_output=True, text=True, timeout=60
    )
    assert time.monotonic() - began <= 3 + 1, done.stderr
    assert done.returncode == 0 and len(json.loads(done.stdout)) <= mdns.MAX_TABLES


@needs_lan
def test_a_host_killed_without_a_goodbye_leaves_a_live_list_in_the_time_the_docs_say(machines, children):
    """Issue 44, item 6c: a host killed with kill -9 sends no goodbye; a live list drops its
    table within `DEAD_HOST_SECONDS` (docs/network.md), a list started afresh never shows it."""
    a, b, _c = machines
    table_host, _code, table = host(children, a, "Ada", "--game", "briscola", "--players", "3")
    browser = Child("browser", b.argv([*ON, sys.executable, "-c", BROWSER]), children.folder / "browser")
    children.started.append(browser)
    browser.wait_for(rf'\[\["{table}", \[\]\]\]', WAIT)
    table_host.proc.kill()
    table_host.proc.wait(WAIT)
    browser.wait_for(r"^\[\]$", DEAD_HOST_SECONDS + 1)
    assert table not in json.dumps(listen(b))


@needs_lan
def test_a_copy_of_a_table_on_another_address_cannot_steer_a_join(machines, children):
    """Issue 44, item 3: someone on the LAN announces the real table again under a service
    name of its own, with its own address and a larger serial, and relays a connection to
    the real host, then drops it and stops answering. The copy says what the table's key did
    not sign: nobody takes it, the player joins the real table by the code alone and plays
    it to its end (nobody timed out, nobody named)."""
    a, b, c = machines
    real, code, table = host(children, a, "vm", "--game", "briscola", "--players", "2", "--bots", "1", "--hands", "1")
    steer = lie(children, c, "steer", table)
    joiner = start(children, b, "Bea", "join", code, "--name", "Bea", "--bot", "easy", "--headless")
    assert joiner.finish(WAIT) == 0, joiner.tail()
    assert real.finish(WAIT) == 0 and "Bea joins" in real.text
    assert "culprit" not in joiner.text and "timed out" not in real.text
    assert "relaying" not in steer.text  # (nobody connected to the copy's address)


@needs_lan
def test_a_copied_plate_is_named_an_impostor_and_the_code_joins_the_real_table(machines, children):
    """Issue 44, item 6a: two impostors announce the real table's plate and host name under
    keys of their own: a host of another table (it does not know the code) and a relay to the
    real host (it answers as another table than it announced). `join CODE` tries each, joins
    the one the code opens, and names the others in one line (address, the name claimed)."""
    a, b, c = machines
    real, code, table = host(
        children, a, "vm", "--game", "briscola", "--players", "2", "--bots", "1", "--hands", "1", "--code", "51-abcdef"
    )
    other = start(children, c, "other", "host", "--port", "0", "--headless", "--name", "vm", "--code", "51-zzzzzz")
    other.wait_for("with the code alone", WAIT)
    lie(children, c, "relay", table)
    joiner = start(children, b, "Bea", "join", code, "--name", "Bea", "--bot", "easy", "--headless")
    assert joiner.finish(WAIT) == 0, joiner.tail()
    assert real.finish(WAIT) == 0 and "Bea joins" in real.text and "joins" not in other.text
    (line,) = [line for line in joiner.lines if "impostors answer to 51" in line]
    assert line.count(f"{c.address}:") == 2 and line.count("claiming host vm") == 2, line


HOLD_PORT = textwrap.dedent(
    """
    import socket, sys
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", int(sys.argv[1])))
    s.listen()
    print("held", flush=True)
    while True:
        s.accept()[0].close()
    """
)
"""Holds a port: whoever connects there is hung up on at once, and nobody else may listen on it."""


@needs_lan
def test_a_player_whose_host_came_back_on_another_port_finds_its_table_again_by_its_id(machines, children):
    """A client that loses its host looks for its table's id on the LAN and tries every
    address and port its key signed, not only the one it used: the host killed and taken up
    again, its port taken meanwhile, listens on another, and the player plays on to the end."""
    a, b, _c = machines
    args = ("--game", "briscola", "--players", "2", "--bots", "1", "--hands", "2")
    first, code, table = host(children, a, "Ada", *args)
    port = first.wait_for(r"join with: briscola join [\d.]+:(\d+)", WAIT).group(1)
    joiner = start(children, b, "Bea", "join", code, "--name", "Bea", "--bot", "easy", "--headless", "--retry", "25")
    first.wait_for("Bea joins", WAIT)
    first.proc.kill()
    first.proc.wait(WAIT)
    holder = Child("holder", a.argv([sys.executable, "-c", HOLD_PORT, port]), children.folder / "holder")
    children.started.append(holder)
    holder.wait_for("held", WAIT)
    again, _code, same = host(children, a, "Ada", *args)  # (the same command: the same table, taken up)
    assert same == table and f":{port} " not in again.wait_for(r"join with: .*", WAIT).group(0)
    assert joiner.finish(WAIT + 25) == 0, joiner.tail()
    assert again.finish(WAIT) == 0
    assert f"answers at {a.address}:" in joiner.text


@pytest.mark.slow
def test_the_guard_refuses_multicast_outside_a_private_namespace(tmp_path):
    """A `briscola` process multicasting from this machine's own namespace is refused, and
    the guard's log names it (which fails the run: tests/conftest.py)."""
    log = tmp_path / "multicast.log"
    env = {k: v for k, v in os.environ.items() if k != "BRISCOLA_NO_MULTICAST"}
    env.update(BRISCOLA_TEST_MULTICAST_LOG=str(log), BRISCOLA_HOME=str(tmp_path / "home"))
    done = subprocess.run([*BRISCOLA, "tables", "--wait", "1"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "multicast only inside a private network namespace" in done.stderr
    assert "tables" in log.read_text()


def test_no_multicast_where_a_person_asked_for_none(monkeypatch):
    monkeypatch.delenv("BRISCOLA_TEST_NETNS", raising=False)
    monkeypatch.setenv("BRISCOLA_NO_MULTICAST", "1")
    assert mdns.refusal() == "BRISCOLA_NO_MULTICAST is set"
    with pytest.raises(mdns.MulticastRefused):
        mdns._open([])


@pytest.mark.slow
@needs_lan
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_where_multicast_does_not_reach_a_terminal_asks_for_the_address(machines, children, tmp_path):
    """A table not announced (as one behind an SSH tunnel): the code alone finds nothing, one
    line says so after the wait, and the person at the terminal types HOST:PORT instead."""
    a, _b, _c = machines
    table_host = start(
        children, a, "Ada", "host", "--port", "0", "--headless", "--players", "2", "--bots", "1", "--hands", "1",
        "--code", "42-7q8r2k", "--no-advertise", "--bind", "127.0.0.1",
    )  # fmt: skip
    port = table_host.wait_for(r"join with: briscola join 127\.0\.0\.1:(\d+)", WAIT).group(1)
    name = session_name("briscola-lan")
    command = " ".join(a.argv([*ON, *BRISCOLA, "join", "42-7q8r2k", "--headless", "--bot", "easy", "--name", "Bea"]))
    env = f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 PYTHONPATH={os.getcwd()} BRISCOLA_HOME={tmp_path}/bea"
    tmux(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        "80",
        "-y",
        "24",
        "-c",
        os.getcwd(),
        f"env {env} {command}; echo exit status $?; sleep 30",
    )
    try:
        screen = _screen_with(name, "HOST:PORT of the table (Enter to stop):")
        assert "no table on the LAN answers to 42 after 4 s: multicast may not reach here" in screen
        tmux("send-keys", "-t", name, f"127.0.0.1:{port}", "Enter")
        assert "exit status 0" in _screen_with(name, "exit status")
        assert table_host.finish(WAIT) == 0
    finally:
        tmux("kill-session", "-t", name, check=False)


def _screen_with(name: str, text: str) -> str:
    deadline = time.monotonic() + WAIT
    screen = ""
    while text not in screen and time.monotonic() < deadline:
        time.sleep(0.2)
        screen = tmux("capture-pane", "-p", "-J", "-t", name, check=False)
    assert text in screen, screen
    return screen


def test_a_table_is_announced_on_the_interfaces_it_listens_on_only(monkeypatch):
    monkeypatch.setattr(mdns, "interface_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    assert mdns.announced_on("0.0.0.0") == ["192.168.1.20", "10.0.0.5"]  # every interface
    assert mdns.announced_on("10.0.0.5") == ["10.0.0.5"]  # the one it is bound to
    for private in ("127.0.0.1", "::1", "fd00::2", "localhost"):
        assert mdns.announced_on(private) == []  # nobody else could reach it (or IPv6: not announced)


def test_the_bound_the_docs_give_for_a_dead_host_is_the_browsers():
    from helpers.network import ROOT

    assert mdns.EXPIRE_SECONDS + mdns.SWEEP_SECONDS == DEAD_HOST_SECONDS
    docs = " ".join((ROOT / "docs" / "network.md").read_text(encoding="utf-8").split())
    assert (
        f"leaves every list, the app's live lists and `briscola tables`, within {DEAD_HOST_SECONDS:g} seconds" in docs
    )


@pytest.mark.slow
@needs_lan
def test_a_host_on_loopback_says_it_is_not_announced_and_tables_hearing_nothing_says_why_it_may(machines, children):
    """Issue 46: a host bound to 127.0.0.1 announced nothing and said nothing of it, and
    `briscola tables` said "nothing heard" with no hint: the host says so as it starts, and
    `tables` gives the usual reasons (loopback, another network, a firewall for mDNS)."""
    a, b, _c = machines
    table_host = start(children, a, "Ada", "host", "--port", "0", "--headless", "--bind", "127.0.0.1", "--name", "Ada")
    line = table_host.wait_for(r"not announced on the LAN: .*", WAIT).group(0)
    assert "it listens on 127.0.0.1 only" in line and "friends on the LAN cannot see it nor join it" in line
    argv = b.argv([*ON, *BRISCOLA, "tables", "--wait", "2"])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=40)
    assert done.returncode == 0 and done.stdout == ""
    said = done.stderr.splitlines()
    assert said[0] == "no table heard on the LAN in 2 s"
    assert "a host listening on loopback only (--bind 127.0.0.1)" in said[1]
    assert "a firewall closed to mDNS (UDP port 5353)" in said[1]
