"""The hand's deck, position by position: who holds each, which are open, the proofs.

The shuffled deck is a row of encrypted points; no node can read a position
it has not opened. `HandDeck` follows each position from holder to holder as
the game moves its cards (each game says where: see `engine.flow`), keeps
the cards this node has opened and the key that opens each, and checks the
proofs a seat gives when it shows a card. It changes nothing when a check
fails.
"""

from __future__ import annotations

from engine import flow
from engine.actions import Need
from engine.cards import Card
from engine.deal import DealPlan
from engine.game import Game
from engine.state import Action, State

from . import deck as mp
from .errors import CheatDetected, RemoteProtocolError
from .wire import scalar_bytes, scalar_int


class HandDeck:
    """One hand's positions as this node follows them."""

    def __init__(self, plan: DealPlan | None) -> None:
        self.plan = plan
        self.final: list[bytes] = []  # the deck after the last shuffle
        self.owner: dict[int, object] = {}  # position -> holder (a seat, or flow.STOCK/FACEUP/MONTE/TABLE)
        self.known: dict[int, int] = {}  # position -> card index, for what this node has opened
        self.public_scalar: dict[int, int] = {}  # position -> the key that opens it, for public cards
        self.private_scalar: dict[int, int] = {}  # position -> the key this seat combined for its own cards
        self.private_keys: dict[int, list[int]] = {}  # position -> every seat's card key, for this seat's own cards
        self.chained: dict[int, dict[int, bytes]] = {}  # seat -> {position: combined key it proved} (hidden_proofs.py)
        self.faceup_pos: int | None = None
        self.monte_pos: list[int] = []

    # --- the deal ---------------------------------------------------------------

    def deal(self, game: Game | None, final: list[bytes]) -> tuple[list[int], list[int]]:
        """Place every position; the (positions, audiences) the deal opens."""
        assert game is not None and self.plan is not None  # (a hand is dealt at a table open, its plan made)
        self.final = list(final)
        positions, audiences = [], []
        for p, holder, audience in game.deal_audiences(self.plan):
            self.owner[p] = holder
            if holder == flow.FACEUP:
                self.faceup_pos = p
            elif holder == flow.MONTE:
                self.monte_pos.append(p)
            if audience is not None:
                positions.append(p)
                audiences.append(audience)
        return positions, audiences

    def slot_position(self, slot: tuple) -> int:
        """The deck position of an engine slot: ("stock", k), ("faceup",) or ("monte", k)."""
        if slot[0] == flow.STOCK:
            assert self.plan is not None  # (a slot of the stock: the hand was dealt by its plan)
            return self.plan.stock[slot[1]]
        if slot[0] == flow.FACEUP:
            assert self.faceup_pos is not None  # a game with a face-up card deals it
            return self.faceup_pos
        return self.monte_pos[slot[1]]

    def card(self, position: int) -> Card | None:
        return Card.from_index(self.known[position]) if position in self.known else None

    def public_card(self, position: int) -> Card | None:
        """The card at `position` if it is open to everyone."""
        return self.card(position) if position in self.public_scalar else None

    def held_by(self, seat: int) -> dict[int, int]:
        """card index -> position, for the cards `seat` holds that this node has opened."""
        return {self.known[p]: p for p, o in self.owner.items() if o == seat and p in self.known}

    # --- opening -------------------------------------------------------------------

    def open_public(self, positions: list[int], shares: list[dict]) -> bool:
        """Open public positions from every seat's published shares; False
        (nothing changed) if one does not open: some share is wrong."""
        opened = {}
        for p in positions:
            scalar = mp.combine(scalar_int(published[p]) for published in shares)
            try:
                opened[p] = (scalar, mp.open_card(self.final[p], scalar))
            except mp.DeckError:
                return False
        for p, (scalar, card) in opened.items():
            self.public_scalar[p], self.known[p] = scalar, card
        return True

    def open_private(self, position: int, shares: dict[int, int]) -> bool:
        """Open this seat's own card from every seat's share ({seat: share}); False
        if it does not open. The card keys (the shares' inverses) are kept: they
        prove what this seat says of its hidden cards (hidden_proofs.py)."""
        scalar = mp.combine(shares.values())
        try:
            card = mp.open_card(self.final[position], scalar)
        except mp.DeckError:
            return False
        self.private_scalar[position], self.known[position] = scalar, card
        self.private_keys[position] = [mp.inverse(shares[seat]) for seat in sorted(shares)]
        return True

    def forget_private(self) -> None:
        """Keep only public cards (this seat's own cards contradict each other)."""
        self.known = {p: c for p, c in self.known.items() if p in self.public_scalar}
        self.private_keys = {}

    def chain(self, seat: int, keys: dict[int, bytes]) -> None:
        """Record the combined keys `seat` proved for some of its positions."""
        self.chained.setdefault(seat, {}).update(keys)

    def proof(self, position: int) -> tuple:
        """(position, card, key): what shows the card at `position` to anyone."""
        scalar = self.public_scalar.get(position) or self.private_scalar[position]
        return (position, self.known[position], scalar_bytes(scalar))

    # --- checking what a seat shows --------------------------------------------------

    def check_given(self, sender: int, positions: tuple, index: int) -> None:
        """Positions given up face down must be distinct and the sender's."""
        if len(set(positions)) != len(positions) or any(self.owner.get(p) != sender for p in positions):
            raise CheatDetected("discarded deck positions it does not hold", culprit=sender, entry=index)

    def check_proofs(self, sender: int, kind: str, shown: tuple, proofs: tuple, index: int) -> list:
        """Each card `shown`, proved from a position the sender holds; nothing
        changes here. Returns [(position, (key, card))]."""
        if len(proofs) != len(shown):
            raise RemoteProtocolError(f"{kind} needs {len(shown)} card proof(s)", culprit=sender, entry=index)
        if any(card is None for card in shown):
            return []  # the action names no card: the rules refuse it next
        opened = [self.check_proof(sender, proof, index) for proof in proofs]
        if sorted(card for _, card, _ in proofs) != sorted(c.index for c in shown):
            raise CheatDetected(f"its proofs show other cards than its {kind} needs", culprit=sender, entry=index)
        if len({p for p, _, _ in proofs}) != len(proofs):
            raise CheatDetected("one deck position proved twice", culprit=sender, entry=index)
        return opened

    def check_proof(self, sender: int, proof: tuple, index: int) -> tuple[int, tuple[int, int]]:
        position, card, scalar = proof
        if self.owner.get(position) != sender:
            raise CheatDetected(
                f"showed a card from deck position {position}, which it does not hold", culprit=sender, entry=index
            )
        k = scalar_int(scalar)
        if not mp.check_reveal(self.final[position], k, card):
            raise CheatDetected("a card proof does not open to the card claimed", culprit=sender, entry=index)
        if self.known.get(position) not in (None, card):
            raise CheatDetected("a card proof contradicts a card this seat knows", culprit=sender, entry=index)
        return position, (k, card)

    def show(self, opened: list) -> None:
        """Record cards a seat proved: they are public now."""
        for p, (scalar, card) in opened:
            self.public_scalar[p], self.known[p] = scalar, card

    # --- cards moving --------------------------------------------------------------

    def move_chance(self, after: State, need: Need, positions: list[int]) -> None:
        """A chance event moved the cards at `positions` (`after`: the state once applied)."""
        for p, holder in zip(positions, after.chance_holders(need)):
            self.owner[p] = holder
        self.monte_pos = [p for p in self.monte_pos if self.owner[p] == flow.MONTE]

    def move_action(self, before: State, action: Action, given: tuple, proved: list) -> None:
        """An action moved cards (`before`: the state it was applied to;
        `given`: positions given up face down; `proved`: the proofs checked)."""
        moves = before.card_moves(action)
        shown = {card: position for position, (_, card) in proved}
        sources = [self._source(source, given, shown) for source, _ in moves]
        for position, (_, holder) in zip(sources, moves):
            self.owner[position] = holder
            if holder == flow.FACEUP:
                self.faceup_pos = position
            elif holder == flow.MONTE and position not in self.monte_pos:
                self.monte_pos.append(position)
        if any(source[0] == flow.MONTE for source, _ in moves):
            self.monte_pos = [p for p in self.monte_pos if self.owner[p] == flow.MONTE]

    def _source(self, source: tuple, given: tuple, shown: dict[int, int]) -> int:
        if source[0] == "card":
            return shown[source[1]]
        if source[0] == "given":
            return given[source[1]]
        if source[0] == flow.FACEUP:
            assert self.faceup_pos is not None  # a game with a face-up card deals it
            return self.faceup_pos
        return self.monte_pos[source[1]]

    def move_handover(self, position: int, holder: object) -> None:
        self.owner[position] = holder
