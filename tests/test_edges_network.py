"""Edges of network play that a person meets (issue 23), each with real `briscola`
processes on 127.0.0.1, ports the OS picks, a deadline on every wait (helpers/network.py):

- the command a host prints as it leaves takes the same table up again (its address,
  time limit, hands, computer players and their level: the settings' level by default);
- a host restarted mid-hand: its players say once that the connection was lost, not at
  every try, and never print the socket's error numbers;
- a host that is not there is said in a few seconds; a missing join code is named as such;
- headless lines name the seats, write a hand's result in words, and `--hands 1` counts
  a hand everybody passed (a redeal) as no hand played.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import time

import pytest
from helpers.home import terminal_env
from helpers.network import BRISCOLA, CODE, Human, Table, wait_until
from helpers.tmux import capture, session_name, tmux

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)


def test_the_command_a_host_prints_as_it_leaves_takes_the_table_up_again(children):
    home = children.folder / "host"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"level": "easy"}))  # --bots plays at the settings' level
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "30"))
    person = Human(seed=2, delay=0.1)
    ann = table.join("Ann", human=person)
    wait_until(lambda: person.moves >= 2, "two moves", kids=children)
    table.host.proc.send_signal(signal.SIGINT)
    line = table.host.wait_for(r"left the table; to take it up again run: (.*)$").group(1)
    table.host.finish()
    words = shlex.split(line)
    assert words[:2] == ["briscola", "host"]
    given = dict(zip(words[2::2], words[3::2]))
    assert given["--transcript"] == str(table.transcript) and given["--port"] == str(table.port)
    assert given["--bind"] == "127.0.0.1"  # not every interface
    assert given["--time-limit"] == "30" and given["--hands"] == "1"
    assert given["--bots"] == "1" and given["--level"] == "easy"
    # The very command (with the test's port file) serves the table again, and Ann finishes it.
    table.args = [*words[1:], "--port-file", str(table.port_file)]
    table.start_host().wait_for(r"^resuming table [0-9a-f]{32} from ")
    assert table.host.wait_for(r"^  join with: briscola join 127\.0\.0\.1:(\d+) --code s3cret$").group(1) == str(
        table.port
    )
    table.verify_all(table.finish())
    assert ann.text.count("connection lost") == 1


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_app_host_leaving_prints_the_whole_command_and_no_traceback(children):
    """The host in the app (a real terminal: tmux), a friend at the table; ctrl+q, y: the
    farewell gives --bind, --name and --time-limit, and nothing else is printed (no "Task
    exception was never retrieved" from the network thread)."""
    port_file, home = children.folder / "port", children.folder / "app"
    argv = [*BRISCOLA, "host", "--game", "briscola", "--players", "3", "--bots", "1", "--bind", "127.0.0.1"]
    argv += ["--port", "0", "--port-file", str(port_file), "--code", CODE, "--name", "Ann", "--time-limit", "40"]
    env = f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none BRISCOLA_HOME={home}"
    name = session_name("briscola-host")
    shell = f"env {env} PYTHONPATH={os.getcwd()} {shlex.join(argv)}; echo exit status $?; sleep 30"
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "40", "-c", os.getcwd(), shell)
    try:
        wait_until(lambda: port_file.exists() and port_file.read_text().isdigit(), "the app to listen")
        address = f"127.0.0.1:{port_file.read_text()}"
        bo = children.start("Bo", "join", address, "--name", "Bo", "--code", CODE, "--bot", "random")
        bo.wait_for(r"^hand 1: ")
        wait_until(lambda: "ctrl+q quit" in capture(name), "the table on the screen")
        end = time.monotonic() + 30
        while "Leave" not in (screen := capture(name)) and "exit status" not in screen:
            assert time.monotonic() < end, f"ctrl+q asked nothing; the screen was:\n{screen}"
            tmux("send-keys", "-t", name, "C-q")  # (again, if the first came before the screen took keys)
            time.sleep(1.5)
        if "Leave" in screen:
            tmux("send-keys", "-t", name, "y")
        wait_until(lambda: "exit status" in capture(name), "the app to exit")
        screen = tmux("capture-pane", "-p", "-J", "-t", name, check=False)
        assert "exit status 0" in screen and "Traceback" not in screen and "never retrieved" not in screen, screen
        line = re.search(r"to take it up again run: (.*)", screen).group(1)
        for words in ("--bind 127.0.0.1", "--name Ann", "--time-limit 40", "--bots 1", "--level normal"):
            assert words in line, line
    finally:
        tmux("kill-session", "-t", name, check=False)


