"""How fast a table is found on the LAN, and what announcing it costs the LAN.

    sudo python -m bench.discovery                  # 5 starts, then 1 minute of traffic each way
    sudo python -m bench.discovery --starts 10 --seconds 120 --json

Runs on a LAN of private network namespaces (tests/helpers/netns.py: two machines on one
switch; it needs root, and nothing it sends leaves them):

- found: a live browser on machine B (net/mdns.Browser, the join form's) and a headless
  `briscola host` started on machine A; the wall time from the host's start (the process
  spawned) to the table in B's list, and from the host's "announced" line to it (the
  process's own start-up left out). Target: 2 s from the start.
- traffic: the bytes and packets machine A sends on its link in the first `--seconds` from
  the host's start (its look at the plates in use, its announcement, its answers) while
  nobody joins, once with no browser on the LAN and once with a browser listening all
  along, scaled to a minute. A host sends nothing else then.

Wall time, not CPU time: what is measured is the waiting on the LAN (mDNS's own delays),
not computing. Figures vary with the machine's load; compare runs made one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

from tests.helpers.netns import Machine, lan, why_no_lan

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BRISCOLA = [sys.executable, "-m", "briscola_tui.cli"]
ON = ["env", "-u", "BRISCOLA_NO_MULTICAST"]
BROWSER = textwrap.dedent(
    """
    import asyncio, time
    from briscola_tui.net.mdns import Browser

    async def main():
        browser = Browser(lambda: [print(s.announcement.table, time.monotonic(), flush=True) for s in browser.tables()])
        await browser.start()
        print("listening", flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def _start(machine: Machine, argv: list[str], home: str) -> subprocess.Popen:
    env = {**os.environ, "BRISCOLA_HOME": home, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(machine.argv([*ON, *argv]), cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)


def _line(proc: subprocess.Popen, starts: str, timeout: float = 30.0) -> tuple[str, float]:
    """The first line of `proc` starting with `starts`, and when it came (time.monotonic())."""
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith(starts) or starts in line:
            return line, time.monotonic()
    raise SystemExit(f"no line with {starts!r} in {timeout:g} s")


def _host(machine: Machine, home: str) -> subprocess.Popen:
    argv = [*BRISCOLA, "host", "--game", "briscola", "--players", "2", "--port", "0", "--headless", "--name", "Ada"]
    return _start(machine, argv, home)


def _stop(*procs: subprocess.Popen) -> None:
    for proc in procs:
        proc.kill()
        proc.wait(10)


def found(a: Machine, b: Machine, starts: int, folder: str) -> dict:
    browser = _start(b, [sys.executable, "-c", BROWSER], folder + "/browser")
    _line(browser, "listening")
    from_start, from_announced = [], []
    try:
        for n in range(starts):
            began = time.monotonic()
            host = _host(a, f"{folder}/host{n}")
            table = _line(host, "hosting")[0].split()[-1]
            announced = _line(host, "announced on the LAN")[1]
            listed = _line(browser, table)[1]
            from_start.append(listed - began)
            from_announced.append(listed - announced)
            _stop(host)
    finally:
        _stop(browser)
    return {
        "starts": starts,
        "found_from_start_s_median": round(statistics.median(from_start), 3),
        "found_from_start_s_max": round(max(from_start), 3),
        "found_from_announced_s_median": round(statistics.median(from_announced), 3),
    }


def _sent(a: Machine) -> tuple[int, int]:
    """Bytes and packets machine A has sent on its link (/proc/net/dev, read in its namespace)."""
    for line in subprocess.check_output(a.argv(["cat", "/proc/net/dev"]), text=True).splitlines():
        name, _colon, counts = line.partition(":")
        if name.strip() == "eth0":
            fields = counts.split()
            return int(fields[8]), int(fields[9])
    raise SystemExit("machine A has no eth0")


def traffic(a: Machine, b: Machine, seconds: float, browsing: bool, folder: str) -> dict:
    browser = _start(b, [sys.executable, "-c", BROWSER], folder + "/listener") if browsing else None
    if browser is not None:
        _line(browser, "listening")
    before, began = _sent(a), time.monotonic()
    host = _host(a, folder + f"/traffic{int(browsing)}")
    try:
        _line(host, "announced on the LAN")
        time.sleep(max(0.0, seconds - (time.monotonic() - began)))
        after, took = _sent(a), time.monotonic() - began
    finally:
        _stop(host, *([browser] if browser is not None else []))
    per_minute = 60 / took
    return {
        "bytes_per_minute": round((after[0] - before[0]) * per_minute),
        "packets_per_minute": round((after[1] - before[1]) * per_minute, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=5, help="hosts started, one after the other (default 5)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long traffic is counted (default 60)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if (why := why_no_lan()) is not None:
        print(f"cannot measure here: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder, lan(2) as (a, b):
        figures = {"found": found(a, b, args.starts, folder)}
        figures["traffic_no_browser"] = traffic(a, b, args.seconds, False, folder)
        figures["traffic_with_browser"] = traffic(a, b, args.seconds, True, folder)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    f = figures["found"]
    print(
        f"found in a browser's list: {f['found_from_start_s_median']} s from the host's start "
        f"(median of {f['starts']}, max {f['found_from_start_s_max']} s; target 2 s), "
        f"{f['found_from_announced_s_median']} s from its 'announced' line"
    )
    for key, words in (("traffic_no_browser", "nobody browsing"), ("traffic_with_browser", "a browser listening")):
        t = figures[key]
        print(
            f"a host's multicast, {words}: {t['bytes_per_minute']} bytes ({t['packets_per_minute']} packets) a minute"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
