"""A networked table on 127.0.0.1: one hand's wall time and CPU, and how fast spectators see each entry.

    python -m bench.table                  # Chiamata: a host and five `briscola join --bot random`
    python -m bench.table --json           # {"hand_wall_ms": A, "in_memory_ms": B, "ratio": A/B, ...}
    python -m bench.table --spectators 20 --runs 3

Three measurements, each process with its own BRISCOLA_HOME in a temporary
folder (deleted at the end; the children's bytecode is cached there and
warmed up first, as an installed briscola has it):

1. **The networked hand.** `briscola host --game chiamata --port 0 --bind
   127.0.0.1 --open --hands 1` and one `briscola join --bot random` per seat,
   all separate processes. The hand's wall time runs from the host printing
   that the last seat joined to the host printing the hand's result: the
   coin, the deal, the auction and play, the reveals and the audit of every
   node (the host's printed lines are timed as they arrive). The session's
   wall time, from the start of the first join to the host's exit (process
   start-up, handshakes and the goodbyes added), is printed beside it, with
   its own ratio: start-up is paid once per table, not per hand. The CPU
   time of each process comes from `os.wait4`.
2. **The same hand in memory.** `protocol.local.LocalTable` with the game's
   seats, each an `engine.bots` random player, in this process, from the
   table's opening to the hand's result (the same span, plus the joins):
   `time.perf_counter()` wall and `time.process_time()` CPU. Each node does
   its own checks (every proof, signature and audit), as each process of the
   networked table must: `ratio` compares the same work. Offline play lets
   the nodes of one process share those checks (`protocol.session.Shared`);
   that hand is timed too, and the networked hand's ratio to it printed.
3. **Spectators.** The host runs in this process (`TableServer` over
   `protocol.host.Host`, built as `briscola host` builds it), the seats are
   `briscola join --bot random` processes again, and N spectators are raw
   asyncio connections in this process that do the spectator handshake of
   `protocol/handshake.py` (the key exchange over the empty code of an
   `--open` table, the request, welcome) and then only note when each entry
   arrives (they open its sealed frame and read its index; they do not check
   it). The host's
   `ordering.append` is hooked to note when each entry is appended (before it is
   written and fsynced; the delay after the fsync is printed too). Delay =
   arrival at a spectator - append at the host, over every (entry,
   spectator) pair appended after all spectators joined.

Targets (the issue): the networked hand within 3x the in-memory one;
spectator p95 under 50 ms. Every child gets a deadline (`--timeout`) and is
killed at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import msgpack

from briscola_tui.files.storage import TranscriptFile
from briscola_tui.net.server import TableServer
from engine import bots
from engine.games import make
from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import MAX_FRAME, FrameReader, frame
from protocol.host import Host
from protocol.identity import Identity
from protocol.local import LocalTable

TARGET_RATIO = 3.0
TARGET_P95_MS = 50.0


class BenchError(RuntimeError):
    pass


def briscola_command() -> list[str]:
    """The `briscola` script beside this interpreter, else the module."""
    script = Path(sys.executable).parent / "briscola"
    return [str(script)] if script.exists() else [sys.executable, "-m", "briscola_tui.cli"]


# --- child processes ------------------------------------------------------------------------


class Children:
    """Child processes with one deadline: a watchdog kills whatever still runs then,
    and `kill_all` (always called at the end) kills and reaps the rest."""

    def __init__(self, timeout: float, env: dict[str, str]):
        self.env = env
        self.procs: dict[int, subprocess.Popen] = {}
        self.reaped: dict[int, tuple[float, int, object]] = {}  # pid -> (perf_counter, exit status, rusage)
        self.lock = threading.Lock()
        self.timed_out = False
        self.watchdog = threading.Timer(timeout, self._expire)
        self.watchdog.daemon = True
        self.watchdog.start()

    def spawn(self, argv: list[str], home: Path, **kwargs) -> subprocess.Popen:
        env = dict(self.env, BRISCOLA_HOME=str(home))
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs)
        with self.lock:
            self.procs[proc.pid] = proc
        return proc

    def _expire(self) -> None:
        self.timed_out = True
        self._signal_all()

    def _signal_all(self) -> None:
        with self.lock:
            for pid in self.procs:
                if pid not in self.reaped:
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass

    def reap(self, pid: int) -> tuple[float, int, object]:
        """Wait for one child; (when it was reaped, its exit status, its rusage)."""
        if pid in self.reaped:
            return self.reaped[pid]
        _, status, usage = os.wait4(pid, 0)
        done = (time.perf_counter(), os.waitstatus_to_exitcode(status), usage)
        with self.lock:
            self.reaped[pid] = done
            self.procs[pid].returncode = done[1]
        return done

    def kill_all(self) -> None:
        self.watchdog.cancel()
        self._signal_all()
        for pid in list(self.procs):
            if pid not in self.reaped:
                try:
                    self.reap(pid)
                except ChildProcessError:
                    pass


def cpu_ms(usage) -> float:
    return round(1000 * (usage.ru_utime + usage.ru_stime), 1)


def wait_for_file(path: Path, proc: subprocess.Popen, deadline: float) -> str:
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        if proc.poll() is not None:
            raise BenchError(f"the host exited ({proc.returncode}) before listening")
        time.sleep(0.005)
    raise BenchError("the host did not write its port in time")


def tail(path: Path, lines: int = 5) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no output)"


def join_argv(port: int) -> list[str]:
    return [*briscola_command(), "join", f"127.0.0.1:{port}", "--bot", "random", "--retry", "5"]


def seat_of(path: Path) -> str | None:
    """The seat a join took, from its first line ("seat N at table ...")."""
    for line in tail(path, 1000).splitlines():
        if line.startswith("seat ") and " at table " in line:
            return "seat" + line.split()[1]
    return None


# --- 1. the networked hand --------------------------------------------------------------------


def networked_hand(game: str, seats: int, folder: Path, timeout: float, env: dict[str, str]) -> dict:
    children = Children(timeout, env)
    deadline = time.monotonic() + timeout
    lines: list[tuple[float, str]] = []
    try:
        port_file = folder / "port"
        host = children.spawn(
            [
                *briscola_command(),
                "host",
                "--game",
                game,
                "--port",
                "0",
                "--port-file",
                str(port_file),
                "--bind",
                "127.0.0.1",
                "--open",
                "--hands",
                "1",
            ],
            folder / "host-home",
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )

        def read_host() -> None:
            for line in host.stdout:
                lines.append((time.perf_counter(), line.rstrip("\n")))

        reader = threading.Thread(target=read_host, daemon=True)
        reader.start()
        port = int(wait_for_file(port_file, host, deadline))
        start = time.perf_counter()
        joins = []
        for i in range(seats):
            out = folder / f"join{i}.out"
            with open(out, "wb") as handle:
                joins.append(
                    (
                        children.spawn(
                            join_argv(port), folder / f"join{i}-home", stdout=handle, stderr=subprocess.STDOUT
                        ),
                        out,
                    )
                )
        host_done, host_status, host_usage = children.reap(host.pid)
        results = [(children.reap(p.pid), out) for p, out in joins]
        reader.join(timeout=2)
        if children.timed_out:
            failed = [
                f"a join exited {status} on its own:\n{tail(out)}"
                for (_, status, _), out in results
                if status not in (0, -signal.SIGKILL)
            ]
            raise BenchError(
                f"killed after {timeout:.0f} s; host said:\n"
                + "\n".join(text for _, text in lines[-5:])
                + "".join("\n" + f for f in failed)
            )
        if host_status != 0:
            raise BenchError(f"the host exited {host_status}:\n" + "\n".join(text for _, text in lines[-5:]))
        cpu = {"host": cpu_ms(host_usage)}
        for i, ((_, status, usage), out) in enumerate(results):
            if status != 0:
                raise BenchError(f"a join exited {status}:\n{tail(out)}")
            cpu[seat_of(out) or f"join{i}"] = cpu_ms(usage)

        def first(match) -> float | None:
            return next((round(1000 * (t - start), 1) for t, line in lines if match(line)), None)

        seated = [round(1000 * (t - start), 1) for t, line in lines if line.endswith(" joins")]
        seated_ms = seated[seats - 1] if len(seated) >= seats else None
        verdict_ms = first(lambda line: line.startswith("hand 1:") and "score" in line)
        if seated_ms is None or verdict_ms is None:
            raise BenchError(
                "the host did not print every seat joining and the hand's result:\n"
                + "\n".join(text for _, text in lines[-5:])
            )
        return {
            "wall_ms": verdict_ms - seated_ms,
            "session_ms": 1000 * (host_done - start),
            "seated_ms": seated_ms,  # every seat has joined: the coin, then the hand
            "dealt_ms": first(lambda line: line.startswith("hand 1:")),  # the coin tossed: the deal starts
            "verdict_ms": verdict_ms,  # the hand audited: its result
            "closed_ms": first(lambda line: line.startswith("table closed")),  # the close entry relayed
            "cpu_ms": dict(sorted(cpu.items())),
            "cpu_total_ms": round(sum(cpu.values()), 1),
        }
    finally:
        children.kill_all()


# --- 2. in memory -----------------------------------------------------------------------------


def in_memory_hand(game: str, seats: int, shared: bool) -> dict:
    """`shared`: the nodes check each proof, signature and audit once for all (offline play);
    else each node does its own, as each process of the networked table does."""
    table = LocalTable(game, seats, {}, choosers={s: bots.get("random") for s in range(seats)}, spectators=0)
    if not shared:
        for node in [table.host.session, *table.seats]:
            node.shared = None
    wall, cpu = time.perf_counter(), time.process_time()
    table.run(max_hands=1)
    return {"wall_ms": 1000 * (time.perf_counter() - wall), "cpu_ms": 1000 * (time.process_time() - cpu)}


# --- 3. spectators ----------------------------------------------------------------------------


def entry_index(entry_frame: bytes) -> int:
    """The index of the entry in an ["entry", entry] frame (read, not checked)."""
    kind, data = msgpack.unpackb(entry_frame)
    return msgpack.unpackb(data)[0] if kind == "entry" else -1


class TurnedAway(Exception):
    """The host said busy (too many connections in their handshake at once): try again later."""

    def __init__(self, seconds: float):
        super().__init__(seconds)
        self.seconds = seconds


async def spectator(port: int, arrivals: dict[int, float], joined: asyncio.Event | None) -> None:
    """One spectator connection; turned away for load (100 of them come at once, from one
    address), it tries again when the host says, as `briscola watch` does."""
    for _ in range(30):
        try:
            return await watch_once(port, arrivals, joined)
        except TurnedAway as busy:
            await asyncio.sleep(max(busy.seconds, 0.1) * random.uniform(1.0, 1.25))
    raise BenchError("a spectator was turned away 30 times")


async def watch_once(port: int, arrivals: dict[int, float], joined: asyncio.Event | None) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_FRAME + 4)
    frames = FrameReader()
    channel = None

    async def next_frame() -> tuple[str, list]:
        while (data := frames.next_frame()) is None:
            chunk = await reader.read(65536)
            if not chunk:
                raise BenchError("the host closed a spectator's connection during its handshake")
            frames.feed(chunk)
        kind, fields = hs.parse(channel.open(data) if channel is not None else data)
        if kind == "busy":
            raise TurnedAway(fields[1])
        return kind, fields

    try:
        exchange = Exchange("client", "")  # the table is --open: the empty code
        writer.write(frame(hs.hello(exchange.message)))
        kind, fields = await next_frame()
        if kind != "exchange":
            raise BenchError(f"a spectator got {kind} {fields} instead of the key exchange")
        exchange.finish(fields[1], fields[0], hs.VERSION)
        writer.write(frame(hs.confirm(exchange.confirmation())))
        kind, fields = await next_frame()
        if kind != "confirm":
            raise BenchError(f"a spectator got {kind} {fields} instead of the host's confirmation")
        exchange.check(fields[0])
        channel = exchange.channel()
        writer.write(frame(channel.seal(hs.request("spectator", b"", ""))))
        kind, fields = await next_frame()
        if kind != "welcome":
            raise BenchError(f"a spectator got {kind} {fields} instead of welcome")
        if joined is not None:
            joined.set()
        while True:
            chunk = await reader.read(65536)
            now = time.perf_counter()
            if not chunk:
                return
            frames.feed(chunk)
            for sealed in frames.frames():
                data = channel.open(sealed)
                index = entry_index(data)
                if index < 0:
                    if hs.parse(data)[0] == "bye":
                        return
                    continue
                arrivals.setdefault(index, now)
    finally:
        writer.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def spectated_hand(
    game: str, seats: int, spectators: int, folder: Path, timeout: float, env: dict[str, str]
) -> dict:
    identity = Identity.generate()
    host = Host(identity, game, seats, {}, f"{game} table", {})
    log = TranscriptFile.create(folder / "spectated-host.bin", host.table_id)
    log.append(host.open())
    host.events.clear()
    said: list[str] = []
    server = TableServer(
        host, log, code=None, bots={}, time_limit=None, replace_with_bot=None, hands=1, say=said.append
    )
    appended: dict[int, float] = {}
    stored: dict[int, float] = {}
    append, log_append = server.ordering.append, log.append

    async def timed_append(data: bytes) -> None:
        now = time.perf_counter()
        appended[len(host.transcript.entries) - 1] = now  # the host's session holds the entry already
        await append(data)

    def timed_log_append(data: bytes) -> None:
        log_append(data)
        stored[len(log.entries) - 1] = time.perf_counter()

    server.ordering.append = timed_append  # type: ignore[method-assign]
    log.append = timed_log_append
    listening = asyncio.get_running_loop().create_future()
    children = Children(timeout, env)
    try:
        serving = asyncio.create_task(server.run("127.0.0.1", 0, lambda a: listening.set_result(a[0][1])))
        port = await asyncio.wait_for(listening, 10)
        arrivals = [dict() for _ in range(spectators)]
        joined = [asyncio.Event() for _ in range(spectators)]
        watching = [asyncio.create_task(spectator(port, arrivals[i], joined[i])) for i in range(spectators)]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in joined)), 30)
        attached = time.perf_counter()
        start = time.perf_counter()
        joins = []
        for i in range(seats):
            out = folder / f"spectated-join{i}.out"
            with open(out, "wb") as handle:
                joins.append(
                    (
                        children.spawn(
                            join_argv(port), folder / f"spectated-join{i}-home", stdout=handle, stderr=subprocess.STDOUT
                        ),
                        out,
                    )
                )
        try:
            status = await asyncio.wait_for(serving, timeout)
        except TimeoutError:
            raise BenchError(
                f"the table did not finish in {timeout:.0f} s; host said:\n" + "\n".join(said[-5:])
            ) from None
        wall = time.perf_counter() - start
        done, pending = await asyncio.wait(watching, timeout=10)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                raise task.exception()
        if status != 0:
            raise BenchError(f"the host stopped with status {status}:\n" + "\n".join(said[-5:]))
        for proc, out in joins:
            if (await asyncio.to_thread(children.reap, proc.pid))[1] != 0:
                raise BenchError(f"a join exited {proc.returncode}:\n{tail(out)}")
    finally:
        children.kill_all()
        log.close()
    measured = [i for i, t in appended.items() if t > attached]
    delays = [1000 * (seen[i] - appended[i]) for seen in arrivals for i in measured if i in seen]
    after_fsync = [1000 * (seen[i] - stored[i]) for seen in arrivals for i in measured if i in seen and i in stored]
    missing = len(measured) * spectators - len(delays)
    if not delays:
        raise BenchError("no entry reached a spectator")
    return {
        "entries": len(measured),
        "samples": len(delays),
        "missing": missing,
        "p50_ms": statistics.median(delays),
        "p95_ms": percentile(delays, 0.95),
        "max_ms": max(delays),
        "p50_after_fsync_ms": statistics.median(after_fsync) if after_fsync else None,
        "p95_after_fsync_ms": percentile(after_fsync, 0.95) if after_fsync else None,
        "wall_ms": 1000 * wall,
    }


def child_env(folder: Path, timeout: float) -> tuple[dict[str, str], float]:
    """The children's environment: bytecode cached (in the temporary folder, warmed up once here),
    as an installed briscola has it, even where PYTHONDONTWRITEBYTECODE is set; and the CPU
    milliseconds a process then spends starting up and importing what `briscola join` imports."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "") if env.get("PYTHONPATH") else root
    imports = [sys.executable, "-c", "import briscola_tui.cli, briscola_tui.net.commands, engine.bots"]
    subprocess.run(imports, env=env, check=True, timeout=timeout, stdin=subprocess.DEVNULL)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(imports, env=env, check=True, timeout=timeout, stdin=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return env, 1000 * (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


# --- the report ---------------------------------------------------------------------------------


def measure(game: str, spectators: int, runs: int, timeout: float, keep: bool) -> dict:
    seats = make(game).players
    folder = Path(tempfile.mkdtemp(prefix="briscola-bench-table-"))
    try:
        env, startup_cpu = child_env(folder, timeout)
        nets, mems, shared, specs = [], [], [], []
        for run in range(runs):
            nets.append(networked_hand(game, seats, folder / f"net{run}", timeout, env))
            mems.append(in_memory_hand(game, seats, shared=False))
            shared.append(in_memory_hand(game, seats, shared=True))
        if spectators > 0:
            specs.append(asyncio.run(spectated_hand(game, seats, spectators, folder, timeout, env)))
    finally:
        if keep:
            print(f"kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    net = min(nets, key=lambda n: abs(n["wall_ms"] - statistics.median(x["wall_ms"] for x in nets)))
    hand_wall = statistics.median(n["wall_ms"] for n in nets)
    session = statistics.median(n["session_ms"] for n in nets)
    in_memory = statistics.median(m["wall_ms"] for m in mems)
    offline = statistics.median(m["wall_ms"] for m in shared)
    figures = {
        "hand_wall_ms": round(hand_wall, 1),
        "in_memory_ms": round(in_memory, 1),
        "ratio": round(hand_wall / in_memory, 2),
        "session_wall_ms": round(session, 1),
        "session_ratio": round(session / in_memory, 2),
        "in_memory_shared_ms": round(offline, 1),
        "ratio_to_shared": round(hand_wall / offline, 2),
        "spectators": spectators,
        "spectator_p50_ms": round(specs[0]["p50_ms"], 2) if specs else None,
        "spectator_p95_ms": round(specs[0]["p95_ms"], 2) if specs else None,
        "game": game,
        "seats": seats,
        "runs": runs,
        "hand_walls_ms": [round(n["wall_ms"], 1) for n in nets],
        "seated_ms": net["seated_ms"],
        "dealt_ms": net["dealt_ms"],
        "verdict_ms": net["verdict_ms"],
        "closed_ms": net["closed_ms"],
        "cpu_ms": net["cpu_ms"],
        "cpu_total_ms": net["cpu_total_ms"],
        "in_memory_cpu_ms": round(statistics.median(m["cpu_ms"] for m in mems), 1),
        "startup_cpu_ms": round(startup_cpu, 1),  # one process starting and importing, no table
    }
    if specs:
        spec = specs[0]
        figures.update(
            {
                "spectator_max_ms": round(spec["max_ms"], 2),
                "spectator_p50_after_fsync_ms": round(spec["p50_after_fsync_ms"], 2),
                "spectator_p95_after_fsync_ms": round(spec["p95_after_fsync_ms"], 2),
                "spectator_entries": spec["entries"],
                "spectator_samples": spec["samples"],
                "spectator_missing": spec["missing"],
                "spectated_hand_wall_ms": round(spec["wall_ms"], 1),
            }
        )
    return figures


def verdict(ok: bool) -> str:
    return "ok" if ok else "ABOVE"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chiamata", choices=["briscola", "chiamata", "calabresella"])
    parser.add_argument("--spectators", type=int, default=100, help="spectator connections (0: skip that part)")
    parser.add_argument("--runs", type=int, default=1, help="networked and in-memory hands to take the median of")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before every child is killed")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (outputs, transcripts)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        figures = measure(args.game, args.spectators, max(1, args.runs), args.timeout, args.keep)
    except BenchError as error:
        print(f"bench/table.py: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(figures))
        return 0
    f = figures
    print(f"{f['game']}, {f['seats']} seats on 127.0.0.1 ({f['runs']} run(s), median)")
    print(
        f"networked hand: {f['hand_wall_ms']} ms wall, from the last seat joining to the hand's result"
        f" (the coin, the deal, the play, the reveals and every node's audit)"
    )
    print(
        f"  the whole session, first join started to host exit: {f['session_wall_ms']} ms"
        f" (seated at {f['seated_ms']}, dealt at {f['dealt_ms']}, result at {f['verdict_ms']},"
        f" closed at {f['closed_ms']} ms); {f['session_ratio']}x the in-memory hand"
    )
    print(
        "  CPU per process (ms): "
        + ", ".join(f"{k} {v}" for k, v in f["cpu_ms"].items())
        + f"; total {f['cpu_total_ms']} (of which start-up and imports, each: {f['startup_cpu_ms']})"
    )
    print(
        f"in memory: {f['in_memory_ms']} ms wall, {f['in_memory_cpu_ms']} ms CPU, every node doing its own checks;"
        f" {f['in_memory_shared_ms']} ms with the checks shared as offline play does"
        f" (the networked hand is {f['ratio_to_shared']}x that)"
    )
    print(f"ratio {f['ratio']}x (target <= {TARGET_RATIO:g}x): {verdict(f['ratio'] <= TARGET_RATIO)}")
    if f["spectators"]:
        print(
            f"{f['spectators']} spectators, {f['spectator_samples']} arrivals over {f['spectator_entries']} entries"
            f" ({f['spectator_missing']} missing): delay append -> spectator p50 {f['spectator_p50_ms']} ms, "
            f"p95 {f['spectator_p95_ms']} ms (target < {TARGET_P95_MS:g} ms): "
            f"{verdict(f['spectator_p95_ms'] < TARGET_P95_MS)}; max {f['spectator_max_ms']} ms"
        )
        print(
            f"  after the fsync: p50 {f['spectator_p50_after_fsync_ms']} ms, "
            f"p95 {f['spectator_p95_after_fsync_ms']} ms; that hand took {f['spectated_hand_wall_ms']} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
