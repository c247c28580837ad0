"""What happened, in terms a player understands: the events a session reports.

`TableSession.receive` and `act` return an `Update`: the messages to send, and the
events the entry caused. An event is data, one frozen type per kind (h11's style), and
`Event` is their union: `briscola_tui.render` writes each as the one line a headless
client prints, and a UI dispatches on the class (`match`), never on a string. Events
tell only what this node may know: a seat hears which cards it was dealt, a spectator
only how many.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.actions import Need
from engine.cards import Card
from engine.facts import Role
from engine.state import Action, State
from engine.view import hand_fields, roles_of

from .audit import Culprit, Verdict

Arrival = Literal["joins", "back", "takes"]
"""How a seat arrives: its first join, its own key back, a new key taking it."""


@dataclass(frozen=True)
class TableOpened:
    """The table message: the game and how many sit."""

    game: str
    players: int


@dataclass(frozen=True)
class Seated:
    """A seat taken, under the name it joins with."""

    seat: int
    name: str
    arrival: Arrival = "joins"


@dataclass(frozen=True)
class FirstDealer:
    """The coin drawn: the seat that deals the first hand."""

    seat: int


@dataclass(frozen=True)
class HandBegins:
    """A hand begins (`hand` from 0), dealt by `dealer`."""

    dealer: int
    hand: int


@dataclass(frozen=True)
class Dealt:
    """The cards this seat is dealt."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class DealtSizes:
    """The deal as a spectator sees it: how many cards each seat holds."""

    sizes: tuple[int, ...]


@dataclass(frozen=True)
class FaceUp:
    """The face-up card under the stock, and the trump suit it sets."""

    card: Card
    trump: str


@dataclass(frozen=True)
class Acted:
    """A seat's decision (its kind, card or cards, bid, choice); `cards`: the cards this node saw move."""

    action: Action
    cards: tuple[Card, ...] = ()

    @property
    def seat(self) -> int:
        return self.action.seat


@dataclass(frozen=True)
class TrickTaken:
    """A trick taken by `seat`, worth `points` in `unit`s ("point", or "third" in Calabresella)."""

    seat: int
    cards: tuple[Card, ...]
    points: int
    unit: str = "point"


@dataclass(frozen=True)
class RoleShown:
    """A role the table now knows: caller, soloist, partner, alone."""

    seat: int
    role: Role


@dataclass(frozen=True)
class SecretRole:
    """What only this seat knows: it holds the called card (partner), or called its own (alone)."""

    seat: int
    role: Role  # alone, or partner


@dataclass(frozen=True)
class Drawn:
    """Cards drawn from the stock: (seat, card or None if this node may not see it), in order."""

    drawn: tuple[tuple[int, Card | None], ...]


@dataclass(frozen=True)
class MonteShown:
    """The monte turned face up (`cards`: empty where this node may not see them)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class MonteDivided:
    """The monte divided between the defenders (`cards`: those this node saw)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class HandedOver:
    """The called card handed over by `seat` (None: nobody, the caller holds it)."""

    seat: int | None
    card: Card


@dataclass(frozen=True)
class StoppedEarly:
    """A seat stops the hand by an early reveal."""

    seat: int


@dataclass(frozen=True)
class Refused:
    """A seat's message refused, and why (a peer's words: data, shown literally)."""

    seat: int
    reason: str


@dataclass(frozen=True)
class Complained:
    """A true complaint about a sealed share names `seat`."""

    seat: int
    reason: str


@dataclass(frozen=True)
class TimedOut:
    """A seat did not send what it owed (the message's kind, as the wire names it) in time."""

    seat: int
    owed: str


@dataclass(frozen=True)
class Evicted:
    """A seat evicted for cheating: its key may not sit here again."""

    seat: int


@dataclass(frozen=True)
class HandVoid:
    """An audited hand that scores nothing: who was named (none: a hand stopped with nobody to blame)."""

    hand: int
    culprits: tuple[Culprit, ...] = ()

    @property
    def seat(self) -> int | None:
        """The first seat named, if a seat (not the host) was."""
        first = self.culprits[0].seat if self.culprits else None
        return first if isinstance(first, int) else None


