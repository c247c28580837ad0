"""Tables through a club against the same tables over TCP, spectators through the club, and
`briscola ledger sync` between two members.

    python -m bench.club                                   # 3 runs, 200 spectators, 1000 transcripts
    python -m bench.club --json
    python -m bench.club --spectators 500 --transcripts 200 --runs 5 --folder /tmp/club-bench

The bench starts its own club (`briscola club serve` on 127.0.0.1, tests/helpers/club.py), each
member in a data folder of its own (invited, `briscola club add`), and measures, the things
compared alternating in one run (one run of each, then the next):

1. **A move's round trip.** Briscola for 2: `briscola host --headless --bots 0 --open` and two
   `briscola join --bot random` processes, over TCP on 127.0.0.1 and through the club (`--club`,
   the join by the table's id). The table's wall time runs from the host printing that the last
   seat joined to the host printing the last hand's result (`--hands`, 2 by default); a hand
   of Briscola for 2 is 40 moves, each a seat's submission and the host's entry back, so the
   time a move is that over 40 a hand. Target: club/TCP at most 1.3.
2. **A Chiamata hand** (five `join --bot random`), the same way. Target: at most 1.2.
3. **Spectators.** The Briscola table through the club watched by K spectators against none:
   the spectators are links in this process (`club/link.py` connect_link over a few nats
   connections, at most MAX_LINKS_A_MEMBER links a member), each doing the real spectator
   handshake (key exchange over the open table's empty code, request, welcome) and reading
   every entry (opened, not checked). The hand's time with K against none (target at most
   1.1), the host's peak memory (VmHWM) with none and with K (target: flat) and its CPU; the
   same over TCP beside it (bench/table.py's spectators), to tell the club's part from the
   host's. Through a club a host admits up to Limits.max_watching spectators on the broadcast
   (2,048; over TCP, Limits.max_connections, 256, caps the comparison): K is capped, and the
   asked number printed beside it. The spectators run at the lowest priority (nice 19, their
   thread): on this one machine they stand for people on their own machines, and take only the
   CPU the table leaves; the club's server (its fan-out) runs as it would.
4. **`ledger sync`** of N distinct ended transcripts (Briscola for 2, one hand each, computer
   players; made once into FOLDER/transcripts and kept there with --folder) from one member to
   another: the first member's sync puts them all (its ledger knew them already, as a member's
   does for tables it played), the second's takes them all, each verified by its ledger before
   it counts. Target: both at most 30 s.

Every child gets a deadline (`--timeout`) and is killed at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.club_watchers import BenchError, ClubWatchers, TcpWatchers, Watchers

TARGETS = {"move_ratio": 1.3, "chiamata_ratio": 1.2, "spectator_ratio": 1.1, "sync_s": 30.0}
MOVES_A_HAND = 40
"""Briscola for 2: 20 tricks of 2 cards."""


class Process:
    """A `briscola` child: its output lines with the time each came, and its peak memory."""

    def __init__(self, argv: list[str], home: Path, env: dict[str, str], deadline: float) -> None:
        self.lines: list[tuple[float, str]] = []
        self.peak_kib, self.cpu_s = 0, 0.0
        self.deadline = deadline
        self.proc = subprocess.Popen(
            argv,
            env={**env, "BRISCOLA_HOME": str(home), "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._sample, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append((time.perf_counter(), line.rstrip("\n")))

    def _sample(self) -> None:
        status = Path(f"/proc/{self.proc.pid}/status")
        while not self.ended():
            try:
                found = re.search(r"VmHWM:\s+(\d+)", status.read_text())
            except OSError:
                return
            if found:
                self.peak_kib = int(found[1])
            time.sleep(0.05)

    def first(self, pattern: str, nth: int = 1) -> tuple[float, re.Match] | None:
        found = [(t, m) for t, line in list(self.lines) if (m := re.search(pattern, line))]
        return found[nth - 1] if len(found) >= nth else None

    def wait(self, pattern: str, nth: int = 1) -> tuple[float, re.Match]:
        while (found := self.first(pattern, nth)) is None:
            if self.ended() or time.monotonic() > self.deadline:
                raise BenchError(f"no line like {pattern!r} ({self.how_ended()}):\n{self.tail()}")
            time.sleep(0.01)
        return found

    def how_ended(self) -> str:
        """How it ended, if it did (its exit status, or the signal that ended it), left unreaped."""
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return f"reaped already, status {self.proc.returncode}"
        if info is None:
            return "still running"
        killed = info.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
        return f"killed by signal {info.si_status}" if killed else f"exit status {info.si_status}"

    def ended(self) -> bool:
        """It has ended (left unreaped: `finish` reaps it with its CPU time)."""
        if self.proc.returncode is not None:
            return True
        try:
            return os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True

    def finish(self) -> int:
        """Its exit status once it ends (reaped here: its CPU seconds from `os.wait4`)."""
        while True:
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                self.cpu_s = usage.ru_utime + usage.ru_stime
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                return self.proc.returncode
            if time.monotonic() > self.deadline:
                raise BenchError(f"did not end in time:\n{self.tail()}")
            time.sleep(0.01)

    def tail(self) -> str:
        return "\n".join(line for _t, line in self.lines[-8:])

    def now(self) -> tuple[float, float]:
        """Its CPU seconds so far and its resident memory now, in MiB (0, 0 once gone)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            rss = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{self.proc.pid}/status").read_text())
        except OSError:
            return 0.0, 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks, int(rss[1]) / 1024 if rss else 0.0

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


