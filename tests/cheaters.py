"""Test doubles for the protocol tests: choosers, message crafting, cheating seats.

A cheating seat is a `TableSession` subclass that overrides one `_make_*`
builder (what it sends on its own) or lets its chooser pick a forbidden
action. Where the cheat breaks a rule the seat's *own* view would refuse
(not following suit, hiding the called card, the two rule), the cheater
gets a "lax" view: the same engine state with that one check switched off
for the cheater's own moves, so it can go on playing the hand as a real
cheater would. The other seats, the host and the spectators are honest,
unmodified sessions.
"""

from __future__ import annotations

import random
import secrets as _secrets

from engine.cards import Card
from engine.games.calabresella import CalabresellaState
from engine.games.chiamata import ChiamataState
from engine.state import PUBLIC, Action
from protocol import deck as mp
from protocol.codec import encode
from protocol.identity import Identity, seal
from protocol.local import LocalTable
from protocol.messages import KIND_OF, Act, Handover, Reveal, Shares, Shuffle, to_body
from protocol.session import TableSession
from protocol.transcript import VERSION, Entry, Header, Signed, make_payload
from protocol.wire import action_to_wire, scalar_bytes, seal_aad

# --- choosers -----------------------------------------------------------------


def random_chooser(seed: int):
    """A seeded random legal move."""
    rng = random.Random(seed)

    def choose(session: TableSession) -> Action:
        return rng.choice(session.legal_actions())

    return choose


def random_choosers(players: int, seed: int = 0) -> dict:
    return {s: random_chooser(seed * 100 + s) for s in range(players)}


def scripted(seed: int, **rules):
    """A random chooser that first tries `rules[phase](session)` (None: fall back)."""
    fallback = random_chooser(seed)

    def choose(session: TableSession) -> Action:
        rule = rules.get(session.view.phase)
        if rule is not None:
            action = rule(session)
            if action is not None:
                return action
        return fallback(session)

    return choose


def pick(kind: str, **fields):
    """A rule choosing the legal action of `kind` with these fields, if any."""

    def rule(session: TableSession):
        for action in session.legal_actions():
            if action.kind == kind and all(getattr(action, k) == v for k, v in fields.items()):
                return action
        return None

    return rule


# --- crafting messages ------------------------------------------------------------


def sign_as(session: TableSession, message=None, *, kind: str | None = None, body: list | None = None,
            seq: int | None = None, head: bytes | None = None, identity: Identity | None = None,
            sender: int | None = None, table_id: bytes | None = None) -> bytes:
    """A message signed with `session`'s seat identity, without touching the session.

    Defaults are what an honest next message would carry (its seq, the head
    it has seen); every field can be overridden to build a bad one.
    """
    if message is not None:
        kind, body = KIND_OF[type(message)], to_body(message)
    header = Header(
        VERSION, table_id or session.transcript.table_id, kind,
        session.seat if sender is None else sender,
        session.seq if seq is None else seq,
        session.transcript.head if head is None else head,
    )
    return Signed.sign(identity or session.identity, make_payload(header, body or [])).encode()


def entry_for(node: TableSession, signed: bytes, host) -> bytes:
    """The entry `host` would broadcast to `node` for this message (signed by the host)."""
    entry = Entry(len(node.transcript.entries), node.transcript.head, signed)
    return entry.signed_by(host.identity, host.table_id).encode()


def snapshot(node: TableSession) -> tuple:
    """Everything a rejected entry must leave unchanged."""
    view = node.view
    hand = node.hand
    return (
        node.transcript.head if node.transcript else None,
        len(node.transcript.entries) if node.transcript else 0,
        dict(node.transcript._last_seq) if node.transcript else None,
        node.phase, node.seq, repr(view),
        len(view.history) if view is not None else None,
        tuple(node.series.scores) if node.series else None,
        len(node.verdicts), len(node.outcomes),
        tuple(sorted(node.known.items())),
        tuple(sorted(node.owner.items(), key=str)),
        None if hand is None else (hand.number, len(hand.commits), len(hand.shuffles), len(hand.steps),
                                   len(hand.moves), len(hand.reveals),
                                   sum(len(s.shares) for s in hand.steps)),
        len(node._produced), node._complaint,
    )


