"""Offline play: a table whose other seats are computer players, dealt by the
mental-poker protocol in one process (`protocol.local.LocalTable`).

The person sits at seat 0. `OfflineTable.advance` runs the protocol and the
computer players until the person must decide, a hand has been audited, or
the table is over; it is meant to run in a worker thread, and hands the UI
only what seat 0 may see: its `SeatView` and its events.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable

from engine import bots
from engine.games import make
from engine.state import Action
from engine.view import SeatView
from protocol.events import Event
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.session import TableSession
from protocol.store import SeatStore

NAMES = ("you", "Bea", "Carlo", "Dora", "Elio", "Fede")
"""Seat names: the person, then the computer players."""

FIXED_HANDS = 300
"""Hands a fixed store holds seeds for."""


def fixed_store(deal_seed: int, seat: int) -> SeatStore:
    """A seat store whose coin and hand seeds derive from `deal_seed`: the same
    deals every run (for tests and snapshots; never for a real table)."""
    store = SeatStore()

    def derive(*parts) -> bytes:
        return hashlib.sha256("/".join(map(str, ("briscola-tui fixed", deal_seed, seat, *parts))).encode()).digest()

    store.coins[0] = derive("coin")
    for hand in range(FIXED_HANDS):
        store.seeds[hand] = derive("hand", hand)
    return store


class OfflineTable:
    """A LocalTable with the person at seat 0 and computer players elsewhere."""

    def __init__(self, game: str, players: int | None = None, level: str = "normal", hands: int | None = None,
                 options: dict | None = None, *, seed: int | None = None, deal_seed: int | None = None,
                 pace: float = 0.0, transcript=None, choosers: dict | None = None):
        """`seed`: the computer players' choices; `deal_seed`: fixes every
        seat's secrets, hence every deal (tests). `pace`: seconds a computer
        player takes to think (so a person sees each card go down).
        `transcript`: a file the table's transcript is written to after each
        hand (for the replay viewer); `saved` then says where, or
        `save_problem` why it could not be written. `choosers`: a computer
        player (`play(view, rng)`) for some seats instead of `level`'s (tests
        steer a hand to a rare decision)."""
        options = dict(options or {})
        rules = make(game, players, options)  # OptionError for a bad configuration
        self.game, self.players, self.hands, self.level, self.pace = game, rules.players, hands, level, pace
        self.options = rules.options
        player = bots.get(level)
        n = self.players
        sessions = {
            s: TableSession(s, Identity.generate(), NAMES[s],
                            store=fixed_store(deal_seed, s) if deal_seed is not None else None)
            for s in range(n)
        }
        chosen = {s: player for s in range(1, n)} | dict(choosers or {})
        self.table = LocalTable(game, n, options, choosers=chosen, spectators=0,
                                name="offline table", sessions=sessions, seed=seed)
        self.me = self.table.seats[0]
        self.table.on_event = self._on_event
        self._events: list[Event] = []
        self._seen = 0
        self._started = False
        self._lock = threading.Lock()
        self.transcript, self.saved, self.save_problem = transcript, None, ""

    # --- what the UI reads ------------------------------------------------------

    def _on_event(self, node, event: Event) -> None:
        if node is self.me:
            self._events.append(event)

    def snapshot(self) -> tuple[SeatView, list[Event]]:
        """Seat 0's view now, and the events since the last snapshot."""
        events, self._events = self._events, []
        return self.me.seat_view(), events

    @property
    def over(self) -> bool:
        host = self.table.host.session
        return host.phase in ("over", "aborted") or bool(self.table.failures)

    def scored(self) -> int:
        """Hands played to a result so far: a redeal (everybody passed) is not one."""
        return sum(1 for v in self.table.host.session.verdicts
                   if not (v.ok and v.outcome is not None and v.outcome.result.get("redeal")))

    # --- running ----------------------------------------------------------------

    def advance(self, action: Action | None = None,
                moved: Callable[[int | None], None] | None = None) -> str:
        """Act for the person (if `action`), then run the table until the person
        must decide ("turn"), a hand has been audited ("hand") or the table is
        over ("over"). With `hands`, the table closes once that many hands
        were scored (redeals do not count). `moved(seat)` is called before each computer player
        thinks (seat) and after it acted (None)."""
        with self._lock:
            table = self.table
            if not self._started:
                self._started = True
                table.broadcast(table.host.open())
                for seat in table.seats:
                    table.send(seat.seat, seat.start().messages)
            if action is not None:
                table.send(0, table._decided(self.me, self.me.act(action)))
            while True:
                if self._pump():
                    self._save()
                    return "hand"
                if self.over:
                    self._save()
                    return "over"
                if self.me.my_turn():
                    return "turn"
                bot = next((s for s in table.seats[1:] if s.my_turn()), None)
                if bot is not None:
                    if moved:
                        moved(bot.seat)
                    if self.pace:
                        time.sleep(self.pace)
                    table.send(bot.seat, table._decided(bot, bot.act(table.choose(bot))))
                    if moved:
                        moved(None)
                    continue
                if not table.queue and not table.time_out():
                    raise RuntimeError(f"the table is stuck in phase {table.host.session.phase}")

    def _save(self) -> None:
        """Write the transcript so far (replacing the last copy once the new one is complete)."""
        if self.transcript is None:
            return
        from .storage import save_transcript

        try:
            self.transcript.parent.mkdir(parents=True, exist_ok=True)
            save_transcript(self.transcript, self.table.host.table_id, list(self.table.entries))
            self.saved = self.transcript
        except OSError as error:
            self.save_problem = f"the transcript could not be saved: {error.strerror or error}"

    def _pump(self) -> bool:
        """Deliver queued messages; True as soon as a hand has been audited (the rest waits)."""
        table, host = self.table, self.table.host.session
        while table.queue:
            table.order(*table.queue.popleft())
            if len(host.verdicts) > self._seen:
                self._seen = len(host.verdicts)
                if self.hands is not None and self.scored() >= self.hands and host.phase not in ("over", "aborted"):
                    table.queue.clear()
                    table.broadcast(table.host.close(f"stopped after {self.hands} hands"))
                    table.queue.clear()
                return True
        return False
