"""A whole table in one process: a host, seats and spectators, messages
delivered in order. Used by `briscola selfplay`, by tests, and by any table
whose other seats are local computer players.

Still sans-IO: a queue stands in for the network.
"""

from __future__ import annotations

import secrets as _secrets
from collections import deque
from collections.abc import Callable

from engine.state import Action

from .identity import Identity
from .host import Host
from .session import TableSession

Chooser = Callable[[TableSession], Action]


class LocalTable:
    """Seats, spectators and a host wired together by an in-memory queue."""

    def __init__(self, game: str, players: int, options: dict | None = None, *,
                 choosers: dict[int, Chooser], spectators: int = 1, name: str = "local table",
                 sessions: dict[int, TableSession] | None = None):
        self.host = Host(Identity.generate(), _secrets.token_bytes(16), game, players, options, name)
        self.seats = [
            (sessions or {}).get(s) or TableSession(s, Identity.generate(), f"seat {s}") for s in range(players)
        ]
        self.spectators = [TableSession(None) for _ in range(spectators)]
        self.choosers = choosers
        self.queue: deque[bytes] = deque()
        self.entries: list[bytes] = []
        self.stop_after: int | None = None

    @property
    def nodes(self) -> list[TableSession]:
        return [*self.seats, *self.spectators]

    def broadcast(self, entry: bytes) -> None:
        self.entries.append(entry)
        for node in self.nodes:
            self.queue.extend(node.receive(entry))

    def pump(self) -> None:
        """Deliver queued messages until every node waits on a decision or the table ends
        (or, with `stop_after`, that many hands have been audited)."""
        while self.queue:
            self.broadcast(self.host.submit(self.queue.popleft()))
            if self.stop_after is not None and len(self.host.session.verdicts) >= self.stop_after:
                self.queue.clear()
                return

    def decide(self) -> bool:
        """Let each seat whose turn it is choose; False when nobody could."""
        moved = False
        for seat in self.seats:
            if seat.my_turn():
                self.queue.extend(seat.act(self.choosers[seat.seat](seat)))
                moved = True
        return moved

    def start(self) -> None:
        self.broadcast(self.host.open())
        for seat in self.seats:
            self.queue.extend(seat.start())
        self.pump()

    def run(self, max_hands: int | None = None, on_hand: Callable | None = None) -> None:
        """Play until the series ends (or `max_hands` hands have been audited)."""
        self.stop_after = max_hands
        self.start()
        seen = 0
        host = self.host.session
        while host.phase not in ("over", "aborted"):
            if len(host.verdicts) > seen:
                for verdict in host.verdicts[seen:]:
                    if on_hand:
                        on_hand(verdict)
                seen = len(host.verdicts)
                if max_hands is not None and seen >= max_hands:
                    return
            if not self.decide():
                if not self.queue:
                    raise RuntimeError(f"the table is stuck in phase {host.phase}")
            self.pump()
        for verdict in host.verdicts[seen:]:
            if on_hand:
                on_hand(verdict)
