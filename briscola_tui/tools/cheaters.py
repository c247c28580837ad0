"""Cheating seats and cheating hosts, for `briscola selfplay --cheat` and the tests.

Each cheat is what a hostile player (or host) could really send: a
`TableSession` subclass that overrides what it builds or signs, or a
`LocalTable` subclass for the host's cheats. Where the cheat breaks a rule
the seat's *own* view would refuse (not following suit, hiding the called
card, the two rule), the cheater gets a "lax" view: the same engine state
with that one check switched off for its own moves, so it can go on
playing the hand as a real cheater would. Every other seat, the host and
the spectators are honest, unmodified sessions.

A cheater cheats once, at its first chance (`cheated` is then set), and
plays honestly otherwise.
"""

from __future__ import annotations

import random
import secrets as _secrets
from dataclasses import dataclass, replace

from engine.cards import Card
from engine.deal import Deal
from engine.games.calabresella import CalabresellaState
from engine.games.chiamata import ChiamataState
from engine.state import PUBLIC, Action, State
from protocol import deck as mp
from protocol.codec import encode
from protocol.events import Update
from protocol.identity import Identity, seal
from protocol.local import LocalTable
from protocol.messages import Act, Commit, Handover, Join, Reveal, Shares, Shuffle
from protocol.session import TableSession
from protocol.transcript import VERSION, Entry, Header, Signed, make_payload
from protocol.wire import action_to_wire, scalar_bytes, seal_aad

# --- lax views: the cheater's own state without one rule ------------------------------


class LaxCalabresella(CalabresellaState):
    """The cheater's view: its own off-suit plays and a denied called card pass."""

    def follow_suit_rule(self, seat: int, card: Card) -> str | None:
        if seat == self.viewer and card in self.hands[seat]:
            return None
        return super().follow_suit_rule(seat, card)

    def handover_rule(self, holder: int | None) -> str | None:
        if holder is None and self._denies_holding():
            return None
        return super().handover_rule(holder)

    def apply(self, action: Action) -> None:
        denial = action.kind == "handover" and action.holder is None and self._denies_holding()
        super().apply(action)
        if denial:
            # The denied card goes last in the cheater's hand, where its
            # earlier view put it: its chooser sees its moves in the same order.
            me = self.viewer
            assert me is not None and self.called is not None
            self.hands[me].remove(self.called)
            self.hands[me].append(self.called)

    def _denies_holding(self) -> bool:
        """True when the cheater itself holds the called card (so its denial is false)."""
        me = self.viewer
        return me is not None and me >= 0 and self.called in self.hands[me]


class LaxChiamata(ChiamataState):
    """The cheater's view: its own call ignores the two rule."""

    def two_rule(self, card: Card) -> str | None:
        if self.caller == self.viewer:
            return None
        return super().two_rule(card)


LAX_VIEWS = {"calabresella": LaxCalabresella, "chiamata": LaxChiamata}


class Cheater(TableSession):
    """A seat that cheats once; `cheated` says whether it has had its chance."""

    cheated = False


class LaxSession(Cheater):
    """A seat whose own view lets it break the rules its chooser picks."""

    def make_view(self, deal: Deal, viewer: int) -> State:
        view = super().make_view(deal, viewer)
        lax = LAX_VIEWS.get(self.game.name)
        if lax is not None:
            view.__class__ = lax
        return view


# --- helpers a cheater uses --------------------------------------------------------------


def held(session: TableSession) -> dict[int, int]:
    """card index -> deck position, for the cards this seat holds and knows."""
    return session.cards.held_by(session.seat)


def proof_for(session: TableSession, position: int) -> tuple:
    """(position, card, scalar) opening `position`, from what `session` knows."""
    return session.cards.proof(position)


def forced_act(session: TableSession, action: Action, proofs=(), positions=()) -> bytes:
    """Sign an Act the seat's own view would refuse (no local check), as the seat's next message."""
    message = Act(session.hand.number, action_to_wire(action), tuple(proofs), tuple(positions))
    return session.sign_step(message)


