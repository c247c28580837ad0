"""A seat played by hand from a test or a bench: its own session over its own connection
(tests/test_relay_floods.py, bench/floods.py).

`Mallory` plays honestly (a random legal move at her turn) unless she holds her move, and
can sign any message of hers by hand with the sequence number and echo she chooses.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine import bots
from protocol import handshake as hs
from protocol.codec import encode
from protocol.identity import Identity, sign_message
from protocol.session import TableSession
from protocol.transcript import VERSION, Header, make_payload

from .network import WAIT, sit


class Mallory:
    """Seat 0 by hand: a session of her own over a connection of her own. `play` sends what her
    session owes and, unless held, a random legal move at her turn."""

    def __init__(self, port: int):
        self.port, self.identity = port, Identity.generate()
        self.session = TableSession(0, self.identity, "Mallory")
        self.entries: list[bytes] = []
        self.rng = random.Random(5)
        self.player = bots.get("random")
        self.connect()
        self.send(self.session.start().messages)

    def connect(self) -> None:
        """(Again:) the handshake; the entries she holds already are skipped."""
        self.raw, seat, entries = sit(self.port, self.identity, seat=0)
        assert seat == 0
        assert entries[: len(self.entries)] == self.entries
        for data in entries[len(self.entries) :]:
            self.take(data)

    def take(self, data: bytes) -> None:
        self.entries.append(data)
        self.send(self.session.receive(data).messages)

    def send(self, messages: list[bytes]) -> None:
        for message in messages:
            self.raw.send(hs.submit(message))

    def drain(self) -> None:
        """Take the entries that have come, without waiting; ConnectionError once closed."""
        while True:
            try:
                item = self.raw.next(0.001)
            except TimeoutError:
                return
            if item is None:
                raise ConnectionError("the host closed Mallory's connection")
            if item[0] == "entry":
                self.take(item[1][0])

    def play(self, until, hold: bool = False, timeout: float = WAIT) -> None:
        """Take entries (and move, unless `hold`) until `until()`; the connection stays open."""
        deadline = time.monotonic() + timeout
        while not until():
            if not hold and self.session.my_turn():
                action = self.player(self.session.seat_view(), self.rng)
                self.send(self.session.act(action).messages)
                continue
            item = self.raw.next(max(0.1, deadline - time.monotonic()))
            assert item is not None, "the host closed Mallory's connection"
            if item[0] == "entry":
                self.take(item[1][0])

    def come_back(self, before_leaving: Callable[[], object] = lambda: None) -> None:
        """Her connection was closed: connect again, take her seat back, play the table out;
        `before_leaving()` once it is over, while the host still waits for her goodbye."""
        self.raw.close()
        self.connect()
        self.play(lambda: self.session.phase == "seating" and 0 in self.session.absent)
        self.send(self.session.rejoin().messages)
        self.play(lambda: self.session.phase in ("over", "aborted"), timeout=2 * WAIT)
        before_leaving()
        self.raw.send(hs.bye("holding the end"))  # as a client says it: the host need not linger

    def signed(self, kind: str, body: list, seq: int, head: bytes) -> bytes:
        """A message of hers, signed, with the sequence number and echo given."""
        assert self.session.transcript is not None
        header = Header(VERSION, self.session.transcript.table_id, kind, 0, seq, head)
        payload = make_payload(header, body)
        return encode([payload, sign_message(self.identity, payload)])
