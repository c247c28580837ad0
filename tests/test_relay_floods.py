"""A seated peer that sends what no client sends, against real processes: a message sized so
that the host's evidence of it cannot be relayed (the chain of size bounds, protocol/sizes.py),
and a flood of out-of-date messages after a time-out (the no-op bounds, protocol/stale.py).

Each table: the host, an honest `briscola join --bot random` at seat 1, a `briscola watch`, and
Mallory at seat 0, played by hand from this test (her own session, her own connection). After
the attack Mallory comes back and plays honestly: the hand is finished, the honest seat and the
spectator end with status 0 holding the same scores, `briscola verify` names seat 0 alone, and
the host's memory stays within a stated bound.
"""

from __future__ import annotations

import subprocess
import time

import pytest
from helpers.network import BRISCOLA, ROOT, WAIT, Table, rss_mib
from helpers.seated import Mallory

from protocol import handshake as hs
from protocol.codec import encode
from protocol.errors import RemoteProtocolError
from protocol.messages import Evidence, from_body, to_body
from protocol.transcript import HOST, VERSION, Entry, Header, make_payload, parse_signed

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)

HOST_RSS_GROWTH_MIB = 25
"""How much the host's resident memory may grow from before the attack to the end of the table."""


def a_table(children) -> tuple[Table, Mallory]:
    table = Table(children, "briscola", players=2, bots=0, extra=("--time-limit", "3"))
    mallory = Mallory(table.port)
    children.closers.append(mallory.raw)
    table.join("Bob", seat=1)
    table.watch()
    mallory.play(lambda: mallory.session.my_turn(), hold=True)
    return table, mallory


def verify_names_seat_0(table: Table) -> str:
    done = subprocess.run(
        [*BRISCOLA, "verify", str(table.transcript)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT
    )
    assert done.stdout.rstrip().splitlines()[-1] == "culprits: seat 0", done.stdout + done.stderr
    return done.stdout


def finished_honestly(table: Table, children) -> None:
    """The honest seat and the spectator end with status 0 and the host's scores."""
    assert table.host.finish() == 0, children.report()
    scores = table.host.wait_for(r"^scores: (\[.*\])$").group(1)
    for client in table.clients:
        assert client.finish() == 0, children.report()
        assert client.wait_for(r"^the table is over: scores (\[[^\]]*\])").group(1) == scores, client.tail()
    assert "Traceback" not in table.host.text


# --- 1: a message whose evidence could not be relayed -------------------------------------------------


def evidence_frame_size(mallory: Mallory, signed: bytes) -> tuple[int, int]:
    """(the host's signed evidence, its relay frame ["entry", ...]) in bytes, were `signed` kept as
    evidence now (a signature is 64 bytes whoever signs)."""
    session = mallory.session
    assert session.transcript is not None
    try:
        from_body("act", parse_signed(signed).body)
        raise AssertionError("a well-formed act")
    except RemoteProtocolError as error:
        reason = error.reason
    seq = sum(1 for data in mallory.entries if parse_signed(Entry.decode(data).message).header.sender == HOST)
    head, index = session.transcript.head, len(mallory.entries)
    header = Header(VERSION, session.transcript.table_id, "evidence", HOST, seq, head)
    evidence = encode([make_payload(header, to_body(Evidence(signed, reason[:200]))), bytes(64)])
    entry = Entry(index, head, evidence, bytes(64)).encode()
    return len(evidence), len(hs.entry(entry))


def stalling_act(mallory: Mallory) -> bytes:
    """Her next message: an `act` of one padding field (malformed), sized so that the host's
    evidence entry's relay frame is 65,521 bytes: one more than a sealed frame may carry."""
    session = mallory.session
    assert session.transcript is not None
    for pad in range(65_000, 65_300):
        signed = mallory.signed("act", [bytes(pad)], session.seq, session.transcript.head)
        if evidence_frame_size(mallory, signed)[1] == 65_521:
            return signed
    raise AssertionError("no size gives a frame of 65,521 bytes")


def test_an_act_sized_so_its_evidence_cannot_be_relayed_stalls_nobody(children):
    """Before the chain of bounds, the host ordered the evidence, every relay writer died sealing
    its frame, nobody read another entry and the honest seat was timed out and named."""
    table, mallory = a_table(children)
    before = rss_mib(table.host.proc.pid)
    mallory.send([stalling_act(mallory)])
    line = table.host.wait_for(r"dropped a message from connection \d+ \(seat 0\): a message of (\d+) bytes, .*sha256")
    assert int(line.group(1)) > 65_041
    assert ("refuse", ["too-large"]) in mallory.raw.closed_by_host()  # a code (protocol/reasons.py)
    table.host.wait_for(r"Mallory timed out")  # she owed her move: the hand is void, nobody else named
    sizes: list[float] = []  # (read while the host still waits for her goodbye: it ends after it)
    mallory.come_back(lambda: sizes.append(rss_mib(table.host.proc.pid)))
    after = sizes[0]
    finished_honestly(table, children)
    assert "could not relay" not in table.host.text
    verify_names_seat_0(table)
    assert after - before < HOST_RSS_GROWTH_MIB, (before, after)


# --- 2: out-of-date messages after a time-out ----------------------------------------------------------

FLOOD = 200
PADDING = 60_000


def test_a_seat_timed_out_then_flooding_out_of_date_messages_is_refused_and_the_table_stays_small(children):
    """Before the no-op bounds, every out-of-date message was ordered as a no-op: 200 of 60 KB made
    a transcript of 12 MB, kept by the host, every player and every spectator."""
    table, mallory = a_table(children)
    session = mallory.session
    assert session.transcript is not None and session.hand is not None
    old_head, hand = session.transcript.head, session.hand.number
    table.host.wait_for(r"Mallory timed out")  # she holds her move
    mallory.play(lambda: mallory.session.phase == "seating")
    host_before = rss_mib(table.host.proc.pid)
    watcher = table.clients[-1]
    body = [hand, ["play", 0, [], None, None, None, None], [], [], [[bytes(PADDING)], []]]
    start = session.seq
    try:
        for n in range(FLOOD):
            mallory.send([mallory.signed("act", body, start + n, old_head)])
            time.sleep(1 / 40)
    except OSError:
        pass  # refused as a flooder: the connection is gone
    frames = mallory.raw.closed_by_host()
    assert ("refuse", ["flooding"]) in frames, frames[-3:]  # a code (protocol/reasons.py)
    headers = [parse_signed(Entry.decode(f[1][0]).message).header for f in frames if f[0] == "entry"]
    noops = [h for h in headers if h.sender == 0 and h.seq >= start]
    assert len(noops) <= 8, len(noops)
    watcher_rss = rss_mib(watcher.proc.pid)  # (after the flood, before the table ends and it leaves)
    sizes: list[float] = []  # (read while the host still waits for her goodbye: it ends after it)
    mallory.come_back(lambda: sizes.append(rss_mib(table.host.proc.pid)))
    host_after = sizes[0]
    finished_honestly(table, children)
    assert table.transcript.stat().st_size < 1_000_000, table.transcript.stat().st_size
    assert host_after - host_before < HOST_RSS_GROWTH_MIB, (host_before, host_after)
    assert watcher_rss < 150, watcher_rss
    verify_names_seat_0(table)