class Bench:
    """The club, its members' data folders and the children's environment."""

    def __init__(self, folder: Path, timeout: float) -> None:
        from bench.table import child_env
        from tests.helpers.club import ClubServer

        self.folder, self.timeout = folder, timeout
        self.env, _startup = child_env(folder, timeout)
        self.club = ClubServer(folder / "keeper")
        self.homes: dict[str, Path] = {}
        self.children: list[Process] = []

    def member(self, name: str) -> Path:
        """The data folder of member `name`, invited and kept the first time."""
        if name not in self.homes:
            from tests.helpers.club import join

            self.homes[name] = self.folder / "members" / name
            join(self.homes[name], self.club.invite(name))
        return self.homes[name]

    def start(self, home: Path, *args: str) -> Process:
        from bench.table import briscola_command

        child = Process([*briscola_command(), *args], home, self.env, time.monotonic() + self.timeout)
        self.children.append(child)
        return child

    def close(self) -> None:
        for child in self.children:
            child.kill()
        self.club.close()


def played(bench: Bench, game: str, seats: int, hands: int, club: bool, spectators: int = 0) -> dict:
    """One table of `seats` computer players, over TCP or through the club: its wall time from the
    last seat joined to the last hand's result, the host's peak memory."""
    where = ["--club", "friends"] if club else ["--bind", "127.0.0.1", "--port", "0", "--no-advertise"]
    home = bench.member("host") if club else bench.folder / "tcp-host"
    port_file = bench.folder / "port"
    port_file.unlink(missing_ok=True)
    more = [] if club else ["--port-file", str(port_file)]
    game_args = ["--game", game, "--players", str(seats), "--bots", "0", "--hands", str(hands), "--open"]
    host = bench.start(home, "host", "--headless", *game_args, *where, *more)
    table = host.wait(r"table ([0-9a-f]{16,})")[1][1]
    watching: Watchers | None = None
    try:
        if club:
            address, via = table, ["--club", "friends"]
            homes = [bench.member(f"seat{k}") for k in range(seats)]
            watching = ClubWatchers(table, spectators, bench.member) if spectators else None
        else:
            deadline = time.monotonic() + bench.timeout
            while not port_file.exists() or not port_file.read_text().strip():
                if time.monotonic() > deadline:
                    raise BenchError("no port file")
                time.sleep(0.01)
            address, via = f"127.0.0.1:{port_file.read_text().strip()}", []
            homes = [bench.folder / f"tcp-seat{k}" for k in range(seats)]
            watching = TcpWatchers(int(address.split(":")[1]), spectators) if spectators else None
        if watching is not None:
            watching.ready()
        joins = [bench.start(h, "join", address, *via, "--headless", "--bot", "random") for h in homes]
        seated = host.wait(r" joins \(seat \d+\)$", seats)[0]
        cpu_seated, _rss = host.now()
        ended = host.wait(rf"^hand {hands}: .*score", 1)[0]
        cpu_ended, rss_ended = host.now()
        statuses = [host.finish(), *(j.finish() for j in joins)]
        if statuses != [0] * len(statuses):
            raise BenchError(f"exit statuses {statuses}:\n{host.tail()}")
        seen = watching.finish() if watching is not None else None
    finally:
        if watching is not None:
            watching.stop()
    return {
        "wall_ms": 1000 * (ended - seated),
        "host_peak_mib": host.peak_kib / 1024,
        "host_cpu_ms": 1000 * host.cpu_s,
        "host_hand_cpu_ms": 1000 * (cpu_ended - cpu_seated),  # (the table's hands alone: no handshake)
        "host_rss_mib": rss_ended,
        "spectators_saw": seen,
    }


# --- ledger sync ------------------------------------------------------------------------------


