"""The host under handshake floods from the players' own address, on 127.0.0.1: its memory and
the table's pace must hold.

    python -m bench.handshake_floods                # the figures, one line each
    python -m bench.handshake_floods --json         # the same as one JSON object
    python -m bench.handshake_floods --seconds 20

One `briscola host` process (Briscola for four, three computer players, a match to 5 hands won to keep
playing, its own BRISCOLA_HOME in a temporary folder deleted at the end) plays against one
`briscola join --bot random` process; a spectator made by hand counts the entries as they come.
Each phase, at a table of its own (a fresh host and player, the hand begun), lasts `--seconds`
(10); for each, the host's resident memory at its end (VmRSS, and the peak VmHWM) and the
table's pace (entries a second, over the phase) are given:

1. **quiet**: nothing else happens (the pace to compare with);
2. **bytes**: an outsider re-opens 260 connections that each send one byte, each closed by it
   after 0.5 s at most (so every one is young: tests/helpers/floods.py `Flood`);
3. **hellos**: the same with a hello each (a SPAKE2 half asked of the host each time);
4. **halves**: 8 threads send hellos one after another and never finish the key exchange
   (`half_hellos`), as a client without the code would.

For each flood, what the host answered is counted by kind ("exchange": a SPAKE2 half made).
Every loop is bounded in time, all traffic goes to 127.0.0.1, and every process is killed at
the end.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.host_memory import BRISCOLA, Host, measured
from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import frame
from tests.helpers.floods import Flood, half_hellos
from tests.helpers.network import CODE, RawWatcher

ROOT = Path(__file__).resolve().parent.parent


class FloodHost(Host):
    """The host, its console's lines about wrong codes and unfinished exchanges counted too."""

    PATTERNS = {
        **Host.PATTERNS,
        "wrong codes summed up": re.compile(r"wrong join codes? .*in the last|tries refused"),
        "unfinished exchanges summed up": re.compile(r"never finished"),
    }


class Player:
    """`briscola join --bot random` at the host, in its own data folder."""

    def __init__(self, folder: Path, port: int):
        env = {**os.environ, "BRISCOLA_HOME": str(folder / "player"), "PYTHONUNBUFFERED": "1"}
        argv = [*BRISCOLA, "join", f"127.0.0.1:{port}", "--code", CODE, "--bot", "random", "--retry", "120"]
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    kill = Host.kill  # the same: its process, killed and waited for


def pace(watcher: RawWatcher, seconds: float) -> float:
    """Entries a second the spectator took over the next `seconds`."""
    before, start = len(watcher.entries), time.monotonic()
    time.sleep(seconds)
    return round((len(watcher.entries) - before) / (time.monotonic() - start), 1)


class Bytes:
    """`Flood`: connections that send `first` (a byte, or a hello), re-opened young."""

    def __init__(self, first: bytes):
        self.first = first

    def start(self, port: int, seconds: float) -> None:
        self.flood = Flood(port, first=self.first, seconds=seconds + 10)

    def stop(self) -> dict:
        self.flood.stop()
        return {"opened": self.flood.opened, "closed_by_host": self.flood.closed}


class Halves:
    """8 threads of `half_hellos`: key exchanges begun and never finished."""

    def start(self, port: int, seconds: float) -> None:
        self.stopping = threading.Event()
        self.answers: dict[str, int] = {}
        args = (port, self.stopping, self.answers)
        self.threads = [threading.Thread(target=half_hellos, args=args, daemon=True) for _ in range(8)]
        for thread in self.threads:
            thread.start()

    def stop(self) -> dict:
        self.stopping.set()
        for thread in self.threads:
            thread.join(30)
        return {"answers": dict(self.answers)}


def phase(args, attack) -> dict:
    """A fresh table, its hand begun; `attack` (if any) for `--seconds`: the pace meanwhile and
    the host's memory at the end."""
    folder = Path(tempfile.mkdtemp(prefix="briscola-handshake-floods-"))
    extra = [
        "--players",
        "4",
        "--bots",
        "3",
        "-o",
        "match=5",
        "--time-limit",
        "60",
        "--guess-report-seconds",
        "5",
        *args.host_arg,
    ]
    host = FloodHost(folder, extra)
    player = Player(folder, host.port)
    watcher = None
    figures: dict = {}
    try:
        watcher = RawWatcher(host.port)
        deadline = time.monotonic() + 60
        while len(watcher.entries) < 20 and time.monotonic() < deadline:  # the hand has begun
            time.sleep(0.1)
        if attack is not None:
            attack.start(host.port, args.seconds)
        try:
            figures["entries_per_second"] = pace(watcher, args.seconds)
        finally:
            if attack is not None:
                figures.update(attack.stop())
        rss, peak = host.memory()
        figures["rss_mib"], figures["peak_mib"] = round(rss, 1), round(peak, 1)
        time.sleep(6 if attack is not None else 0)  # the console's summary
        figures["console"] = {"lines": host.lines, **{name: host.count(name) for name in FloodHost.PATTERNS}}
    finally:
        if watcher is not None:
            watcher.raw.close()
        player.kill()
        host.kill()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return figures


def measure(args) -> dict:
    hello = frame(hs.hello(Exchange("client", "nothing").message))
    attacks = {"quiet": None, "bytes": Bytes(b"\x00"), "hellos": Bytes(hello), "halves": Halves()}
    return {"seconds": args.seconds, **{name: phase(args, attack) for name, attack in attacks.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each phase lasts")
    figures = measured(parser, measure)
    if figures is None:
        return 0
    for name in ("quiet", "bytes", "hellos", "halves"):
        print(f"{name}: {figures[name]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