@dataclass(frozen=True)
class HandScored:
    """An audited hand's outcome: its result (in order), card points and score change."""

    hand: int
    result: tuple[tuple[str, object], ...]
    points: tuple[int, ...]
    score: tuple[int, ...] | None
    redeal: bool = False  # everybody passed


@dataclass(frozen=True)
class SeriesOver:
    """The series ended: the final scores and the winning seats."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class TableClosed:
    """The host closed the table, and why."""

    reason: str


Event = (
    TableOpened
    | Seated
    | FirstDealer
    | HandBegins
    | Dealt
    | DealtSizes
    | FaceUp
    | Acted
    | TrickTaken
    | RoleShown
    | SecretRole
    | Drawn
    | MonteShown
    | MonteDivided
    | HandedOver
    | StoppedEarly
    | Refused
    | Complained
    | TimedOut
    | Evicted
    | HandVoid
    | HandScored
    | SeriesOver
    | TableClosed
)
"""Every event a session reports: one frozen type per kind."""
PROBLEMS = (TimedOut, StoppedEarly, Refused, Complained, HandVoid)
"""The events that say something went wrong at the table."""


@dataclass(frozen=True)
class Update:
    """What one entry (or decision) gives a node: messages to send, events to show."""

    messages: list[bytes] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def action_events(before: State, after: State, action: Action) -> list[Event]:
    """The events of a seat's decision: the action, and what it settled (a trick, a partner)."""
    events: list[Event] = [Acted(action, tuple(c for c in (action.card, *action.cards) if c is not None))]
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        events.append(TrickTaken(trick.winner, tuple(trick.cards), trick.points, after.POINT_UNIT))
    if after.phase == "auction":
        return events  # who leads the auction is not a role yet
    earlier = {} if before.phase == "auction" else roles_of(before)
    for seat, roles in roles_of(after).items():
        for role in sorted(set(roles) - set(earlier.get(seat, ())) - {Role.DEALER}):
            events.append(RoleShown(seat, role))
    me = after.viewer
    if (
        action.kind == "call"
        and after.SECRET_PARTNER
        and isinstance(me, int)
        and me >= 0
        and action.card in after.hands[me]
    ):
        # Only the seat holding the called card knows who the partner is, until it is played. (The
        # holder of a Calabresella call hands it over face up and stays a defender.)
        events.append(SecretRole(me, Role.ALONE if me == action.seat else Role.PARTNER))
    return events


def chance_events(need: Need, cards: tuple[Card | None, ...], after: State) -> list[Event]:
    """A chance event as this node saw it (None: a card it may not see)."""
    shown = tuple(c for c in cards if c is not None)
    if need.kind == "draw":
        drawers = [(after.leader + i) % after.n for i in range(len(cards))]
        return [Drawn(tuple(zip(drawers, cards)))]
    if need.kind == "monte":
        return [MonteShown(shown)]
    if need.kind == "dividete":
        return [MonteDivided(shown)]
    return []


def deal_events(view: State, seat: int | None) -> list[Event]:
    """The deal as this node sees it: its own hand, and what is face up."""
    events: list[Event] = []
    if seat is not None and seat >= 0:
        events.append(Dealt(seat, tuple(sorted(view.hands[seat]))))
    else:
        events.append(DealtSizes(tuple(view.hand_size(s) for s in range(view.n))))
    faceup = hand_fields(view, seat)["faceup"]
    if faceup is not None:
        events.append(FaceUp(faceup, faceup.suit))
    return events


def verdict_events(verdict: Verdict) -> list[Event]:
    """The audit's verdict: the hand's result, or who is named (a void hand)."""
    outcome = verdict.outcome if verdict.ok else None
    if outcome is None:
        return [HandVoid(verdict.hand, tuple(verdict.culprits))]
    result = outcome.result
    return [
        HandScored(
            verdict.hand,
            result=tuple((k, v) for k, v in result.json().items() if k != "side_points"),
            points=tuple(outcome.points),
            score=None if outcome.score is None else tuple(outcome.score),
            redeal=result.redeal,
        )
    ]