def test_a_host_restarted_mid_hand_is_said_lost_once_and_without_error_numbers(children):
    table = Table(children, "briscola", players=3, bots=1)
    clients = [table.join(name, human=Human(seed=k, delay=0.1)) for k, name in enumerate(("Cleo", "Dan"))]
    clients.append(table.watch())
    clients[0].wait_for(r"^Cleo takes the trick|^Dan takes the trick|^cpu2 takes the trick")
    table.host.proc.kill()
    assert table.host.finish() != 0
    for client in clients:  # several tries meet a closed port, and each client says it is still trying
        client.wait_for(r"^still no host at .*; trying again, \d+ s left")
    table.start_host().wait_for(r"^resuming table ")
    table.verify_all(table.finish())
    for client in clients:
        lost = [line for line in client.lines if "connection lost" in line]
        assert len(lost) == 1 and lost[0].endswith(f"; trying {table.address} again for up to 20 s"), client.tail()
        assert "Errno" not in client.text and "Connect call failed" not in client.text
        seated = [line for line in client.lines if line.startswith("at the table:") or " joins (seat " in line]
        assert len(seated) == len(set(seated)), client.tail()  # who sits where: said once, restart or not


def test_a_host_that_is_not_there_is_said_in_a_few_seconds(children):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    ann = children.start("Ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--bot", "random", "--code", CODE)
    assert ann.finish(timeout=20) == 1
    assert time.monotonic() - started < 10
    assert ann.text.splitlines() == [f"nothing answers at 127.0.0.1:{port} (is the host running, on that port?)"]


def test_a_wrong_code_is_said_once_and_a_missing_one_is_named(children):
    table = Table(children, "briscola", players=2, bots=1)
    wrong = table.join("Wrong", code="guess")
    missing = table.watch("Nocode", code=None)
    assert wrong.finish() == 2 and missing.finish() == 2
    assert wrong.text.splitlines() == ["the host refused: wrong join code"]
    assert missing.text.splitlines() == ["the host refused: this table needs a join code (--code)"]
    table.clients.clear()
    table.host.kill()


def test_headless_lines_name_the_seats_and_say_results_in_words(children):
    table = Table(children, "chiamata", bots=4)
    ann = table.join("Ann")
    table.finish()
    for child in (ann, table.host):
        text = child.text
        assert re.search(r"^(Ann|cpu\d): (play|bid|pass|call)", text, re.M), child.tail()
        assert not re.search(r"^seat \d: (play|bid|pass|call)", text, re.M), child.tail()
        assert "Ann joins (seat 0)" in text and "Ann: Ann" not in text
        results = [line for line in child.lines if re.match(r"^hand \d+: .*; points \[", line)]
        assert results, child.tail()
        for line in results:
            assert "True" not in line and "False" not in line, line
            assert re.search(r"\b(success|failure)\b", line) and re.search(r"caller (Ann|cpu\d)", line), line


class PassingFirst(Human):
    """Passes every bid of the first hand (a redeal: everybody passed), then plays at random."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.redealt = False

    def __call__(self, child, line: str) -> None:
        if "everybody passed" in line:
            self.redealt = True
        if line.startswith("your turn: ") and not self.redealt and "pass" in line[11:].split(" | "):
            child.proc.stdin.write("pass\n")
            child.proc.stdin.flush()
            self.moves += 1
            return
        super().__call__(child, line)


def test_hands_1_does_not_count_a_redeal(children):
    table = Table(children, "calabresella", players=3)
    for k, name in enumerate(("Ann", "Bo", "Cy")):
        table.join(name, human=PassingFirst(seed=k))
    scores = table.finish()
    host = table.host.text
    assert "hand 1: everybody passed, redeal" in host, table.host.tail()
    assert re.search(r"^hand 2: soloist (Ann|Bo|Cy), .*; points \[", host, re.M), table.host.tail()
    assert scores != "[0, 0, 0]"
    assert host.count("cards dealt") == 2  # nothing of a third hand is dealt
    assert "hand 3:" not in host, table.host.tail()  # nor is it announced (it used to say "hand 3: X deals")
    for child in table.clients:
        assert "hand 3:" not in child.text, child.tail()
