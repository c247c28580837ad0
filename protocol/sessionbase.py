"""The state the parts of `TableSession` share, declared once.

`TableSession` (session.py) is built from parts that read and write the same
fields and call each other's methods: `TableLifecycle` (lifecycle.py),
`HandFlow` (handflow.py) and `Outbox` (outbox.py). `SessionBase`, the base
of every part, declares those fields and methods with annotations only: it
adds nothing at run time. `TableSession.__init__` sets the fields (those of
the hand in `_reset_hand`, `plan` in `_start_hand`).

This module also holds `Shared`, the work nodes of one process share (a
session's `shared`). The table's phases are named in phases.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.cards import Card
    from engine.deal import DealPlan
    from engine.game import Game
    from engine.series import Series
    from engine.state import Action, Need, State

    from . import deck as mp
    from .audit import Culprit, Verdict
    from .claims import Claims
    from .events import Event, EventKind, Update
    from .identity import Identity
    from .messages import Handover, MessageKind, Table
    from .phases import TablePhase
    from .positions import HandDeck
    from .records import HandRecord
    from .store import SeatStore
    from .transcript import Header, Transcript


class Shared:
    """Work that nodes sharing one process do once: each hand's audit, each signature and proof check."""

    def __init__(self) -> None:
        self.verdicts: dict[tuple, Verdict] = {}
        self.verified: set[bytes] = set()  # signatures and step proofs already checked (their digests)
        self.claims: dict[bytes, dict[int, bytes]] = {}  # proofs about hidden cards checked: what each chained


class SessionBase:
    """The fields and methods the parts of `TableSession` share (see the module doc)."""

    # --- this node ------------------------------------------------------------
    seat: int | None  # None: a spectator (or the host)
    identity: Identity | None
    name: str
    store: SeatStore
    replacing: bool
    shared: Shared | None

    # --- the table ----------------------------------------------------------------
    transcript: Transcript | None  # None until the host's table message
    table: Table | None
    game: Game | None
    rules: dict
    keys: dict[int, bytes]
    names: dict[int, str]
    phase: TablePhase
    series: Series | None  # None until the coin has chosen the first dealer
    coins: dict[int, bytes]
    coin_values: dict[int, bytes]
    verdicts: list[Verdict]
    culprits: list[Culprit]
    absent: set[int]
    banned: set[bytes]
    stale: list[int]
    closed: str | None
    evicted: bool
    seq: int
    _events: list[Event]
    _interrupted_at: int
    _resume_floor: int
    _rejoin: bool
    _next_number: int
    _produced: set[tuple]
    _coin_value: bytes | None
    _revealed: int

    # --- the hand (None between hands; `_reset_hand` starts each) ---------------------
    hand: HandRecord | None
    plan: DealPlan
    view: State | None  # None until the deal is open
    secrets: mp.SeatSecrets | None  # this seat's, once it committed
    cards: HandDeck
    claims: Claims
    _pair_keys: dict[int, bytes]
    _handovers: dict[int, tuple[Handover, int]]
    _complaint: str | None
    _sealed_fault: tuple[int, int] | None  # (step, sender) of the first wrong sealed blob to this seat

    if TYPE_CHECKING:
        # What one part calls in another (or in TableSession itself).

        def __init__(
            self,
            seat: int | None = None,
            identity: Identity | None = None,
            name: str = "",
            *,
            store: SeatStore | None = None,
            replacing: bool = False,
            shared: Shared | None = None,
        ) -> None: ...

        @property
        def players(self) -> int: ...
        def holds_seat(self) -> bool: ...
        def my_turn(self) -> bool: ...
        def expected(self) -> tuple[tuple[MessageKind, ...], set[int]]: ...
        def legal_actions(self) -> list[Action]: ...
        def receive(self, data: bytes) -> Update: ...
        def _update(self, messages: list[bytes] | None = None) -> Update: ...
        def _judge(self, header: Header, body: list, index: int) -> None: ...
        def _note_own(self, header: Header) -> None: ...
        def _emit(self, kind: EventKind, seat: int | None, **fields: Any) -> None: ...
        def _emit_deal(self) -> None: ...
        def _emit_action(self, before: State, action: Action) -> None: ...
        def _emit_chance(self, before: State, need: Need, positions: list[int]) -> None: ...
        def _emit_handover(self, holder: int | None, called: Card) -> None: ...
        def _emit_verdict(self, verdict: Verdict) -> None: ...
        def _coin_context(self, seat: int) -> bytes: ...
        def _finish_if_revealed(self) -> None: ...
        def _stop_hand(self, index: int) -> None: ...
        def pair_key(self, other: int) -> bytes: ...
        def _claim_inputs(self, seat: int, kind: str, decision: list) -> tuple[bytes, list]: ...
