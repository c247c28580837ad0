"""`briscola` processes on 127.0.0.1 and connections made by hand, for the network
tests (tests/test_network.py, test_tui_network.py, test_bot_process.py).

Each process has its own data folder (BRISCOLA_HOME) and otherwise the
environment of the test (tests/conftest.py points HOME and the XDG folders at
a temporary folder), ports are the ones the OS picks (`--port 0
--port-file`), every wait has a deadline, and the `children` fixture
(tests/conftest.py) kills every process it started, pass or fail.
"""

from __future__ import annotations

import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import FrameReader, frame
from protocol.identity import Identity

ROOT = Path(__file__).resolve().parent.parent.parent
BRISCOLA = [sys.executable, "-m", "briscola_tui.cli"]
CODE = "s3cret"
WAIT = 30.0
"""The longest any one wait may take (a hand takes a few seconds)."""


# --- processes --------------------------------------------------------------------------


class Child:
    """One `briscola` process: its output lines as they come; `driver(child, line)` sees each."""

    def __init__(self, name: str, argv: list[str], home: Path, driver=None, new_session: bool = False):
        """`new_session`: the process leads a process group of its own (killed whole with its
        children by `os.killpg`, as a server that starts another program is)."""
        self.name, self.argv, self.home, self.driver = name, argv, home, driver
        self.lines: list[str] = []
        self.changed = threading.Condition()
        env = {**os.environ, "BRISCOLA_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            text=True,
            bufsize=1,
            stdin=subprocess.PIPE if driver is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=new_session,
        )
        self.pump = threading.Thread(target=self._pump, daemon=True)
        self.pump.start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
            if self.driver is not None:
                self.driver(self, line)
        with self.changed:
            self.changed.notify_all()

    @property
    def text(self) -> str:
        with self.changed:
            return "\n".join(self.lines)

    def tail(self, n: int = 25) -> str:
        with self.changed:
            return f"--- {self.name} (exit {self.proc.poll()}) ---\n" + "\n".join(self.lines[-n:])

    def wait_for(self, pattern: str, timeout: float = WAIT) -> re.Match:
        """The first output line matching `pattern`, waiting for it."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for line in self.lines:
                    if (found := regex.search(line)) is not None:
                        return found
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self.pump.is_alive()):
                    raise AssertionError(f"{self.name}: no line like {pattern!r}\n{self.tail()}")
                self.changed.wait(min(left, 0.5))

    def finish(self, timeout: float = WAIT) -> int:
        """Its exit status, once it has ended by itself (it is killed after `timeout`)."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"{self.name} did not end in {timeout} s\n{self.tail()}") from None
        self.pump.join(5)
        return status

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