def proof_for(session: TableSession, position: int) -> tuple:
    """(position, card, scalar) opening `position`, from what `session` knows."""
    scalar = session.public_scalar.get(position) or session._scalars[position]
    return (position, session.known[position], scalar_bytes(scalar))


def mine(session: TableSession) -> dict[int, int]:
    """card index -> deck position, for the cards this seat holds."""
    return {session.known[p]: p for p, o in session.owner.items() if o == session.seat and p in session.known}


def forced_act(session: TableSession, action: Action, proofs=(), positions=()) -> bytes:
    """Sign an Act the seat's own view would refuse (no local check), as the seat's next message."""
    message = Act(session.hand.number, action_to_wire(action), tuple(proofs), tuple(positions))
    session._produced.add(session._step_key())
    return session._sign(message)


# --- lax views: the cheater's own state without one rule ------------------------------


class LaxCalabresella(CalabresellaState):
    """The cheater's view: its own off-suit plays and a denied called card pass."""

    def _play(self, action: Action) -> None:
        seat = action.seat
        if seat != self.viewer or not self.trick or action.card not in self.hands[seat]:
            return super()._play(action)
        others = [c for c in self.hands[seat] if c != action.card]
        self.hands[seat] = [action.card]
        self.unknown[seat] += len(others)
        try:
            super()._play(action)
        finally:
            self.unknown[seat] -= len(others)
            self.hands[seat] = others + self.hands[seat]

    def _handover(self, action: Action) -> None:
        me = self.viewer
        if action.holder is not None or me is None or me < 0 or self.called not in self.hands[me]:
            return super()._handover(action)
        self.hands[me].remove(self.called)
        self.unknown[me] += 1
        try:
            super()._handover(action)
        finally:
            self.unknown[me] -= 1
            self.hands[me].append(self.called)


class LaxChiamata(ChiamataState):
    """The cheater's view: its own call ignores the two rule."""

    def _two_rule(self, card: Card) -> str | None:
        if self.caller == self.viewer:
            return None
        return super()._two_rule(card)


class LaxSession(TableSession):
    """A seat whose own view lets it break the rules its chooser picks."""

    LAX = {"calabresella": LaxCalabresella, "chiamata": LaxChiamata}

    def _build_view(self) -> None:
        super()._build_view()
        lax = self.LAX.get(self.game.name)
        if lax is not None:
            self.view.__class__ = lax


# --- cheating seats --------------------------------------------------------------------


class WrongShare(TableSession):
    """Sends `victim` a wrong key share for its first card of the deal."""

    victim = 0

    def _make_deal(self) -> Shares:
        step = self.hand.steps[-1]
        by_seat: dict[int, list] = {}
        public = []
        spoiled = False
        for p, audience in zip(step.positions, step.audiences):
            k = mp.key_share(self.secrets, p)
            if step.number == 0 and audience == self.victim and not spoiled:
                k = k * 2 % mp.ORDER
                spoiled = True
                self.spoiled_position = p
            if audience == PUBLIC:
                public.append((p, scalar_bytes(k)))
            elif audience != self.seat:
                by_seat.setdefault(audience, []).append((p, scalar_bytes(k)))
        sealed = []
        for recipient, pairs in sorted(by_seat.items()):
            aad = seal_aad(self.transcript.table_id, self.hand.number, step.number, self.seat, recipient)
            sealed.append((recipient, seal(self._pair_key(recipient), encode([list(x) for x in pairs]), aad)))
        return Shares(self.hand.number, step.number, tuple(sealed), tuple(public))


class WrongPublicShare(TableSession):
    """Publishes a wrong key share for the face-up Briscola card."""

    def _make_deal(self) -> Shares:
        message = super()._make_deal()
        if message.step != 0:
            return message
        public = tuple((p, scalar_bytes(mp.key_share(self.secrets, p) * 3 % mp.ORDER)) for p, _ in message.public)
        return Shares(message.hand, message.step, message.sealed, public)


