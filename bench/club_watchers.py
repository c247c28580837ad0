"""bench/club.py's spectators, in the bench's process: links through the club (club/link.py
connect_link over a few nats connections, MAX_LINKS_A_MEMBER links a member at most) or TCP
connections (bench/table.py's), each doing the real spectator handshake of
protocol/handshake.py and reading every entry (opened, not checked)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any


class BenchError(RuntimeError):
    pass


async def everyone(coroutines: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Every one of them to its end; the first failure ends the others (cancelled) and is raised."""
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Watchers:
    """K spectators in this process (a thread of their own), through the club: `ClubWatchers`,
    or over TCP: `TcpWatchers`."""

    def __init__(self, count: int) -> None:
        self.count, self.joined = count, 0
        self.entries: list[int] = [0] * count
        self.error: BaseException | None = None
        self.all_joined, self.done = threading.Event(), threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def joined_one(self) -> None:
        self.joined += 1
        if self.joined == self.count:
            self.all_joined.set()

    async def _watch(self) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        with contextlib.suppress(OSError, AttributeError):  # (their own machines, elsewhere: the CPU the table leaves)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._watch())
        except BaseException as error:  # (reported by ready() or finish())
            self.error = error
        finally:
            left = asyncio.all_tasks(self.loop)  # (the links' own tasks: ended, not left pending)
            for task in left:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            self.loop.close()
            self.all_joined.set()
            self.done.set()

    def ready(self) -> None:
        if not self.all_joined.wait(120) or self.error is not None:
            raise BenchError(f"the spectators did not all join ({self.joined}/{self.count}): {self.error!r}")

    def finish(self) -> list[int]:
        self.done.wait(60)
        if self.error is not None:
            raise BenchError(f"a spectator failed: {self.error!r}")
        return [min(self.entries), max(self.entries)]

    def stop(self) -> None:
        if not self.done.is_set():
            for task in asyncio.all_tasks(self.loop):
                self.loop.call_soon_threadsafe(task.cancel)
        self.thread.join(10)


class ClubWatchers(Watchers):
    """Links through the club: a few nats connections, MAX_LINKS_A_MEMBER links a member at most."""

    def __init__(self, table: str, count: int, member: Callable[[str], Path]) -> None:
        """`member(name)`: the data folder of the club's member `name`, invited the first time."""
        from briscola_tui.club.link import MAX_LINKS_A_MEMBER

        self.table = table
        groups = -(-count // MAX_LINKS_A_MEMBER)
        self.members = [(f"watcher{g}", member(f"watcher{g}")) for g in range(groups)]
        super().__init__(count)

    async def _watch(self) -> None:
        from briscola_tui.club import joined
        from briscola_tui.club.connect import connect
        from briscola_tui.club.link import MAX_LINKS_A_MEMBER
        from tests.helpers.club import home

        clients = []
        for name, folder in self.members:
            with home(folder):
                invitation = joined.find("friends")
            clients.append((name, await connect(invitation.url, invitation.seed, name, reconnect=True)))
        try:
            await everyone(self._one(k, *clients[k // MAX_LINKS_A_MEMBER]) for k in range(self.count))
        finally:
            for _name, client in clients:
                await client.close()

    async def _one(self, k: int, member: str, client) -> None:  # type: ignore[no-untyped-def]
        from bench.table import TurnedAway

        for _attempt in range(30):
            try:
                return await self._once(k, member, client)
            except TurnedAway as busy:
                await asyncio.sleep(max(busy.seconds, 0.1))
        raise BenchError("a spectator was turned away 30 times")

    async def _once(self, k: int, member: str, client) -> None:  # type: ignore[no-untyped-def]
        """One spectator as the client is one through a club: the table's broadcast heard from
        before it connects, its entries up to its welcome by its link, the key of the broadcast
        (`watch`), then every entry from the broadcast, opened (net/watching.py), to the end."""
        from bench.table import entry_index
        from briscola_tui.club.broadcast import heard
        from briscola_tui.club.link import connect_link
        from protocol import broadcast
        from protocol import handshake as hs

        listening = await heard(client, "club.friends", "host", self.table)
        spectator = Spectator(await connect_link(client, "club.friends", "host", self.table, member))
        try:
            await spectator.handshake()
            self.joined_one()
            opener, held = None, 0
            while opener is None:  # (its link: the entries up to its welcome, then the broadcast's key)
                data = await spectator.next_data()
                if data is None or hs.parse(data)[0] == "bye":
                    return
                if entry_index(data) >= 0:
                    held += 1
                elif hs.parse(data)[0] == "watch":
                    opener = broadcast.Opener(hs.parse(data)[1][0], bytes.fromhex(self.table))
            self.entries[k] += held
            while True:
                stored, payload = opener.open(await listening.next())
                kind = hs.parse(payload)[0]
                if kind == "entry" and stored > held:
                    self.entries[k] += 1
                    held = stored
                elif kind == "bye":
                    return
        finally:
            spectator.link.close()
            listening.close()


class TcpWatchers(Watchers):
    """TCP connections to the open table's port (bench/table.py's spectators)."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        super().__init__(count)

    async def _watch(self) -> None:
        from bench.table import spectator

        arrivals: list[dict[int, float]] = [{} for _ in range(self.count)]
        welcomed = [asyncio.Event() for _ in range(self.count)]

        async def counted(k: int) -> None:
            await welcomed[k].wait()
            self.joined_one()

        counters = [asyncio.create_task(counted(k)) for k in range(self.count)]
        try:
            await everyone(spectator(self.port, arrivals[k], welcomed[k]) for k in range(self.count))
        finally:
            self.entries = [len(seen) for seen in arrivals]
            for counter in counters:
                counter.cancel()


class Spectator:
    """One spectator's link: the spectator handshake of protocol/handshake.py (the open table's
    empty code), then the sealed frames opened."""

    def __init__(self, link) -> None:  # type: ignore[no-untyped-def]
        from protocol.codec import FrameReader

        self.link, self.frames, self.channel = link, FrameReader(), None

    async def next_data(self) -> bytes | None:
        while (data := self.frames.next_frame()) is None:
            chunk = await self.link.read()
            if not chunk:
                return None
            self.frames.feed(chunk)
        return self.channel.open(data) if self.channel is not None else data

    async def expect(self, wanted: str) -> list:
        from bench.table import TurnedAway
        from protocol import handshake as hs

        data = await self.next_data()
        if data is None:
            raise BenchError("the host closed a spectator's link during its handshake")
        kind, fields = hs.parse(data)
        if kind == "busy":
            raise TurnedAway(fields[1])
        if kind != wanted:
            raise BenchError(f"a spectator got {kind} instead of {wanted}")
        return fields

    async def handshake(self) -> None:
        from protocol import handshake as hs
        from protocol.channel import Exchange
        from protocol.codec import frame

        exchange = Exchange("client", "")
        self.link.write(frame(hs.hello(exchange.message)))
        fields = await self.expect("exchange")
        exchange.finish(fields[1], fields[0], hs.VERSION)
        self.link.write(frame(hs.confirm(exchange.confirmation())))
        exchange.check((await self.expect("confirm"))[0])
        self.channel = exchange.channel()
        self.link.write(frame(self.channel.seal(hs.request("spectator", b"", ""))))
        await self.expect("welcome")
