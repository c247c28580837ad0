"""Spectators fanned out by the club (issue 47, item 4): the host seals each frame a spectator
reads once with the broadcast key (protocol/broadcast.py) and publishes it once; the club does
the fan-out. What a spectator heard is taken in order, and a message changed, missed or
replayed makes it connect again rather than take a wrong table."""

from __future__ import annotations

import asyncio
import re
import subprocess
from collections import Counter

import pytest
from helpers.club import ClubServer, join
from helpers.network import BRISCOLA, ROOT, WAIT, Children

from briscola_tui.net.watching import Watching
from protocol import broadcast
from protocol import handshake as hs
from protocol.errors import RemoteProtocolError

TABLE = bytes(range(16))


def test_a_broadcast_message_opens_once_in_order_and_not_changed_nor_for_another_table():
    key = broadcast.new_key()
    sealer = broadcast.Sealer(key, TABLE)
    first, second, third = (sealer.seal(hs.entry(bytes([n])), n + 1) for n in range(3))
    opener = broadcast.Opener(key, TABLE)
    assert opener.open(first) == (1, hs.entry(b"\x00"))
    with pytest.raises(RemoteProtocolError):  # the second missed: the third does not follow the first
        opener.open(third)
    assert opener.open(second) == (2, hs.entry(b"\x01"))
    with pytest.raises(RemoteProtocolError):  # replayed
        opener.open(second)
    changed = bytearray(third)
    changed[-1] ^= 1
    for wrong, opener_of in (
        (bytes(changed), broadcast.Opener(key, TABLE)),
        (third, broadcast.Opener(key, bytes(16))),  # another table's
        (third, broadcast.Opener(broadcast.new_key(), TABLE)),  # without the key
        (third[:10], broadcast.Opener(key, TABLE)),
    ):
        with pytest.raises(RemoteProtocolError):
            opener_of.open(wrong)


class _Heard:
    def __init__(self, messages: list[bytes]) -> None:
        self.messages = messages

    async def next(self) -> bytes:
        return self.messages.pop(0)

    def close(self) -> None:
        pass


def test_a_spectator_takes_the_entries_it_lacks_and_connects_again_at_a_gap():
    key = broadcast.new_key()
    sealer = broadcast.Sealer(key, TABLE)
    sent = [sealer.seal(hs.entry(bytes([n])), n + 1) for n in range(5)]  # entries 0..4
    watching = Watching(_Heard(sent[:3] + sent[4:]))  # entry 3 never heard
    watching.keyed(key, TABLE)
    # it holds 2 entries (from its connection): 0 and 1 are passed over, 2 is taken
    assert asyncio.run(watching.next(2)) == ("entry", [b"\x02"])
    with pytest.raises(ConnectionError):  # the 4th came where the 3rd should have
        asyncio.run(watching.next(3))


def test_a_broadcast_silent_past_its_limit_is_a_lost_connection(monkeypatch):
    """Its host lets a spectator's connection go: a broadcast that says nothing (not even who is
    away, which the host says every few seconds) has lost its host, and the spectator connects
    again."""
    from briscola_tui.net import watching as watching_module

    class Silent(_Heard):
        async def next(self) -> bytes:
            await asyncio.sleep(3600)
            return b""

    monkeypatch.setattr(watching_module, "SILENT_SECONDS", 0.05)
    silent = Watching(Silent([]))
    silent.keyed(broadcast.new_key(), TABLE)
    with pytest.raises(ConnectionError, match="went silent"):
        asyncio.run(silent.frame(0))


# --- through a real club -------------------------------------------------------------------------


def _member(club: ClubServer, children: Children, name: str):
    home = children.folder / name
    home.mkdir(mode=0o700)
    join(home, club.invite(name))
    return name


