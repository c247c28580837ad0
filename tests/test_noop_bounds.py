"""The host's bounds on no-ops (protocol/stale.py) and a relay writer that fails (net/relay.py).

A seat's message that crossed an interruption in flight is ordered as a no-op; the host orders
a seat's no-ops only within STALE_MESSAGES, STALE_BYTES and STALE_ECHO, counted from the latest
interruption, and drops the rest (`Flooding`) without spending their numbers.
"""

from __future__ import annotations

import asyncio

import pytest
from helpers.cheaters import random_choosers
from helpers.links import MemoryLink

from briscola_tui.net.connection import Conn, Limits
from briscola_tui.net.relay import Relay
from protocol.codec import encode
from protocol.errors import LocalProtocolError
from protocol.host import Dropped, Flooding
from protocol.identity import sign_message
from protocol.local import LocalTable
from protocol.messages import Complaint, to_body
from protocol.session import TableSession
from protocol.stale import STALE_BYTES, STALE_ECHO, STALE_MESSAGES, NoopBounds
from protocol.transcript import VERSION, Header, make_payload


def timed_out_at_its_turn() -> tuple[LocalTable, TableSession, bytes, int]:
    """A two-seat Briscola table; the seat whose turn it is, timed out: (table, seat, the head it
    had seen before, the hand)."""
    table = LocalTable("briscola", 2, choosers=random_choosers(2, 3))
    table.start()
    seat = next(s for s in table.seats if s.my_turn())
    assert seat.transcript is not None and seat.hand is not None
    head, hand = seat.transcript.head, seat.hand.number
    table.broadcast(table.host.time_out(seat.seat))
    table.pump()
    return table, seat, head, hand


def by_hand(seat: TableSession, kind: str, body: list, head: bytes, table: LocalTable) -> bytes:
    """The seat's next message (the number the host expects), signed by hand with this echo."""
    assert seat.identity is not None and seat.transcript is not None and seat.seat is not None
    log = table.host.transcript
    assert log is not None
    header = Header(VERSION, seat.transcript.table_id, kind, seat.seat, log.next_seq(seat.seat), head)
    payload = make_payload(header, body)
    return encode([payload, sign_message(seat.identity, payload)])


def stale_act(hand: int, padding: int) -> list:
    """A well-formed `act` (its claim padded), out of phase once its seat is timed out."""
    return [hand, ["play", 0, [], None, None, None, None], [], [], [[bytes(padding)], []]]


def submit_all(table: LocalTable, messages) -> tuple[int, list[Dropped]]:
    """Each message, made as it is sent: (how many were ordered, the drops)."""
    ordered, drops = 0, []
    for make in messages:
        try:
            table.broadcast(table.host.submit(make(), "conn").entry)
            ordered += 1
        except Dropped as error:
            drops.append(error)
    assert table.failures == []
    return ordered, drops


def test_a_timed_out_seat_gets_a_few_no_ops_then_its_messages_are_dropped():
    table, seat, head, hand = timed_out_at_its_turn()
    ordered, drops = submit_all(table, [lambda: by_hand(seat, "act", stale_act(hand, 10), head, table)] * 40)
    assert ordered == STALE_MESSAGES
    assert len(drops) == 40 - STALE_MESSAGES and all(isinstance(d, Flooding) for d in drops)
    assert all(d.culprit == "conn" for d in drops)
    assert len(table.host.session.stale) == STALE_MESSAGES


def test_no_ops_are_bounded_in_bytes_too():
    table, seat, head, hand = timed_out_at_its_turn()
    ordered, drops = submit_all(table, [lambda: by_hand(seat, "act", stale_act(hand, 60_000), head, table)] * 10)
    assert ordered == STALE_BYTES // 60_100 == 2
    assert all(isinstance(d, Flooding) and "bytes" in d.reason for d in drops)


def test_a_no_op_echoing_too_far_back_is_dropped():
    table, seat, head, hand = timed_out_at_its_turn()
    log = table.host.transcript
    assert log is not None
    for _ in range(STALE_ECHO + 1):  # the table moves on: its other seat's no-ops, say
        log.entries.append(log.entries[-1])  # only the distance counts here: a longer log
    with pytest.raises(Flooding, match="echoing"):
        table.host.submit(by_hand(seat, "act", stale_act(hand, 10), head, table), "conn")


def test_the_bounds_count_each_seat_again_from_each_interruption():
    bounds = NoopBounds()
    for _ in range(STALE_MESSAGES):
        assert bounds.check(0, 10, 1, 100) is None
        bounds.charge(0, 10, 100)
    assert "more than 8" in (bounds.check(0, 10, 1, 100) or "")
    assert bounds.check(1, 10, 1, 100) is None  # another seat
    assert bounds.check(0, 20, 1, 100) is None  # a new interruption


def test_a_burst_of_false_complaints_orders_at_most_a_few():
    """399 complaints at once, each at the seat's next number: the first stops the hand (a false
    one is evidence), the others crossed that interruption: no more than STALE_MESSAGES ordered."""
    table = LocalTable("briscola", 2, choosers=random_choosers(2, 3))
    table.start()
    seat = next(s for s in table.seats if s.my_turn())
    assert seat.transcript is not None and seat.hand is not None and seat.seat is not None
    head, hand = seat.transcript.head, seat.hand.number
    body = to_body(Complaint(hand, 0, 1 - seat.seat, b"\x02" + bytes(32), bytes(64)))
    stored = len(table.entries)
    ordered, drops = submit_all(table, [lambda: by_hand(seat, "complaint", list(body), head, table)] * 399)
    assert ordered <= 1 + STALE_MESSAGES, ordered
    assert len(table.entries) - stored == ordered
    assert len(drops) >= 399 - 1 - STALE_MESSAGES


# --- a relay writer that fails ---------------------------------------------------------------


class BrokenChannel:
    """A channel that cannot seal what it is given (as a frame over MAX_PLAIN once could not)."""

    def seal(self, data: bytes) -> bytes:
        raise LocalProtocolError(f"cannot seal a frame of {len(data)} bytes")


def test_a_relay_writer_that_fails_says_what_failed_and_closes_its_connection():
    said: list[str] = []
    link = MemoryLink()
    conn = Conn(1, link)
    conn.channel, conn.welcomed = BrokenChannel(), True
    relay = Relay(Limits(), [], {1: conn}, said.append)

    async def run() -> None:
        task = asyncio.create_task(relay.writer(conn))
        relay.publish(b"an entry")
        await asyncio.wait_for(task, 5)

    asyncio.run(run())
    assert conn.closed and link.closed
    assert any("could not relay to connection 1" in line and "cannot seal" in line for line in said), said