def transcripts(folder: Path, count: int) -> list[Path]:
    """`count` distinct ended transcripts in `folder` (Briscola for 2, one hand), made the first time."""
    from protocol.identity import Identity
    from tests.helpers.ledger_tables import play

    folder.mkdir(parents=True, exist_ok=True)
    people = [Identity.generate(), Identity.generate()]
    for k in range(count):
        path = folder / f"t{k:05d}.bin"
        if not path.exists():
            play(path, people, ["Anna", "Bruno"], seed=k)
    return [folder / f"t{k:05d}.bin" for k in range(count)]


def synced(bench: Bench, files: list[Path]) -> dict:
    """`ledger sync` of `files` from one member (its ledger knowing them already) to another:
    wall and CPU seconds of each (both in this process, as `briscola ledger sync` runs)."""
    from briscola_tui.files.folders import subfolder
    from briscola_tui.ledger.book import Ledger
    from tests.helpers.club import home, run

    putter, taker = bench.member("putter"), bench.member("taker")
    with home(putter):
        mine = subfolder("transcripts")
        for path in files:
            shutil.copyfile(path, mine / path.name)
        wall, cpu = time.perf_counter(), time.process_time()
        Ledger.open().add([mine / path.name for path in files], quiet=True)
    figures = {"verify_s": round(time.perf_counter() - wall, 2), "verify_cpu_s": round(time.process_time() - cpu, 2)}
    for who, folder, said in (("put", putter, "put"), ("take", taker, "took")):
        wall, cpu = time.perf_counter(), time.process_time()
        status, out, err = run(folder, "ledger", "sync", "--club", "friends")
        figures[f"{who}_s"] = round(time.perf_counter() - wall, 2)
        figures[f"{who}_cpu_s"] = round(time.process_time() - cpu, 2)
        if status != 0 or f"{said} {len(files)}," not in out:
            raise BenchError(f"ledger sync ({who}): {out.strip()} {err.strip()[-500:]}")
    figures["total_s"] = round(figures["put_s"] + figures["take_s"], 2)
    return figures


# --- the report ---------------------------------------------------------------------------------


def measure(args: argparse.Namespace) -> dict:
    from briscola_tui.club.link import MAX_LINKS
    from briscola_tui.net.connection import Limits

    folder = Path(tempfile.mkdtemp(prefix="briscola-bench-club-"))
    tcp_cap = Limits().max_connections  # (over TCP each spectator is a connection the host writes every entry to)
    watchers = min(args.spectators, MAX_LINKS, Limits().max_watching)
    runs: dict[str, list[dict]] = {
        "tcp": [],
        "club": [],
        "tcp_chiamata": [],
        "club_chiamata": [],
        "watched": [],
        "tcp_watched": [],
    }
    try:
        bench = Bench(folder, args.timeout)
        try:
            for _run in range(args.runs):
                runs["tcp"].append(played(bench, "briscola", 2, args.hands, club=False))
                runs["club"].append(played(bench, "briscola", 2, args.hands, club=True))
                runs["tcp_chiamata"].append(played(bench, "chiamata", 5, 1, club=False))
                runs["club_chiamata"].append(played(bench, "chiamata", 5, 1, club=True))
                if watchers:
                    runs["watched"].append(played(bench, "briscola", 2, args.hands, club=True, spectators=watchers))
                    runs["tcp_watched"].append(
                        played(bench, "briscola", 2, args.hands, club=False, spectators=min(watchers, tcp_cap))
                    )
            files = transcripts(Path(args.folder) if args.folder else folder / "made", args.transcripts)
            sync = synced(bench, files) if files else {}
        finally:
            bench.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return figures(runs, sync, args, watchers)


