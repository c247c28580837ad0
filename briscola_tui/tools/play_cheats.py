"""Cheating seats at play: decisions the rules forbid, messages replayed or
forged.

Where the cheat breaks a rule the seat's *own* view would refuse (not
following suit, hiding the called card, the two rule), the cheater gets a
"lax" view (`LaxSession`): the same engine state with that one rule check
(`follow_suit_rule`, `handover_rule`, `two_rule`) relaxed for its own
moves, so it can go on playing the hand as a real cheater would; its
chooser picks the cheat (cheaters.py, `cheat_chooser`). The others sign
what the seat's own checks would refuse, or send again or in another's
name. The catalogue is in cheaters.py.
"""

from __future__ import annotations

import secrets as _secrets
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace

from engine.cards import Card
from engine.deal import Deal
from engine.games.calabresella import CalabresellaState
from engine.games.chiamata import ChiamataState
from engine.state import Action, Refusal, State
from engine.view import SeatView
from protocol import statements
from protocol.events import Update
from protocol.messages import Act, Handover, Reveal
from protocol.session import TableSession
from protocol.statements import Statement
from protocol.transcript import VERSION, Header, Signed, make_payload
from protocol.wire import action_to_wire, scalar_bytes

from .deck_cheats import Cheater

# --- lax views: the cheater's own state without one rule ------------------------------


class LaxCalabresella(CalabresellaState):
    """The cheater's view: its own off-suit plays and a denied called card pass."""

    def follow_suit_rule(self, seat: int, card: Card) -> Refusal | None:
        if seat == self.viewer and card in self.hands[seat]:
            return None
        return super().follow_suit_rule(seat, card)

    def handover_rule(self, holder: int | None) -> Refusal | None:
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

    def two_rule(self, card: Card) -> Refusal | None:
        if self.caller == self.viewer:
            return None
        return super().two_rule(card)


LAX_VIEWS = {"calabresella": LaxCalabresella, "chiamata": LaxChiamata}


class LaxSession(Cheater):
    """A seat whose own view lets it break the rules its chooser picks.

    What its cheat says of its hidden cards is false, and no proof of it
    exists: it sends the proof of the nearest true statement instead (the
    cards it holds left out of those it says it lacks, a card it holds in
    place of one it says it holds), well formed, for the others to refuse."""

    def make_view(self, deal: Deal, viewer: int) -> State:
        view = super().make_view(deal, viewer)
        assert self.game is not None  # (a hand's view)
        lax = LAX_VIEWS.get(self.game.name)
        if lax is not None:
            view.__class__ = lax
        return view

    def make_claim(self, statement: Statement, kind: str, decision: list) -> tuple:
        mine = set(held(self))
        if not (mine & set(statement.lacks) or set(statement.holds) - mine):
            return super().make_claim(statement, kind, decision)
        self.cheated = True
        lacks = tuple(c for c in statement.lacks if c not in mine)
        if not lacks:  # e.g. a false denial: the proof that it lacks some other card
            public = {self.cards.known[p] for p in self.cards.public_scalar}
            lacks = (next(c for c in range(40) if c not in mine and c not in public),)
        holds = tuple(c if c in mine else min(mine) for c in statement.holds)
        nearest = replace(statement, lacks=lacks, holds=holds)
        return super().make_claim(nearest, kind, decision)


# --- helpers a cheater uses -----------------------------------------------------------


def held(session: TableSession) -> dict[int, int]:
    """card index -> deck position, for the cards this seat holds and knows."""
    assert session.seat is not None  # (a cheater holds a seat)
    return session.cards.held_by(session.seat)


def proof_for(session: TableSession, position: int) -> tuple:
    """(position, card, scalar) opening `position`, from what `session` knows."""
    return session.cards.proof(position)


def forced_act(
    session: TableSession, action: Action, proofs: Iterable[tuple] = (), positions: Iterable[int] = ()
) -> bytes:
    """Sign an Act the seat's own view would refuse (no local check), as the seat's next message."""
    assert session.hand is not None  # (an act is a hand's)
    message = Act(session.hand.number, action_to_wire(action), tuple(proofs), tuple(positions))
    return session.sign_step(message)


