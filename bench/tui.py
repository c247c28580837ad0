"""The Textual client's speed: start-up, key-press-to-frame delay, and the waits for the computer players.

    python -m bench.tui              # figures printed
    python -m bench.tui --json       # {"startup_ms": A, "key_p50_ms": B, "key_p95_ms": C, ..., "waits": {...}}
    python -m bench.tui --runs 5 --presses 100
    python -m bench.tui --only waits --games chiamata-5 --levels normal,hard --hands 2

1. **Start-up** (`startup_ms`, and `startup_cpu_ms` its CPU): the wall time from launching a new Python
   process to the first interactive frame of `briscola` (the home screen,
   its menu drawn and taking keys), the median over `--runs` launches. The
   child runs the app headless (Textual's own test driver, 80x24), so no
   terminal is needed; it imports `briscola_tui.cli` as `briscola` does,
   and prints the wall clock when the home screen has mounted and been
   painted, and the parent subtracts its own clock before
   the launch. Interpreter start, imports, CSS and the first paint are
   all in it. `table_startup_ms` does the same for `briscola play --game
   briscola --players 2` up to the first frame where a card can be played
   (the mental-poker deal of the first hand included), and `import_ms`
   is the import of `briscola_tui.tui.app` alone (`python -X importtime`-free:
   a child timing its own import). `help_cpu_ms` is the CPU of a whole
   `briscola --help` process (it must not load the protocol stack).
2. **Key to frame** (`key_p50_ms`, `key_p95_ms`): in one headless app at
   80x24, at my turn in Briscola for two, `--presses` presses of keys that
   move the selection (right, left, digits), each timed from the key event
   entering the app (as the terminal driver posts it) to the compositor
   handing over the frame it caused (`App._display`, hooked), 30 ms apart.
   Writing that frame to a terminal is not included. `key_cpu_ms` is the
   CPU per press (`time.process_time`, the 30 ms rests included).

3. **Waits for the computer players** (`waits`, one entry per table and level, `--levels`:
   the default level and hard; `--games`: Briscola for two and four, Chiamata for five,
   Calabresella for three; `--hands` hands each, at `--pace`, the default pace): a child
   runs `briscola play` headless (the app, its table screen, the game kept on disk as
   `briscola play` keeps it, fixed deals and computer players), and the person, at each
   turn, takes a random legal action at once. Its hooks note, on one clock: each computer
   player's search (`LocalTable.choose`: wall and `time.process_time`), each pace sleep
   (offline.py's `time.sleep`), each message the host orders and every node checks
   (`LocalTable.order`: wall and CPU, and which part of the hand: the deal, with the first
   dealer's coin before the first hand, the play, or the reveals and audit at its end), when each computer decision is shown (the first
   update the offline table posts with it, `OfflineTable._update`), when the person is
   asked (`TableScreen._start_turn`) and the table screen's first frame. A computer
   decision's wait (`wait_ms`, p50/p95/max) is the wall time from the last thing the person
   saw (the decision before, the person's own action, a new hand begun, or for the first
   one the table appearing) to the frame it is shown in; `search_ms` (and
   `search_cpu_ms`), `pace_ms` and `protocol_ms` (and `protocol_cpu_ms`) are what of that
   went to the search, the pace and the protocol. `first_decision_ms` is the wall time
   from the table screen's first frame to the person's first decision being asked (the
   deal and the computer players before the person). `deal_ms`/`deal_cpu_ms` and
   `audit_ms`/`audit_cpu_ms` are, per hand, the protocol's work on the deal (commitments,
   shuffles with their proofs, key shares) and on the reveals and the end-of-hand audit.

Targets (the issue): start-up under 1.5 s, key p95 under 50 ms; at the default level and
pace every computer decision's wait under 1.5 s and the first decision under 2 s after
the table appears. Each child has a deadline (`--timeout`) and is killed on the way out
whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from briscola_tui.files.settings import Settings
from briscola_tui.options import PlayOptions

ROOT = Path(__file__).resolve().parent.parent

SIZE = (80, 24)

CHILD = """
import asyncio, sys, time
mode = sys.argv[1]
import briscola_tui.cli  # what `briscola` imports first
from briscola_tui.tui.app import BriscolaApp
play = {"game": "briscola", "players": 2, "hands": 1} if mode == "table" else None
app = BriscolaApp(play, seed=1, deal_seed=1, pace=0)

async def main():
    async with app.run_test(size=(80, 24)) as pilot:
        while True:
            screen = app.screen
            if mode == "home" and type(screen).__name__ == "HomeScreen" and screen.query("Choices"):
                break
            if mode == "table" and getattr(screen, "mode", "wait") not in ("wait",):
                break
            await pilot.pause(0.005)
        await pilot.pause()
        print(time.time(), flush=True)

