"""The host's memory under hostile load, on 127.0.0.1: it must stay flat.

    python -m bench.host_memory                 # the figures, one line each
    python -m bench.host_memory --json          # the same as one JSON object
    python -m bench.host_memory --refusals 2000 --reconnections 2000 --flood 5000

One `briscola host` process (Briscola for two, no computer players, its own
BRISCOLA_HOME in a temporary folder deleted at the end) serves a table that
stays in its join phase: the bench's own player takes seat 0, seat 1 stays
free. Its resident memory (VmRSS in /proc/PID/status, and the peak VmHWM) is
read after it listens, after the set-up, after each quarter of the first two
phases and after the third:

1. **Refusals.** An outsider without the code opens connections that say
   nothing, holding up to `--hold` (300) of them open at once, until the host
   has closed `--refusals` (10,000) of them by a refusal (or an eviction) for
   load.
2. **Reconnections with stalled readers.** `--spectators` (50) spectators
   with a 4 KiB receive buffer read their welcome and then nothing more; the
   bench's player (seat 0's key) connects and leaves `--reconnections`
   (10,000) times: every time the seat goes away and comes back, which the
   host tells every connection.
3. **A flood.** The same key submits junk as fast as the host lets it,
   reconnecting whenever it is closed, until `--flood` (20,000) messages
   have been sent or `--flood-seconds` (15) have passed.

The connections made by hand are those of tests/helpers/network.py (`Raw`,
`sit`), so they follow the handshake as it changes. With
`--stats`, the host is started with its hidden `--limit stats_seconds=1` and its
last "stats:" line (connections, handlers, queued bytes, rate buckets) is
printed too. Every loop is bounded in count and time (`--timeout` per
phase), all traffic goes to 127.0.0.1, and the host is killed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import select
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

from protocol import handshake as hs
from protocol.codec import FrameReader
from protocol.identity import Identity
from protocol.session import TableSession
from tests.helpers.network import CODE, Raw, sit

ROOT = Path(__file__).resolve().parent.parent

BRISCOLA = [sys.executable, "-m", "briscola_tui.cli"]


class BenchError(RuntimeError):
    pass


def memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process, in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


class Host:
    """The host process; its output read as it comes (it must never block on a full pipe)."""

    def __init__(self, folder: Path, extra: list[str]):
        port_file = folder / "port"
        argv = [
            *BRISCOLA,
            "host",
            "--game",
            "briscola",
            "--players",
            "2",
            "--bots",
            "0",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--port-file",
            str(port_file),
            "--code",
            CODE,
            "--transcript",
            str(folder / "host.bin"),
            *extra,
        ]
        env = {**os.environ, "BRISCOLA_HOME": str(folder / "home"), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            text=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.lines = 0
        self.counts: dict[str, int] = {}
        self.last: deque[str] = deque(maxlen=30)
        self.stats = ""
        self.lock = threading.Lock()
        threading.Thread(target=self._pump, daemon=True).start()
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip().isdigit()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise BenchError("the host did not listen:\n" + self.tail())
            time.sleep(0.05)
        self.port = int(port_file.read_text())

    PATTERNS = {
        "joined": re.compile(r"^connection \d+ \(.*\) joined"),
        "dropped": re.compile(r"^dropped a message from"),
        "too many messages": re.compile(r"too many messages"),
        "no handshake in time": re.compile(r"no handshake in time"),
        "refusing": re.compile(r"^refusing "),
        "too slow": re.compile(r"too slow to read"),
        "busy": re.compile(r"busy"),
    }

    def _pump(self) -> None:
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            with self.lock:
                self.lines += 1
                self.last.append(line)
                if line.startswith("stats: "):
                    self.stats = line
                for name, pattern in self.PATTERNS.items():
                    if pattern.search(line):
                        self.counts[name] = self.counts.get(name, 0) + 1

    def count(self, name: str) -> int:
        with self.lock:
            return self.counts.get(name, 0)

    def tail(self) -> str:
        with self.lock:
            return "\n".join(self.last)

    def memory(self) -> tuple[float, float]:
        if self.proc.poll() is not None:
            raise BenchError(f"the host died (exit {self.proc.returncode}):\n{self.tail()}")
        return memory(self.proc.pid)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass


def settle(seconds: float = 1.0) -> None:
    time.sleep(seconds)


def stalled_spectator(port: int) -> Raw:
    """A spectator with a 4 KiB receive buffer (set before it connects, so the kernel does not
    grow it) that reads its welcome and the entries so far, and then nothing more."""
    raw = Raw(port, rcvbuf=4096)
    raw.hello("spectator", b"", "")
    kind, fields = raw.next()
    if kind != "welcome":
        raise BenchError(f"a spectator got {kind} {fields}")
    for _ in range(fields[2]):
        raw.next()
    return raw


# --- the phases --------------------------------------------------------------------------------


def take_seat(port: int, identity: Identity) -> None:
    """Seat 0 for this key: the handshake, then its join, once ordered."""
    raw, seat, entries = sit(port, identity)
    try:
        session = TableSession(seat, identity, "bench")
        owed = [m for data in entries for m in session.receive(data).messages] + session.start().messages
        for message in owed:
            raw.send(hs.submit(message))
        deadline = time.monotonic() + 30
        while seat not in session.keys:
            item = raw.next(max(0.1, deadline - time.monotonic()))
            if item is None:
                raise BenchError("the host closed the player's connection before its join")
            if item[0] == "entry":
                session.receive(item[1][0])
    finally:
        raw.close()


def refusals(port: int, wanted: int, hold: int, timeout: float) -> dict:
    """Idle connections from an outsider without the code, until the host has closed `wanted`."""
    chooser = selectors.DefaultSelector()
    held: dict[socket.socket, FrameReader] = {}
    closed = opened = gave_up = 0
    kinds: dict[str, int] = {}
    began = time.monotonic()
    deadline = began + timeout
    while closed < wanted and time.monotonic() < deadline:
        if len(held) < hold:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            except OSError:
                time.sleep(0.01)
                continue
            sock.setblocking(False)
            opened += 1
            held[sock] = FrameReader()
            chooser.register(sock, selectors.EVENT_READ)
        else:  # nothing was closed for a while: let the oldest go ourselves
            sock = next(iter(held))
            chooser.unregister(sock)
            del held[sock]
            sock.close()
            gave_up += 1
        for key, _ in chooser.select(0 if len(held) < hold else 0.05):
            sock = key.fileobj
            frames = held[sock]
            try:
                while chunk := sock.recv(65536):
                    frames.feed(chunk)
            except BlockingIOError:
                continue  # not closed yet
            except OSError:
                pass
            try:
                while (data := frames.next_frame()) is not None:
                    kind = hs.parse(data)[0]
                    kinds[kind] = kinds.get(kind, 0) + 1
            except Exception:  # noqa: BLE001 - whatever it was, the host closed it
                kinds["?"] = kinds.get("?", 0) + 1
            chooser.unregister(sock)
            del held[sock]
            sock.close()
            closed += 1
    for sock in held:
        sock.close()
    chooser.close()
    return {
        "opened": opened,
        "closed_by_host": closed,
        "frames": kinds,
        "closed_by_us": gave_up,
        "seconds": round(time.monotonic() - began, 1),
    }


def reconnections(port: int, identity: Identity, wanted: int, timeout: float) -> dict:
    done = refused = 0
    began = time.monotonic()
    deadline = began + timeout
    while done + refused < wanted and time.monotonic() < deadline:
        try:
            raw, _, _ = sit(port, identity)
        except (AssertionError, OSError, TimeoutError):
            refused += 1
            time.sleep(0.01)
            continue
        raw.close()
        done += 1
    return {"reconnections": done, "refused": refused, "seconds": round(time.monotonic() - began, 1)}


def closed(raw: Raw) -> bool:
    """Has the host closed this connection? (What it sent meanwhile is read and dropped.)"""
    while select.select([raw.sock], [], [], 0)[0]:
        try:
            if not raw.sock.recv(65536):
                return True
        except OSError:
            return True
    return False


def flood(port: int, identity: Identity, wanted: int, timeout: float) -> dict:
    """Junk submitted by a seated key, 50 messages at a time as long as the host keeps the
    connection, reconnecting each time it is closed; a reconnection that is refused is tried
    again 50 ms later."""
    sent = connections = refused = 0
    began = time.monotonic()
    deadline = began + timeout
    while sent < wanted and time.monotonic() < deadline:
        try:
            raw, _, _ = sit(port, identity)
        except (AssertionError, OSError, TimeoutError):
            refused += 1
            time.sleep(0.05)
            continue
        connections += 1
        try:
            raw.sock.settimeout(2)
            while sent < wanted and time.monotonic() < deadline and not closed(raw):
                for _ in range(50):
                    raw.send(hs.submit(secrets.token_bytes(64)))
                sent += 50
                time.sleep(0.005)
        except OSError:
            pass
        raw.close()
    return {
        "sent": sent,
        "connections": connections,
        "refused": refused,
        "seconds": round(time.monotonic() - began, 1),
    }


def in_quarters(run, wanted: int, name: str, host: Host, readings: dict[str, float]) -> dict:
    """`run(n)` four times for a quarter of `wanted` each, the host's memory read after each
    (`readings[f"{name}_{done}"]`); the figures each run returned, summed."""
    total: dict = {}
    done = 0
    for quarter in range(4):
        n = wanted // 4 + (1 if quarter < wanted % 4 else 0)
        figures = run(n)
        done += n
        settle(2)
        readings[f"after_{done}_{name}"] = host.memory()[0]
        for key, value in figures.items():
            if isinstance(value, dict):
                merged = total.setdefault(key, {})
                for k, v in value.items():
                    merged[k] = merged.get(k, 0) + v
            else:
                total[key] = round(total.get(key, 0) + value, 1)
    return total


def measure(args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="briscola-host-memory-"))
    extra = ["--handshake-seconds", str(args.handshake_seconds), *args.host_arg]
    if args.stats:
        extra += ["--limit", "stats_seconds=1"]
    host = Host(folder, extra)
    spectators: list[Raw] = []
    figures: dict = {"host_args": extra}
    readings: dict[str, float] = {}
    try:
        settle(2)
        readings["listening"] = host.memory()[0]
        identity = Identity.generate()
        take_seat(host.port, identity)
        for _ in range(args.spectators):
            spectators.append(stalled_spectator(host.port))
        settle()
        readings["set_up"] = host.memory()[0]
        # Each of the first two phases in quarters, the memory read after each: a leak grows with
        # the count, a high-water mark does not.
        figures["refusals"] = in_quarters(
            lambda n: refusals(host.port, n, args.hold, args.timeout), args.refusals, "refusals", host, readings
        )
        figures["refusals"]["stats"] = host.stats
        figures["reconnections"] = in_quarters(
            lambda n: reconnections(host.port, identity, n, args.timeout),
            args.reconnections,
            "reconnections",
            host,
            readings,
        )
        figures["reconnections"]["stats"] = host.stats
        figures["flood"] = flood(host.port, identity, args.flood, args.flood_seconds)
        settle(2)
        rss, peak = host.memory()
        readings["after_flood"] = rss
        figures["flood"]["taken_by_host"] = host.count("dropped")
        figures["flood"]["closed_too_many_messages"] = host.count("too many messages")
        figures["flood"]["stats"] = host.stats
        figures["peak_mib"] = round(peak, 1)
        figures["host_lines"] = {name: host.count(name) for name in Host.PATTERNS}
    finally:
        for raw in spectators:
            raw.close()
        host.kill()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    figures["rss_mib"] = {name: round(value, 1) for name, value in readings.items()}
    figures["growth_mib"] = round(readings["after_flood"] - readings["set_up"], 1)
    return figures


def measured(parser: argparse.ArgumentParser, measure) -> dict | None:
    """The options every host bench has (--host-arg, --keep, --json), the figures `measure`
    takes; None once printed as JSON (--json), else the figures, to be said in lines."""
    parser.add_argument("--host-arg", action="append", default=[], help="one more argument for the host")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return None
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refusals", type=int, default=10_000)
    parser.add_argument("--hold", type=int, default=300, help="idle connections held open at once")
    parser.add_argument("--reconnections", type=int, default=10_000)
    parser.add_argument("--spectators", type=int, default=50, help="spectators that never read")
    parser.add_argument("--flood", type=int, default=20_000, help="junk messages to send")
    parser.add_argument("--flood-seconds", type=float, default=15.0)
    parser.add_argument("--handshake-seconds", type=float, default=10.0)
    parser.add_argument("--timeout", type=float, default=300.0, help="the longest one phase may take")
    parser.add_argument("--stats", action="store_true", help="the host's hidden stats line (not on old hosts)")
    figures = measured(parser, measure)
    if figures is None:
        return 0
    rss = figures["rss_mib"]
    print("host RSS (MiB): " + ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in rss.items()))
    print(f"growth after set-up: {figures['growth_mib']} MiB; peak {figures['peak_mib']} MiB")
    for phase in ("refusals", "reconnections", "flood"):
        values = {k: v for k, v in figures[phase].items() if k != "stats"}
        print(f"{phase}: {values}")
        if figures[phase].get("stats"):
            print(f"  {figures[phase]['stats']}")
    print(f"host lines: {figures['host_lines']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