def off_suit(cheater: Cheater) -> Callable[[SeatView], Action | None]:
    """A rule for `cheater`'s player: play off suit once while holding the suit led."""

    def rule(view: SeatView) -> Action | None:
        if view.seat is None or not view.trick or cheater.cheated or view.phase != "play":
            return None
        led = view.trick[0].suit
        if any(c.suit == led for c in view.hand):
            other = next((c for c in view.hand if c.suit != led), None)
            if other is not None:
                cheater.cheated = True
                return Action(view.seat, "play", other)
        return None

    return rule


def two_rule_call(hand: Collection[Card]) -> Card | None:
    """The lowest card of a suit whose 2 `hand` lacks, and which it does not hold."""
    for suit in "DHSC":
        if Card("2", suit) not in hand:
            return next(Card(r, suit) for r in "4567" if Card(r, suit) not in hand)
    return None  # pragma: no cover - a 8-card hand holds at most four 2s


# --- decisions the rules forbid -------------------------------------------------------


class PlayUnheld(Cheater):
    """Plays a card from a deck position it does not hold (with a made-up proof)."""

    def act(self, action: Action) -> Update:
        if self.cheated or action.kind != "play":
            return super().act(action)
        self.cheated = True
        assert self.seat is not None  # (a cheater holds a seat)
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
        assert action.card is not None  # (a play names its card)
        other = next(p for c, p in mine.items() if c != action.card.index)
        return Update([forced_act(self, action, [proof_for(self, other)])])


class Denier(LaxSession):
    """In a Calabresella Chiamo, says it does not hold the called card even when it does."""

    def make_handover(self) -> Handover:
        message = super().make_handover()
        if message.proof is None:
            return message
        called = Card.from_index(message.proof[1])
        assert self.seat is not None and self.hand is not None  # (a seat's handover in a hand)
        denial = statements.of_denial(self.seat, called, self.cards)
        return Handover(self.hand.number, None, self.make_claim(denial, "handover", [called.index]))


class Reneger(LaxSession):
    """Fails to follow suit once while holding the suit led (its chooser is wrapped)."""


class TwoRuleCaller(LaxSession):
    """Chiamata: bids 2 and calls a low trump without holding the 2 of that suit."""


class Stopper(Cheater):
    """Stops the hand at its first turn by revealing its seed, without cause."""

    def act(self, action: Action) -> Update:
        self.cheated = True
        assert self.hand is not None and self.secrets is not None  # (an act is a hand's)
        return Update([self.sign_step(Reveal(self.hand.number, self.secrets.seed))])


# --- replaying, forging ---------------------------------------------------------------


class Replayer(Cheater):
    """Sends one of its own messages again, already in the transcript, before its move."""

    def act(self, action: Action) -> Update:
        out = super().act(action)
        if self.cheated:
            return out
        self.cheated = True
        assert self.transcript is not None  # (it acts at a table)
        earlier = next(e.message for e in self.transcript.entries[1:] if _sender(e.message) == self.seat)
        return Update([earlier, *out.messages], out.events)


class Forger(Cheater):
    """Sends a message in another seat's name (signed with its own key)."""

    def act(self, action: Action) -> Update:
        out = super().act(action)
        if self.cheated:
            return out
        self.cheated = True
        seat, transcript, hand, identity = self.seat, self.transcript, self.hand, self.identity
        assert seat is not None and transcript is not None and hand is not None and identity is not None  # (an act)
        victim = (seat + 1) % self.players
        header = Header(VERSION, transcript.table_id, "reveal", victim, transcript.next_seq(victim), transcript.head)
        body = [hand.number, _secrets.token_bytes(32)]
        return Update([Signed.sign(identity, make_payload(header, body)).encode(), *out.messages], out.events)


def _sender(signed: bytes) -> int:
    from protocol.transcript import parse_header

    return parse_header(Signed.decode(signed).payload)[0].sender