asyncio.run(main())
"""
WAITS = r"""
import asyncio, json, random, sys, time
game, players, level, pace, hands = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
import briscola_tui.cli  # what `briscola` imports first
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tables import offline
from briscola_tui.tui.screens.table import TableScreen
from protocol.events import Acted
from protocol.local import LocalTable

log = []  # (what, wall, cpu or seconds, extra): the timeline the parent cuts into waits


def note(*item):
    log.append(item)


choose = LocalTable.choose
def timed_choose(self, seat):
    wall, cpu = time.perf_counter(), time.process_time()
    action = choose(self, seat)
    note("search", wall, time.perf_counter() - wall, time.process_time() - cpu)
    return action
LocalTable.choose = timed_choose

order = LocalTable.order
def timed_order(self, connection, signed):
    phase, verdicts = self.host.session.phase, len(self.host.session.verdicts)
    wall, cpu = time.perf_counter(), time.process_time()
    order(self, connection, signed)
    kind = "deal" if phase in ("join", "coin_commit", "coin_reveal", "commit", "shuffle", "deal") else (
        "audit" if phase == "reveal" else "play"
    )
    note("protocol", wall, time.perf_counter() - wall, time.process_time() - cpu, kind)
LocalTable.order = timed_order


class Clock:  # offline.py's `time`, its sleeps (the pace) recorded
    def __getattr__(self, name):
        return getattr(time, name)

    def sleep(self, seconds):
        wall = time.perf_counter()
        time.sleep(seconds)
        note("pace", wall, time.perf_counter() - wall)
offline.time = Clock()

advance = offline.OfflineTable.advance
def timed_advance(self, action=None, moved=None):
    note("advance", time.perf_counter(), action is not None)
    return advance(self, action, moved)
offline.OfflineTable.advance = timed_advance

update_of = offline.OfflineTable._update
def timed_update(self, *args, **kwargs):
    update = update_of(self, *args, **kwargs)
    now = time.perf_counter()
    for event in update.events:
        if isinstance(event, Acted) and event.seat != 0:
            note("shown", now, event.seat, event.action.kind)
    return update
offline.OfflineTable._update = timed_update

rng = random.Random(1)
start_turn = TableScreen._start_turn
def timed_start_turn(self, view):
    start_turn(self, view)
    note("asked", time.perf_counter())
    action = rng.choice(self.view.legal)
    self.call_later(self.act, action)
TableScreen._start_turn = timed_start_turn

app = BriscolaApp({"game": game, "players": players, "hands": hands}, level=level, seed=1, deal_seed=1, pace=pace)
show = app._display
def display(screen, renderable):
    show(screen, renderable)
    if renderable is not None and isinstance(app.screen, TableScreen) and not any(e[0] == "table" for e in log):
        note("table", time.perf_counter())
app._display = display

async def main():
    async with app.run_test(size=(80, 24)) as pilot:
        while app.is_running and (app.offline is None or not app.offline.over):
            screen = app.screen
            if type(screen).__name__ in ("SummaryScreen", "VerdictScreen"):
                note("summary", time.perf_counter())
                await pilot.press("enter")
                while app.is_running and app.screen is screen:
                    await pilot.pause(0.01)
            await pilot.pause(0.01)
    print(json.dumps(log))

asyncio.run(main())
"""
IMPORT = "import time; t = time.perf_counter(); import briscola_tui.tui.app; print(time.perf_counter() - t)"


def child_env(home: str) -> dict:
    env = dict(os.environ, BRISCOLA_HOME=home, TEXTUAL_ANIMATIONS="none", PYTHONPATH=str(ROOT))
    env.pop("NO_COLOR", None)
    return env


def run_child(argv: list[str], env: dict, timeout: float) -> tuple[str, float]:
    """A child's standard output and the CPU milliseconds it used (user and system, from
    wait4: the machine's load does not inflate it as it does the wall clock)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=out, stderr=err, text=True)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                child.kill()
                child.wait()
                raise SystemExit(f"the child took over {timeout} s: {argv[1:3]}")
            time.sleep(0.002)
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"the child failed ({argv[1:3]}):\n{err.read()[-2000:]}")
        return out.read(), (usage.ru_utime + usage.ru_stime) * 1000


def launch(mode: str, env: dict, timeout: float) -> tuple[float, float]:
    """Milliseconds from launching a child to its first interactive frame, and its CPU."""
    start = time.time()
    out, cpu = run_child([sys.executable, "-c", CHILD, mode], env, timeout)
    return (float(out.split()[-1]) - start) * 1000, cpu


