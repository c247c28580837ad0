"""bench/club.py's spectators through the club: links in the bench's process (club/link.py
connect_link over a few nats connections, MAX_LINKS_A_MEMBER links a member at most), each
doing the real spectator handshake of protocol/handshake.py and reading every entry (opened,
not checked)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path


class BenchError(RuntimeError):
    pass


class Watchers:
    """K spectators through the club, in this process (a thread of their own)."""

    def __init__(self, table: str, count: int, member: Callable[[str], Path]) -> None:
        """`member(name)`: the data folder of the club's member `name`, invited the first time."""
        from briscola_tui.club.link import MAX_LINKS_A_MEMBER

        self.count, self.table = count, table
        groups = -(-count // MAX_LINKS_A_MEMBER)
        self.members = [(f"watcher{g}", member(f"watcher{g}")) for g in range(groups)]
        self.joined = 0
        self.entries: list[int] = [0] * count
        self.error: BaseException | None = None
        self.all_joined, self.done = threading.Event(), threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self._watch())
        except BaseException as error:  # (reported by ready() or finish())
            self.error = error
        finally:
            self.all_joined.set()
            self.done.set()

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
            tasks = [asyncio.create_task(self._one(k, *clients[k // MAX_LINKS_A_MEMBER])) for k in range(self.count)]
            await asyncio.gather(*tasks)
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
        from bench.table import entry_index
        from briscola_tui.club.link import connect_link
        from protocol import handshake as hs

        spectator = Spectator(await connect_link(client, "club.friends", "host", self.table, member))
        try:
            await spectator.handshake()
            self.joined += 1
            if self.joined == self.count:
                self.all_joined.set()
            while (data := await spectator.next_data()) is not None:
                if entry_index(data) >= 0:
                    self.entries[k] += 1
                elif hs.parse(data)[0] == "bye":
                    return
        finally:
            spectator.link.close()

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