class Substituter(TableSession):
    """First to shuffle: swaps card `victim` for card `extra` before locking the deck."""

    victim = 0
    extra = 0

    def _make_shuffle(self) -> Shuffle:
        hand = self.hand
        if hand.shuffles:
            return super()._make_shuffle()
        start = [c.index for c in self.game.deck()]
        start[start.index(self.victim)] = self.extra
        deck = mp.shuffle_phase1(mp.start_deck(start), self.secrets)
        return Shuffle(hand.number, 1, tuple(deck))


class Duplicator(TableSession):
    """In its phase-1 shuffle, writes one encrypted card over another."""

    def _make_shuffle(self) -> Shuffle:
        message = super()._make_shuffle()
        if message.phase != 1:
            return message
        deck = list(message.deck)
        deck[1] = deck[0]
        return Shuffle(message.hand, 1, tuple(deck))


class BadReveal(TableSession):
    """Reveals a seed other than the one it committed to."""

    def _make_reveal(self) -> Reveal:
        return Reveal(self.hand.number, _secrets.token_bytes(32))


class BadCoin(TableSession):
    """Reveals a coin value other than the one it committed to."""

    def _make_coin_reveal(self):
        message = super()._make_coin_reveal()
        return type(message)(bytes(32))


class Denier(LaxSession):
    """In a Calabresella Chiamo, says it does not hold the called card even when it does."""

    def _make_handover(self) -> Handover:
        return Handover(self.hand.number, None)


class Stopper(TableSession):
    """An honest seat that stops the hand at its first turn by revealing its seed."""

    def act(self, action: Action) -> list[bytes]:
        self._produced.add(self._step_key())
        return [self._sign(Reveal(self.hand.number, self.secrets.seed))]


# --- tables that record or check -------------------------------------------------------


class RecordingTable(LocalTable):
    """A LocalTable that keeps every signed message the host accepted."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.messages: list[bytes] = []

    def pump(self) -> None:
        while self.queue:
            connection, signed = self.queue.popleft()
            ordered = self.host.submit(signed, connection)
            self.messages.append(signed)
            self.broadcast(ordered.entry)


class SeededSeat(TableSession):
    """An honest seat whose hand secrets come from `seeds` (one per hand), so a test can arrange a deal."""

    seeds: list[bytes] = []

    def _make_commit(self):
        from protocol.identity import x25519_private_from_seed, x25519_public_bytes
        from protocol.messages import Commit
        from protocol.wire import commit_context

        seeds = list(self.seeds)
        self.secrets = mp.SeatSecrets(seeds[self.hand.number]) if self.hand.number < len(seeds) else mp.SeatSecrets.generate()
        self.x25519 = x25519_private_from_seed(self.secrets.x25519_seed)
        context = commit_context(self.transcript.table_id, self.hand.number, self.seat)
        return Commit(self.hand.number, self.secrets.commitment(context), x25519_public_bytes(self.x25519))


def deal_order(game, seeds: list[bytes]) -> list[int]:
    """Card index at each final deck position when seat s shuffles with seeds[s] (no curve operations)."""
    cards = [c.index for c in game.deck()]
    for seed in seeds:
        perm = mp.SeatSecrets(seed).permutation(len(cards))
        cards = [cards[j] for j in perm]
    return cards


def seat_sessions(players: int, cheaters: dict) -> dict:
    return {s: cls(s, Identity.generate(), f"seat {s}") for s, cls in cheaters.items()}


def off_suit(session):
    """Play off suit while holding the suit led (once), else nothing special."""
    view = session.view
    if not view.trick or getattr(session, "cheated", False):
        return None
    led = view.trick[0].suit
    hand = view.hands[session.seat]
    if any(c.suit == led for c in hand):
        other = next((c for c in hand if c.suit != led), None)
        if other is not None:
            session.cheated = True
            return Action(session.seat, "play", other)
    return None