def help_cpu_ms(env: dict, timeout: float) -> float:
    """CPU milliseconds of `briscola --help`, a whole process (what it imports is most of it)."""
    return run_child([sys.executable, "-m", "briscola_tui.cli", "--help"], env, timeout)[1]


def import_ms(env: dict, timeout: float) -> float:
    out = subprocess.run(
        [sys.executable, "-c", IMPORT], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=True
    )
    return float(out.stdout.split()[-1]) * 1000


async def key_delays(presses: int) -> tuple[list[float], float]:
    """Wall milliseconds from each key press to the frame it causes, and mean CPU ms per press."""
    from textual import events

    from briscola_tui.tui.app import BriscolaApp

    app = BriscolaApp({"game": "briscola", "players": 2, "hands": 1}, seed=1, deal_seed=1, pace=0)
    painted = asyncio.Event()
    frames: list[float] = []
    show = app._display

    def display(screen, renderable) -> None:  # every frame the compositor produces goes through here
        show(screen, renderable)
        if renderable is not None:
            frames.append(time.perf_counter())
            painted.set()

    app._display = display
    delays = []
    async with app.run_test(size=SIZE) as pilot:
        end = time.monotonic() + 60
        while getattr(app.screen, "mode", "wait") != "card":
            if time.monotonic() > end:
                raise SystemExit("no turn to play within 60 s")
            await pilot.pause(0.01)
        await pilot.pause(0.2)
        keys = ["right", "left", "1", "2", "3", "right"]
        cpu = time.process_time()
        for i in range(presses):
            key = keys[i % len(keys)]
            painted.clear()
            start = time.perf_counter()
            app._driver.send_message(events.Key(key, key if len(key) == 1 else None))
            await asyncio.wait_for(painted.wait(), 5)
            delays.append((frames[-1] - start) * 1000)
            await asyncio.sleep(0.03)  # let the frame settle: the next press starts from rest
        cpu = (time.process_time() - cpu) * 1000 / presses
    return delays, cpu


