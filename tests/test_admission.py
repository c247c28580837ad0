"""Admission and memory under load: `briscola host` as a real process on 127.0.0.1.

What is shown (docs/network.md, "Limits on hostile clients"):

1. an outsider without the join code holds some 260 idle connections and
   re-opens each one the host closes, while a player's process is killed and
   started again: the player takes its seat back at once and the hand goes
   on (nobody is timed out or named), the outsider's oldest idle connections
   being closed (`busy`) as its newer ones come;
2. a refusal for load (`busy`: the pool of connections is full) is retried
   by the client, backing off, until it gets in (a player, who holds a seat,
   gets in past the full pool at once); one whose `--retry` runs out exits 1;
3. a key that floods is closed and kept out for a while however it
   reconnects, and after that its bucket is not full again (the rate is per
   key, not per connection: shown on a clock the test turns, not waited out);
   another key is not held back; spectators are counted per address;
4. nothing of a closed connection stays: after hundreds of connections closed
   for load and hundreds of reconnections with stalled readers, the host's
   stats line (hidden `--limit stats_seconds=...`) counts no handler and no
   queued byte more than its live connections hold, each stalled reader's
   queue holds at most one `away`, and the host's memory stays within a few
   MiB; a queue over its bound closes its reader (in-process).

Every process has its own data folder, ports are the ones the OS picks,
every wait has a deadline and every loop a bound, and the `children` fixture
kills every process it started.
"""

from __future__ import annotations

import re
import secrets
import selectors
import socket
import threading
import time

import pytest
from helpers.admitting import Clock, lone_admission, player
from helpers.links import MemoryLink
from helpers.network import CODE, WAIT, Human, Raw, Table, rss_mib, sit, spectate, wait_until

from briscola_tui.net.connection import Busy, Conn, Limits
from briscola_tui.net.relay import Relay
from protocol import handshake as hs
from protocol.codec import FrameReader
from protocol.errors import RemoteProtocolError
from protocol.identity import Identity
from protocol.reasons import Reason
from protocol.session import TableSession

# --- helpers ---------------------------------------------------------------------------------


class Outsider(threading.Thread):
    """Someone without the code: holds `hold` connections that say nothing, and re-opens each
    one the host closes (at most `rate` a second), until `stop()`; what the host sent each is
    counted by kind."""

    def __init__(self, port: int, hold: int = 260, rate: float = 300.0, seconds: float = 120.0):
        super().__init__(daemon=True)
        self.port, self.hold, self.rate, self.seconds = port, hold, rate, seconds
        self.kinds: dict[str, int] = {}
        self.opened = 0
        self.stopping = threading.Event()
        self.full = threading.Event()  # it has opened `hold` connections
        self.start()

    def run(self) -> None:
        chooser = selectors.DefaultSelector()
        held: dict[socket.socket, FrameReader] = {}
        deadline = time.monotonic() + self.seconds
        try:
            while not self.stopping.is_set() and time.monotonic() < deadline:
                if len(held) < self.hold:
                    try:
                        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                    except OSError:
                        time.sleep(0.05)
                        continue
                    sock.setblocking(False)
                    held[sock] = FrameReader()
                    chooser.register(sock, selectors.EVENT_READ)
                    self.opened += 1
                    if self.opened >= self.hold:
                        self.full.set()
                    time.sleep(1 / self.rate)
                for key, _ in chooser.select(0 if len(held) < self.hold else 0.05):
                    sock = key.fileobj
                    if self._closed(sock, held[sock]):
                        chooser.unregister(sock)
                        del held[sock]
                        sock.close()
        finally:
            for sock in held:
                sock.close()
            chooser.close()

    def _closed(self, sock: socket.socket, frames: FrameReader) -> bool:
        try:
            while chunk := sock.recv(65536):
                frames.feed(chunk)
        except BlockingIOError:
            return False
        except OSError:
            pass
        while (data := frames.next_frame()) is not None:
            kind = hs.parse(data)[0]
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
        return True

    def stop(self) -> None:
        self.stopping.set()
        self.join(WAIT)


def take_seat(port: int, identity: Identity, seat: int = -1) -> None:
    """A seat for this key by hand: the handshake, then its join, once ordered (the connection is
    then closed: the seat is away)."""
    raw, seat, entries = sit(port, identity, seat=seat)
    try:
        session = TableSession(seat, identity, "by hand")
        owed = [m for data in entries for m in session.receive(data).messages] + session.start().messages
        for message in owed:
            raw.send(hs.submit(message))
        deadline = time.monotonic() + WAIT
        while seat not in session.keys:
            item = raw.next(max(0.1, deadline - time.monotonic()))
            assert item is not None, "the host closed the connection before the join"
            if item[0] == "entry":
                session.receive(item[1][0])
    finally:
        raw.close()