def off_suit(cheater: Cheater):
    """A rule for `cheater`'s player: play off suit once while holding the suit led."""

    def rule(view) -> Action | None:
        if not view.trick or cheater.cheated or view.phase != "play":
            return None
        led = view.trick[0].suit
        if any(c.suit == led for c in view.hand):
            other = next((c for c in view.hand if c.suit != led), None)
            if other is not None:
                cheater.cheated = True
                return Action(view.seat, "play", other)
        return None

    return rule


# --- cheats at once: refused with the message kept as evidence -------------------------


class PlayUnheld(Cheater):
    """Plays a card from a deck position it does not hold (with a made-up proof)."""

    def act(self, action: Action) -> Update:
        if self.cheated or action.kind != "play":
            return super().act(action)
        self.cheated = True
        position = next(p for p, o in sorted(self.cards.owner.items()) if o != self.seat)
        claimed = next(c for c in range(40) if c not in held(self))
        return Update(
            [
                forced_act(
                    self,
                    Action(self.seat, "play", Card.from_index(claimed)),
                    [(position, claimed, scalar_bytes(12345))],
                )
            ]
        )


class WrongProof(Cheater):
    """Plays one card and proves another one it holds (a true proof of the wrong card)."""

    def act(self, action: Action) -> Update:
        mine = held(self)
        if self.cheated or action.kind != "play" or len(mine) < 2:
            return super().act(action)
        self.cheated = True
        other = next(p for c, p in mine.items() if c != action.card.index)
        return Update([forced_act(self, action, [proof_for(self, other)])])


class ShuffleSpoiler(Cheater):
    """Publishes its deck of `spoiled_phase` after `spoil` has changed it (once), with the
    proof it made for the deck before (see `_spoiled`)."""

    spoiled_phase = 1

    def spoil(self, deck: list[bytes]) -> None:  # pragma: no cover - each cheat has its own
        raise NotImplementedError

    def make_shuffle(self) -> Shuffle:
        message = super().make_shuffle()
        if message.phase != self.spoiled_phase or self.cheated:
            return message
        self.cheated = True
        deck = list(message.deck)
        self.spoil(deck)
        return self._spoiled(message, deck)

    def _spoiled(self, message: Shuffle, deck: list[bytes]) -> Shuffle:
        return Shuffle(message.hand, message.phase, tuple(deck), message.proof)


class Duplicator(ShuffleSpoiler):
    """In its phase-1 shuffle, writes one encrypted card over another."""

    def spoil(self, deck: list[bytes]) -> None:
        deck[1] = deck[0]


class GarbageShuffle(ShuffleSpoiler):
    """Publishes a phase-1 deck with a value that is no curve point."""

    def spoil(self, deck: list[bytes]) -> None:
        deck[0] = b"\x02" + b"\xff" * 32  # x above the field prime: no point has it


class BadKey(Cheater):
    """Commits with an X25519 key nobody can agree a sealing key with (all zero)."""

    def make_commit(self) -> Commit:
        message = super().make_commit()
        if self.cheated:
            return message
        self.cheated = True
        return replace(message, x25519=bytes(32))


class Substituter(Cheater):
    """First to shuffle: swaps card `victim` for card `extra` (one the game leaves
    out), and proves its step as best it can (the honest prover on a false
    statement: the proof fails)."""

    victim = Card("A", "D").index
    extra: int | None = None

    def make_shuffle(self) -> Shuffle:
        hand = self.hand
        if hand.shuffles or self.cheated:
            return super().make_shuffle()
        self.cheated = True
        start = [c.index for c in self.game.deck()]
        extra = self.extra if self.extra is not None else next(c for c in range(40) if c not in start)
        start[start.index(self.victim)] = extra
        return self.prove_shuffle(1, self.shuffle_input(), mp.shuffle_phase1(mp.start_deck(start), self.secrets))


class TagCard(Cheater):
    """First to shuffle: hides a point of its own making in place of a card, to
    follow it (proved as best it can: the proof fails)."""

    def make_shuffle(self) -> Shuffle:
        hand = self.hand
        if hand.shuffles or self.cheated:
            return super().make_shuffle()
        self.cheated = True
        start = mp.start_deck([c.index for c in self.game.deck()])
        start[0] = mp.mul(start[0], 7)  # a valid point, but no card: only its maker can tell it
        return self.prove_shuffle(1, self.shuffle_input(), mp.shuffle_phase1(start, self.secrets))