def figures(runs: dict[str, list[dict]], sync: dict, args: argparse.Namespace, watchers: int) -> dict:
    def median(kind: str, key: str = "wall_ms") -> float:
        return statistics.median(r[key] for r in runs[kind]) if runs[kind] else float("nan")

    moves = MOVES_A_HAND * args.hands
    out = {
        "move_tcp_ms": round(median("tcp") / moves, 2),
        "move_club_ms": round(median("club") / moves, 2),
        "move_ratio": round(median("club") / median("tcp"), 2),
        "briscola_tcp_ms": [round(r["wall_ms"], 1) for r in runs["tcp"]],
        "briscola_club_ms": [round(r["wall_ms"], 1) for r in runs["club"]],
        "chiamata_tcp_ms": round(median("tcp_chiamata"), 1),
        "chiamata_club_ms": round(median("club_chiamata"), 1),
        "chiamata_ratio": round(median("club_chiamata") / median("tcp_chiamata"), 2),
        "spectators_asked": args.spectators,
        "spectators": watchers,
        "runs": args.runs,
        "hands": args.hands,
        "transcripts": args.transcripts,
        "sync": sync,
        "targets": TARGETS,
    }
    if runs["watched"]:
        out.update(
            {
                "watched_club_ms": round(median("watched"), 1),
                "spectator_ratio": round(median("watched") / median("club"), 2),
                "host_peak_mib_none": round(median("club", "host_peak_mib"), 1),
                "host_peak_mib_watched": round(median("watched", "host_peak_mib"), 1),
                "host_cpu_ms_none": round(median("club", "host_cpu_ms")),
                "host_cpu_ms_watched": round(median("watched", "host_cpu_ms")),
                "host_hand_cpu_ms_none": round(median("club", "host_hand_cpu_ms")),
                "host_hand_cpu_ms_watched": round(median("watched", "host_hand_cpu_ms")),
                "host_rss_mib_none": round(median("club", "host_rss_mib"), 1),
                "host_rss_mib_watched": round(median("watched", "host_rss_mib"), 1),
                "tcp_watched_ms": round(median("tcp_watched"), 1),
                "tcp_spectator_ratio": round(median("tcp_watched") / median("tcp"), 2),
                "tcp_host_peak_mib_none": round(median("tcp", "host_peak_mib"), 1),
                "tcp_host_peak_mib_watched": round(median("tcp_watched", "host_peak_mib"), 1),
                "entries_each_spectator_saw": runs["watched"][-1]["spectators_saw"],
            }
        )
    return out


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "ABOVE"


def report(f: dict) -> None:
    print(f"runs {f['runs']} (alternating), Briscola for 2 with --hands {f['hands']}")
    print(
        f"a move, TCP {f['move_tcp_ms']} ms, club {f['move_club_ms']} ms: ratio {f['move_ratio']} "
        f"(target <= {TARGETS['move_ratio']}: {verdict(f['move_ratio'], TARGETS['move_ratio'])})"
    )
    print(f"  the Briscola tables, TCP {f['briscola_tcp_ms']} ms, club {f['briscola_club_ms']} ms")
    print(
        f"a Chiamata hand, TCP {f['chiamata_tcp_ms']} ms, club {f['chiamata_club_ms']} ms: ratio "
        f"{f['chiamata_ratio']} (target <= {TARGETS['chiamata_ratio']}: "
        f"{verdict(f['chiamata_ratio'], TARGETS['chiamata_ratio'])})"
    )
    if "spectator_ratio" in f:
        print(
            f"{f['spectators']} spectators through the club (asked {f['spectators_asked']}): the table "
            f"{f['watched_club_ms']} ms against {f['briscola_club_ms']} with none, ratio {f['spectator_ratio']} "
            f"(target <= {TARGETS['spectator_ratio']}: {verdict(f['spectator_ratio'], TARGETS['spectator_ratio'])}); "
            f"the host's memory at the table's end {f['host_rss_mib_none']} MiB with none, "
            f"{f['host_rss_mib_watched']} MiB with them (target: flat; its peak, in their handshakes, "
            f"{f['host_peak_mib_none']} and {f['host_peak_mib_watched']} MiB); the host's CPU during the hands "
            f"{f['host_hand_cpu_ms_none']} ms with none, {f['host_hand_cpu_ms_watched']} ms with them (in all, "
            f"handshakes too: {f['host_cpu_ms_none']} and {f['host_cpu_ms_watched']} ms); entries each saw "
            f"(fewest, most) {f['entries_each_spectator_saw']}"
        )
        print(
            f"  the same over TCP (for comparison): the table {f['tcp_watched_ms']} ms against "
            f"{f['briscola_tcp_ms']} with none, ratio {f['tcp_spectator_ratio']}; the host's peak memory "
            f"{f['tcp_host_peak_mib_none']} MiB with none, {f['tcp_host_peak_mib_watched']} MiB with them"
        )
    if f["sync"]:
        s = f["sync"]
        print(
            f"ledger sync of {f['transcripts']} transcripts: put {s['put_s']} s ({s['put_cpu_s']} s CPU), "
            f"take with verification {s['take_s']} s ({s['take_cpu_s']} s CPU) "
            f"(target <= {TARGETS['sync_s']} s each: {verdict(max(s['put_s'], s['take_s']), TARGETS['sync_s'])}); "
            f"the same files verified by a ledger alone, no club: {s['verify_s']} s ({s['verify_cpu_s']} s CPU)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="tables of each kind, alternating")
    parser.add_argument("--hands", type=int, default=2, help="hands of each Briscola table")
    parser.add_argument("--spectators", type=int, default=200, help="spectators through the club (0: none)")
    parser.add_argument("--transcripts", type=int, default=1000, help="transcripts ledger sync moves (0: none)")
    parser.add_argument("--folder", help="keep the transcripts made here, for the next run")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds each table may take")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        found = measure(args)
    except BenchError as error:
        print(f"bench.club: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(found))
    else:
        report(found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
