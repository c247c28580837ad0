"""The host's memory and the table's pace with and without a flood of out-of-date messages.

    python -m bench.floods                  # the figures, one line each
    python -m bench.floods --json           # the same as one JSON object
    python -m bench.floods --seconds 20 --rate 40 --padding 60000

One `briscola host` process (Briscola for two, `--time-limit 2`, the host's computer player
at seat 1, its own BRISCOLA_HOME in a temporary folder deleted at the end) plays `--hands`
hands twice over, each time with the bench's own player, Mallory, at seat 0 (played by hand:
tests/helpers/seated.py). She holds her first move and is timed out (the hand is void); then:

- **quiet**: she waits `--seconds`, takes her seat back and plays the table out honestly;
- **flood**: for those `--seconds` she sends `--rate` out-of-date `act`s a second, each
  padded to `--padding` bytes and echoing the head from before her time-out, reconnecting
  whenever the host closes her; then she takes her seat back and plays the table out.

Read each time: the host's resident memory (VmRSS, and the peak VmHWM, from
/proc/PID/status) before and after those seconds and at the end; her messages ordered as
no-ops; the host's transcript in bytes; and the pace of the table once she is back
(entries a second, as she reads them). Every wait has a deadline, all traffic goes to
127.0.0.1, and the host is killed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.host_memory import memory
from tests.helpers.network import CODE
from tests.helpers.seated import Mallory

ROOT = Path(__file__).resolve().parent.parent

BRISCOLA = [sys.executable, "-m", "briscola_tui.cli"]
WAIT = 60.0


def start_host(folder: Path, hands: int) -> tuple[subprocess.Popen, int]:
    port_file = folder / "port"
    argv = [*BRISCOLA, "host", "--game", "briscola", "--players", "2", "--bots", "1", "--bind", "127.0.0.1"]
    argv += ["--port", "0", "--port-file", str(port_file), "--code", CODE, "--hands", str(hands)]
    argv += ["--time-limit", "2", "--transcript", str(folder / "host.bin")]
    env = {**os.environ, "BRISCOLA_HOME": str(folder / "home"), "PYTHONUNBUFFERED": "1"}
    log = (folder / "host.log").open("w")
    host = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + WAIT
    while not (port_file.exists() and port_file.read_text().strip().isdigit()):
        if host.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the host did not listen")
        time.sleep(0.05)
    return host, int(port_file.read_text())


def flood(mallory: Mallory, seconds: float, rate: float, padding: int, hand: int, head: bytes) -> dict:
    """Out-of-date acts for `seconds`, reconnecting whenever the host closes her."""
    body = [hand, ["play", 0, [], None, None, None, None], [], [], [[bytes(padding)], []]]
    sent = closed = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            mallory.send([mallory.signed("act", body, mallory.session.seq, head)])
            sent += 1
            mallory.drain()
        except (OSError, AssertionError):
            closed += 1
            mallory.raw.close()
            mallory.connect()
        time.sleep(1 / rate)
    return {"sent": sent, "closed": closed}


def run(mode: str, args, folder: Path) -> dict:
    host, port = start_host(folder, args.hands)
    try:
        mallory = Mallory(port)
        mallory.play(lambda: mallory.session.my_turn(), hold=True)
        session = mallory.session
        assert session.transcript is not None and session.hand is not None
        head, hand = session.transcript.head, session.hand.number
        mallory.play(lambda: mallory.session.phase == "seating" and 0 in mallory.session.absent, hold=True)
        before = memory(host.pid)
        if mode == "flood":
            sent = flood(mallory, args.seconds, args.rate, args.padding, hand, head)
        else:
            time.sleep(args.seconds)
            sent = {"sent": 0, "closed": 0}
        during = memory(host.pid)
        back, stored = time.monotonic(), len(mallory.entries)
        mallory.come_back()
        pace = (len(mallory.entries) - stored) / (time.monotonic() - back)
        after = memory(host.pid)
        host.wait(WAIT)
        noops = len(mallory.session.stale)  # entries taken as no-ops (they crossed an interruption)
        return {
            "host_rss_mib": {"before": before[0], "during": during[0], "end": after[0], "peak": after[1]},
            "noops_ordered": noops,
            "transcript_bytes": (folder / "host.bin").stat().st_size,
            "pace_entries_per_s": round(pace, 1),
            **sent,
        }
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(WAIT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the flood lasts")
    parser.add_argument("--rate", type=float, default=40.0, help="out-of-date messages a second")
    parser.add_argument("--padding", type=int, default=60_000, help="bytes of padding in each")
    parser.add_argument("--hands", type=int, default=1, help="hands played (a void one is played again)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for mode in ("quiet", "flood"):
        folder = Path(tempfile.mkdtemp(prefix="briscola-floods-"))
        try:
            results[mode] = run(mode, args, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(results))
        return 0
    for mode, figures in results.items():
        rss = figures["host_rss_mib"]
        print(
            f"{mode}: host RSS {rss['before']:.0f} -> {rss['during']:.0f} -> {rss['end']:.0f} MiB "
            f"(peak {rss['peak']:.0f}); {figures['noops_ordered']} no-ops ordered of {figures['sent']} sent "
            f"({figures['closed']} times closed); transcript {figures['transcript_bytes']:,} B; "
            f"pace {figures['pace_entries_per_s']} entries/s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
