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
from .audit import Verdict, audit_hand
from .codec import decode, encode
from .errors import CheatDetected, LocalProtocolError, RemoteProtocolError
from .identity import (
    Identity,
    pair_key,
    seal,
    unseal,
    x25519_private_from_seed,
    x25519_public_bytes,
)
from .messages import (
    KIND_OF,
    Act,
    CoinCommit,
    CoinReveal,
    Commit,
    Handover,
    Join,
    Reveal,
    Shares,
    Shuffle,
    Table,
    from_body,
    to_body,
)
from .transcript import (
    HOST,
    VERSION,
    Entry,
    Header,
    Signed,
    Transcript,
    make_payload,
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


class TableSession:
    """One node's state of a table: a seat (with its secrets) or a spectator."""

    def __init__(self, seat: int | None = None, identity: Identity | None = None, name: str = ""):
        if seat is not None and identity is None:
            raise LocalProtocolError("a seat needs an identity to sign with")
        self.seat = seat
        self.identity = identity
        self.name = name
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

    def my_turn(self) -> bool:
        return (
            self.phase == "play" and self.seat is not None and self._complaint is None
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
            message = from_body(header.kind, opened.body)
            self._check_expected(header, entry.index)
            self._handle(header.sender, message, entry.index)
        except IllegalAction as error:
            raise CheatDetected(f"illegal action: {error}", culprit=header.sender, entry=entry.index) from None
        except mp.DeckError as error:
            raise CheatDetected(str(error), culprit=header.sender, entry=entry.index) from None
        except RemoteProtocolError as error:
            # A malformed body or a key share out of range is its signed sender's doing.
            if error.culprit is None:
                error.culprit = "host" if header.sender == HOST else header.sender
            if error.entry is None:
                error.entry = entry.index
            if not self.transcript.entries:
                self.transcript = None
                self.keys.pop(HOST, None)
            raise
        self.transcript.commit(entry, opened)
        return self._outgoing()

    def _expect_table(self, entry: Entry) -> None:
        signed = Signed.decode(entry.message)
        header, body = parse_header(signed.payload)
        if entry.index != 0 or header.kind != "table" or header.sender != HOST:
            raise RemoteProtocolError("a table starts with the host's table message", culprit="host", entry=entry.index)
        table = from_body("table", body)
        self.transcript = Transcript(header.table_id)
        self.keys[HOST] = table.key

    def _keys_for(self, entry: Entry) -> dict[int, bytes]:
        """Known keys, plus the self-certified key of a seat's join message."""
        try:
            header, body = parse_header(Signed.decode(entry.message).payload)
        except RemoteProtocolError:
            return self.keys
        if header.kind == "join" and header.sender not in self.keys and 0 <= header.sender < self.players:
            try:
                join = from_body("join", body)
            except RemoteProtocolError:
                return self.keys  # verification then fails naming the sender
            return {**self.keys, header.sender: join.key}
        return self.keys

    def _check_expected(self, header: Header, index: int) -> None:
        kinds, senders = self.expected()
        if header.kind == "reveal" and self.phase not in ("commit", "reveal") and self.hand is not None \
                and 0 <= header.sender < self.players and header.sender not in self.hand.reveals:
            return  # once the secrets are committed, a reveal may stop a hand at any point
        if header.kind not in kinds or header.sender not in senders:
            raise RemoteProtocolError(
                f"{header.kind} from {self._who(header.sender)} is out of phase ({self.phase})",
                culprit=header.sender, entry=index,
            )

    def expected(self) -> tuple[tuple[str, ...], set[int]]:
        """Message kinds accepted now and the senders that still owe one."""
        n = self.players
        phase = self.phase
        if phase == "table":
            return ("table",), {HOST}
        if phase == "join":
            return ("join",), set(range(n)) - set(self.keys)
        if phase == "coin_commit":
            return ("coin_commit",), set(range(n)) - set(self.coins)
        if phase == "coin_reveal":
            return ("coin_reveal",), set(range(n)) - set(self.coin_values)
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
            return ("reveal",), set(range(n)) - set(hand.reveals)
        return (), set()

    # --- handlers -------------------------------------------------------------

    def _handle(self, sender: int, message, index: int) -> None:
        kind = KIND_OF[type(message)]
        if kind != "table" and hasattr(message, "hand") and self.hand is not None and message.hand != self.hand.number:
            raise RemoteProtocolError(f"message for hand {message.hand}, this is hand {self.hand.number}", culprit=sender, entry=index)
        getattr(self, f"_on_{kind}")(sender, message, index)

    def _on_table(self, sender: int, table: Table, index: int) -> None:
        try:
            game = make(table.game, table.players, dict(table.options))
        except OptionError as error:
            raise RemoteProtocolError(f"table: {error}", culprit="host", entry=index) from None
        if self.seat is not None and not 0 <= self.seat < table.players:
            raise LocalProtocolError(f"seat {self.seat} does not exist at a {table.players}-player table")
        self.table, self.game = table, game
        self.phase = "join"

    def _on_join(self, sender: int, join: Join, index: int) -> None:
        if join.key in self.keys.values():
            raise RemoteProtocolError("that key already holds a seat", culprit=sender, entry=index)
        self.keys[sender] = join.key
        self.names[sender] = join.name
        if len(self.keys) == self.players + 1:
            self.phase = "coin_commit"

    def _on_coin_commit(self, sender: int, msg: CoinCommit, index: int) -> None:
        self.coins[sender] = msg.commitment
        if len(self.coins) == self.players:
            self.phase = "coin_reveal"

    def _on_coin_reveal(self, sender: int, msg: CoinReveal, index: int) -> None:
        context = self.transcript.table_id + bytes([sender])
        if not mp.check_coin(msg.value, context, self.coins[sender]):
            raise CheatDetected("coin reveal does not match its commitment", culprit=sender, entry=index)
        self.coin_values[sender] = msg.value
        if len(self.coin_values) == self.players:
            values = [self.coin_values[s] for s in range(self.players)]
            self.series = Series(self.game, mp.coin_result(values, self.players))
            self._start_hand(0)

    def _start_hand(self, number: int) -> None:
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

    def _on_commit(self, sender: int, msg: Commit, index: int) -> None:
        self.hand.commits[sender] = (msg, index)
        if len(self.hand.commits) == self.players:
            self.phase = "shuffle"

    def _on_shuffle(self, sender: int, msg: Shuffle, index: int) -> None:
        hand, n = self.hand, self.players
        expected_phase = 1 if len(hand.shuffles) < n else 2
        size = self.plan.size
        if msg.phase != expected_phase or len(msg.deck) != size:
            raise RemoteProtocolError(f"expected a phase-{expected_phase} deck of {size} cards", culprit=sender, entry=index)
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
        if self.seat is not None and self.seat in step.audiences:
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
        moves = self._check_cards(sender, kind, msg, index)
        face_down = ()
        if kind == "discard":
            if not msg.positions:
                raise RemoteProtocolError("a discard names its positions", culprit=sender, entry=index)
            # Only the discarder sees its discards; every other view gets them face down.
            face_down = tuple(Card.from_index(self.known[p]) if sender == self.seat else None for p in msg.positions)
        action = action_from_wire(sender, msg.action, face_down)
        self.view = view.child(action)  # IllegalAction -> cheat named by receive()
        for p, public in moves:
            if public is not None:
                self.public_scalar[p], self.known[p] = public
        self._move_cards(sender, kind, msg, view)
        self.hand.moves.append((index, sender, "act", msg))
        self._advance()

    def _check_cards(self, sender: int, kind: str, msg: Act, index: int) -> list:
        """Check every card proof and position of an act; nothing changes here."""
        wire_card = msg.action[1]
        needed = {"play": 1, "exchange": 1, "return": 1, "declare": 3}.get(kind, 0)
        if len(msg.proofs) != needed:
            raise RemoteProtocolError(f"{kind} needs {needed} card proof(s)", culprit=sender, entry=index)
        if msg.positions and kind != "discard":
            raise RemoteProtocolError(f"{kind} gives up no positions", culprit=sender, entry=index)
        moves = []
        for position, card, scalar in msg.proofs:
            if self.owner.get(position) != sender:
                raise CheatDetected(f"played a card from deck position {position}, which it does not hold", culprit=sender, entry=index)
            k = scalar_int(scalar)
            if not mp.check_reveal(self.final[position], k, card):
                raise CheatDetected("a card proof does not open to the card claimed", culprit=sender, entry=index)
            moves.append((position, (k, card)))
        cards = [c for _, c, _ in msg.proofs]
        if kind in ("play", "return") and cards != [wire_card]:
            raise RemoteProtocolError("the proof is for another card", culprit=sender, entry=index)
        if kind == "discard":
            if len(set(msg.positions)) != len(msg.positions) or any(self.owner.get(p) != sender for p in msg.positions):
                raise CheatDetected("discarded deck positions it does not hold", culprit=sender, entry=index)
        return moves

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
            self.phase = "reveal"
        if len(hand.reveals) < self.players:
            return
        verdict = audit_hand(self.game, self.transcript.table_id, hand, self.plan)
        self.verdicts.append(verdict)
        if not verdict.ok or verdict.outcome is None:
            self.phase = "aborted"
            return
        self.series.record(verdict.outcome)
        if self.series.is_over():
            self.phase = "over"
        else:
            self._start_hand(hand.number + 1)

    # --- outbound -------------------------------------------------------------

    def _step_key(self) -> tuple:
        hand = self.hand.number if self.hand else -1
        steps = len(self.hand.steps) if self.hand else 0
        moves = len(self.hand.moves) if self.hand else 0
        shuffles = len(self.hand.shuffles) if self.hand else 0
        return (self.phase, hand, steps, moves, shuffles)

    def _outgoing(self) -> list[bytes]:
        """The messages this seat owes now (none for a spectator)."""
        if self.seat is None or self.phase in ("over", "aborted"):
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
        kind = KIND_OF[type(message)]
        header = Header(VERSION, self.transcript.table_id, kind, self.seat, self.seq, self.transcript.head)
        self.seq += 1
        return Signed.sign(self.identity, make_payload(header, to_body(message))).encode()

    def start(self) -> list[bytes]:
        """Messages to send once connected (the join, when the table is known)."""
        return self._outgoing()

    def _make_join(self) -> Join:
        return Join(self.identity.public_bytes, self.name or f"seat {self.seat}")

    def _make_coin_commit(self) -> CoinCommit:
        self._coin_value = secrets.token_bytes(32)
        return CoinCommit(mp.coin_commit(self._coin_value, self.transcript.table_id + bytes([self.seat])))

    def _make_coin_reveal(self) -> CoinReveal:
        return CoinReveal(self._coin_value)

    def _make_commit(self) -> Commit:
        self.secrets = mp.SeatSecrets.generate()
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
            sealed.append((recipient, seal(self._pair_key(recipient), encode([list(x) for x in pairs]), aad)))
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
