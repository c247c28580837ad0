"""A whole table in one process: a host, seats and spectators, messages
delivered in order. Used by `briscola selfplay`, by tests, and by any table
whose other seats are local computer players.

Still sans-IO: a queue stands in for the network, and each queued message
carries the connection it came from (the seat number of the session that
sent it), so the host can name a connection whose message proves nothing.
A seat that owes a message while nothing else can move is timed out, as
the network's clock would; with the table rule `retake`, a computer player
with a new key then takes its place.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from engine.state import Action
from engine.view import SeatView

from .errors import ProtocolError
from .events import Update
from .host import Dropped, Host, Ordered
from .identity import Identity
from .session import TableSession
from .sessionstate import Shared
from .store import SeatStore

Player = Callable[[SeatView, random.Random], Action]
"""A computer player (see `engine.bots`): a seat's view and an RNG in, an action out."""


class LocalTable:
    """Seats, spectators and a host wired together by an in-memory queue."""

    def __init__(
        self,
        game: str,
        players: int,
        options: dict | None = None,
        *,
        choosers: dict[int, Player],
        spectators: int = 1,
        name: str = "local table",
        sessions: dict[int, TableSession] | None = None,
        rules: dict | None = None,
        seed: int | None = None,
    ):
        """`choosers`: the player of each seat. Every node shares one `Shared`:
        a hand is audited once for the whole process. `seed` seeds each seat's RNG."""
        self.host = Host(Identity.generate(), game, players, options, name, rules)
        self.shared = Shared()
        self.host.session.shared = self.shared
        self.seats = [
            (sessions or {}).get(s) or TableSession(s, Identity.generate(), f"seat {s}") for s in range(players)
        ]
        self.spectators = [TableSession(None) for _ in range(spectators)]
        for node in self.nodes:
            node.shared = self.shared
        self.choosers = choosers
        base = random.Random(seed)
        self.rngs = {s: random.Random(base.getrandbits(64)) for s in range(players)}
        self.queue: deque[tuple[object, bytes]] = deque()
        self.entries: list[bytes] = []
        self.stop_after: int | None = None
        self.redeals_count = True  # does `stop_after` count a redeal (everybody passed) as a hand?
        self.dropped: list[Dropped] = []
        self.refused: list[Ordered] = []
        self.timed_out: list[int] = []
        self.failures: list[tuple[TableSession, ProtocolError]] = []
        self.outsiders: list[TableSession] = []
        """Nodes standing for someone else's client (selfplay's cheater). One that
        refuses an entry leaves, as a remote client would, and is recorded in
        `left`: the table goes on without it, and the host times its seat out
        when it owes a message. Any other node that refuses one stops the table."""
        self.left: list[tuple[TableSession, ProtocolError]] = []
        self.on_entry: Callable[[bytes], None] | None = None
        self.on_event: Callable[[TableSession, object], None] | None = None
        self.replacement: Callable[[int, list[bytes]], tuple[TableSession, list[bytes]]] | None = None
        """(seat, entries so far) -> a session caught up, and what it sends (see `replacement_seat`)."""

    @property
    def nodes(self) -> list[TableSession]:
        return [*self.seats, *self.spectators]

    def send(self, connection: object, messages: list[bytes]) -> None:
        """Queue messages from `connection` for the host."""
        self.queue.extend((connection, m) for m in messages)

    def broadcast(self, entry: bytes) -> None:
        self.entries.append(entry)
        if self.on_entry is not None:
            self.on_entry(entry)
        for node in self.nodes:
            self.deliver(node, entry)

    def deliver(self, node: TableSession, entry: bytes) -> None:
        """Give one entry to one node. A node that refuses it (it names the
        host, or a seat) stops there, as a real client would; it is recorded
        in `failures`, or in `left` for an outsider. A hook: a cheating host
        may deliver something else."""
        if self._stopped(node):
            return
        try:
            update = node.receive(entry)
        except ProtocolError as error:
            outsider = any(node is other for other in self.outsiders)
            (self.left if outsider else self.failures).append((node, error))
            return
        self.send(node.seat, update.messages)
        if self.on_event is not None:
            for event in update.events:
                self.on_event(node, event)

    def pump(self) -> None:
        """Deliver queued messages until every node waits on a decision or the table ends
        (or, with `stop_after`, that many hands have been audited: `counted`)."""
        while self.queue:
            self.order(*self.queue.popleft())
            if self.stop_after is not None and self.counted() >= self.stop_after:
                self.queue.clear()
                return

    def counted(self) -> int:
        """The hands `stop_after` (`max_hands`) counts: every audited one, or with
        `redeals_count` False those but redeals (`hands_played`)."""
        return len(self.host.session.verdicts) if self.redeals_count else self.hands_played()

    def hands_played(self) -> int:
        """Hands audited so far but redeals (everybody passed: the hand is dealt again); a void
        hand (someone named) counts."""
        return sum(
            1 for v in self.host.session.verdicts if not (v.ok and v.outcome is not None and v.outcome.result.redeal)
        )

    def order(self, connection: object, signed: bytes) -> None:
        """The host orders one message and relays the entry (or drops it)."""
        try:
            ordered = self.host.submit(signed, connection)
        except Dropped as error:
            self.dropped.append(error)
            return
        if ordered.refused is not None:
            self.refused.append(ordered)
        self.broadcast(ordered.entry)

    def choose(self, seat: TableSession) -> Action:
        """The action `seat`'s player chooses from what the seat sees."""
        who = seat.seat
        assert who is not None  # a player's session
        return self.choosers[who](seat.seat_view(), self.rngs[who])

    def decide(self) -> bool:
        """Let each seat whose turn it is choose; False when nobody could."""
        moved = False
        for seat in self.seats:
            if seat.my_turn() and not self._stopped(seat):
                self.send(seat.seat, self.decided(seat, seat.act(self.choose(seat))))
                moved = True
        return moved

    def _stopped(self, node: TableSession) -> bool:
        """Has `node` refused an entry (and so stopped, or left)?"""
        return any(node is gone for gone, _ in (*self.failures, *self.left))

    def decided(self, seat: TableSession, update: Update) -> list[bytes]:
        """What `seat` sends for a decision it took (`update`, from its `act`): its messages;
        its events go to `on_event` first."""
        if self.on_event is not None:
            for event in update.events:
                self.on_event(seat, event)
        return update.messages

    def start(self) -> None:
        self.broadcast(self.host.open())
        for seat in self.seats:
            self.send(seat.seat, seat.start().messages)
        self.pump()

    def time_out(self) -> bool:
        """Nothing moves: time out a seat that owes a message; False if none does."""
        kinds, owing = self.host.owing()
        if not owing or self.host.session.phase in ("join", "seating"):
            return False
        seat = min(owing)
        self.timed_out.append(seat)
        self.broadcast(self.host.time_out(seat))
        return True

    def retake(self) -> bool:
        """Seat a replacement (a new key) in each seat left empty; False if none."""
        host = self.host.session
        if host.phase != "seating" or self.replacement is None:
            return False
        for seat in sorted(host.absent):
            session, owed = self.replacement(seat, self.entries)
            session.shared = self.shared
            self.seats[seat] = session
            self.send(seat, owed)
        return True

    def run(self, max_hands: int | None = None, on_hand: Callable | None = None) -> None:
        """Play until the series ends (or `max_hands` hands have been audited: `counted`)."""
        self.stop_after = max_hands
        self.start()
        self.play(max_hands, on_hand, seen=0)

    def play(self, max_hands: int | None = None, on_hand: Callable | None = None, seen: int | None = None) -> None:
        """Play on from wherever the table is (see `run`); `on_hand` is told of
        every verdict after the first `seen` (default: those already in)."""
        self.stop_after = max_hands
        seen = len(self.host.session.verdicts) if seen is None else seen
        host = self.host.session
        while host.phase not in ("over", "aborted") and not self.failures:
            if len(host.verdicts) > seen:
                for verdict in host.verdicts[seen:]:
                    if on_hand:
                        on_hand(verdict)
                seen = len(host.verdicts)
                if max_hands is not None and self.counted() >= max_hands:
                    return
            if not self.decide() and not self.queue and not self.retake() and not self.time_out():
                raise RuntimeError(f"the table is stuck in phase {host.phase}")
            self.pump()
        for verdict in host.verdicts[seen:]:
            if on_hand:
                on_hand(verdict)


def replacement_seat(
    seat: int,
    entries: list[bytes],
    identity: Identity | None = None,
    store: SeatStore | None = None,
    person: Identity | None = None,
    bot_level: str = "",
) -> tuple[TableSession, list[bytes]]:
    """A computer player taking `seat`, caught up on the transcript: a new key and an empty
    store in memory, or the ones given (a host keeps them on disk, and a restarted host
    rebuilds the seat from them). `person`: who runs it, certifying its key as `bot_level`."""
    identity = identity or Identity.generate()
    store = SeatStore() if store is None else store
    name = f"seat {seat} (computer)"
    return TableSession.resume(
        seat, identity, store, entries, name=name, replacing=True, person=person, bot_level=bot_level
    )
