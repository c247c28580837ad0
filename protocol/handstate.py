"""What a node holds of the hand it is in, in one object.

A `TableSession` starts each hand with a fresh `HandState` (`lifecycle.start_hand`),
so nothing of one hand leaks into the next. When a hand's audit is done the
seat's secrets, pair keys and complaint go (`end`); the record, the view and
the cards stay, for the UI, until the next hand is dealt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.deal import DealPlan
from engine.state import State

from .claims import Claims
from .messages import Handover
from .positions import HandDeck
from .records import HandRecord
from .seat_secrets import SeatSecrets


@dataclass
class HandState:
    """One hand as this node follows it (all None and empty between tables' hands)."""

    record: HandRecord | None = None
    """Every message of the hand the audit reads (None before the first hand)."""
    plan: DealPlan | None = None
    """Where the deal puts each deck position."""
    view: State | None = None
    """The hand as this node may see it; None until the deal is open."""
    cards: HandDeck = field(init=False)
    """The deck's positions as this node follows them."""
    claims: Claims = field(default_factory=Claims)
    """What seats claimed of their hidden cards, checked as the cards are shown."""
    handovers: dict[int, tuple[Handover, int]] = field(default_factory=dict)
    """The answers to a Calabresella handover so far, by seat (with their entries)."""
    secrets: SeatSecrets | None = None
    """This seat's secrets for the hand, once it committed."""
    pair_keys: dict[int, bytes] = field(default_factory=dict)
    """The key this seat shares with each other seat for the hand (derived once)."""
    complaint: str | None = None
    """Why this seat stops the hand with an early reveal, or None."""
    sealed_fault: tuple[int, int] | None = None
    """(step, sender) of the first wrong sealed blob to this seat."""

    def __post_init__(self) -> None:
        self.cards = HandDeck(self.plan)

    def end(self) -> None:
        """The hand is audited: what this seat held for it goes, its secrets and its complaint."""
        self.secrets = None
        self.pair_keys = {}
        self.complaint = None
        self.sealed_fault = None
