"""A host killed (SIGKILL) and started again with the same command takes its table up again:
the same table, the same join code, the same port; its clients come back by themselves and
the table finishes. A client whose host now serves another table says so at once and exits 4;
a host killed is "connection lost" to its clients, never "closed by the host", and every try
after it says what it waits for and how long is left, until the window ends in a line and an
exit. Real `briscola` processes on 127.0.0.1 (helpers/network.py)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import time
from pathlib import Path

import pytest
from helpers.home import terminal_env
from helpers.network import BRISCOLA, ROOT, WAIT, Child, Children, Human, wait_until
from helpers.tmux import capture, session_name, tmux

from briscola_tui.files.hosted import command_key
from briscola_tui.options import HostOptions

CODE = "7q8r2k"
LOST = r"connection lost \((the connection ended without a word from the host|Connection reset by peer)\)"
"""What a client says when its host is killed: its end closed with no bye, or reset (the
kernel resets a connection whose bytes the killed process never read)."""


class Host:
    """`briscola host --headless` on a port the OS picks, the same command each time it starts."""

    def __init__(self, kids: Children, *extra: str, players: int = 3, bots: int = 1):
        self.kids = kids
        self.port_file = kids.folder / "port"
        self.args = [
            "host", "--game", "briscola", "--players", str(players), "--bots", str(bots), "--level", "random",
            "--port", "0", "--bind", "127.0.0.1", "--code", CODE, "--headless", "--hands", "1",
            "--port-file", str(self.port_file), *extra,
        ]  # fmt: skip
        self.child: Child | None = None
        self.port = 0

    def start(self, *more: str) -> Child:
        self.port_file.unlink(missing_ok=True)
        child = self.child = self.kids.start("host", *self.args, *more)
        wait_until(
            lambda: self.port_file.exists() and self.port_file.read_text().isdigit() or child.proc.poll() is not None,
            "the host to listen",
            kids=self.kids,
        )
        assert child.proc.poll() is None, child.tail()
        self.port = int(self.port_file.read_text())
        return child

    def kill(self) -> None:
        """kill -9: nothing of the host runs after this, nothing it holds is let go by it."""
        assert self.child is not None
        self.child.proc.kill()
        self.child.finish()

    def join(self, name: str, human=None, retry: float = 30) -> Child:
        """A seat: a computer player's, or a person's (`human`, a driver of helpers/network.py)."""
        args = ["join", f"127.0.0.1:{self.port}", "--code", CODE, "--name", name, "--retry", f"{retry:g}"]
        return self.kids.start(name, *args, *([] if human else ["--bot", "random"]), driver=human)


def nobody(child: Child, line: str) -> None:
    """A person at a seat who never answers: the table waits at their turn."""


def table_of(child: Child) -> str:
    return child.wait_for(r"^(?:hosting briscola, \d players, table|resuming table) ([0-9a-f]{32})").group(1)


@pytest.mark.slow
def test_the_same_host_command_after_kill_9_takes_the_table_up_and_it_finishes(children):
    host = Host(children)
    first = host.start()
    table, port = table_of(first), host.port
    assert f"join with: briscola join 127.0.0.1:{port} --code {CODE}" in first.text
    person = Human(seed=4, delay=0.12)
    ada = host.join("Ada")  # a computer player plays this seat
    bea = host.join("Bea", human=person)
    wait_until(lambda: person.moves >= 3, "three moves of Bea's", kids=children)  # mid-hand
    host.kill()
    moves = person.moves
    for client in (ada, bea):
        client.wait_for(r"^connection lost \(")
    again = host.start()  # the very same command, the same data folder
    assert again.wait_for(r"^resuming table ([0-9a-f]{32}) from ").group(1) == table
    assert host.port == port  # the port was free: the same address
    again.wait_for(rf"join with: briscola join 127\.0\.0\.1:{port} --code {CODE}$")  # the same code
    for client in (ada, bea):
        assert client.finish() == 0, children.report()
        assert client.wait_for(r"^the table is over: scores ")
        assert re.search(rf"^{LOST}; trying 127\.0\.0\.1:{port} again for up to 30 s$", client.text, re.M)
        assert "closed by the host" not in client.text
    assert again.finish() == 0, children.report()
    assert person.moves > moves  # Bea played on at the table taken up
    scores = again.wait_for(r"^scores: (\[.*\])$").group(1)
    assert bea.wait_for(r"^the table is over: scores (\[[^\]]*\])").group(1) == scores
    transcript = next((children.folder / "host" / "transcripts").glob(f"{table}-host.bin"))
    done = subprocess.run(
        [*BRISCOLA, "verify", str(transcript)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 0 and "all checks pass" in done.stdout, done.stdout + done.stderr
    # Over: the same command now hosts a new table.
    third = host.start()
    assert table_of(third) != table and "resuming table" not in third.text


def test_the_record_of_a_hosted_table_is_private_and_holds_no_code(children):
    host = Host(children)
    table = table_of(host.start())
    records = list((children.folder / "host" / "hosted").glob("*.json"))
    assert len(records) == 1
    assert stat.S_IMODE(os.lstat(records[0]).st_mode) == 0o600
    assert stat.S_IMODE(os.lstat(records[0].parent).st_mode) == 0o700
    record = json.loads(records[0].read_text())
    assert record["table"] == table and record["port"] == host.port
    assert CODE not in records[0].read_text()  # the code is in codes/TABLE.code alone
    code_file = children.folder / "host" / "codes" / f"{table}.code"
    assert code_file.read_text() == CODE and stat.S_IMODE(os.lstat(code_file).st_mode) == 0o600


@pytest.mark.slow
def test_every_file_the_host_keeps_is_private(children):
    """Its key, its computer player's key and secrets, the table's code, record and transcript."""
    host = Host(children, players=2)
    host.start()
    bea = host.join("Bea", human=nobody)
    bea.wait_for(r"^seat \d at table ")
    home = children.folder / "host"
    kinds = {"hosted", "codes", "host-bots", "seats", "transcripts"}
    wait_until(lambda: {p.parent.name for p in home.rglob("*") if p.is_file()} >= kinds, "the host's files")
    for path in home.rglob("*"):
        assert stat.S_IMODE(os.lstat(path).st_mode) == (0o700 if path.is_dir() else 0o600), path


@pytest.mark.slow
def test_a_table_taken_up_whose_port_is_taken_listens_on_another_and_says_so(children):
    host = Host(children, players=2)
    table = table_of(host.start())
    old = host.port
    host.kill()
    with socket.create_server(("127.0.0.1", old)):  # another program holds the port now
        again = host.start()
        assert again.wait_for(r"^resuming table ([0-9a-f]{32}) ").group(1) == table
        new = int(again.wait_for(rf"^port {old} is taken now: listening on port (\d+) instead").group(1))
        assert new == host.port != old
        again.wait_for(rf"join with: briscola join 127\.0\.0\.1:{new} --code {CODE}$")


@pytest.mark.slow
def test_a_client_whose_host_now_serves_another_table_exits_4_at_once(children):
    host = Host(children, players=2)
    host.start()
    table = table_of(host.child)
    bea = host.join("Bea", human=nobody, retry=600)
    bea.wait_for(r"^seat \d at table ")
    host.kill()
    bea.wait_for(r"^connection lost \(")
    new = host.start("--new", "--port", str(host.port))  # (--port given last: the one Bea knows)
    other = table_of(new)
    assert other != table
    status = bea.finish(WAIT)  # well before its --retry of 600 s
    assert status == 4, bea.tail()
    line = bea.text.splitlines()[-1]
    assert line.startswith(
        f"the host at 127.0.0.1:{host.port} now serves another table ({other[:12]}, not {table[:12]})"
    )


@pytest.mark.slow
def test_a_host_killed_is_a_lost_connection_and_the_retry_window_ends_in_a_line_and_exit_1(children):
    host = Host(children, players=2)
    host.start()
    port = host.port
    bea = host.join("Bea", human=nobody, retry=12)
    bea.wait_for(r"^seat \d at table ")
    host.kill()
    assert bea.finish() == 1
    lines = bea.text.splitlines()
    lost = next(i for i, line in enumerate(lines) if line.startswith("connection lost"))
    assert re.fullmatch(rf"{LOST}; trying 127\.0\.0\.1:{port} again for up to 12 s", lines[lost]), lines[lost]
    tries = lines[lost + 1 : -1]
    assert tries, bea.tail()
    for line in tries:
        assert re.fullmatch(rf"still no host at 127\.0\.0\.1:{port} \(.+\); trying again, \d+ s left", line), line
    assert lines[-1].startswith(f"cannot reach the host at 127.0.0.1:{port} after 12 s (nothing answers on that port)")
    assert "stopping" in lines[-1] and "closed by the host" not in bea.text


@pytest.mark.slow
def test_a_table_hosted_by_another_process_is_not_taken_twice(children):
    host = Host(children)
    host.start()
    second = children.start("second", *host.args, home="host")
    assert second.finish() == 2
    assert re.search(r"table [0-9a-f]{32} is being hosted by another briscola process .*add --new", second.text)


@pytest.mark.slow
def test_a_kept_table_that_cannot_be_read_is_said_with_the_command_that_hosts_a_new_one(children):
    host = Host(children)
    table = table_of(host.start())
    host.kill()
    transcript = children.folder / "host" / "transcripts" / f"{table}-host.bin"
    transcript.write_bytes(transcript.read_bytes() + b"\x00\x00\x00\x05garbage")
    broken = host.kids.start("host", *host.args)
    assert broken.finish() == 2
    assert broken.text.splitlines()[-1].endswith("the same command with --new hosts a new table")
    fresh = host.start("--new")
    assert table_of(fresh) != table


def test_the_same_command_is_the_options_that_make_the_table():
    base = HostOptions(game="briscola", players=3, bots=1, code="abc", port=0)
    same = HostOptions(game="briscola", players=3, bots=1, code="xyz", port=0, name="Ann", headless=True, ascii=True)
    assert command_key(base) == command_key(same)  # the code's value is checked against the table's own
    for other in (
        HostOptions(game="briscola", players=3, bots=1, code="abc", port=7777),
        HostOptions(game="briscola", players=3, bots=2, code="abc", port=0),
        HostOptions(game="briscola", players=3, bots=1, port=0),
        HostOptions(game="briscola", players=3, bots=1, open=True, port=0),
        HostOptions(game="briscola", players=3, bots=1, code="abc", port=0, option=(("match", 3),)),
    ):
        assert command_key(other) != command_key(base), other


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_app_shows_each_try_and_closes_at_once_when_the_host_serves_another_table(children):
    """A person's seat in the app (a real terminal: tmux, 80x24): the host killed, the line
    above the seats says what it waits for and how long is left; the host back with a new
    table, the app closes at once, prints why and exits 4."""
    host = Host(children, players=2)
    host.start()
    argv = [*BRISCOLA, "join", f"127.0.0.1:{host.port}", "--code", CODE, "--name", "Ada", "--retry", "600"]
    env = f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none"
    env += f" BRISCOLA_HOME={children.folder / 'ada'}"
    name = session_name("briscola-join")
    shell = f"env {env} PYTHONPATH={os.getcwd()} {shlex.join(argv)}; echo exit status $?; sleep 30"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", os.getcwd(), shell)
    try:
        wait_until(lambda: "? help" in capture(name), "the table on the screen")  # (its keys' line)
        host.kill()
        wait_until(lambda: "still no host at 127.0.0.1:" in capture(name), "a try on the screen")
        assert re.search(r"trying again, \d+ s left", capture(name).replace("\n", " ")), capture(name)
        host.start("--new", "--port", str(host.port))
        wait_until(lambda: "exit status" in capture(name), "the app to close")
        screen = tmux("capture-pane", "-p", "-J", "-t", name, check=False)
        assert "exit status 4" in screen and "Traceback" not in screen, screen
        assert f"briscola join: the host at 127.0.0.1:{host.port} now serves another table (" in screen, screen
    finally:
        tmux("kill-session", "-t", name, check=False)


def _pane(name: str, argv: list[str], home: Path) -> None:
    """`argv` in a tmux session of its own at 80x24, the process itself the pane's (exec): a kill
    of the pane's process is a kill of briscola."""
    env = f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none BRISCOLA_HOME={home}"
    shell = f"exec env {env} PYTHONPATH={os.getcwd()} {shlex.join(argv)}"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", os.getcwd(), shell)