GAMES = (("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3))
"""The tables whose waits are measured: every game at its usual size (Briscola for two and four)."""


def waits(game: str, players: int, level: str, pace: float, hands: int, env: dict, timeout: float) -> dict:
    """One table in a headless app (`WAITS`): each computer decision's wait and where it went."""
    out, cpu = run_child([sys.executable, "-c", WAITS, game, str(players), level, str(pace), str(hands)], env, timeout)
    log = json.loads(out.splitlines()[-1])
    table = next(item[1] for item in log if item[0] == "table")
    asked = next(item[1] for item in log if item[0] == "asked" and item[1] >= table)
    decisions = []  # (wait, search wall, search CPU, pace, protocol wall, protocol CPU) each, seconds
    since = table
    spent = [0.0] * 5
    for item in sorted(log, key=lambda item: item[1] + (item[2] if item[0] in ("search", "pace", "protocol") else 0)):
        what, wall = item[0], item[1]
        if what == "search":
            spent[0], spent[1] = spent[0] + item[2], spent[1] + item[3]
        elif what == "pace":
            spent[2] += item[2]
        elif what == "protocol":
            spent[3], spent[4] = spent[3] + item[2], spent[4] + item[3]
        elif what == "shown" and wall >= table:
            decisions.append((wall - since, *spent))
            since, spent = wall, [0.0] * 5
        elif what in ("asked", "summary") or (what == "advance" and wall >= table):
            since, spent = max(since, wall), [0.0] * 5  # the person's turn, or a new hand: the clock starts again
    protocol = {kind: [item for item in log if item[0] == "protocol" and item[4] == kind] for kind in ("deal", "audit")}

    def stats(values: list[float]) -> dict:
        ms = [v * 1000 for v in values] or [0.0]
        return {"p50": round(percentile(ms, 50), 1), "p95": round(percentile(ms, 95), 1), "max": round(max(ms), 1)}

    return {
        "decisions": len(decisions),
        "wait_ms": stats([d[0] for d in decisions]),
        "search_ms": stats([d[1] for d in decisions]),
        "search_cpu_ms": stats([d[2] for d in decisions]),
        "pace_ms": stats([d[3] for d in decisions]),
        "protocol_ms": stats([d[4] for d in decisions]),
        "protocol_cpu_ms": stats([d[5] for d in decisions]),
        "first_decision_ms": round((asked - table) * 1000, 1),
        "deal_ms": round(sum(item[2] for item in protocol["deal"]) * 1000 / hands, 1),
        "deal_cpu_ms": round(sum(item[3] for item in protocol["deal"]) * 1000 / hands, 1),
        "audit_ms": round(sum(item[2] for item in protocol["audit"]) * 1000 / hands, 1),
        "audit_cpu_ms": round(sum(item[3] for item in protocol["audit"]) * 1000 / hands, 1),
        "process_cpu_ms": round(cpu, 1),
    }


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=5, help="launches timed for each start-up figure")
    parser.add_argument("--presses", type=int, default=100, help="key presses timed")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a child may take")
    parser.add_argument("--only", choices=("startup", "keys", "waits"), help="one part of the figures")
    parser.add_argument("--levels", default=f"{Settings.level},hard", help="levels whose waits are measured")
    parser.add_argument("--pace", type=float, default=PlayOptions.pace, help="the computer players' pace (s)")
    parser.add_argument("--hands", type=int, default=2, help="hands played at each table timed for waits")
    parser.add_argument("--games", help="tables timed for waits, e.g. chiamata-5,briscola-2 (default: all four)")
    args = parser.parse_args(argv)
    figures: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench-tui-") as home:
        env = child_env(home)
        os.environ["BRISCOLA_HOME"] = home
        os.environ["TEXTUAL_ANIMATIONS"] = "none"
        launch("home", env, args.timeout)  # warm the bytecode cache, as an installed briscola has it
        if args.only in (None, "startup"):
            home_runs = [launch("home", env, args.timeout) for _ in range(args.runs)]
            table = [launch("table", env, args.timeout) for _ in range(args.runs)]
            helps = [help_cpu_ms(env, args.timeout) for _ in range(args.runs)]
            imports = [import_ms(env, args.timeout) for _ in range(args.runs)]
            figures |= {
                "startup_ms": round(statistics.median(wall for wall, _ in home_runs), 1),
                "startup_cpu_ms": round(statistics.median(cpu for _, cpu in home_runs), 1),
                "help_cpu_ms": round(statistics.median(helps), 1),
                "table_startup_ms": round(statistics.median(wall for wall, _ in table), 1),
                "import_ms": round(statistics.median(imports), 1),
                "runs": args.runs,
            }
        if args.only in (None, "keys"):
            delays, cpu = asyncio.run(key_delays(args.presses))
            figures |= {
                "key_p50_ms": round(percentile(delays, 50), 2),
                "key_p95_ms": round(percentile(delays, 95), 2),
                "key_max_ms": round(max(delays), 2),
                "key_cpu_ms": round(cpu, 2),
                "presses": args.presses,
            }
        if args.only in (None, "waits"):
            games = GAMES
            if args.games:
                games = tuple((name, int(n)) for name, n in (g.rsplit("-", 1) for g in args.games.split(",")))
            figures["waits"] = {
                f"{game}-{players}/{level}": waits(game, players, level, args.pace, args.hands, env, args.timeout)
                for level in args.levels.split(",")
                for game, players in games
            }
            figures |= {"pace": args.pace, "hands": args.hands}
    if args.json:
        print(json.dumps(figures))
    else:
        show(figures, args)
    return 0


def show(figures: dict, args: argparse.Namespace) -> None:
    """The figures in words."""
    if "startup_ms" in figures:
        print(
            f"start-up to the home screen: {figures['startup_ms']} ms (median of {args.runs}; target < 1500), "
            f"CPU {figures['startup_cpu_ms']} ms"
        )
        print(f"briscola --help: CPU {figures['help_cpu_ms']} ms (the whole process)")
        print(f"start-up to the first card to play: {figures['table_startup_ms']} ms (the first deal included)")
        print(f"import briscola_tui.tui.app: {figures['import_ms']} ms")
    if "key_p50_ms" in figures:
        print(
            f"key press to frame over {args.presses} presses: p50 {figures['key_p50_ms']} ms, "
            f"p95 {figures['key_p95_ms']} ms (target < 50), max {figures['key_max_ms']} ms; "
            f"CPU {figures['key_cpu_ms']} ms a press"
        )
    if "waits" in figures:
        print(f"waits for the computer players (pace {args.pace} s, {args.hands} hands a table; ms p50/p95/max):")
        for name, w in figures["waits"].items():

            def three(key: str, w: dict = w) -> str:
                return "/".join(f"{w[key][p]:g}" for p in ("p50", "p95", "max"))

            print(
                f"  {name}: {w['decisions']} decisions, wait {three('wait_ms')} (target max < 1500): "
                f"search {three('search_ms')} (CPU {three('search_cpu_ms')}), pace {three('pace_ms')}, "
                f"protocol {three('protocol_ms')} (CPU {three('protocol_cpu_ms')}); "
                f"first decision {w['first_decision_ms']} ms after the table appears (target < 2000); "
                f"a hand's deal {w['deal_ms']} ms (CPU {w['deal_cpu_ms']}), audit {w['audit_ms']} ms "
                f"(CPU {w['audit_cpu_ms']})"
            )


if __name__ == "__main__":
    sys.exit(main())