class PositionSwapper(ShuffleSpoiler):
    """Swaps two positions in its phase-2 deck (phase 2 must not move a card),
    proving each position as best it can."""

    spoiled_phase = 2

    def spoil(self, deck: list[bytes]) -> None:
        deck[0], deck[1] = deck[1], deck[0]

    def _spoiled(self, message: Shuffle, deck: list[bytes]) -> Shuffle:
        return self.prove_shuffle(2, self.shuffle_input(), deck)


class WrongPublicShare(Cheater):
    """Publishes a wrong key share for the face-up Briscola card."""

    def make_deal(self) -> Shares:
        message = super().make_deal()
        if message.step != 0 or self.cheated or not message.public:
            return message
        self.cheated = True
        public = tuple((p, scalar_bytes(mp.key_share(self.secrets, p) * 3 % mp.ORDER)) for p, _ in message.public)
        return Shares(message.hand, message.step, message.sealed, public)


# --- cheats named at the audit -------------------------------------------------------------


class WrongShare(Cheater):
    """Sends `victim` (the next seat by default) a wrong key share in the deal."""

    victim: int | None = None

    def make_deal(self) -> Shares:
        step = self.hand.steps[-1]
        victim = self.victim if self.victim is not None else (self.seat + 1) % self.players
        if self.cheated or step.number != 0 or victim not in step.audiences:
            return super().make_deal()
        self.cheated = True
        by_seat: dict[int, list] = {}
        public = []
        spoiled = False
        for p, audience in zip(step.positions, step.audiences):
            k = mp.key_share(self.secrets, p)
            if audience == victim and not spoiled:
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
            sealed.append((recipient, seal(self.pair_key(recipient), encode([list(x) for x in pairs]), aad)))
        return Shares(self.hand.number, step.number, tuple(sealed), tuple(public))


class BadReveal(Cheater):
    """Reveals a seed other than the one it committed to."""

    def make_reveal(self) -> Reveal | None:
        message = super().make_reveal()
        if message is None or self.cheated:
            return message
        self.cheated = True
        return Reveal(message.hand, _secrets.token_bytes(32))


class BadCoin(Cheater):
    """Reveals a coin value other than the one it committed to."""

    def make_coin_reveal(self):
        self.cheated = True
        return type(super().make_coin_reveal())(bytes(32))


class Denier(LaxSession):
    """In a Calabresella Chiamo, says it does not hold the called card even when it does."""

    def make_handover(self) -> Handover:
        message = super().make_handover()
        if message.proof is not None:
            self.cheated = True
        return Handover(self.hand.number, None)


class Reneger(LaxSession):
    """Fails to follow suit once while holding the suit led (its chooser is wrapped)."""


class TwoRuleCaller(LaxSession):
    """Chiamata: bids 2 and calls a low trump without holding the 2 of that suit."""


def two_rule_call(hand) -> Card | None:
    """The lowest card of a suit whose 2 `hand` lacks, and which it does not hold."""
    for suit in "DHSC":
        if Card("2", suit) not in hand:
            return next(Card(r, suit) for r in "4567" if Card(r, suit) not in hand)
    return None  # pragma: no cover - a 8-card hand holds at most four 2s


class Stopper(Cheater):
    """Stops the hand at its first turn by revealing its seed, without cause."""

    def act(self, action: Action) -> Update:
        self.cheated = True
        return Update([self.sign_step(Reveal(self.hand.number, self.secrets.seed))])


# --- withholding, replaying, forging -----------------------------------------------------


class Withholder(Cheater):
    """Never sends its reveal at the end of a hand (the host times it out)."""

    def make_reveal(self) -> Reveal | None:
        if self.phase == "reveal" and not self.hand.findings and self.complaint is None:
            self.cheated = True
            return None
        return super().make_reveal()