def _kill_pane_process(name: str) -> None:
    pid = int(tmux("list-panes", "-t", name, "-F", "#{pane_pid}").split()[0])
    os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_host_restarted_in_its_own_turn_is_back_on_the_joined_screen_without_a_key(children):
    """Both players in the app (tmux, 80x24). At the host player's own turn the host is killed
    and started again with the same command: the joined player's screen says the host is back
    within 2 s of the host listening again, with no key pressed by anyone, and the host's
    screen does not show the joined player away."""
    port_file = children.folder / "port"
    host_argv = [
        *BRISCOLA, "host", "--game", "briscola", "--players", "2", "--bind", "127.0.0.1", "--port", "0",
        "--port-file", str(port_file), "--code", CODE, "--name", "Ada", "--hands", "1",
    ]  # fmt: skip
    host, bo = session_name("briscola-host"), session_name("briscola-bo")
    try:
        _pane(host, host_argv, children.folder / "ada")
        wait_until(lambda: port_file.exists() and port_file.read_text().strip().isdigit(), "the host to listen")
        port = port_file.read_text().strip()
        join = [*BRISCOLA, "join", f"127.0.0.1:{port}", "--code", CODE, "--name", "Bo", "--retry", "120"]
        _pane(bo, join, children.folder / "bo")
        wait_until(lambda: "Play a card" in capture(host) or "Play a card" in capture(bo), "a first turn")
        if "Play a card" in capture(bo):  # Bo leads: Bo plays, and then it is the host player's turn
            tmux("send-keys", "-t", bo, "1", "Enter")
        wait_until(lambda: "Play a card" in capture(host), "the host player's turn")
        port_file.unlink()
        _kill_pane_process(host)
        wait_until(lambda: "connection lost" in capture(bo), "the joined player to see the host gone")
        tmux("kill-session", "-t", host, check=False)
        _pane(host, host_argv, children.folder / "ada")  # the same command: the table taken up
        wait_until(lambda: port_file.exists() and port_file.read_text().strip().isdigit(), "the host again")
        listening = time.monotonic()
        wait_until(lambda: "host is back" in capture(bo), "the host is back, on the joined screen", timeout=10)
        assert time.monotonic() - listening <= 2.0, capture(bo)
        wait_until(lambda: "Play a card" in capture(host), "the host player's turn, again")
        wait_until(lambda: not re.search(r"Bo .*(←|<-) away", capture(host)), "Bo not away on the host's screen", 5)
        beside_the_log = "\n".join(line.split("│")[0] for line in capture(bo).splitlines())
        assert "connection lost" not in beside_the_log and "trying" not in beside_the_log, capture(bo)
    finally:
        for name in (host, bo):
            tmux("kill-session", "-t", name, check=False)
