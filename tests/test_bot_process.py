"""The hard player thinks in a worker process (briscola_tui/net/thinking.py).

- `think` gives the action the player gives in this process, and leaves the
  rng where the player would have left it; the cheap levels stay in a
  thread (no worker is started for them);
- real processes on 127.0.0.1 (the helpers of tests/helpers/network.py): a host
  whose computer player is `hard` and a `join --bot hard` play a Briscola
  hand to the end, each thinking in a worker process of its own, the
  transcripts verify; the workers end with their process;
- a `join --bot hard` killed (SIGKILL) mid-hand leaves no worker behind;
  a worker killed from outside costs one move thought in a thread.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

import pytest
from helpers.network import CODE, WAIT, Table, wait_until

from briscola_tui.net import thinking
from engine import bots
from protocol.local import LocalTable

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            out.add(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def views_of_a_hand(game: str, players: int) -> list:
    """Every seat view a player was given in one hand of a local table."""
    views = []

    def chooser(view, rng):
        views.append(view)
        return bots.get("normal")(view, rng)

    LocalTable(game, players, {}, choosers={s: chooser for s in range(players)}).run(max_hands=1)
    return views


def test_think_plays_as_the_player_would_and_keeps_the_rng_in_step():
    views = views_of_a_hand("chiamata", 5)
    hard = bots.get("hard")

    async def in_the_worker(picked):
        rng = random.Random(5)
        actions = [await thinking.think(hard, view, rng) for view in picked]
        return actions, rng.random()

    try:
        # plays in the last four tricks: far below hard's wall-clock and CPU nets, so the
        # move is the seed's alone even on a loaded machine (an early Chiamata bid
        # can meet them, and then differ between the two processes)
        picked = [views[-15], views[-12]]
        actions, after = asyncio.run(in_the_worker(picked))
        rng = random.Random(5)
        assert actions == [hard(view, rng) for view in picked]
        assert after == rng.random()
        assert thinking._pool is not None  # hard thought in the worker
    finally:
        thinking.shutdown()
    rng = random.Random(1)
    action = asyncio.run(thinking.think(bots.get("normal"), views[0], rng))
    assert action in views[0].legal and thinking._pool is None  # normal in a thread: no worker


def test_a_worker_killed_from_outside_costs_one_move_in_a_thread():
    views = views_of_a_hand("briscola", 2)
    hard = bots.get("hard")

    async def moves():
        rng = random.Random(2)
        first = await thinking.think(hard, views[0], rng)
        for pid in thinking._pool._processes:
            os.kill(pid, signal.SIGKILL)
        second = await thinking.think(hard, views[1], rng)  # the dead worker: in a thread
        third = await thinking.think(hard, views[2], rng)  # a new worker
        return [first, second, third], rng.random()

    try:
        actions, after = asyncio.run(moves())
        rng = random.Random(2)
        assert actions == [hard(view, rng) for view in views[:3]] and after == rng.random()
        assert thinking._pool is not None
    finally:
        thinking.shutdown()


def join_hard(table: Table, name: str = "hard"):
    """`briscola join --bot hard` at the table."""
    client = table.kids.start(
        name, "join", table.address, "--name", name, "--code", CODE, "--retry", "20", "--bot", "hard"
    )
    table.clients.append(client)
    return client


def test_a_hard_host_and_a_hard_join_play_a_hand(children):
    table = Table(children, "briscola", players=2, bots=1, extra=("--level", "hard"))
    client = join_hard(table)
    host_workers: set[int] = set()
    client_workers: set[int] = set()
    deadline = time.monotonic() + 4 * WAIT
    while client.proc.poll() is None and time.monotonic() < deadline:
        host_workers |= children_of(table.host.proc.pid)
        client_workers |= children_of(client.proc.pid)
        time.sleep(0.05)
    scores = table.finish()
    table.verify_all(scores)
    assert host_workers and client_workers, "hard thought in no worker process"
    wait_until(lambda: not any(alive(p) for p in host_workers | client_workers), "the workers to end")


def test_a_killed_hard_join_leaves_no_worker(children):
    table = Table(children, "briscola", players=2, bots=1)
    client = join_hard(table)
    workers: set[int] = set()

    def found() -> bool:
        workers.update(children_of(client.proc.pid))
        return bool(workers)

    wait_until(found, "a worker process", kids=children)
    client.proc.kill()
    client.proc.wait(WAIT)
    wait_until(lambda: not any(alive(p) for p in workers), "the worker to end", kids=children)