class Replayer(Cheater):
    """Sends one of its own messages again, already in the transcript, before its move."""

    def act(self, action: Action) -> Update:
        out = super().act(action)
        if self.cheated:
            return out
        self.cheated = True
        earlier = next(e.message for e in self.transcript.entries[1:] if _sender(e.message) == self.seat)
        return Update([earlier, *out.messages], out.events)


class Forger(Cheater):
    """Sends a message in another seat's name (signed with its own key)."""

    def act(self, action: Action) -> Update:
        out = super().act(action)
        if self.cheated:
            return out
        self.cheated = True
        victim = (self.seat + 1) % self.players
        header = Header(
            VERSION, self.transcript.table_id, "reveal", victim, self.transcript.next_seq(victim), self.transcript.head
        )
        body = [self.hand.number, _secrets.token_bytes(32)]
        return Update([Signed.sign(self.identity, make_payload(header, body)).encode(), *out.messages], out.events)


def _sender(signed: bytes) -> int:
    from protocol.transcript import parse_header

    return parse_header(Signed.decode(signed).payload)[0].sender


# --- cheating hosts ------------------------------------------------------------------------


class ForkingTable(LocalTable):
    """A host that shows seat 0 the first hand's commits in one order and every other node in another."""

    cheated = False

    def _order_or_fork(self, connection, signed: bytes) -> None:
        host = self.host.session
        if self.cheated or host.phase != "commit" or len(self.queue) + 1 < host.players:
            return super().order(connection, signed)
        self.cheated = True
        commits = [signed, *(m for _, m in self.queue)]
        self.queue.clear()
        for node, order in ((self.seats[0], commits), *((n, commits[::-1]) for n in self.nodes[1:])):
            for message in order:
                entry = Entry(len(node.transcript.entries), node.transcript.head, message)
                self.deliver(node, entry.signed_by(self.host.identity, self.host.table_id).encode())
        for message in commits[::-1]:  # the host's own log follows the majority
            entry = self.host.judge(message)
            self.entries.append(entry)
            if self.on_entry is not None:
                self.on_entry(entry)
        self.forked = self.seats[0]

    def deliver(self, node: TableSession, entry: bytes) -> None:
        if not self.cheated or node is not getattr(self, "forked", None):
            return super().deliver(node, entry)
        # Seat 0 lives in its own history: the host would have to keep it there.
        for failed, _ in self.failures:
            if failed is node:
                return
        try:
            node.receive(entry)
        except Exception as error:  # noqa: BLE001 - recorded like any refusal
            self.failures.append((node, error))

    def order(self, connection, signed: bytes) -> None:
        if getattr(self, "forked", None) is not None and connection == 0:
            # The host relays seat 0's next message to the others, to keep the fork going:
            # it echoes a head they never saw, and they name the host.
            for node in self.nodes[1:]:
                entry = Entry(len(node.transcript.entries), node.transcript.head, signed)
                super().deliver(node, entry.signed_by(self.host.identity, self.host.table_id).encode())
            return
        return self._order_or_fork(connection, signed)


class HijackTable(LocalTable):
    """A host that seats a puppet key in seat `victim` before its player's join arrives."""

    victim = 1
    cheated = False

    def start(self) -> None:
        self.broadcast(self.host.open())
        puppet = TableSession(self.victim, Identity.generate(), "puppet")
        puppet.transcript, puppet.keys = self.host.transcript, dict(self.host.session.keys)
        self.cheated = True
        self.broadcast(self.host.submit(puppet.sign(Join(puppet.identity.public_bytes, "puppet"))).entry)
        for seat in self.seats:
            self.send(seat.seat, seat.start().messages)
        self.pump()


# --- the catalogue -------------------------------------------------------------------------


@dataclass(frozen=True)
class Cheat:
    """One kind of cheat: who commits it, where it can happen, how it is caught."""

    session: type | None  # the cheating seat's class (None: the host cheats)
    table: type = LocalTable
    games: tuple[str, ...] = ("briscola", "chiamata", "calabresella")
    seat: int | None = None  # a seat the cheat needs (the first to shuffle)
    short_deck: bool = False  # needs a game that leaves some cards out
    transcript_names: bool = True  # does `briscola verify` of the transcript name the culprit?
    what: str = ""