class Children:
    """Starts `briscola` processes and kills every one of them at the end."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.started: list[Child] = []
        self.closers: list = []  # sockets and proxies to close at the end

    def start(self, name: str, *args: str, home: str | None = None, driver=None) -> Child:
        child = Child(name, [*BRISCOLA, *args], self.folder / (home or name), driver)
        self.started.append(child)
        return child

    def close(self) -> None:
        for thing in self.closers:
            try:
                thing.close()
            except OSError:
                pass
        for child in self.started:
            child.kill()

    def report(self) -> str:
        return "\n".join(child.tail() for child in self.started)


def wait_until(predicate, what: str, timeout: float = WAIT, kids: Children | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}\n{kids.report() if kids else ''}")
        time.sleep(0.02)


class Human:
    """A person at the keyboard: answers each "your turn:" with one of the labels offered,
    `delay` seconds later; after `hold_at` moves, only once `go` is set."""

    def __init__(self, seed: int = 0, delay: float = 0.0, hold_at: int | None = None):
        self.rng = random.Random(seed)
        self.delay = delay
        self.moves = 0
        self.hold_at = hold_at
        self.go = threading.Event()

    def __call__(self, child: Child, line: str) -> None:
        if not line.startswith("your turn: "):
            return
        choices = line[len("your turn: ") :].split(" | ")
        if self.delay:
            time.sleep(self.delay)
        if self.hold_at is not None and self.moves >= self.hold_at:
            self.go.wait(WAIT)
        try:
            child.proc.stdin.write(self.rng.choice(choices) + "\n")
            child.proc.stdin.flush()
        except (OSError, ValueError):  # killed meanwhile
            return
        self.moves += 1


class Table:
    """A host process and the clients started around it."""

    def __init__(
        self, kids: Children, game: str, *, players: int | None = None, bots: int = 0, extra: tuple[str, ...] = ()
    ):
        self.kids = kids
        self.transcript = kids.folder / "host.bin"
        self.port_file = kids.folder / "port"
        self.args = [
            "host",
            "--game",
            game,
            "--bots",
            str(bots),
            "--bind",
            "127.0.0.1",
            "--code",
            CODE,
            "--hands",
            "1",
            "--transcript",
            str(self.transcript),
            "--port-file",
            str(self.port_file),
            *(["--players", str(players)] if players else []),
            *extra,
        ]
        self.port = 0
        self.host = self.start_host()
        self.clients: list[Child] = []

    def start_host(self) -> Child:
        """Start the host (again: the same command, on the same port) and wait until it listens."""
        self.port_file.unlink(missing_ok=True)
        host = self.kids.start("host", *self.args, "--port", str(self.port))
        wait_until(
            lambda: (
                self.port_file.exists() and self.port_file.read_text().strip().isdigit() or host.proc.poll() is not None
            ),
            "the host to listen",
            kids=self.kids,
        )
        assert host.proc.poll() is None, host.tail()
        self.port = int(self.port_file.read_text())
        self.host = host
        return host

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def join(
        self, name: str, *, seat: int = -1, human: Human | None = None, port: int | None = None, code: str | None = CODE
    ) -> Child:
        args = ["join", f"127.0.0.1:{port or self.port}", "--name", name, "--retry", "20"]
        args += ["--code", code] if code is not None else []
        args += ["--seat", str(seat)] if seat >= 0 else []
        args += [] if human is not None else ["--bot", "random"]
        child = self.kids.start(name, *args, driver=human)
        self.clients.append(child)
        return child

    def watch(self, name: str = "watcher", code: str | None = CODE, port: int | None = None) -> Child:
        child = self.kids.start(
            name,
            "watch",
            f"127.0.0.1:{port or self.port}",
            "--retry",
            "20",
            *(["--code", code] if code is not None else []),
        )
        self.clients.append(child)
        return child

    def restart(self, child: Child) -> Child:
        """The same command again, with the same data folder and the same driver."""
        again = Child(child.name, child.argv, child.home, child.driver)
        self.kids.started.append(again)
        self.clients[self.clients.index(child)] = again
        return again

    def finish(self) -> str:
        """Every process ends by itself with status 0; the final scores, the same for all."""
        for client in self.clients:
            assert client.finish() == 0, self.kids.report()
        assert self.host.finish() == 0, self.kids.report()
        scores = self.host.wait_for(r"^scores: (\[.*\])$").group(1)
        for client in self.clients:
            assert client.wait_for(r"^the table is over: scores (\[[^\]]*\])").group(1) == scores, client.tail()
            assert "not a move" not in client.text
        return scores

    def stored(self) -> list[Path]:
        """Every transcript stored: the host's file and each client's copy."""
        paths = [self.transcript]
        for client in self.clients:
            copies = sorted((client.home / "transcripts").glob("*.bin"))
            assert len(copies) == 1, f"{client.name}: {copies}"
            paths += copies
        return paths

    def verify_all(self, scores: str) -> None:
        """`briscola verify` passes every stored transcript, with these scores."""
        verify(self.stored(), scores)


def verify(paths: list[Path], scores: str) -> None:
    """`briscola verify` passes each transcript: one hand audited, with these scores."""
    for path in paths:
        done = subprocess.run([*BRISCOLA, "verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
        assert done.returncode == 0, f"{path}\n{done.stdout}\n{done.stderr}"
        assert "all checks pass" in done.stdout
        assert re.search(r"entries checked, 1 hand audited; scores (\[[^\]]*\])", done.stdout).group(1) == scores


# --- connections by hand ---------------------------------------------------------------


class Raw:
    """A connection made by hand: frames out, frames in. `exchange` does the key exchange over
    a join code; from then on `send` seals each frame and `next` opens each one, as a client
    does. `received` holds every frame taken out as it read once opened (length prefix and
    payload: what this connection learned), `wire` every byte as it came."""

    def __init__(self, port: int, rcvbuf: int | None = None):
        self.sock = socket.socket()
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(WAIT)
        self.sock.connect(("127.0.0.1", port))
        self.frames = FrameReader()
        self.received = bytearray()
        self.wire = bytearray()
        self.ends: list[int] = []  # offset in `received` after each frame taken out
        self.kinds: list[str] = []  # the kind of each frame taken out
        self.channel = None  # once `exchange` has made one
        self.table_id = b""
        self.binding = b""  # the exchange's transcript hash (a player's proof signs it)

    def send(self, data: bytes) -> None:
        self.sock.sendall(frame(self.channel.seal(data) if self.channel is not None else data))

    def next(self, timeout: float = WAIT) -> tuple[str, list] | None:
        """The next frame (kind, fields), or None once the host has closed the connection."""
        deadline = time.monotonic() + timeout
        while (data := self.frames.next_frame()) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame from the host")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                return None
            if not chunk:
                return None
            self.wire += chunk
            self.frames.feed(chunk)
        if self.channel is not None:
            data = self.channel.open(data)
        self.received += frame(data)
        self.ends.append(len(self.received))
        kind, fields = hs.parse(data)
        self.kinds.append(kind)
        return kind, fields

    def exchange(self, code: str = CODE) -> tuple[str, list]:
        """SPAKE2 over `code` and its key confirmation: the host's answer to our confirmation
        ("confirm", checked: from then on every frame is sealed; or "refuse")."""
        exchange = Exchange("client", code)
        self.send(hs.hello(exchange.message))
        kind, fields = self.next()
        if kind != "exchange":
            return kind, fields
        self.table_id, theirs = fields
        exchange.finish(theirs, self.table_id, hs.VERSION)
        self.send(hs.confirm(exchange.confirmation()))
        kind, fields = self.next()
        if kind == "confirm":
            exchange.check(fields[0])
            self.channel, self.binding = exchange.channel(), exchange.transcript
        return kind, fields

    def hello(self, role: str, key: bytes, name: str, code: str = CODE, seat: int = -1, have=0, head=bytes(32)) -> None:
        """The key exchange, then the client's request (sealed)."""
        answer = self.exchange(code)
        assert answer[0] == "confirm", answer
        self.send(hs.request(role, key, name, seat, have, head))

    def closed_by_host(self, timeout: float = WAIT) -> list[tuple[str, list]]:
        """Read until the host closes the connection; the frames it sent meanwhile."""
        got = []
        while (item := self.next(timeout)) is not None:
            got.append(item)
        return got

    def close(self) -> None:
        self.sock.close()