@pytest.mark.slow
def test_the_host_publishes_each_entry_once_whatever_the_audience(tmp_path):
    """A table through a club with three spectators: once a spectator has its key the host lets
    its connection go and holds nothing of it; every entry goes once on the table's broadcast
    subject, a spectator's own connection carrying its handshake only (a few messages, not one
    an entry); the spectators and the player end with the host's scores, and every spectator's
    transcript verifies."""
    children = Children(tmp_path)
    club = ClubServer(tmp_path / "keeper")
    heard: Counter[str] = Counter()
    try:
        for name in ("ann", "bo", "s1", "s2", "s3"):
            _member(club, children, name)
        spy = _Spy(club)
        spy.start()
        host = children.start(
            "host",
            "host",
            "--headless",
            "--club",
            "friends",
            "--players",
            "2",
            "--bots",
            "1",
            "--hands",
            "1",
            "--time-limit",
            "20",
            "--limit",
            "stats_seconds=0.2",
            home="ann",
        )
        code = host.wait_for(r"join with: briscola join (\S+) --club", WAIT).group(1)
        host.wait_for(r"listed by the club", WAIT)
        watchers = [
            children.start(s, "watch", code, "--club", "friends", "--headless", home=s) for s in ("s1", "s2", "s3")
        ]
        for watcher in watchers:
            watcher.wait_for(r"^watching at table", WAIT)
        # the host keeps nothing of a spectator past its handshake: no connection, no handler
        host.wait_for(r"^stats: 0 connections past the handshake, 0 in it, 0 closing; 0 handlers", WAIT)
        player = children.start("bo", "join", code, "--club", "friends", "--headless", "--bot", "easy", home="bo")
        assert player.finish() == 0, children.report()
        assert host.finish() == 0, children.report()
        scores = host.wait_for(r"^scores: (\[.*\])$", WAIT).group(1)
        for watcher in watchers:
            assert watcher.finish() == 0, children.report()
            assert watcher.wait_for(r"^the table is over: scores (\[[^\]]*\])", WAIT).group(1) == scores
            transcript = max((tmp_path / watcher.name / "transcripts").glob("*.bin"), key=lambda p: p.stat().st_mtime)
            done = subprocess.run(
                [*BRISCOLA, "verify", str(transcript)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT
            )
            assert done.returncode == 0, done.stdout + done.stderr
        heard = spy.stop()
    finally:
        children.close()
        club.close()
    broadcasts = sum(n for subject, n in heard.items() if ".tables.watch." in subject)
    to_spectators = {s: n for s, n in heard.items() if re.search(r"\.tables\.down\.ann\.[0-9a-f]{32}\.s\d\.", s)}
    to_player = sum(n for s, n in heard.items() if re.search(r"\.tables\.down\.ann\.[0-9a-f]{32}\.bo\.", s))
    assert broadcasts > 60, heard  # every entry of a hand of Briscola, once
    assert to_spectators and all(n < 20 for n in to_spectators.values()), (to_spectators, broadcasts)
    assert to_player > broadcasts / 2, (to_player, broadcasts)  # (a seat's own connection carries its entries)


class _Spy:
    """The club's keeper (the serving process's own user) listening to every table subject, in a
    thread of its own: how many messages each subject carried."""

    def __init__(self, club: ClubServer) -> None:
        import json
        import threading

        record = json.loads((club.folder / "club" / "club.json").read_text())
        self.url, self.seed = club.url, record["keeper_seed"]
        self.counts: Counter[str] = Counter()
        self.ready, self.done = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)

    def start(self) -> None:
        self.thread.start()
        assert self.ready.wait(WAIT)

    def stop(self) -> Counter[str]:
        self.done.set()
        self.thread.join(WAIT)
        return self.counts

    async def _listen(self) -> None:
        from briscola_tui.club.config import KEEPER
        from briscola_tui.club.connect import connect

        client = await connect(self.url, self.seed, KEEPER)

        async def came(msg) -> None:
            self.counts[msg.subject] += 1

        await client.subscribe("club.friends.tables.>", cb=came)
        await client.flush()
        self.ready.set()
        while not self.done.is_set():
            await asyncio.sleep(0.05)
        await client.close()
