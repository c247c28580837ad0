"""Offline play: a table whose other seats are computer players, dealt by the
mental-poker protocol in one process (`protocol.local.LocalTable`).

The person sits at seat 0. `OfflineTable.advance` runs the protocol and the
computer players until the person must decide, a hand has been audited, or
the table is over. Opened by the table screen (`open`), the table runs on a
thread of its own: it posts the screen a `TableUpdate` with only what seat 0
may see (its `SeatView` and its events) at every move, and waits there for the
person's decision (`act`) or, after a hand, for the summary to be seen (`go_on`).

Given a `saved.Slot`, the table keeps on disk, as it goes, all that
resuming needs: each entry appended to the transcript as it is ordered,
every seat's secrets saved before any message that depends on them, every
node's key; `OfflineTable.resume` rebuilds every node from those and goes
on, mid-hand too. A fixed-deal table (`deal_seed`) is kept and resumed the
same way (its stores start with the fixed seeds).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import cast

from engine import bots
from engine.games import make
from engine.state import Action
from protocol.errors import ProtocolError
from protocol.events import Event
from protocol.host import Host
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.reasons import Reason
from protocol.session import Shared, TableSession

from ..files.identity import own_identity
from ..files.saved import META_VERSION, NotResumable, Slot, rng_state, set_rng_state
from ..files.storage import StoreError, TranscriptFile, fixed_store
from ..language import _
from ..notes import Note, Resumed
from ..wording import count
from .controller import TableUpdate
from .keeper import Keeper

NAMES = ("you", "Bea", "Carlo", "Dora", "Elio", "Fede")
"""Seat names: the person, then the computer players."""
STOP_WAIT = 5.0
"""Seconds `close` waits for the table's thread to stop (a computer player thinking finishes first)."""


class Result(Enum):
    """Why `OfflineTable.advance` returned."""

    TURN = "turn"  # the person must decide
    HAND = "hand"  # a hand has been audited
    OVER = "over"  # the table is over
    STOPPED = "stopped"  # `close` was called: the screen is gone


class GoOn:
    """The command `go_on` leaves for the table's thread: the hand's summary was seen."""


class Stop:
    """The command `close` leaves for the table's thread: the screen is gone."""


def _certify(sessions: dict[int, TableSession], level: str) -> None:
    """Every seat's key vouched for by this account's identity key in its join, each computer
    player's as `level` ("normal, run by you"): the club ledger ties the person's games together
    and rates the levels they ran (no certificates if the key cannot be read)."""
    try:
        person: Identity | None = own_identity()
    except OSError:  # (NotAKey too)
        person = None
    for seat, session in sessions.items():
        session.person, session.bot_level = person, ("" if seat == 0 else level)