def spectate(port: int, code: str = CODE) -> tuple[Raw, list[bytes]]:
    """A spectator by hand: the key exchange, its request, welcome, the entries so far."""
    raw = Raw(port)
    raw.hello("spectator", b"", "", code)
    kind, fields = raw.next()
    assert kind == "welcome", (kind, fields)
    table_id, seat, count = fields
    assert seat == -1 and table_id == raw.table_id
    entries = []
    for _ in range(count):
        kind, fields = raw.next()
        assert kind == "entry"
        entries.append(fields[0])
    return raw, entries


def sit(port: int, identity: Identity, code: str = CODE, seat: int = -1) -> tuple[Raw, int, list[bytes]]:
    """A player by hand: the key exchange, its request with the key, the signed challenge,
    welcome (its seat), the entries."""
    raw = Raw(port)
    raw.hello("player", identity.public_bytes, "by hand", code, seat)
    kind, fields = raw.next()
    assert kind == "challenge", (kind, fields)
    raw.send(hs.proof(identity, fields[0], raw.table_id, raw.binding))
    kind, fields = raw.next()
    assert kind == "welcome", (kind, fields)
    table_id, seat, count = fields
    entries = [raw.next()[1][0] for _ in range(count)]
    return raw, seat, entries


class RawWatcher(threading.Thread):
    """A spectator by hand that reads the whole table (until the host closes the connection)."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.raw, self.entries = spectate(port)
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            while (item := self.raw.next()) is not None:
                kind, fields = item
                if kind in ("bye", "away"):
                    continue
                assert kind == "entry", kind
                self.entries.append(fields[0])
        except BaseException as error:  # noqa: BLE001 - reported by done()
            self.error = error

    def done(self) -> None:
        self.join(WAIT)
        assert not self.is_alive(), "the host never closed the spectator's connection"
        assert self.error is None, repr(self.error)
        self.raw.close()

    def entry_ends(self) -> list[int]:
        """Offset in the bytes received (opened) after each entry's frame."""
        return [end for kind, end in zip(self.raw.kinds, self.raw.ends) if kind == "entry"][: len(self.entries)]


class Proxy:
    """A TCP relay in front of the host. `cut()` drops the live connections; it keeps listening.
    `cut(hold=True)` also closes every new connection at once, until `release()`.
    `tap(way, number, chunk)`, if given, sees every chunk relayed ("up": client to host,
    "down"; `number` counts the connections from 1) and returns what to relay instead.
    `source`: the address its connections to the host come from (another loopback address,
    such as 127.0.0.2, is another address to the host's limits)."""

    def __init__(self, target: int, tap=None, source: str = "127.0.0.1"):
        self.target = target
        self.tap = tap
        self.source = source
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.live: list[socket.socket] = []
        self.accepted = 0
        self.holding = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.holding.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), 5, (self.source, 0))
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.live += [client, upstream]
                self.accepted += 1
                number = self.accepted
            threading.Thread(target=self._pipe, args=(client, upstream, "up", number), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, "down", number), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, way: str, number: int) -> None:
        try:
            while chunk := source.recv(65536):
                if self.tap is not None:
                    chunk = self.tap(way, number, chunk)
                sink.sendall(chunk)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self, hold: bool = False) -> None:
        if hold:
            self.holding.set()
        with self.lock:
            live, self.live = self.live, []
        for s in live:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def release(self) -> None:
        self.holding.clear()

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        except OSError:
            pass
        self.listener.close()
        self.cut()


def rss_mib(pid: int, peak: bool = False) -> float:
    """What process `pid` holds in memory now (its resident set), in MiB; `peak`: the most it
    ever held (its high-water mark)."""
    field = "VmHWM:" if peak else "VmRSS:"
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field}")


def frames_of(data: bytes) -> list[bytes]:
    """The frames in bytes seen on a connection, in order."""
    reader = FrameReader(max_buffer=len(data) + (1 << 17))
    reader.feed(data)
    return reader.frames()
