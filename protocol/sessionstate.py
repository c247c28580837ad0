"""One node's state of a table, owned in one place: `SessionState`.

`TableSession` (session.py) is a `SessionState` with the entry points
(`receive`, `act`) and the builders' hooks; everything else of the session is
functions over this state: the handlers (lifecycle.py, handflow.py), what a
seat sends (outbox.py), whether a message is awaited (awaited.py). The phase
is `machine`'s (machine.py), changed by `machine.advance` only; the hand it
is in is `current`, a `HandState` (handstate.py) that each hand starts afresh.
`SessionState` sets that state (`__init__`), answers the queries every part
asks, records the events, and holds the pieces a seat's messages are made of
(`make_view`, `pair_key`, `make_claim`...: public hooks a subclass may override).

This module also holds `Shared`, the work nodes of one process share (a
session's `shared`). The table's phases are named in phases.py.
"""

from __future__ import annotations

from engine.actions import Need
from engine.cards import Card
from engine.deal import Deal, DealPlan
from engine.game import Game
from engine.series import Series
from engine.state import Action, State

from . import deck as mp
from . import hidden_proofs, stepproofs
from .audit import Culprit, Verdict
from .claims import Claims
from .codec import encode
from .coin import Toss
from .errors import LocalProtocolError
from .events import Event, HandedOver, action_events, chance_events, deal_events, verdict_events
from .handstate import HandState
from .hidden_claims import claim_context
from .identity import Identity
from .machine import Machine
from .messages import MessageKind, Shuffle, Table
from .phases import TablePhase
from .positions import HandDeck
from .records import HandRecord
from .sealing import hand_pair_key
from .statements import Statement
from .store import SeatStore
from .transcript import HOST, Transcript


class Shared:
    """Work that nodes sharing one process do once: each hand's audit, each signature and proof check."""

    def __init__(self) -> None:
        self.verdicts: dict[tuple, Verdict] = {}
        self.verified: set[bytes] = set()  # signatures and step proofs already checked (their digests)
        self.claims: dict[bytes, dict[int, bytes]] = {}  # proofs about hidden cards checked: what each chained


