"""A club's server for the tests: `briscola club serve` run as a real process in its own data
folder on loopback (127.0.0.1; 127.0.0.2 for TLS) (its configuration written by the product's own generator, a port the OS
picks: `--port 0`), waited for with a deadline, and killed with its nats-server at the end
(the process group: nothing left behind). Members are invited and kept in-process (`main`)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import signal
import threading
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

from briscola_tui.cli import main

from .network import BRISCOLA, Child, Children, Human, verify

T = TypeVar("T")

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
        self,
        folder: Path,
        name: str = "friends",
        bind: str = "127.0.0.1",
        *more: str,
        wait: bool = True,
        port: int | None = 0,
    ) -> None:
        """`port` None: the one the club's record keeps (a server started again)."""
        self.folder, self.name = folder, name
        self.url, self.server_pid = "", 0
        where = ["--port", str(port)] if port is not None else []
        argv = [*BRISCOLA, "club", "serve", "--name", name, "--bind", bind, *where, *more]
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


# --- tables through the club ------------------------------------------------------------


class ClubTable:
    """A table hosted through the club by the member whose data folder is `host_home`
    (`briscola host --headless --club`, one hand), and the joins and spectators around it, each
    by the join code alone and in its member's own data folder; every process is one of `kids`
    (killed at the end, pass or fail)."""

    def __init__(self, kids: Children, host_home: Path, *args: str, club: str = "friends") -> None:
        self.kids, self.club = kids, club
        self.homes = [host_home]
        self.host = self._start("host", host_home, "host", "--headless", "--club", club, "--hands", "1", *args)
        self.code = self.host.wait_for(rf"join with: briscola join (\S+) --club {club}$", WAIT)[1]
        self.clients: list[Child] = []

    def _start(self, name: str, folder: Path, *argv: str, driver: Human | None = None) -> Child:
        child = Child(name, [*BRISCOLA, *argv], folder, driver)
        self.kids.started.append(child)
        return child

    def join(self, folder: Path, name: str, *, human: Human | None = None, retry: int = 60) -> Child:
        """`briscola join CODE --club` (an easy computer player, or `human` at the keyboard)."""
        argv = ["join", self.code, "--club", self.club, "--headless", "--name", name, "--retry", str(retry)]
        child = self._start(name, folder, *argv, *([] if human else ["--bot", "easy"]), driver=human)
        self.clients.append(child)
        self.homes.append(folder)
        return child

    def watch(self, folder: Path) -> Child:
        child = self._start(f"watch {folder.name}", folder, "watch", self.code, "--club", self.club, "--headless")
        self.clients.append(child)
        self.homes.append(folder)
        return child

    def table_id(self) -> str:
        """The table's id, as `briscola tables --club --json` lists it (asked as its host)."""
        status, out, err = run(self.homes[0], "tables", "--club", self.club, "--json")
        assert status == 0, err
        (record,) = json.loads(out)
        return str(record["table"])

    def finish(self, timeout: float = 60.0) -> str:
        """Every process ends by itself with status 0, the same final scores for all, and no
        one named a cheat; the scores."""
        for client in self.clients:
            assert client.finish(timeout) == 0, self.kids.report()
        assert self.host.finish(timeout) == 0, self.kids.report()
        scores = self.host.wait_for(r"^scores: (\[.*\])$").group(1)
        for child in [self.host, *self.clients]:
            if child in self.clients:
                assert child.wait_for(r"^the table is over: scores (\[[^\]]*\])").group(1) == scores, child.tail()
            assert not re.search(r"(?i)cheat|culprit", child.text), child.tail()
        return scores

    def verify_all(self, scores: str) -> None:
        """`briscola verify` passes each data folder's one transcript, with these scores."""
        paths = []
        for folder in self.homes:
            found = sorted((folder / "transcripts").glob("*.bin"))
            assert len(found) == 1, f"{folder.name}: {found}"
            paths += found
        verify(paths, scores)


# --- a connection that hears everything ---------------------------------------------------


def monitor(server: ClubServer) -> str:
    """A user of the club's account that may subscribe to everything and publish nothing: this
    test's alone, added by hand to the configuration the product wrote (after the last invite,
    which writes it anew), the running server told to read it again; its seed."""
    from briscola_tui.club import keys, members

    seed = keys.new_seed()
    conf = server.folder / "club" / "nats.conf"
    lines = conf.read_text().splitlines()
    (at,) = [n for n, line in enumerate(lines) if line.startswith("accounts: ")]
    accounts = json.loads(lines[at][len("accounts: ") :])
    everything = {"publish": {"deny": [">"]}, "subscribe": {"allow": [">"]}}
    accounts["CLUB"]["users"].append({"nkey": keys.public_key(seed), "permissions": everything})
    lines[at] = "accounts: " + json.dumps(accounts)
    conf.write_text("\n".join(lines) + "\n")
    with home(server.folder):
        assert members.reload(), "the server did not read the monitor's configuration"
    return seed


class Loop:
    """An asyncio loop in a thread of its own, for NATS connections that live while the test's
    processes run; `run` waits for a coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = WAIT) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()


class Tap:
    """A connection of the monitor's (`monitor`) subscribed to `>`: every message's subject and
    payload in the club's account, as they pass (its queue unbounded: nothing dropped)."""

    def __init__(self, server: ClubServer, seed: str) -> None:
        self.seen: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()
        self.loop = Loop()
        self.nc = self.loop.run(self._connect(server.url, seed))

    async def _connect(self, url: str, seed: str) -> Any:
        import nats

        nc = await nats.connect(url, nkeys_seed_str=seed, inbox_prefix="_INBOX.tap", allow_reconnect=False)
        await nc.subscribe(">", cb=self._came, pending_msgs_limit=10_000_000, pending_bytes_limit=2 * 1024**3)
        await nc.flush(timeout=WAIT)
        return nc

    async def _came(self, msg: Any) -> None:
        with self.lock:
            self.seen.append((msg.subject, msg.data))

    def messages(self) -> list[tuple[str, bytes]]:
        with self.lock:
            return list(self.seen)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.loop.run(self.nc.drain())
        self.loop.stop()
