"""A club's server for the tests: `briscola club serve` run as a real process in its own data
folder on loopback (127.0.0.1; 127.0.0.2 for TLS) (its configuration written by the product's own generator, a port the OS
picks: `--port 0`), waited for with a deadline, and killed with its nats-server at the end
(the process group: nothing left behind). Members are invited and kept in-process (`main`)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

from briscola_tui.cli import main

from .network import BRISCOLA, Child

WAIT = 30.0
"""The longest any one wait may take."""


@contextlib.contextmanager
def home(folder: Path) -> Iterator[Path]:
    """BRISCOLA_HOME pointed at `folder` for what runs in this process meanwhile."""
    before = os.environ.get("BRISCOLA_HOME")
    os.environ["BRISCOLA_HOME"] = str(folder)
    try:
        yield folder
    finally:
        if before is None:
            del os.environ["BRISCOLA_HOME"]
        else:
            os.environ["BRISCOLA_HOME"] = before


def run(folder: Path, *argv: str) -> tuple[int, str, str]:
    """`briscola ARGV` in this process with `folder` as its data folder: status, out, err."""
    out, err = io.StringIO(), io.StringIO()
    with home(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


class ClubServer:
    """`briscola club serve` for the club `name` in the data folder `folder` (a `Child` leading
    a process group of its own, so that its nats-server is killed with it)."""

    def __init__(
        self, folder: Path, name: str = "friends", bind: str = "127.0.0.1", *more: str, wait: bool = True
    ) -> None:
        self.folder, self.name = folder, name
        self.url, self.server_pid = "", 0
        argv = [*BRISCOLA, "club", "serve", "--name", name, "--bind", bind, "--port", "0", *more]
        self.child = Child(f"club serve {name}", argv, folder, new_session=True)
        if wait:
            self.ready()

    def ready(self) -> None:
        """Waited for until it serves: its URL and its nats-server's process id."""
        self.url = self.wait_for(r"serving at ((nats|tls)://127\.0\.0\.\d+:\d+)")[1]
        self.server_pid = int((self.folder / "club" / "nats.pid").read_text().strip())

    def wait_for(self, pattern: str) -> re.Match:
        return self.child.wait_for(pattern, WAIT)

    def invite(self, member: str) -> str:
        """The line `briscola club invite` prints to give `member` (it reloads the server)."""
        status, out, err = run(self.folder, "club", "invite", member)
        assert status == 0 and "has read the change" in err, (out, err)
        return out.strip()

    def close(self) -> None:
        """The serving process and its nats-server killed (their process group), and waited for."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.proc.pid, signal.SIGKILL)
        self.child.kill()  # (waited for, its pipes closed)
        deadline = time.monotonic() + WAIT
        while self.server_pid and _alive(self.server_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not (self.server_pid and _alive(self.server_pid)), f"nats-server {self.server_pid} left behind"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):  # a zombie (not ours to reap) is gone for every purpose
        return " Z" not in Path(f"/proc/{pid}/stat").read_text().split(")")[-1][:3]
    return True


def cluster(folder: Path, count: int = 3) -> list[ClubServer]:
    """`count` nodes serving the club friends as one cluster on loopback (data folders a, b, c...
    under `folder`), the first naming the others' cluster ports, the others serving with the
    routes it prints; each waited for. The caller closes them (all started are, on a failure)."""
    from briscola_tui.club.server import free_port

    ports = [free_port("127.0.0.1") for _ in range(count)]
    nodes: list[ClubServer] = []
    try:
        others = ",".join(f"nats://127.0.0.1:{p}" for p in ports[1:])
        cluster_options = ("--cluster-port", str(ports[0]), "--routes", others)
        nodes.append(ClubServer(folder / "a", "friends", "127.0.0.1", *cluster_options, wait=False))
        routes = nodes[0].wait_for(r"every other node serves with --routes (\S+)")[1]
        for k in range(1, count):
            cluster_options = ("--cluster-port", str(ports[k]), "--routes", routes)
            nodes.append(ClubServer(folder / "abcdefgh"[k], "friends", "127.0.0.1", *cluster_options, wait=False))
        for node in nodes:
            node.ready()
    except BaseException:
        for node in nodes:
            node.close()
        raise
    return nodes


def join(member_home: Path, line: str) -> None:
    """`briscola club add` of the invitation line in the member's data folder."""
    token = line.split()[-1]
    status, out, err = run(member_home, "club", "add", token)
    assert status == 0, (out, err)