class SessionState:
    """One node's state of a table (see the module doc); `TableSession` is one."""

    def __init__(
        self,
        seat: int | None = None,
        identity: Identity | None = None,
        name: str = "",
        *,
        store: SeatStore | None = None,
        replacing: bool = False,
        shared: Shared | None = None,
    ):
        """`store`: where the seat's secrets and signed messages are written before
        they leave (in memory by default). `replacing`: this key means to take
        the seat from whoever held it before (a returning player with a new key,
        or a computer player), so the seat's earlier keys are not a hijack.
        `shared`: work shared with the other nodes of this process."""
        if seat is not None and identity is None:
            raise LocalProtocolError("a seat needs an identity to sign with")
        self.seat: int | None = seat  # None: a spectator (or the host)
        self.identity: Identity | None = identity
        self.name = name
        self.store = store if store is not None else SeatStore()
        self.replacing = replacing
        self.shared: Shared | None = shared
        self.transcript: Transcript | None = None  # None until the host's table message
        self.table: Table | None = None
        self.game: Game | None = None
        self.rules: dict = {}
        self.keys: dict[int, bytes] = {}
        self.names: dict[int, str] = {}
        self.person: Identity | None = None  # the long-term key that certifies this seat's key in its join
        self.bot_level = ""  # the computer level `person` runs at this seat ("": the person sits)
        self.certified: dict[bytes, bytes] = {}  # seat key -> the identity key its join's certificate names
        self.runs: dict[bytes, str] = {}  # seat key -> the computer level its certificate says it runs
        self.machine = Machine()  # the phase: changed by `machine.advance` only (machine.py)
        self.series: Series | None = None  # None until the coin has chosen the first dealer
        self.toss = Toss()  # the first-dealer coin
        self.verdicts: list[Verdict] = []
        self.culprits: list[Culprit] = []  # proved outside any hand (the coin, the seating)
        self.absent: set[int] = set()
        self.banned: set[bytes] = set()  # keys evicted for cheating (table rule `replace_cheats`): never seated again
        self.stale: list[int] = []  # entries accepted as no-ops (they crossed an interruption)
        self.closed: str | None = None  # the host's reason, when it closed the table early
        self.evicted = False  # this seat's place went to another key
        self.seq = 0
        self._events: list[Event] = []
        self._interrupted_at = -1
        self._resume_floor = 0
        self._rejoin = False
        self._next_number = 0
        self._produced: set[tuple] = set()
        self._revealed = -1
        self.current = HandState()

    # --- the hand this node is in: `current` owns it, these name its fields -------------

    @property
    def hand(self) -> HandRecord | None:
        """The record of the hand this node is in (None before the first)."""
        return self.current.record

    @property
    def plan(self) -> DealPlan:
        """The deal plan of the hand (AttributeError before the first hand)."""
        plan = self.current.plan
        if plan is None:
            raise AttributeError("no hand has started yet")
        return plan

    @property
    def view(self) -> State | None:
        """The hand as this node may see it; None until the deal is open."""
        return self.current.view

    @view.setter
    def view(self, view: State | None) -> None:
        self.current.view = view

    @property
    def cards(self) -> HandDeck:
        return self.current.cards

    @property
    def claims(self) -> Claims:
        return self.current.claims

    @property
    def secrets(self) -> mp.SeatSecrets | None:
        """This seat's secrets for the hand, once it committed."""
        return self.current.secrets

    @secrets.setter
    def secrets(self, secrets: mp.SeatSecrets | None) -> None:
        self.current.secrets = secrets

    @property
    def _complaint(self) -> str | None:
        return self.current.complaint

    @_complaint.setter
    def _complaint(self, why: str | None) -> None:
        self.current.complaint = why

    @property
    def _sealed_fault(self) -> tuple[int, int] | None:
        return self.current.sealed_fault

    @_sealed_fault.setter
    def _sealed_fault(self, fault: tuple[int, int] | None) -> None:
        self.current.sealed_fault = fault

    # --- queries every part asks ---------------------------------------------------

    @property
    def phase(self) -> TablePhase:
        """What the table waits for now (`machine`)."""
        return self.machine.phase

    @property
    def players(self) -> int:
        return self.table.players if self.table else 0

    def holds_seat(self) -> bool:
        """True while this node's key holds its seat."""
        return (
            self.seat is not None
            and self.identity is not None
            and not self.evicted
            and self.keys.get(self.seat) == self.identity.public_bytes
        )

    def my_turn(self) -> bool:
        if self.phase != "play" or not self.holds_seat() or self._complaint is not None:
            return False
        assert self.view is not None  # "play": the hand is dealt
        return self.view.current_player() == self.seat and self._step_key() not in self._produced

    def legal_actions(self) -> list[Action]:
        if not self.my_turn():
            return []
        assert self.view is not None  # this seat's turn: the hand is dealt
        return self.view.legal_actions()

    @property
    def complaint(self) -> str | None:
        """Why this seat stops the hand it is in with an early reveal (a card
        dealt to it that does not open or contradicts its view), or None."""
        return self._complaint

    def expected(self) -> tuple[tuple[MessageKind, ...], set[int]]:
        """Message kinds accepted now and the senders that still owe one."""
        kind = self.machine.waits_for()
        if kind is None:
            return (), set()
        return (kind,), self._owing()

    def _owing(self) -> set[int]:
        n, phase, hand = self.players, self.phase, self.hand
        if phase == "table":
            return {HOST}
        if phase == "join":
            return set(range(n)) - set(self.keys)
        if phase == "seating":
            return set(self.absent)
        if phase == "coin_commit":
            return set(range(n)) - set(self.toss.commitments) - self.absent
        if phase == "coin_reveal":
            return set(self.toss.commitments) - set(self.toss.values) - self.absent
        assert hand is not None  # the phases below are a hand's
        if phase == "commit":
            return set(range(n)) - set(hand.commits)
        if phase == "shuffle":
            return {len(hand.shuffles) % n}
        if phase == "deal":
            return set(range(n)) - set(hand.steps[-1].shares)
        if phase == "play":
            assert self.view is not None  # dealt
            return {self.view.current_player()}
        if phase == "handover":
            assert self.view is not None  # dealt
            return set(self.view.handover_answerers()) - set(self.current.handovers)
        return set(hand.commits) - set(hand.reveals) - self.absent  # reveal

    def _coin_context(self, seat: int) -> bytes:
        assert self.transcript is not None  # the coin comes after the table message
        return self.transcript.table_id + bytes([seat])

    # --- events -------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _emit_deal(self) -> None:
        assert self.view is not None  # dealt
        self._events += deal_events(self.view, self.seat if self.holds_seat() else None)

    def _emit_action(self, before: State, action: Action) -> None:
        assert self.view is not None  # an action is taken in a hand
        self._events += action_events(before, self.view, action)

    def _emit_chance(self, need: Need, positions: list[int]) -> None:
        assert self.view is not None  # a chance event happens in a hand
        self._events += chance_events(need, tuple(self.cards.card(p) for p in positions), self.view)

    def _emit_handover(self, holder: int | None, called: Card) -> None:
        self._events.append(HandedOver(holder, called))

    def _emit_verdict(self, verdict: Verdict) -> None:
        self._events += verdict_events(verdict)

    def _who(self, sender: int) -> str:
        return "the host" if sender == HOST else f"seat {sender}"

    # --- what a seat's messages are made of: public hooks a subclass may override ------

    def make_view(self, deal: Deal, viewer: int) -> State:
        """This node's view of the hand once its cards are dealt: `deal` as
        `viewer` (this seat, or PUBLIC) knows it. A hook: a subclass may
        play the hand on another state class (the lax views of the cheating
        seats of `briscola selfplay --cheat`)."""
        assert self.game is not None and self.hand is not None  # the deal of a hand
        return self.game.new_hand(self.hand.dealer, deal, viewer=viewer)

    def pair_key(self, other: int) -> bytes:
        """The key this seat shares with `other` for this hand (derived once)."""
        if other not in self.current.pair_keys:
            assert self.hand is not None and self.transcript is not None and self.seat is not None
            assert self.secrets is not None  # committed to the hand
            their = self.hand.commits[other][0].seal_key
            self.current.pair_keys[other] = hand_pair_key(
                self.transcript.table_id, self.hand.number, self.seat, self.secrets.seal_key, other, their
            )
        return self.current.pair_keys[other]

    def claim_inputs(self, seat: int, kind: str, decision: list) -> tuple[bytes, list]:
        """What `seat`'s claim is proved and checked against: the context binding it to its
        message (table, hand, seat, kind, the decision) and every seat's committed position keys."""
        assert self.hand is not None and self.transcript is not None  # a hand's decision
        context = claim_context(self.transcript.table_id, self.hand.number, seat, kind, encode(decision))
        return context, [self.hand.commits[s][0].position_keys for s in range(self.players)]

    def make_claim(self, statement: Statement, kind: str, decision: list) -> tuple:
        """The proof of what this seat's message says of its hidden cards (hidden_proofs.py).
        A hook: a cheating seat (briscola_tui/tools/play_cheats.py) sends another."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None
        assert self.secrets is not None  # a seat that decides committed to the hand
        if not statement.needs_proof():
            return ()
        context, keys = self.claim_inputs(self.seat, kind, decision)
        return hidden_proofs.prove(statement, context, self.cards, self.seat, keys, self.secrets.proof_key)

    def shuffle_input(self) -> list[bytes]:
        """The deck this seat's next shuffle step starts from."""
        hand = self.hand
        assert hand is not None and self.game is not None  # a hand's shuffle
        return list(hand.shuffles[-1][1].deck if hand.shuffles else mp.start_deck([c.index for c in self.game.deck()]))

    def prove_shuffle(self, phase: int, deck_in: list[bytes], deck_out: list[bytes]) -> Shuffle:
        """The Shuffle message for `deck_out`, with this seat's proof that it follows from `deck_in`."""
        assert self.hand is not None and self.transcript is not None and self.seat is not None
        assert self.secrets is not None  # committed to the hand
        keys = self.secrets.public_keys(self.plan.size)
        ctx = stepproofs.context(self.transcript.table_id, self.hand.number, self.seat, phase, keys, deck_in, deck_out)
        proof = stepproofs.prove(ctx, phase, self.secrets, keys, deck_in, deck_out)
        return Shuffle(self.hand.number, phase, tuple(deck_out), proof)

    def _step_key(self) -> tuple:
        """The step the table is at: a seat answers each once (`produced`)."""
        hand = self.hand
        if hand is None:
            return (self.phase, -1, 0, 0, 0)
        return (self.phase, hand.number, len(hand.steps), len(hand.moves), len(hand.shuffles))