class OfflineTable:
    """A LocalTable with the person at seat 0 and computer players elsewhere."""

    keeper: Keeper | None
    """The game kept on disk as it goes (given a slot)."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        level: str = "normal",
        hands: int | None = None,
        options: dict | None = None,
        *,
        seed: int | None = None,
        deal_seed: int | None = None,
        pace: float = 0.0,
        slot: Slot | None = None,
        choosers: dict | None = None,
    ):
        """`seed`: the computer players' choices; `deal_seed`: fixes every
        seat's secrets, hence every deal (tests). `pace`: seconds from the last
        thing the person saw happen to a computer player's move (so a person sees
        each card go down); its search and the protocol's work run within them
        (`_rest`).
        `slot`: where the game is kept as it goes, for `resume`; `saved` then
        says where the transcript is (the replay viewer lists it), or
        `save_problem` why it could not be kept. `choosers`: a computer player
        (`play(view, rng)`) for some seats instead of `level`'s (tests steer
        a hand to a rare decision)."""
        options = dict(options or {})
        rules = make(game, players, options)  # OptionError for a bad configuration
        n = rules.players
        stores = {s: fixed_store(deal_seed, s) if deal_seed is not None else None for s in range(n)}
        if slot is not None:
            slot.create()
            stores = {s: slot.store(s, stores[s]) for s in range(n)}
        sessions = {s: TableSession(s, Identity.generate(), NAMES[s], store=stores[s]) for s in range(n)}
        _certify(sessions, level)
        table = LocalTable(
            game,
            n,
            options,
            choosers=self._choosers(n, level, choosers),
            spectators=0,
            name="offline table",
            sessions=sessions,
            seed=seed,
        )
        self._setup(table, game, rules.options, level, hands, pace)
        if slot is not None:
            self.keeper = Keeper.new(slot, table)
            self._remember()

    @classmethod
    def resume(cls, slot: Slot, pace: float = 0.0) -> OfflineTable:
        """The game kept in `slot`, every node rebuilt from its transcript, keys and
        secrets, each owing what it owed when the game stopped. NotResumable if it
        cannot be (a finished series is discarded and is not); `folders.InUse` if
        another process plays it."""
        slot.hold()
        meta = slot.read_meta()
        try:
            log = TranscriptFile.open(slot.transcript)  # a torn last frame is cut off
        except (OSError, ValueError) as error:
            raise NotResumable(
                _("{slot}: the transcript cannot be read: {error}").format(slot=slot.name, error=error)
            ) from None
        entries = [e.encode() for e in log.entries]
        try:
            host, resumed = cls._rebuild(slot, entries)
        except BaseException:
            log.close()
            raise
        opened, shared = host.session.table, host.session.shared
        assert opened is not None and shared is not None  # the transcript opened the table; `_rebuild` shares
        n, options = host.session.players, dict(opened.options)
        table = LocalTable(
            meta["game"],
            n,
            options,
            spectators=0,
            choosers=cls._choosers(n, meta["level"], None),
            name="offline table",
            sessions={s: session for s, (session, _) in resumed.items()},
        )
        table.host, table.shared, table.entries = host, shared, entries
        for node in table.nodes:
            node.shared = table.shared
        self = object.__new__(cls)
        self._setup(table, meta["game"], make(meta["game"], n, options).options, meta["level"], meta["hands"], pace)
        for seat, state in meta.get("rngs", {}).items():
            set_rng_state(table.rngs[int(seat)], state)
        self._seen, self._started = len(host.session.verdicts), True
        self.keeper = Keeper(slot, table, log)
        for seat, (_session, owed) in resumed.items():
            table.send(seat, owed)
        self._stop_if_done()
        view = self.me.seat_view()
        self._events.append(Resumed(view.hand_number, view.hands_played))
        return self

    @staticmethod
    def _rebuild(slot: Slot, entries: list[bytes]) -> tuple[Host, dict]:
        """The host and every seat from the transcript, keys and stores: {seat: (session, owed)}."""
        shared = Shared()  # each hand audited, each signature checked, once for every node
        try:
            host = Host.resume(slot.identity("host"), entries, shared)
            if host.session.phase in ("over", "aborted"):
                slot.discard()
                raise NotResumable(_("{slot}: that series is over").format(slot=slot.name))
            return host, {
                s: TableSession.resume(
                    s, slot.identity(f"seat{s}"), slot.store(s), entries, name=NAMES[s], shared=shared
                )
                for s in range(host.session.players)
            }
        except (ProtocolError, StoreError) as error:
            raise NotResumable(
                _("{slot}: the saved game does not check: {error}").format(slot=slot.name, error=error)
            ) from None

    @staticmethod
    def _choosers(n: int, level: str, choosers: dict | None) -> dict:
        player = bots.get(level)
        return {s: player for s in range(1, n)} | dict(choosers or {})

    def _setup(self, table: LocalTable, game: str, options: dict, level: str, hands: int | None, pace: float) -> None:
        self.table, self.game, self.players, self.options = table, game, len(table.seats), options
        self.level, self.hands, self.pace = level, hands, pace
        self.me = table.seats[0]
        self.coach_allowed = True  # against the computer, the coach is always there (`h`)
        self.plays_itself = False  # the person plays their own seat
        table.on_event = self._on_event
        self._events: list[Event | Note] = []
        self._seen = 0
        self._started = False
        self._shown = 0.0  # time.monotonic() when the person last saw the table move (see `_rest`)
        self._lock = threading.Lock()
        self._interrupted = False  # the screen is gone (the app is closing): stop before the next move
        self._commands: queue.SimpleQueue[Action | GoOn | Stop] = queue.SimpleQueue()  # from the screen
        self._thread: threading.Thread | None = None
        self.keeper = None

    # --- keeping the game on disk -------------------------------------------------

    @property
    def save_problem(self) -> str:
        """Why the game could not be kept on disk ("" when it is, or nothing keeps it)."""
        return self.keeper.problem if self.keeper is not None else ""

    @property
    def saved(self) -> Path | None:
        """The transcript of a game kept on disk (the replay viewer lists it)."""
        return self.keeper.slot.transcript if self.keeper is not None and not self.keeper.problem else None

    def _remember(self) -> None:
        """What the transcript does not say, on disk (at the end: the secrets forgotten)."""
        if self.keeper is None:
            return
        if self.over:
            self.keeper.remember(None)
            return
        view = self.me.seat_view()
        self.keeper.remember(
            {
                "version": META_VERSION,
                "game": self.game,
                "players": self.players,
                "level": self.level,
                "hands": self.hands,
                "names": list(NAMES[: self.players]),
                "played": view.hands_played,
                "scores": list(view.scores),
                "rngs": {str(s): rng_state(rng) for s, rng in self.table.rngs.items() if s != 0},
            }
        )

    # --- what the UI reads ------------------------------------------------------

    def _on_event(self, node: TableSession, event: object) -> None:
        if node is self.me:
            self._events.append(cast(Event, event))  # a session's events (`LocalTable.on_event` says object)

    @property
    def over(self) -> bool:
        host = self.table.host.session
        return host.phase in ("over", "aborted") or bool(self.table.failures)

    def scored(self) -> int:
        """Hands played to a result so far: a redeal (everybody passed) is not one."""
        return self.table.hands_played()

    # --- running ----------------------------------------------------------------

    def advance(self, action: Action | None = None, moved: Callable[[int | None], None] | None = None) -> Result:
        """Act for the person (if `action`), then run the table until the person
        must decide (TURN), a hand has been audited (HAND), the table is
        over (OVER) or `close` was called (STOPPED, checked before each
        computer player's move). With `hands`, the table closes once that many
        hands were scored (redeals do not count). `moved(seat)` is called before
        each computer player thinks (seat) and after it acted (None; not when the
        call returns next: its result then shows the move)."""
        with self._lock:
            table = self.table
            if not self._started:
                self._started = True
                table.broadcast(table.host.open())
                for seat in table.seats:
                    table.send(seat.seat, seat.start().messages)
            if action is not None:
                table.send(0, table.decided(self.me, self.me.act(action)))
            self._shown = time.monotonic()  # the person's move, or the hand's deal, starts the pace
            while True:
                if self._pump():
                    self._remember()
                    return Result.HAND
                if self.over:
                    self._remember()
                    return Result.OVER
                if self.me.my_turn():
                    self._remember()
                    return Result.TURN
                bot = next((s for s in table.seats[1:] if s.my_turn()), None)
                if bot is not None:
                    if self._interrupted:
                        self._remember()
                        return Result.STOPPED
                    if moved:
                        moved(bot.seat)
                    table.send(bot.seat, table.decided(bot, bot.act(table.choose(bot))))
                    audited = self._pump()  # every node checks the move: the protocol's work runs in the pace
                    self._rest()
                    if moved and not (audited or self.over or self.me.my_turn()):
                        moved(None)  # else the result shows the move, with what the person must do
                    if audited:
                        self._remember()
                        return Result.HAND
                    continue
                if not table.queue and not table.time_out():
                    raise RuntimeError(f"the table is stuck in phase {table.host.session.phase}")

    def _rest(self) -> None:
        """Sleep out the pace: a computer player's move shows `pace` seconds after the last thing
        the person saw happen (the move before, the person's own, or the start of the deal), its
        search and the protocol's work (the deal, checking every move) done within those seconds
        rather than after them; one that took longer shows at once."""
        if self.pace:
            left = self._shown + self.pace - time.monotonic()
            if left > 0:
                time.sleep(left)
        self._shown = time.monotonic()

    # --- the table's thread: what the screen sees ------------------------------------

    def open(self, post: Callable[[TableUpdate], None]) -> None:
        """Run the table on a thread of its own, posting every change (`TableUpdate`) to `post`."""
        self._thread = threading.Thread(target=self._run, args=(post,), name="briscola-offline", daemon=True)
        self._thread.start()

    def act(self, action: Action) -> None:
        self._commands.put(action)

    def go_on(self) -> None:
        self._commands.put(GoOn())

    def close(self) -> None:
        """Stop the table's thread (before the next computer player's move, or at once where it
        waits for the person) and wait for it: what it keeps on disk is written when this returns."""
        self._interrupted = True
        self._commands.put(Stop())
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(STOP_WAIT)

    def _run(self, post: Callable[[TableUpdate], None]) -> None:
        """Advance the table, post what the person sees, wait for what it waits for; again."""
        action: Action | None = None
        while True:
            try:
                result = self.advance(action, lambda seat: post(self._update(seat)))
            except Exception as error:  # shown on the screen, never a silent stop
                post(self._update(None, failed=f"{type(error).__name__}: {error}"))
                return
            if result is Result.STOPPED:
                return
            post(self._update(None, asked=result is Result.TURN, hand_over=result is Result.HAND))
            if result is Result.OVER:
                return
            command = self._next_command(Action if result is Result.TURN else GoOn)
            if isinstance(command, Stop):
                return
            action = command if isinstance(command, Action) else None

    def _next_command(self, kind: type) -> Action | GoOn | Stop:
        """The next command of `kind` (or Stop) from the screen; others are of a moment gone."""
        while True:
            command = self._commands.get()
            if isinstance(command, kind | Stop):
                return command

    def _update(
        self, moving: int | None, *, asked: bool = False, hand_over: bool = False, failed: str | None = None
    ) -> TableUpdate:
        """Seat 0's view now and the events since the last update, with the marks around them."""
        events, self._events = tuple(self._events), []
        return TableUpdate(
            self.me.seat_view(),
            events,
            moving=moving,
            asked=asked,
            hand_over=hand_over,
            over=self.over,
            failed=failed,
            computers=frozenset(range(1, self.players)),  # every seat but the person's
            coach_allowed=self.coach_allowed,
            save_problem=self.save_problem,
        )

    def _pump(self) -> bool:
        """Deliver queued messages; True as soon as a hand has been audited (the rest waits)."""
        table, host = self.table, self.table.host.session
        while table.queue:
            table.order(*table.queue.popleft())
            if len(host.verdicts) > self._seen:
                self._seen = len(host.verdicts)
                self._stop_if_done()
                return True
        return False

    def _stop_if_done(self) -> None:
        """With `hands`, close the table once that many hands were scored."""
        table, host = self.table, self.table.host.session
        if self.hands is not None and self.scored() >= self.hands and host.phase not in ("over", "aborted"):
            table.queue.clear()
            # in the transcript as a code: each reader writes it in its own language
            table.broadcast(table.host.close(Reason.of("hands-played", hands=self.hands).wire()))
            table.queue.clear()


def farewell(table: OfflineTable) -> str:
    """One line after the app closes on a game against the computer: its scores if it is over,
    else how to take it up again."""
    view = table.me.seat_view()
    if table.over:
        scores = ", ".join(f"{name} {score:+d}" for name, score in zip(NAMES, view.scores))
        line = _("briscola play: the game is over after {hands}: {scores}")
        return line.format(hands=count(view.hands_played, "hand"), scores=scores)
    if table.keeper is not None and table.keeper.kept:
        return _("briscola play: the game is kept; briscola play --resume (or Resume on the home screen) takes it up")
    return _("briscola play: left the game")