def proved(port: int, identity: Identity) -> tuple[Raw, str, list]:
    """A player's handshake by hand up to the host's answer to its proof: (the connection,
    kind, fields) of that answer ("welcome", or "busy" for a key kept out)."""
    raw = Raw(port)
    raw.hello("player", identity.public_bytes, "by hand")
    kind, fields = raw.next()
    assert kind == "challenge", (kind, fields)
    raw.send(hs.proof(identity, fields[0], raw.table_id, raw.binding))
    kind, fields = raw.next()
    return raw, kind, fields


STATS = re.compile(
    r"^stats: (?P<past>\d+) connections past the handshake, (?P<in>\d+) in it, (?P<closing>\d+) closing; "
    r"(?P<handlers>\d+) handlers; "
    r"(?P<queued>\d+) bytes queued \(at most (?P<most>\d+) for one\); (?P<buckets>\d+) rate buckets; "
    r"(?P<load>\d+) refused or closed for load$"
)


def stats(host, after: int = 0, timeout: float = WAIT) -> dict[str, int]:
    """The host's next stats line printed after output line `after`, as numbers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with host.changed:
            lines = host.lines[after:]
        for line in reversed(lines):
            if (found := STATS.match(line)) is not None:
                return {k: int(v) for k, v in found.groupdict().items()}
        time.sleep(0.1)
    raise AssertionError(f"no stats line\n{host.tail()}")


# --- 1: idle connections do not keep a player out --------------------------------------------------


@pytest.mark.slow
def test_an_outsider_holding_idle_connections_keeps_no_restarted_player_out(children):
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "30", "--handshake-seconds", "3"))
    watcher = table.watch()
    person = Human(seed=5, delay=0.1, hold_at=6)  # it waits for the test after 6 moves
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 2, "the hand to start", kids=children)
    outsider = Outsider(table.port, hold=260, rate=1000)
    try:
        wait_until(outsider.full.is_set, "the outsider to open 260 connections", kids=children)
        wait_until(lambda: sum(outsider.kinds.values()) > 100, "idle connections to be closed", kids=children)
        cleo.proc.kill()
        cleo.finish()
        table.host.wait_for(r"closing connection \d+ \(seat 0\): connection lost")
        moves = person.moves
        cleo = table.restart(cleo)  # the same command, while the outsider keeps its connections coming
        cleo.wait_for(r"^seat 0 at table ", timeout=10)
        assert "busy" not in cleo.text and "trying again" not in cleo.text, cleo.tail()
        person.go.set()
        wait_until(lambda: person.moves > moves + 3, "the hand to go on", kids=children)
        opened, closed = outsider.opened, sum(outsider.kinds.values())
    finally:
        outsider.stop()
    scores = table.finish()
    table.verify_all(scores)
    assert "timed out" not in table.host.text and "timed out" not in watcher.text
    # The outsider kept coming: most of its connections were closed for being idle past the
    # share of one address, and the console did not say each one.
    assert opened > 400 and outsider.kinds.get("busy", 0) > 300, (opened, closed, outsider.kinds)
    assert set(outsider.kinds) <= {"busy", "bye"}, outsider.kinds
    assert table.host.text.count("\n") < 200, table.host.tail()


# --- 2: a refusal for load is retried ---------------------------------------------------------------


@pytest.mark.slow
def test_a_load_refusal_is_retried_with_back_off_and_a_player_gets_in_past_a_full_pool(children):
    table = Table(
        children,
        "briscola",
        players=2,
        bots=1,
        # Told to come back at once (the default is 1 s): the client's own back-off shows, in fewer seconds.
        # The spectators held by hand are lost, never back to read the end: not waited for (10 s by default).
        extra=("--limit", "max_connections=2", "--limit", "busy_seconds=0", "--limit", "linger_seconds=0"),
    )
    held = [spectate(table.port)[0] for _ in range(2)]  # the pool of connections past the handshake is full
    children.closers += held
    watcher = table.watch()
    late = children.start("late", "watch", table.address, "--retry", "0.5", "--code", CODE)
    # (every try said: the host said how long to wait; the pauses grow, each about twice the last)
    wait_until(lambda: watcher.text.count("the host is busy") >= 4, "four tries", timeout=45, kids=children)
    pauses = [float(p) for p in re.findall(r"the host is busy \(.*\); trying again in (\d+\.\d) s", watcher.text)]
    assert len(pauses) >= 4 and pauses[:4] == sorted(set(pauses[:4])) and pauses[3] > 4 * pauses[0], (
        pauses
    )  # it backs off
    assert late.finish() == 1, late.tail()
    assert re.search(r"cannot reach the host at \S+ after 0\.5 s: the host has too many connections", late.text), (
        late.tail()
    )
    # A player holds a seat: let in at once, past the full pool (the person waits to play).
    person = Human(seed=2, hold_at=0)
    ann = table.join("Ann", human=person)
    ann.wait_for(r"^seat 0 at table ", timeout=10)
    assert "busy" not in ann.text
    for raw in held:
        raw.close()
    watcher.wait_for(r"^watching at table ", timeout=15)
    person.go.set()
    scores = table.finish()
    table.verify_all(scores)
    assert "refused" not in watcher.text


# --- 3: the rate is per key ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_flooding_key_is_throttled_across_reconnections(children):
    table = Table(
        children,
        "briscola",
        players=2,
        bots=0,
        extra=(
            "--limit",
            "burst=20",
            "--limit",
            "messages_per_second=1",
            "--limit",
            "penalty_seconds=3",
        ),
    )
    flooder = Identity.generate()
    raw, seat, _ = sit(table.port, flooder)
    children.closers.append(raw)
    number = table.host.wait_for(r"connection (\d+) \(seat \d\) joined").group(1)
    for _ in range(40):
        raw.send(hs.submit(secrets.token_bytes(64)))
    frames = raw.closed_by_host(timeout=10)
    assert ("bye", ["kept-out-seconds\x1f3"]) in frames, frames  # a code and its field (protocol/reasons.py)
    wait_until(lambda: "too many messages" in table.host.text, "the flood to be closed", kids=children)
    taken = table.host.text.count(f"dropped a message from connection {number} ")
    assert 20 <= taken <= 23, taken  # the burst, and what refilled meanwhile
    # However it reconnects, the key is kept out for now, told when to come back (when it is let in
    # again, and with what: test_a_key_kept_out_is_let_in_when_its_time_is_up_with_what_refilled) ...
    for _ in range(3):
        again, kind, fields = proved(table.port, flooder)
        children.closers.append(again)
        assert kind == "busy" and fields[0] == "kept-out" and 1 <= fields[1] <= 3, fields
        again.close()
    # ... while another key is not held back.
    other, kind, _ = proved(table.port, Identity.generate())
    children.closers.append(other)
    assert kind == "welcome"
    other.close()


def test_a_key_kept_out_is_let_in_when_its_time_is_up_with_what_refilled_not_a_full_burst():
    """The host's side of the test above past the time it named, on a clock the test turns: the
    key is let in once its time is up, with what refilled since (one message a second), not a
    full burst, and runs dry again."""
    clock = Clock()
    admission = lone_admission(Limits(burst=20, messages_per_second=1, penalty_seconds=3), clock=clock)
    flooder = player(1, b"F" * 33)

    def sent(conn) -> int:
        """Messages taken from `conn` until its key runs dry (it is then closed, told for how long)."""
        for taken in range(100):
            try:
                admission.rate(conn)
            except RemoteProtocolError as closed:
                assert closed.coded == Reason.of("kept-out-seconds", seconds="3"), closed.coded
                return taken
        raise AssertionError("never ran dry")

    assert sent(flooder) == 20  # the burst
    for at, left in ((0.0, 3.0), (2.0, 1.0), (2.9, 0.1)):
        clock.now = at
        with pytest.raises(Busy) as kept_out:
            admission._admit(player(2, flooder.key))  # it reconnects: kept out, told for how long
        assert kept_out.value.reason.code == "kept-out" and kept_out.value.seconds == pytest.approx(left)
    admission._admit(player(3, b"O" * 33, seat=1))  # another key is not held back
    clock.now = 3.0
    again = player(4, flooder.key)
    admission._admit(again)  # its time is up
    assert sent(again) == 3  # what refilled in 3 s, far from a full burst
    clock.now = 4.0
    with pytest.raises(Busy):
        admission._admit(player(5, flooder.key))  # kept out again


@pytest.mark.slow
def test_spectators_are_counted_per_address(children):
    table = Table(
        children,
        "briscola",
        players=2,
        bots=0,
        extra=("--limit", "burst=10", "--limit", "messages_per_second=0.5", "--limit", "penalty_seconds=30"),
    )
    welcomed = 0
    for _ in range(20):
        raw = Raw(table.port)
        children.closers.append(raw)
        raw.hello("spectator", b"", "")
        kind, fields = raw.next()
        raw.close()
        if kind != "welcome":
            assert kind == "busy" and fields[0] == "kept-out-address", (kind, fields)
            break
        welcomed += 1
    assert 10 <= welcomed <= 12, welcomed
    # A player's key is its own: it is let in.
    raw, kind, _ = proved(table.port, Identity.generate())
    children.closers.append(raw)
    assert kind == "welcome"


# --- 4: nothing of a closed connection stays; the queues are bounded ---------------------------------


@pytest.mark.slow
def test_nothing_of_a_closed_connection_stays_and_stalled_readers_hold_one_away_each(children):
    table = Table(
        children,
        "briscola",
        players=2,
        bots=0,
        extra=(
            "--limit",
            "stats_seconds=0.3",
            "--limit",
            "handshaking=16",
            "--limit",
            "quiet_per_address=8",
            "--limit",
            "send_buffer=4096",
        ),
    )
    host = table.host
    player = Identity.generate()
    take_seat(table.port, player)
    before = rss_mib(host.proc.pid)
    # Connections closed for load: idle ones past the share of one address, hundreds of them.
    idle: list[socket.socket] = []
    for _ in range(600):
        idle.append(socket.create_connection(("127.0.0.1", table.port), timeout=5))
        if len(idle) > 40:
            idle.pop(0).close()
    wait_until(lambda: stats(host, len(host.lines) - 1)["load"] >= 500, "the idle ones closed", kids=children)
    for sock in idle:
        sock.close()
    # Stalled readers: spectators with a small receive buffer that read nothing after their welcome,
    # while the seat's key comes and goes (each time, every connection is told who is away).
    stalled = []
    for _ in range(20):
        raw = Raw(table.port, rcvbuf=4096)
        children.closers.append(raw)
        raw.hello("spectator", b"", "")
        assert raw.next()[0] == "welcome"
        stalled.append(raw)
    for _ in range(300):
        raw, _, _ = sit(table.port, player)
        raw.close()
    host.wait_for(r"connection \d+ \(seat 0\) joined")

    def settled() -> bool:  # the last seat's connection closed and gone (stats come every 0.3 s)
        now = stats(host, len(host.lines))
        return now["past"] == 20 and now["in"] == now["closing"] == 0

    wait_until(settled, "only the stalled spectators left", kids=children)
    now = stats(host, len(host.lines))
    assert now["past"] == 20 and now["in"] == now["closing"] == 0, now  # the stalled spectators, and nothing else
    assert now["handlers"] == 20, now  # one per live connection: none left by a closed one
    assert 0 < now["most"] <= 64, now  # they stalled, and each holds one `away`, however many were said
    assert now["load"] >= 500
    for raw in stalled:
        raw.close()
    wait_until(lambda: stats(host, len(host.lines))["handlers"] == 0, "every handler to end", kids=children)
    after = stats(host, len(host.lines))
    assert after["past"] == after["in"] == after["closing"] == after["queued"] == 0, after
    assert rss_mib(host.proc.pid) - before < 20  # generous: it is flat (bench/host_memory.py measures it)


def test_a_queue_holds_the_latest_away_only_and_a_reader_over_its_bound_is_closed():
    said: list[str] = []
    relay = Relay(Limits(queue_bytes=2_000), [], {}, said.append)
    conn = Conn(1, MemoryLink())
    conn.welcomed = True
    for seats in [(0,), (), (0,), (0, 1)] * 50:
        relay.send(conn, hs.away(seats), status="away")
    assert len(conn.queue) == 1 and conn.queued == len(conn.queue[0][1]) and not conn.closed
    assert hs.parse(conn.queue[0][1][4:]) == ("away", [(0, 1)])
    while not conn.closed:
        relay.send(conn, hs.bye("x" * 100))  # frames that are not a status pile up: bounded
    assert conn.queued > 2_000 and conn.link.closed
    assert said == [f"closing {conn}: too slow to read the table"]
    queued = conn.queued
    relay.send(conn, hs.away(()), status="away")
    assert conn.queued == queued  # a closed connection queues nothing more
