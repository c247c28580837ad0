"""A computer player's move, off the event loop.

`think(player, view, rng)` is what the network client (`briscola join
--bot L`) and the host's computer players await instead of calling
`player(view, rng)`. The levels that search (`hard`: pure-Python ISMCTS,
tens of milliseconds a move, holding the GIL all along) run in a worker
process, so the event loop keeps answering the host, pings and spectators
while they think; the other levels cost a fraction of a millisecond and run
in a thread as before.

The worker is one process per node, started lazily (`spawn`, so nothing of
the event loop's threads is copied) on the first move that needs it and
reused after. It is given the level's name, the seat's view (a plain
`SeatView`, pickled: it holds no key and no other seat's hidden card) and
the state of `rng`; it sends back the action and the state the rng reached,
which `think` puts back into `rng`, so a level plays exactly as it would in
this process. The worker ends with this process: at exit (`shutdown`, also
registered with `atexit`) or, if this process is killed, as soon as it sees
its parent gone. A worker killed from outside costs one move thought in a
thread; the next move starts a new worker.
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from random import Random

from engine import bots
from engine.bots import Player, View
from engine.state import Action
from engine.view import SeatView

IN_A_PROCESS = frozenset({"hard"})
"""The levels that search: they think in the worker process."""

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def level_of(player: object) -> str | None:
    """The name under which `engine.bots.PLAYERS` lists `player` (None if it does not)."""
    return next((name for name, known in bots.PLAYERS.items() if known is player), None)


async def think(player: Player, view: SeatView, rng: Random) -> Action:
    """`player(view, rng)` without blocking the event loop (see the module doc)."""
    level = level_of(player)
    if level not in IN_A_PROCESS:
        return await asyncio.to_thread(player, view, rng)
    try:
        future = _worker().submit(_play, level, view, rng.getstate())
        action, state = await asyncio.wrap_future(future)
    except BrokenProcessPool:  # the worker died (killed from outside): think here this once, a new one next time
        shutdown()
        return await asyncio.to_thread(player, view, rng)
    rng.setstate(state)
    return action


def _worker() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_watch_parent
            )
        return _pool


def shutdown() -> None:
    """Stop the worker process, if one was started."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)


# --- in the worker process ------------------------------------------------------


def _play(level: str, view: View, rng_state: tuple[object, ...]) -> tuple[Action, tuple[object, ...]]:
    rng = Random()
    rng.setstate(rng_state)
    action = bots.get(level)(view, rng)
    return action, rng.getstate()


def _watch_parent() -> None:
    """End this worker as soon as the process that started it is gone (killed:
    it could not tell us)."""
    parent = multiprocessing.parent_process()
    assert parent is not None  # (this runs in the worker)
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="watch parent", daemon=True).start()
