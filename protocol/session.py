"""The table state machine, sans-IO: transcript entries in, messages out.

Every node of a table runs a `TableSession` over the same host-ordered
transcript: a player holds one seat's secrets and view, a spectator (seat
None) holds none. `receive(entry_bytes)` checks an entry completely (link,
signature, echo, sequence, body shape, phase, proofs, rules) and only then
changes anything; it returns the messages this node must now send. A
player's decisions go in through `act(action)`.

The host is a spectator session that also orders messages: `Host.submit`
wraps a message as the next entry, runs it through its own session and only
appends it when that accepts it, so nothing invalid enters the transcript.

One hand, in the order the transcript shows it (docs/protocol.md):
commit (every seat) -> shuffle phase 1 (each seat in turn) -> phase 2 (each
in turn) -> shares for the deal (every seat) -> decisions (`act`), with
more `shares` whenever the engine waits for cards and `handover` in a
Calabresella Chiamo -> reveal (every seat) -> audit -> next hand.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from engine.cards import Card
from engine.deal import DealPlan
from engine.game import OptionError
from engine.games import make
from engine.series import Series
from engine.state import CHANCE, PUBLIC, TERMINAL, Action, Deal, IllegalAction, State

from . import deck as mp
from .audit import ABSENT, Culprit, Verdict, audit_hand
from .codec import decode, encode
from .errors import CheatDetected, LocalProtocolError, RemoteProtocolError
from .identity import (
    Identity,
    check_x25519_public,
    pair_key,
    seal,
    unseal,
    x25519_private_from_seed,
    x25519_public_bytes,
)
from .messages import (
    HOST_KINDS,
    KIND_OF,
    Act,
    Close,
    CoinCommit,
    CoinReveal,
    Commit,
    Evidence,
    Handover,
    Join,
    Reveal,
    Shares,
    Shuffle,
    Table,
    Timeout,
    from_body,
    to_body,
)
from .store import SeatStore
from .transcript import (
    HOST,
    VERSION,
    Entry,
    Header,
    Signed,
    Transcript,
    make_payload,
    open_signed,
    parse_header,
)
from .wire import (
    action_from_wire,
    action_to_wire,
    commit_context,
    pair_context,
    scalar_bytes,
    scalar_int,
    seal_aad,
    seal_nonce,
)


@dataclass
class Step:
    """A dealing step: positions to open and who sees each (a seat or PUBLIC)."""

    number: int
    kind: str
    positions: tuple[int, ...]
    audiences: tuple[int, ...]
    shares: dict[int, Shares] = field(default_factory=dict)


@dataclass
class HandRecord:
    """What the audit needs of one hand, as the transcript gave it."""

    number: int
    dealer: int
    commits: dict[int, tuple[Commit, int]] = field(default_factory=dict)
    shuffles: list[tuple[int, Shuffle, int]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    share_entries: dict[tuple[int, int], int] = field(default_factory=dict)
    moves: list[tuple] = field(default_factory=list)  # (entry, seat, kind, message)
    reveals: dict[int, tuple[bytes, int]] = field(default_factory=dict)
    findings: list[Culprit] = field(default_factory=list)  # evidence and time-outs, proved as they came


HAND_PHASES = ("commit", "shuffle", "deal", "play", "handover", "reveal")
SEATING_PHASES = ("join", "coin_commit", "coin_reveal", "seating")


class TableSession:
    """One node's state of a table: a seat (with its secrets) or a spectator."""

    def __init__(self, seat: int | None = None, identity: Identity | None = None, name: str = "", *,
                 store: SeatStore | None = None, replacing: bool = False):
        """`store`: where the seat's secrets and signed messages are written before
        they leave (in memory by default). `replacing`: this key means to take
        the seat from whoever held it before (a returning player with a new key,
        or a computer player), so the seat's earlier keys are not a hijack."""
        if seat is not None and identity is None:
            raise LocalProtocolError("a seat needs an identity to sign with")
        self.seat = seat
        self.identity = identity
        self.name = name
        self.store = store if store is not None else SeatStore()
        self.replacing = replacing
        self.rules: dict = {}
        self.absent: set[int] = set()
        self.culprits: list[Culprit] = []  # proved outside any hand (the coin, the seating)
        self.stale: list[int] = []  # entries accepted as no-ops (they crossed an interruption)
        self.evicted = False  # this seat's place went to another key
        self._interrupted_at = -1
        self._resume_floor = 0
        self._rejoin = False
        self._next_number = 0
        self.transcript: Transcript | None = None
        self.table: Table | None = None
        self.game = None
        self.keys: dict[int, bytes] = {}
        self.names: dict[int, str] = {}
        self.seq = 0
        self.phase = "table"
        self.series: Series | None = None
        self.coins: dict[int, bytes] = {}
        self.coin_values: dict[int, bytes] = {}
        self.hand: HandRecord | None = None
        self.view: State | None = None
        self.verdicts: list[Verdict] = []
        self.closed: str | None = None  # the host's reason, when it closed the table early
        self._produced: set = set()
        self._coin_value: bytes | None = None
        self._revealed = -1
        self._reset_hand_secrets()

    # --- public queries -----------------------------------------------------

    @property
    def outcomes(self) -> list:
        """The audited outcome of every hand scored so far."""
        return [v.outcome for v in self.verdicts if v.ok and v.outcome is not None]

    @property
    def players(self) -> int:
        return self.table.players if self.table else 0

    def holds_seat(self) -> bool:
        """True while this node's key holds its seat."""
        return self.seat is not None and self.identity is not None and not self.evicted \
            and self.keys.get(self.seat) == self.identity.public_bytes

    def my_turn(self) -> bool:
        return (
            self.phase == "play" and self.holds_seat() and self._complaint is None
            and self.view.current_player() == self.seat
            and self._step_key() not in self._produced
        )

    def legal_actions(self) -> list[Action]:
        if not self.my_turn():
            return []
        return self.view.legal_actions()

    def known_cards(self) -> set[Card]:
        """Every card whose position this node has opened (its hand and what is public)."""
        return {Card.from_index(c) for c in self.known.values()}

    # --- inbound ------------------------------------------------------------

    def receive(self, data: bytes) -> list[bytes]:
        """Process one transcript entry; return the messages to send now.

        Raises RemoteProtocolError (the host or a seat broke the protocol;
        `culprit` and `entry` say who and where) and changes nothing then.
        """
        if self.phase in ("over", "aborted"):
            raise RemoteProtocolError("the table is closed", culprit="host")
        entry = Entry.decode(data)
        if self.transcript is None:
            self._expect_table(entry)
        try:
            opened = self.transcript.inspect(entry, self._keys_for(entry))
        except RemoteProtocolError:
            if not self.transcript.entries:
                self.transcript = None
                self.keys.pop(HOST, None)
            raise
        header = opened.header
        try:
            self._judge(header, opened.body, entry.index)
        except RemoteProtocolError:
            if not self.transcript.entries:
                self.transcript = None
                self.keys.pop(HOST, None)
            raise
        self.transcript.commit(entry, opened)
        self._note_own(header)
        return self._outgoing()

    def _judge(self, header: Header, body: list, index: int) -> None:
        """Check one message in full and, only if it passes, apply it.

        Every error names the signed sender (a malformed body, an illegal
        action, a deck that does not check out are its own doing).
        """
        sender = header.sender
        try:
            message = from_body(header.kind, body)
            if (header.kind in HOST_KINDS) != (sender == HOST):
                raise RemoteProtocolError(f"{header.kind} from {self._who(sender)} is not allowed")
            if self._is_stale(header, message):
                self.stale.append(index)  # it crossed an interruption in flight: a no-op
                return
            self._check_expected(header, message, index)
            self._handle(sender, message, index)
        except IllegalAction as error:
            raise CheatDetected(f"illegal action: {error}", culprit=sender, entry=index) from None
        except mp.DeckError as error:
            raise CheatDetected(str(error), culprit=sender, entry=index) from None
        except RemoteProtocolError as error:
            if error.culprit is None or (header.kind == "join" and error.culprit == sender):
                # A join is signed by the key it brings: refused, it proves nothing
                # about any seat, and the host should have dropped it.
                error.culprit = "host" if sender == HOST or header.kind == "join" else sender
            if error.entry is None:
                error.entry = index
            raise

    def _note_own(self, header: Header) -> None:
        """Our own message is in the transcript: count from it, and the store may forget it."""
        if header.sender == self.seat:
            self.seq = max(self.seq, header.seq + 1)  # a seat's counter runs on across keys
            if self.holds_seat():
                self.store.confirm(header.seq)

    def _expect_table(self, entry: Entry) -> None:
        signed = Signed.decode(entry.message)
        header, body = parse_header(signed.payload)
        if entry.index != 0 or header.kind != "table" or header.sender != HOST:
            raise RemoteProtocolError("a table starts with the host's table message", culprit="host", entry=entry.index)
        table = from_body("table", body)
        self.transcript = Transcript(header.table_id)
        self.keys[HOST] = table.key

    def _keys_for(self, entry: Entry) -> dict[int, bytes]:
        return self.keys_for_message(entry.message)

    def keys_for_message(self, signed: bytes) -> dict[int, bytes]:
        """Known keys, plus the self-certified key of a join for a free seat."""
        try:
            header, body = parse_header(Signed.decode(signed).payload)
        except RemoteProtocolError:
            return self.keys
        free = header.sender not in self.keys or (self.phase == "seating" and header.sender in self.absent)
        if header.kind == "join" and free and 0 <= header.sender < self.players:
            try:
                join = from_body("join", body)
            except RemoteProtocolError:
                return self.keys  # verification then fails naming the sender
            return {**self.keys, header.sender: join.key}
        return self.keys

    def _in_phase(self, header: Header, message) -> bool:
        """Is this message one the table waits for now (kind, sender and hand)?"""
        if header.sender == HOST:
            return self._host_may(header.kind)
        hand = getattr(message, "hand", None)
        if hand is not None and (self.hand is None or hand != self.hand.number):
            return False
        if header.kind == "reveal" and self.phase in ("shuffle", "deal", "play", "handover") \
                and 0 <= header.sender < self.players and header.sender not in self.hand.reveals:
            return True  # once the secrets are committed, a reveal may stop a hand at any point
        kinds, senders = self.expected()
        return header.kind in kinds and header.sender in senders

    def _is_stale(self, header: Header, message) -> bool:
        """A seat's message out of phase because an interruption (an early
        reveal, evidence, a time-out) was ordered after the entry it echoes:
        it crossed in flight. It is accepted as a no-op (its sequence number
        is spent), so the sender is neither blamed nor stuck."""
        if header.sender == HOST or self._interrupted_at < 0:
            return False
        echoed = self.transcript.echoed_index(header.head)
        return echoed is not None and echoed < self._interrupted_at and not self._in_phase(header, message)

    def _check_expected(self, header: Header, message, index: int) -> None:
        if not self._in_phase(header, message):
            hand = getattr(message, "hand", None)
            if hand is not None and self.hand is not None and hand != self.hand.number:
                reason = f"message for hand {hand}, this is hand {self.hand.number}"
            else:
                reason = f"{header.kind} from {self._who(header.sender)} is out of phase ({self.phase})"
            raise RemoteProtocolError(reason, culprit="host" if header.sender == HOST else header.sender, entry=index)

    def _host_may(self, kind: str) -> bool:
        if kind == "table":
            return self.phase == "table"
        if kind == "evidence":
            return self.phase not in ("table", "over", "aborted")
        if kind == "timeout":
            return self.phase not in ("table", "join", "seating", "over", "aborted")
        if kind == "close":
            return self.phase in ("join", "seating") or (self.phase == "commit" and not self.hand.commits)
        return False

    def expected(self) -> tuple[tuple[str, ...], set[int]]:
        """Message kinds accepted now and the senders that still owe one."""
        n = self.players
        phase = self.phase
        if phase == "table":
            return ("table",), {HOST}
        if phase == "join":
            return ("join",), set(range(n)) - set(self.keys)
        if phase == "seating":
            return ("join",), set(self.absent)
        if phase == "coin_commit":
            return ("coin_commit",), set(range(n)) - set(self.coins) - self.absent
        if phase == "coin_reveal":
            return ("coin_reveal",), set(self.coins) - set(self.coin_values) - self.absent
        hand = self.hand
        if phase == "commit":
            return ("commit",), set(range(n)) - set(hand.commits)
        if phase == "shuffle":
            return ("shuffle",), {len(hand.shuffles) % n}
        if phase == "deal":
            return ("shares",), set(range(n)) - set(hand.steps[-1].shares)
        if phase == "play":
            return ("act",), {self.view.current_player()}
        if phase == "handover":
            return ("handover",), set(self.view.defenders()) - set(self._handovers)
        if phase == "reveal":
            return ("reveal",), set(hand.commits) - set(hand.reveals) - self.absent
        return (), set()

    # --- handlers -------------------------------------------------------------

    def _handle(self, sender: int, message, index: int) -> None:
        getattr(self, f"_on_{KIND_OF[type(message)]}")(sender, message, index)

    def _on_table(self, sender: int, table: Table, index: int) -> None:
        try:
            game = make(table.game, table.players, dict(table.options))
        except OptionError as error:
            raise RemoteProtocolError(f"table: {error}", culprit="host", entry=index) from None
        if self.seat is not None and not 0 <= self.seat < table.players:
            raise LocalProtocolError(f"seat {self.seat} does not exist at a {table.players}-player table")
        self.table, self.game = table, game
        self.rules = dict(table.rules)
        self.phase = "join"

    def _on_join(self, sender: int, join: Join, index: int) -> None:
        if any(key == join.key for seat, key in self.keys.items() if seat != sender):
            raise RemoteProtocolError("that key already holds a seat", culprit=sender, entry=index)
        mine = self.identity.public_bytes if self.identity is not None else None
        if sender == self.seat and join.key != mine and not self.replacing:
            if self.phase == "join":
                raise RemoteProtocolError(f"the host seated another key in seat {sender}, this node's seat",
                                          culprit="host", entry=index)
            self.evicted = True  # timed out, and the seat went to another key
        if self.phase == "seating" and not self.rules.get("retake") and join.key != self.keys[sender]:
            raise RemoteProtocolError(f"this table lets only seat {sender}'s own key take it back", culprit=sender, entry=index)
        self.keys[sender] = join.key
        self.names[sender] = join.name
        if self.phase == "join":
            if len(self.keys) == self.players + 1:
                self.phase = "coin_commit"
            return
        self.absent.discard(sender)
        if sender == self.seat and join.key == mine:
            self.evicted = False
        if not self.absent:
            self._after_seating()

    def _after_seating(self) -> None:
        self._start_hand(self._next_number)

    def _coin_context(self, seat: int) -> bytes:
        return self.transcript.table_id + bytes([seat])

    def _on_coin_commit(self, sender: int, msg: CoinCommit, index: int) -> None:
        self.coins[sender] = msg.commitment
        self._coin_moves_on()

    def _on_coin_reveal(self, sender: int, msg: CoinReveal, index: int) -> None:
        if not mp.check_coin(msg.value, self._coin_context(sender), self.coins[sender]):
            raise CheatDetected("coin reveal does not match its commitment", culprit=sender, entry=index)
        self.coin_values[sender] = msg.value
        self._coin_moves_on()

    def _coin_moves_on(self) -> None:
        """Reveal once every seat present has committed; toss once each has revealed.

        A seat timed out during the coin is left out: the first dealer comes
        from the values the others revealed. A last revealer that withholds
        can so choose between two results at most (with its value or
        without), once, and is named for it; the coin is never tossed again.
        """
        present = set(range(self.players)) - self.absent
        if self.phase == "coin_commit" and present <= set(self.coins):
            self.phase = "coin_reveal"
        if self.phase == "coin_reveal" and present & set(self.coins) <= set(self.coin_values):
            values = [self.coin_values[s] for s in sorted(self.coin_values) if s in present]
            self.series = Series(self.game, mp.coin_result(values, self.players))
            self._start_hand(0)

    def _start_hand(self, number: int) -> None:
        if self.absent:
            self._next_number = number
            self.phase = "seating"
            return
        self.hand = HandRecord(number, self.series.dealer)
        self.plan: DealPlan = self.game.plan(self.series.dealer)
        self.view = None
        self._reset_hand_secrets()
        self.phase = "commit"

    def _reset_hand_secrets(self) -> None:
        self.secrets: mp.SeatSecrets | None = None
        self.x25519 = None
        self.owner: dict[int, object] = {}
        self.known: dict[int, int] = {}
        self.public_scalar: dict[int, int] = {}
        self.faceup_pos: int | None = None
        self.monte_pos: list[int] = []
        self.final: list[bytes] = []
        self._scalars: dict[int, int] = {}
        self._pair_keys: dict[int, bytes] = {}
        self._handovers: dict[int, Handover] = {}
        self._complaint: str | None = None
        self._claims: list[tuple] = []

    def _on_commit(self, sender: int, msg: Commit, index: int) -> None:
        check_x25519_public(msg.x25519)  # else no seat could seal it a share
        self.hand.commits[sender] = (msg, index)
        if len(self.hand.commits) == self.players:
            self.phase = "shuffle"

    def _on_shuffle(self, sender: int, msg: Shuffle, index: int) -> None:
        hand, n = self.hand, self.players
        expected_phase = 1 if len(hand.shuffles) < n else 2
        size = self.plan.size
        if msg.phase != expected_phase or len(msg.deck) != size:
            raise RemoteProtocolError(f"expected a phase-{expected_phase} deck of {size} cards", culprit=sender, entry=index)
        mp.check_points(msg.deck)  # a value that is no point would stop every seat after it
        if msg.phase == 1:
            mp.check_distinct(list(msg.deck))  # a duplicated card shows here at once
        hand.shuffles.append((sender, msg, index))
        if len(hand.shuffles) == 2 * n:
            self.final = list(msg.deck)
            self._begin_deal()

    def _begin_deal(self) -> None:
        plan = self.plan
        open_hands = self._open_hands()
        positions, audiences = [], []
        for seat, hand_positions in enumerate(plan.hands):
            for p in hand_positions:
                self.owner[p] = seat
                positions.append(p)
                audiences.append(PUBLIC if open_hands else seat)
        for p in plan.stock:
            self.owner[p] = "stock"
        if plan.faceup is not None:
            self.owner[plan.faceup] = "faceup"
            self.faceup_pos = plan.faceup
            positions.append(plan.faceup)
            audiences.append(PUBLIC)
        self.monte_pos = list(plan.monte)
        for p in plan.monte:
            self.owner[p] = "monte"
        if open_hands and plan.stock:
            positions.append(plan.stock[0])  # open hands: the top of the stock is visible
            audiences.append(PUBLIC)
        self._open_step("deal", positions, audiences)

    def _open_hands(self) -> bool:
        return self.game.name == "briscola" and self.game.options["open_hands"]

    def _show_stock_top(self) -> None:
        """Open hands: tell the view the card now on top of the stock."""
        if self._open_hands() and self.view is not None:
            top = self.view.drawn
            if top < len(self.plan.stock) and self.plan.stock[top] in self.known:
                self.view.see_stock(top, Card.from_index(self.known[self.plan.stock[top]]))

    def _open_step(self, kind: str, positions, audiences) -> None:
        """Start a dealing step: every seat sends its key shares for these positions."""
        todo = [(p, a) for p, a in zip(positions, audiences) if p not in self.public_scalar]
        step = Step(len(self.hand.steps), kind, tuple(p for p, _ in todo), tuple(a for _, a in todo))
        self.hand.steps.append(step)
        self.phase = "deal"
        if not step.positions:
            self._finish_step(step)

    def _on_shares(self, sender: int, msg: Shares, index: int) -> None:
        step = self.hand.steps[-1]
        if msg.step != step.number:
            raise RemoteProtocolError(f"shares for step {msg.step}, expected {step.number}", culprit=sender, entry=index)
        want_sealed = sorted({a for a in step.audiences if a not in (PUBLIC, sender)})
        want_public = sorted(p for p, a in zip(step.positions, step.audiences) if a == PUBLIC)
        if sorted(r for r, _ in msg.sealed) != want_sealed:
            raise RemoteProtocolError("shares sealed to the wrong seats", culprit=sender, entry=index)
        if sorted(p for p, _ in msg.public) != want_public:
            raise RemoteProtocolError("public shares for the wrong positions", culprit=sender, entry=index)
        for _, scalar in msg.public:
            scalar_int(scalar)
        step.shares[sender] = msg
        self.hand.share_entries[(step.number, sender)] = index
        if len(step.shares) == self.players:
            self._finish_step(step)

    def _finish_step(self, step: Step) -> None:
        """All shares are in: open what this node may see, then move the hand on.

        A public card that does not open cannot be blamed on one seat yet
        (any of them may have sent a wrong share): the hand stops and the
        audit names the seat.
        """
        opened = {}
        published = [dict(m.public) for m in step.shares.values()]
        for p, audience in zip(step.positions, step.audiences):
            if audience == PUBLIC:
                scalar = mp.combine(scalar_int(shares[p]) for shares in published)
                try:
                    opened[p] = (scalar, mp.open_card(self.final[p], scalar))
                except mp.DeckError:
                    # Every node sees this at the same entry: all stop together.
                    self.phase = "reveal"
                    return
        for p, (scalar, card) in opened.items():
            self.public_scalar[p] = scalar
            self.known[p] = card
        if self.holds_seat() and self.seat in step.audiences:
            self._open_mine(step)
        self._apply_step(step)

    def _open_mine(self, step: Step) -> None:
        mine = [p for p, a in zip(step.positions, step.audiences) if a == self.seat]
        received: dict[int, list[int]] = {p: [mp.key_share(self.secrets, p)] for p in mine}
        for sender, msg in step.shares.items():
            if sender == self.seat:
                continue
            blob = dict(msg.sealed)[self.seat]
            try:
                plain = unseal(self._pair_key(sender), blob, seal_aad(self.transcript.table_id, self.hand.number, step.number, sender, self.seat))
                pairs = {int(p): scalar_int(s) for p, s in decode(plain)}
            except (RemoteProtocolError, ValueError, TypeError):
                self._complaint = f"seat {sender}'s sealed shares do not open"
                continue
            for p in mine:
                if p not in pairs:
                    self._complaint = f"seat {sender} sent no share for a card of mine"
                else:
                    received[p].append(pairs[p])
        for p in mine:
            try:
                self._scalars[p] = mp.combine(received[p])
                self.known[p] = mp.open_card(self.final[p], self._scalars[p])
            except mp.DeckError:
                self._complaint = "a card dealt to me does not open (wrong key share)"

    def _apply_step(self, step: Step) -> None:
        try:
            if step.kind == "deal":
                self._build_view()
            else:
                self._apply_chance(step)
            self._show_stock_top()
        except (IllegalAction, ValueError):
            # Public cards contradict each other (a card seen twice): every
            # node sees it here, so all stop together; the audit names who.
            self.phase = "reveal"
            return
        self._advance()

    def _apply_chance(self, step: Step) -> None:
        need = self.view.need()
        positions = [self._slot_position(s) for s in need.slots]
        cards = tuple(None if p not in self.known else Card.from_index(self.known[p]) for p in positions)
        try:
            self.view = self.view.child(Action(CHANCE, need.kind, cards=cards))
        except IllegalAction:
            # A card only this seat sees contradicts its view: complain (an
            # early reveal) and carry on with that card unknown, like the others.
            self._complaint = "a card dealt to me contradicts what I have seen"
            public = tuple(c if a == PUBLIC else None for c, a in zip(cards, need.audiences))
            self.view = self.view.child(Action(CHANCE, need.kind, cards=public))
        self._move_after_chance(need, positions)

    def _build_view(self) -> None:
        plan = self.plan
        if len(set(self.known.values())) != len(self.known):
            self._complaint = "the cards dealt to me contradict each other"
            self.known = {p: c for p, c in self.known.items() if p in self.public_scalar}

        def card(p):
            return Card.from_index(self.known[p]) if p in self.known else None

        deal = Deal(
            hands=[[card(p) for p in positions] for positions in plan.hands],
            stock=[card(p) for p in plan.stock],
            faceup=None if plan.faceup is None else card(plan.faceup),
            monte=[card(p) for p in plan.monte],
        )
        viewer = PUBLIC if self.seat is None else self.seat
        self.view = self.game.new_hand(self.hand.dealer, deal, viewer=viewer)

    def _slot_position(self, slot: tuple) -> int:
        if slot[0] == "stock":
            return self.plan.stock[slot[1]]
        if slot[0] == "faceup":
            return self.faceup_pos
        return self.monte_pos[slot[1]]

    def _move_after_chance(self, need, positions) -> None:
        view = self.view
        if need.kind == "draw":
            drawers = [(view.leader + i) % self.players for i in range(self.players)]
            for seat, p in zip(drawers, positions):
                self.owner[p] = seat
        elif need.kind == "monte" and view.phase != "take":
            for p in positions:
                self.owner[p] = view.soloist
            self.monte_pos = []
        elif need.kind == "dividete":
            first, second = view.defenders()
            for i, p in enumerate(positions):
                self.owner[p] = first if i < 2 else second
            self.monte_pos = []

    def _advance(self) -> None:
        """Decide what the hand waits for next."""
        view = self.view
        turn = view.current_player()
        if turn == TERMINAL:
            self.phase = "reveal"
            return
        if turn != CHANCE:
            self.phase = "play"
            return
        need = view.need()
        if need.kind == "handover":
            self._handovers = {}
            self.phase = "handover"
            return
        positions = [self._slot_position(s) for s in need.slots]
        audiences = list(need.audiences)
        top = view.drawn + self.players if need.kind == "draw" else len(self.plan.stock)
        if self._open_hands() and top < len(self.plan.stock):
            positions.append(self.plan.stock[top])  # the next top of the stock
            audiences.append(PUBLIC)
        self._open_step(need.kind, positions, audiences)

    # --- decisions ------------------------------------------------------------

    def _on_act(self, sender: int, msg: Act, index: int) -> None:
        kind = msg.action[0]
        view = self.view
        self._check_positions(sender, kind, msg, index)
        face_down = ()
        if kind == "discard":
            # Only the discarder sees its discards; every other view gets them face down.
            face_down = tuple(Card.from_index(self.known[p]) if sender == self.seat and p in self.known else None
                              for p in msg.positions)
        action = action_from_wire(sender, msg.action, face_down)
        moves = self._check_proofs(sender, view.shown_cards(action), msg, index)
        self._check_shown_before(sender, moves, index)
        after, complaint = self._child_seen_from_here(view, action)
        if complaint:
            self._complaint = self._complaint or complaint
        self.view = after
        for p, public in moves:
            self.public_scalar[p], self.known[p] = public
        if kind == "play" and view.MUST_FOLLOW and view.trick and action.card.suit != view.trick[0].suit:
            self._remember("void", sender, view.trick[0].suit, index)
        self._move_cards(sender, kind, msg, view)
        self.hand.moves.append((index, sender, "act", msg))
        self._advance()

    def _child_seen_from_here(self, view: State, action: Action) -> tuple[State, str | None]:
        """`view` after `action`, and a complaint when only this seat's own
        cards show the action breaks a rule (the Chiamata two rule, seen by
        the holder of the 2): every other node accepts it, so this one does
        too, in step with them, and stops the hand with an early reveal; the
        audit names the sender. IllegalAction when anyone could see it."""
        try:
            return view.child(action), None
        except IllegalAction as error:
            me = self.seat
            if me is None or action.seat == me or not view.hands[me]:
                raise
            blind = view.clone()
            blind.unknown[me] += len(blind.hands[me])
            blind.hands[me] = []
            try:
                blind.apply(action)
            except IllegalAction:
                raise error from None
            blind.hands[me] = list(view.hands[me])
            blind.unknown[me] = view.unknown[me]
            return blind, f"seat {action.seat} broke a rule my cards show: {error}"

    def _check_positions(self, sender: int, kind: str, msg: Act, index: int) -> None:
        if kind == "discard":
            if not msg.positions:
                raise RemoteProtocolError("a discard names its positions", culprit=sender, entry=index)
            if len(set(msg.positions)) != len(msg.positions) or any(self.owner.get(p) != sender for p in msg.positions):
                raise CheatDetected("discarded deck positions it does not hold", culprit=sender, entry=index)
        elif msg.positions:
            raise RemoteProtocolError(f"{kind} gives up no positions", culprit=sender, entry=index)

    def _check_proofs(self, sender: int, shown: tuple, msg: Act, index: int) -> list:
        """Each card the action shows, proved from a position the sender holds;
        nothing changes here. Returns [(position, (scalar, card))]."""
        kind = msg.action[0]
        if len(msg.proofs) != len(shown):
            raise RemoteProtocolError(f"{kind} needs {len(shown)} card proof(s)", culprit=sender, entry=index)
        if any(card is None for card in shown):
            return []  # the action names no card: the rules refuse it next
        moves = []
        for position, card, scalar in msg.proofs:
            if self.owner.get(position) != sender:
                raise CheatDetected(f"played a card from deck position {position}, which it does not hold", culprit=sender, entry=index)
            k = scalar_int(scalar)
            if not mp.check_reveal(self.final[position], k, card):
                raise CheatDetected("a card proof does not open to the card claimed", culprit=sender, entry=index)
            moves.append((position, (k, card)))
        if sorted(card for _, card, _ in msg.proofs) != sorted(c.index for c in shown):
            raise CheatDetected(f"its proofs show other cards than its {kind} needs", culprit=sender, entry=index)
        if len({p for p, _, _ in msg.proofs}) != len(msg.proofs):
            raise CheatDetected("one deck position proved twice", culprit=sender, entry=index)
        return moves

    # --- what shown cards prove about earlier moves ------------------------------

    def _remember(self, what: str, seat: int, detail, index: int) -> None:
        """Note a claim a seat made about its hand (a suit it lacked, a called card
        it denied holding), with the positions it held then."""
        held = frozenset(p for p, owner in self.owner.items() if owner == seat)
        self._claims.append((what, seat, detail, held, index))

    def _check_shown_before(self, sender: int, moves: list, index: int) -> None:
        """A card shown now from a position the sender held when it claimed
        not to have such a card proves the claim false: a renege (it did not
        follow suit) or a false denial of the called card."""
        for position, (_, card) in moves:
            shown = Card.from_index(card)
            for what, seat, detail, held, at in self._claims:
                if seat != sender or position not in held:
                    continue
                if what == "void" and shown.suit == detail:
                    raise CheatDetected(f"renege: it did not follow {detail} at entry {at} while holding {shown}",
                                        culprit=sender, entry=index)
                if what == "denied" and card == detail:
                    raise CheatDetected(f"it denied holding the called card at entry {at}, and holds {shown}",
                                        culprit=sender, entry=index)

    def _move_cards(self, sender: int, kind: str, msg: Act, before: State) -> None:
        if kind == "play":
            self.owner[msg.proofs[0][0]] = "played"
        elif kind == "exchange":
            old = self.faceup_pos
            self.faceup_pos = msg.proofs[0][0]
            self.owner[self.faceup_pos] = "faceup"
            self.owner[old] = sender
        elif kind == "return":
            self.owner[msg.proofs[0][0]] = before.handed_from
        elif kind == "discard":
            for p in msg.positions:
                self.owner[p] = "monte"
            self.monte_pos.extend(msg.positions)
        elif kind == "take":
            first, second = before.defenders()
            taken = set(msg.action[2])
            for p in self.monte_pos:
                self.owner[p] = first if self.known[p] in taken else second
            self.monte_pos = []

    def _on_handover(self, sender: int, msg: Handover, index: int) -> None:
        called = self.view.called
        if msg.proof is not None:
            position, card, scalar = msg.proof
            if card != called.index:
                raise RemoteProtocolError("handover of a card that was not called", culprit=sender, entry=index)
            if self.owner.get(position) != sender:
                raise CheatDetected(f"handed over deck position {position}, which it does not hold", culprit=sender, entry=index)
            k = scalar_int(scalar)
            if not mp.check_reveal(self.final[position], k, card):
                raise CheatDetected("handover proof does not open to the called card", culprit=sender, entry=index)
            if self.seat is not None and self.known.get(position) not in (None, card):
                raise CheatDetected("handover contradicts a known card", culprit=sender, entry=index)
            self._check_shown_before(sender, [(position, (None, card))], index)
        handovers = {**self._handovers, sender: (msg, index)}
        if len(handovers) < 2:
            self._handovers = handovers
            return
        proofs = [(s, m.proof) for s, (m, _) in handovers.items() if m.proof is not None]
        if len(proofs) > 1:
            raise CheatDetected("both defenders showed the called card", culprit=sender, entry=index)
        holder = proofs[0][0] if proofs else None
        self.view = self.view.child(Action(CHANCE, "handover", card=called, holder=holder))
        self._handovers = handovers
        for seat, (m, i) in sorted(handovers.items(), key=lambda item: item[1][1]):
            self.hand.moves.append((i, seat, "handover", m))
            if m.proof is None:
                self._remember("denied", seat, called.index, i)
        if proofs:
            position, card, scalar = proofs[0][1]
            self.public_scalar[position], self.known[position] = scalar_int(scalar), card
            self.owner[position] = self.view.soloist
        self._advance()

    # --- the end of a hand ----------------------------------------------------

    def _on_reveal(self, sender: int, msg: Reveal, index: int) -> None:
        hand = self.hand
        if sender in hand.reveals:
            raise RemoteProtocolError("seed already revealed", culprit=sender, entry=index)
        hand.reveals[sender] = (msg.seed, index)
        if self.phase != "reveal":
            self._complaint = self._complaint or f"seat {sender} stopped the hand"
            self._interrupted_at = index
            self.phase = "reveal"
        self._finish_if_revealed()

    def _stop_hand(self, index: int) -> None:
        """Evidence or a time-out ends the hand here: the seats present reveal."""
        self._interrupted_at = index
        self.phase = "reveal"
        self._finish_if_revealed()

    def _finish_if_revealed(self) -> None:
        hand = self.hand
        if not set(hand.commits) - self.absent <= set(hand.reveals):
            return
        verdict = audit_hand(self.game, self.transcript.table_id, hand, self.plan)
        self.verdicts.append(verdict)
        if self.seat is not None:
            self.store.forget_hand(hand.number)
        if verdict.cheats:
            self.phase = "aborted"
        elif verdict.outcome is None:
            self._start_hand(hand.number + 1)  # void: not scored, same dealer
        else:
            self.series.record(verdict.outcome)
            if self.series.is_over():
                self.phase = "over"
            else:
                self._start_hand(hand.number + 1)

    # --- the host's own entries -------------------------------------------------

    def _on_evidence(self, sender: int, msg: Evidence, index: int) -> None:
        """A seat's message the host refused: check for ourselves that the rules
        refuse it and that it is the seat's own next message, then stop the hand."""
        try:
            opened = open_signed(msg.message, self.keys, self.transcript.table_id)
        except RemoteProtocolError as error:
            raise RemoteProtocolError(f"evidence that does not verify: {error.reason}", culprit="host", entry=index) from None
        inner = opened.header
        log = self.transcript
        if not 0 <= inner.sender < self.players or inner.kind == "join" or log.has_message(msg.message) \
                or inner.seq != log.next_seq(inner.sender) or log.echoed_index(inner.head) is None:
            raise RemoteProtocolError("evidence that is not the seat's next message", culprit="host", entry=index)
        try:
            self._judge(inner, opened.body, index)
        except RemoteProtocolError as error:
            if error.culprit != inner.sender:
                raise RemoteProtocolError(f"evidence that does not prove its seat wrong: {error.reason}",
                                          culprit="host", entry=index) from None
            proven = Culprit(inner.sender, error.reason, index)
        else:
            self.phase = "aborted"  # we applied a valid message: the host refused it falsely
            raise RemoteProtocolError(f"the host refused a valid message of seat {inner.sender}", culprit="host", entry=index)
        log.spend(opened)
        self._note_own(inner)
        if self.phase in HAND_PHASES:
            self.hand.findings.append(proven)
            self._stop_hand(index)
        else:
            self.culprits.append(proven)
            self.phase = "aborted"

    def _on_timeout(self, sender: int, msg: Timeout, index: int) -> None:
        kinds, senders = self.expected()
        if msg.seat not in senders or msg.owed not in kinds:
            raise RemoteProtocolError(f"timed out seat {msg.seat}, which owed no {msg.owed}", culprit="host", entry=index)
        self.absent.add(msg.seat)
        finding = Culprit(msg.seat, f"left or withheld its {msg.owed} past the time limit", index, ABSENT)
        if self.phase in HAND_PHASES:
            self.hand.findings.append(finding)
            self._stop_hand(index)
            return
        self.culprits.append(finding)  # the coin goes on without it; the seat is taken before the deal
        self._interrupted_at = index
        self._coin_moves_on()

    def _on_close(self, sender: int, msg: Close, index: int) -> None:
        self.closed = msg.reason
        self.phase = "over"

    # --- outbound -------------------------------------------------------------

    def _step_key(self) -> tuple:
        hand = self.hand.number if self.hand else -1
        steps = len(self.hand.steps) if self.hand else 0
        moves = len(self.hand.moves) if self.hand else 0
        shuffles = len(self.hand.shuffles) if self.hand else 0
        return (self.phase, hand, steps, moves, shuffles)

    def _outgoing(self) -> list[bytes]:
        """The messages this seat owes now (none for a spectator)."""
        if self.seat is None or self.phase in ("over", "aborted") or self.evicted:
            return []
        if not self.holds_seat() and self.phase not in ("join", "seating"):
            return []
        if self._complaint is not None and self.phase != "reveal":
            key = ("complaint", self.hand.number)
            if key in self._produced:
                return []
            self._produced.add(key)
            message = self._make_reveal()
            return [] if message is None else [self._sign(message)]
        kinds, senders = self.expected()
        key = self._step_key()
        if self.seat not in senders or key in self._produced or self.phase == "play":
            return []
        builder = getattr(self, f"_make_{self.phase}", None)
        if builder is None:
            return []
        message = builder()
        if message is None:
            return []
        self._produced.add(key)
        return [self._sign(message)]

    def _sign(self, message) -> bytes:
        """Sign the next message, stored before it is returned (and so before it
        can leave). A sequence number signed before a crash gives back the very
        bytes stored then; one already in the transcript is never signed again."""
        seq = self.seq
        self.seq += 1
        stored = self.store.sent.get(seq)
        if stored is not None:
            return stored
        if seq < self._resume_floor:
            return b""  # rebuilding: the transcript holds what was sent at this number
        kind = KIND_OF[type(message)]
        header = Header(VERSION, self.transcript.table_id, kind, self.seat, seq, self.transcript.head)
        signed = Signed.sign(self.identity, make_payload(header, to_body(message))).encode()
        self.store.put_sent(seq, signed)
        return signed

    def start(self) -> list[bytes]:
        """Messages to send once connected (the join, when the table is known)."""
        return self._outgoing()

    @classmethod
    def resume(cls, seat: int, identity: Identity, store: SeatStore, entries: list[bytes],
               name: str = "", replacing: bool = False) -> tuple[TableSession, list[bytes]]:
        """Rebuild a seat after a crash from the transcript it holds and its store.

        Returns the session, caught up, and the messages it owes now: those it
        had signed but the transcript does not hold yet (the very bytes stored),
        then any new ones. Nothing already in the transcript is signed again.
        """
        session = cls(seat, identity, name, store=store, replacing=replacing)
        session._resume_floor = 1 + max((h.seq for h in _headers(entries) if h.sender == seat), default=-1)
        owed: list[bytes] = []
        for entry in entries:
            owed += [m for m in session.receive(entry) if m]
        pending = [q for q in sorted(store.sent) if q >= session.seq]
        for q in pending:  # signed (an act) just before the crash, never ordered
            owed.append(store.sent[q])
            session.seq = q + 1
            session._produced.add(session._step_key())
        return session, _not_in(owed, session.transcript)

    def rejoin(self) -> list[bytes]:
        """Take this seat back after a time-out (with this node's own key)."""
        self._rejoin = True
        return self._outgoing()

    def _make_join(self) -> Join | None:
        if self.replacing:
            return None  # a replacement waits for the seat to be free
        return Join(self.identity.public_bytes, self.name or f"seat {self.seat}")

    def _make_seating(self) -> Join | None:
        mine = self.identity.public_bytes
        if self.keys.get(self.seat) == mine and not self._rejoin:
            return None  # timed out: back only when asked (`rejoin`)
        if self.keys.get(self.seat) != mine and not self.replacing:
            return None
        self.evicted = False
        return Join(mine, self.name or f"seat {self.seat}")

    def _make_coin_commit(self) -> CoinCommit:
        value = self.store.coins.get(0)
        if value is None:
            value = secrets.token_bytes(32)
            self.store.put_coin(0, value)
        self._coin_value = value
        return CoinCommit(mp.coin_commit(value, self._coin_context(self.seat)))

    def _make_coin_reveal(self) -> CoinReveal:
        return CoinReveal(self._coin_value)

    def _make_commit(self) -> Commit:
        seed = self.store.seeds.get(self.hand.number)
        if seed is None:
            seed = secrets.token_bytes(32)
            self.store.put_seed(self.hand.number, seed)
        self.secrets = mp.SeatSecrets(seed)
        self.x25519 = x25519_private_from_seed(self.secrets.x25519_seed)
        context = commit_context(self.transcript.table_id, self.hand.number, self.seat)
        return Commit(self.hand.number, self.secrets.commitment(context), x25519_public_bytes(self.x25519))

    def _make_shuffle(self) -> Shuffle:
        hand = self.hand
        if len(hand.shuffles) < self.players:
            previous = hand.shuffles[-1][1].deck if hand.shuffles else mp.start_deck([c.index for c in self.game.deck()])
            return Shuffle(hand.number, 1, tuple(mp.shuffle_phase1(list(previous), self.secrets)))
        previous = hand.shuffles[-1][1].deck
        return Shuffle(hand.number, 2, tuple(mp.shuffle_phase2(list(previous), self.secrets)))

    def _make_deal(self) -> Shares:
        step = self.hand.steps[-1]
        by_seat: dict[int, list] = {}
        public = []
        for p, audience in zip(step.positions, step.audiences):
            share = scalar_bytes(mp.key_share(self.secrets, p))
            if audience == PUBLIC:
                public.append((p, share))
            elif audience != self.seat:
                by_seat.setdefault(audience, []).append((p, share))
        sealed = []
        for recipient, pairs in sorted(by_seat.items()):
            aad = seal_aad(self.transcript.table_id, self.hand.number, step.number, self.seat, recipient)
            sealed.append((recipient, seal(self._pair_key(recipient), encode([list(x) for x in pairs]), aad, seal_nonce(aad))))
        return Shares(self.hand.number, step.number, tuple(sealed), tuple(public))

    def _make_handover(self) -> Handover:
        called = self.view.called.index
        for p, card in self.known.items():
            if card == called and self.owner.get(p) == self.seat:
                return Handover(self.hand.number, self._proof(p))
        return Handover(self.hand.number, None)

    def _make_reveal(self) -> Reveal | None:
        if self._revealed == self.hand.number:
            return None  # sent already (an early reveal)
        self._revealed = self.hand.number
        return Reveal(self.hand.number, self.secrets.seed)

    def _pair_key(self, other: int) -> bytes:
        """The key this seat shares with `other` for this hand (derived once)."""
        if other not in self._pair_keys:
            their = self.hand.commits[other][0].x25519
            context = pair_context(self.transcript.table_id, self.hand.number, self.seat, other)
            self._pair_keys[other] = pair_key(self.x25519, their, context)
        return self._pair_keys[other]

    def _proof(self, position: int) -> tuple:
        """(position, card, combined key): the public key of a shown card, or
        the one this seat combined from every seat's share when it was dealt."""
        scalar = self.public_scalar.get(position) or self._scalars[position]
        return (position, self.known[position], scalar_bytes(scalar))

    def act(self, action: Action) -> list[bytes]:
        """Send this seat's decision; IllegalAction if the rules forbid it (nothing sent)."""
        if not self.my_turn():
            raise LocalProtocolError("it is not this seat's turn to act")
        if action.seat != self.seat:
            raise LocalProtocolError("act for this seat only")
        self.view.child(action)  # raises IllegalAction, changing nothing
        kind = action.kind
        proofs, positions = [], []
        mine = {self.known[p]: p for p, o in self.owner.items() if o == self.seat and p in self.known}
        if kind in ("play", "return"):
            proofs.append(self._proof(mine[action.card.index]))
        elif kind == "exchange":
            proofs.append(self._proof(mine[self.view.exchange_card.index]))
        elif kind == "declare":
            proofs += [self._proof(mine[Card(r, self.view.trump).index]) for r in "A3K"]
        elif kind == "discard":
            positions = [mine[c.index] for c in action.cards]
        message = Act(self.hand.number, action_to_wire(action), tuple(proofs), tuple(positions))
        self._produced.add(self._step_key())
        return [self._sign(message)]

    def _who(self, sender: int) -> str:
        return "the host" if sender == HOST else f"seat {sender}"

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"<TableSession {who} phase={self.phase}>"


def _headers(entries: list[bytes]):
    """The message header of each stored entry (for a quick look before replaying)."""
    for data in entries:
        yield parse_header(Signed.decode(Entry.decode(data).message).payload)[0]


def _not_in(messages: list[bytes], transcript: Transcript | None) -> list[bytes]:
    """Messages not yet ordered, each once, in order."""
    out = []
    for m in messages:
        if m not in out and (transcript is None or not transcript.has_message(m)):
            out.append(m)
    return out
