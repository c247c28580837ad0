"""The plain data a hand is made of: actions, what a chance node needs, tricks,
refusals and outcomes, and the constants that name turns and viewers.

engine/state.py holds the state that applies them (and names them all again,
for the many modules that import them from there).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Literal

from .cards import ALL_CARDS, Card
from .facts import NO_RESULT, Result

CHANCE = -1
"""`current_player()` while the state waits for cards to be dealt or shown."""
TERMINAL = -2
"""`current_player()` once the hand is over."""
PUBLIC = -3
"""Audience of a card every seat (and every spectator) sees; as a viewer, a spectator."""

Phase = Literal[
    "play", "draw", "auction", "call", "handover", "monte", "return", "discard", "raise", "dividete", "take", "done"
]
"""A hand's phase (`State.phase`): each game uses some of these (`PHASE_KINDS`), and "done" once it is over."""

NeedKind = Literal["draw", "handover", "monte", "dividete"]
"""The chance events (`Need.kind`): what a chance node waits for."""

ActionKind = Literal[
    "play", "exchange", "declare", "bid", "pass", "call", "return", "discard", "raise", "take", NeedKind
]
"""Every kind of action: a seat's decisions, and the chance events (`seat == CHANCE`)."""

VIEWERS = """Whose knowledge a state (or a redacted deal) holds, `viewer`:
None, the full state (every card known: the audit, a replay); PUBLIC, a
spectator (only what is shown to all); a seat number, that seat (its own
cards too)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse an action, as data: the rule broken (`rule`, a short name) and
    the seat, cards, suit and rank it names, for a reader to put in its own words; `text`
    is the engine's (the message of the `IllegalAction`, as logs and the audit quote it).

    Rules: `follow_suit` (seat holds a card of `suit`, led), `hand_over` (seat holds the
    called `card` and must hand it over), `defenders_hand_over` (seat is no defender),
    `call_rank` (`card` is not of the bid `rank`; `at_least`: or higher), `two_rule_two`
    (`card` needs the caller to hold `cards[0]`, the 2), `two_rule_held` (the caller holds
    `card`), `two_rule_lowest` (a lower trump than `card` is not held); `rule`: any other."""

    rule: str
    text: str
    seat: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    suit: str | None = None
    rank: str | None = None
    at_least: bool = False
    kind: str | None = None
    """The kind of action refused (`not_now`: a kind this part of the hand does not take)."""


class IllegalAction(ValueError):
    """An action the rules forbid. The message names the rule it breaks; `refusal`, when
    the rule gives one, says it as data."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal

    @classmethod
    def of(cls, refusal: Refusal) -> IllegalAction:
        return cls(refusal.text, refusal)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a seat, or one chance event (`seat == CHANCE`).

    Only the fields a kind uses are set (see `docs/rules.md` for the list):
    `card` for play/call/return, `cards` for discard/take and chance events,
    `rank`/`target`/`contract` for bids, `choice` for the Solissimo raise,
    `holder` for the Calabresella handover chance event.
    """

    seat: int
    kind: ActionKind
    card: Card | None = None
    cards: tuple[Card | None, ...] = ()
    rank: str | None = None
    target: int | None = None
    contract: str | None = None
    choice: str | None = None
    holder: int | None = None

    def __init__(
        self,
        seat: int,
        kind: ActionKind,
        card: Card | None = None,
        cards: tuple[Card | None, ...] = (),
        rank: str | None = None,
        target: int | None = None,
        contract: str | None = None,
        choice: str | None = None,
        holder: int | None = None,
    ) -> None:
        # The generated frozen __init__ goes through object.__setattr__ per field;
        # setting the slots directly is the same, at half the cost (actions are
        # built in every playout).
        _ACTION_SET[0](self, seat)
        _ACTION_SET[1](self, kind)
        _ACTION_SET[2](self, card)
        _ACTION_SET[3](self, cards)
        _ACTION_SET[4](self, rank)
        _ACTION_SET[5](self, target)
        _ACTION_SET[6](self, contract)
        _ACTION_SET[7](self, choice)
        _ACTION_SET[8](self, holder)

    def __str__(self) -> str:
        parts = [f"seat {self.seat}" if self.seat >= 0 else "chance", self.kind]
        if self.card is not None:
            parts.append(str(self.card))
        if self.cards:
            parts.append(" ".join("??" if c is None else str(c) for c in self.cards))
        for name in ("rank", "target", "contract", "choice", "holder"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        return " ".join(parts)


_ACTION_SET = tuple(getattr(Action, f.name).__set__ for f in fields(Action))
"""The setters of `Action`'s slots, in field order (its `__init__`)."""


@dataclass(frozen=True, slots=True)
class Need:
    """What a chance node waits for: `kind`, and who may see each card.

    `audiences[i]` is the seat that privately receives the i-th card of the
    chance action, or `PUBLIC`. `slots` says where the cards come from:
    ("stock", k), ("faceup",), ("monte", k) or ("hand", seat).
    """

    kind: NeedKind
    audiences: tuple[int, ...] = ()
    slots: tuple = ()
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def __init__(self, leader: int, cards: tuple[Card, ...], winner: int, points: int) -> None:
        _TRICK_SET[0](self, leader)  # as Action: the slots set directly
        _TRICK_SET[1](self, cards)
        _TRICK_SET[2](self, winner)
        _TRICK_SET[3](self, points)


_TRICK_SET = tuple(getattr(Trick, f.name).__set__ for f in fields(Trick))


@dataclass(frozen=True, slots=True)
class Claim:
    """What a decision says about its sender's hidden cards, by a rule of its game
    (`State.hidden_claim`): `about` names the rule ("void": a play off the suit led;
    "two rule": a Chiamata call), `lacks` the cards the sender holds none of, `holds`
    the cards it holds."""

    about: str
    lacks: tuple[Card, ...] = ()
    holds: tuple[Card, ...] = ()


@dataclass
class Outcome:
    """The result of a hand, as the replay format reports it."""

    complete: bool
    tricks: list[Trick]
    points: list[int]
    result: Result = NO_RESULT  # the game's own type (engine/facts.py; engine/games/*_facts.py)
    score: list[int] | None = None


MAX_SEATS = 6
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, "play", card) for card in ALL_CARDS) for seat in range(MAX_SEATS)
)
"""`PLAYS[seat][card.index]`: every play action, built once (legal_actions is hot)."""


def play_action(seat: int, card: Card) -> Action:
    """The (shared, immutable) action of `seat` playing `card`."""
    return PLAYS[seat][card.index]


def play_actions(seat: int, cards: Iterable[Card]) -> list[Action]:
    """The (shared, immutable) actions of `seat` playing each of `cards`."""
    row = PLAYS[seat]
    return [row[c.index] for c in cards]