CHEATS: dict[str, Cheat] = {
    "play-unheld": Cheat(PlayUnheld, what="plays a card from a deck position it does not hold"),
    "duplicate": Cheat(Duplicator, what="copies one encrypted card over another in its shuffle"),
    "substitute": Cheat(
        Substituter,
        seat=0,
        games=("briscola",),
        short_deck=True,
        what="swaps a card of the game for one the game leaves out",
    ),
    "garbage-shuffle": Cheat(GarbageShuffle, what="publishes a shuffled deck holding a value that is no card point"),
    "bad-key": Cheat(BadKey, what="commits with an unusable X25519 key"),
    "wrong-share": Cheat(WrongShare, what="sends another seat a wrong key share"),
    "wrong-public-share": Cheat(
        WrongPublicShare, games=("briscola",), what="publishes a wrong key share for the face-up card"
    ),
    "swap-positions": Cheat(PositionSwapper, what="swaps two positions of the deck in its phase-2 step"),
    "bad-reveal": Cheat(BadReveal, what="reveals a seed other than the one it committed to"),
    "renege": Cheat(Reneger, games=("calabresella",), what="does not follow suit while holding the suit led"),
    "false-denial": Cheat(Denier, games=("calabresella",), what="denies holding the called card in a Chiamo"),
    "two-rule": Cheat(TwoRuleCaller, games=("chiamata",), what="bids 2 and calls a low trump without holding the 2"),
    "wrong-proof": Cheat(WrongProof, what="plays one card and proves another"),
    "tag-card": Cheat(TagCard, seat=0, what="hides a marked point in place of a card, to follow it"),
    "withhold-reveal": Cheat(Withholder, what="never sends its reveal after the hand"),
    "replay": Cheat(Replayer, transcript_names=False, what="sends one of its old messages again"),
    "forge": Cheat(Forger, transcript_names=False, what="sends a message in another seat's name"),
    "host-fork": Cheat(None, ForkingTable, transcript_names=False, what="shows two seats different histories"),
    "seat-hijack": Cheat(None, HijackTable, transcript_names=False, what="seats a puppet key in a player's seat"),
}


def cheat_chooser(kind: str, cheater: Cheater, fallback):
    """The player a cheating seat plays with: its cheat where the player picks it."""
    if kind == "false-denial":
        return lambda view, rng: next((a for a in view.legal if a.kind == "pass"), None) or fallback(view, rng)
    if kind == "renege":
        rule = off_suit(cheater)
        return lambda view, rng: rule(view) or fallback(view, rng)
    if kind == "two-rule":

        def choose(view, rng):
            if view.phase == "auction" and not cheater.cheated:
                # The 2, or after another seat's 2 the lowest "2 with a target".
                twos = [a for a in view.legal if a.kind == "bid" and a.rank == "2"]
                if twos:
                    return min(twos, key=lambda a: a.target or 0)
            if view.phase == "call" and not cheater.cheated:
                card = two_rule_call(view.hand)
                if card is not None:
                    cheater.cheated = True
                    return Action(view.seat, "call", card)
            return fallback(view, rng)

        return choose
    return fallback


def honest_chooser(kind: str, seed: int):
    """How the honest computer players play beside a cheat: they pass most
    auctions (so a cheater's bid can win), except beside a false denial,
    where they bid a Chiamo and call a card at random (so the cheater, a
    defender, may be asked for one it holds)."""
    if kind != "false-denial":
        return shy_chooser(seed)
    rng = random.Random(seed)

    def choose(view, _rng):
        if view.phase == "auction":
            chiamo = [a for a in view.legal if a.kind == "bid" and a.contract == "chiamo"]
            return chiamo[0] if chiamo else next(a for a in view.legal if a.kind == "pass")
        return rng.choice(view.legal)

    return choose


def shy_chooser(seed: int):
    """A random player that passes most auctions (so a cheater's bid can win)."""
    rng = random.Random(seed)

    def choose(view, _rng):
        passes = [a for a in view.legal if a.kind == "pass"]
        if passes and rng.random() < 0.9:
            return passes[0]
        return rng.choice(view.legal)

    return choose
