"""The host under handshake floods from the players' own address, on 127.0.0.1: its memory and
the table's pace must hold.

    python bench/handshake_floods.py                # the figures, one line each
    python bench/handshake_floods.py --json         # the same as one JSON object
    python bench/handshake_floods.py --seconds 20

One `briscola host` process (Briscola for two, one computer player, a match to 5 hands won to keep
playing, its own BRISCOLA_HOME in a temporary folder deleted at the end) plays against one
`briscola join --bot random` process; a spectator made by hand counts the entries as they come.
Each phase lasts `--seconds` (10); for each, the host's resident memory at its end (VmRSS) and
the table's pace (entries a second, over the phase) are given:

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
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from helpers.floods import Flood, half_hellos  # noqa: E402
from helpers.network import CODE, RawWatcher  # noqa: E402
from host_memory import BRISCOLA, Host  # noqa: E402

from protocol import handshake as hs  # noqa: E402
from protocol.channel import Exchange  # noqa: E402
from protocol.codec import frame  # noqa: E402


class Player:
    """`briscola join --bot random` at the host, in its own data folder."""

    def __init__(self, folder: Path, port: int):
        env = {**os.environ, "BRISCOLA_HOME": str(folder / "player"), "PYTHONUNBUFFERED": "1"}
        argv = [*BRISCOLA, "join", f"127.0.0.1:{port}", "--code", CODE, "--bot", "random", "--retry", "120"]
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass


def pace(watcher: RawWatcher, seconds: float) -> float:
    """Entries a second the spectator took over the next `seconds`."""
    before, start = len(watcher.entries), time.monotonic()
    time.sleep(seconds)
    return round((len(watcher.entries) - before) / (time.monotonic() - start), 1)


def flooded(host: Host, watcher: RawWatcher, seconds: float, first: bytes) -> dict:
    flood = Flood(host.port, first=first, seconds=seconds + 10)
    try:
        figures = {"entries_per_second": pace(watcher, seconds)}
    finally:
        flood.stop()
    return {**figures, "rss_mib": round(host.memory()[0], 1), "opened": flood.opened, "closed_by_host": flood.closed}


def halves(host: Host, watcher: RawWatcher, seconds: float) -> dict:
    stopping = threading.Event()
    answers: dict[str, int] = {}
    threads = [threading.Thread(target=half_hellos, args=(host.port, stopping, answers), daemon=True) for _ in range(8)]
    for thread in threads:
        thread.start()
    try:
        figures = {"entries_per_second": pace(watcher, seconds)}
    finally:
        stopping.set()
        for thread in threads:
            thread.join(30)
    return {**figures, "rss_mib": round(host.memory()[0], 1), "answers": answers}


def measure(args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="briscola-handshake-floods-"))
    extra = ["--bots", "1", "-o", "match=5", "--time-limit", "60", "--guess-report-seconds", "5", *args.host_arg]
    host = Host(folder, extra)
    player = Player(folder, host.port)
    watcher = None
    figures: dict = {"host_args": extra, "seconds": args.seconds}
    try:
        watcher = RawWatcher(host.port)
        deadline = time.monotonic() + 60
        while len(watcher.entries) < 20 and time.monotonic() < deadline:  # the hand has begun
            time.sleep(0.1)
        hello = frame(hs.hello(Exchange("client", "nothing").message))
        figures["quiet"] = {"entries_per_second": pace(watcher, args.seconds), "rss_mib": round(host.memory()[0], 1)}
        figures["bytes"] = flooded(host, watcher, args.seconds, b"\x00")
        figures["hellos"] = flooded(host, watcher, args.seconds, hello)
        figures["halves"] = halves(host, watcher, args.seconds)
        time.sleep(6)  # the console's summary of the last phase
        figures["peak_mib"] = round(host.memory()[1], 1)
        figures["host_lines"] = host.lines
        figures["host_tail"] = [
            line for line in host.tail().splitlines() if "never finished" in line or "wrong" in line
        ]
    finally:
        if watcher is not None:
            watcher.raw.close()
        player.kill()
        host.kill()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each phase lasts")
    parser.add_argument("--host-arg", action="append", default=[], help="one more argument for the host")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for phase in ("quiet", "bytes", "hellos", "halves"):
        print(f"{phase}: {figures[phase]}")
    print(f"peak {figures['peak_mib']} MiB; {figures['host_lines']} host lines; summary: {figures['host_tail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
