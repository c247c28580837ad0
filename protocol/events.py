"""What happened, in terms a player understands: the events a session reports.

`TableSession.receive` and `act` return an `Update`: the messages to send,
and the events the entry caused: plain data (a kind and its fields) that
`briscola_tui.render` writes as the one line a headless client prints, and a
UI animates from. Events tell only what this node may
know: a seat hears which cards it was dealt, a spectator only how many.

Kinds: table, seated, dealer, hand, dealt, play, bid, pass, call, exchange,
declare, return, discard, raise, take, role, secret, trick, draw, monte,
dividete, handover, stopped, refused, complained, timeout, verdict, series, closed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.cards import Card
from engine.state import Action, ActionKind
from engine.view import hand_fields, roles_of

from .audit import Culprit

EventKind = (
    Literal[
        "table",
        "seated",
        "dealer",
        "hand",
        "dealt",
        "role",
        "secret",
        "trick",
        "stopped",
        "refused",
        "complained",
        "timeout",
        "evicted",
        "verdict",
        "series",
        "closed",
    ]
    | ActionKind
)
"""`Event.kind` (see the module doc): the table's own, or the action or chance event it reports."""


@dataclass(frozen=True)
class Event:
    """What happened, as data: the kind and the fields it needs (the rest stay empty).
    `briscola_tui.render` writes it in words."""

    kind: EventKind
    seat: int | None = None  # who did it (or won, or was named); None for the table itself
    cards: tuple = ()  # the cards this node saw move, when there are any
    action: Action | None = None  # a seat's decision (its kind, card or cards, bid, choice)
    card: Card | None = None  # handover: the called card
    points: int | None = None  # trick: what it is worth, in `unit`s
    unit: str = "point"
    role: str | None = None  # role: partner, alone, caller, soloist; secret: alone or partner
    name: str | None = None  # seated: the name the seat joins with
    arrival: Literal["joins", "back", "takes"] | None = None  # seated: first join, own key back, a new key
    game: str | None = None  # table
    players: int | None = None  # table
    hand: int | None = None  # hand, verdict: the hand's number (from 0)
    trump: str | None = None  # dealt: the face-up card's suit
    sizes: tuple[int, ...] = ()  # dealt, to a spectator: every seat's hand size
    drawn: tuple[tuple[int, Card | None], ...] = ()  # draw: (seat, card or None if hidden) in drawing order
    reason: str | None = None  # refused, complained, closed: why; timeout: what the seat owed
    culprits: tuple[Culprit, ...] = ()  # verdict: who is named (a void hand)
    result: tuple[tuple[str, object], ...] = ()  # verdict: the outcome's result, in order
    redeal: bool = False  # verdict: everybody passed
    hand_points: tuple[int, ...] = ()  # verdict: card points
    score: tuple[int, ...] | None = None  # verdict: the score change
    scores: tuple[int, ...] = ()  # series: the final scores
    winners: tuple[int, ...] = ()  # series: the winning seats


@dataclass(frozen=True)
class Update:
    """What one entry (or decision) gives a node: messages to send, events to show."""

    messages: list[bytes] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def who(seat: int) -> str:
    return f"seat {seat}"


def action_events(before, after, action) -> list[Event]:
    """The events of a seat's decision: the action, and what it settled (a trick, a partner)."""
    events = [
        Event(
            action.kind,
            action.seat,
            tuple(c for c in (action.card, *action.cards) if c is not None),
            action=action,
        )
    ]
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        unit = getattr(after, "POINT_UNIT", "point")
        events.append(Event("trick", trick.winner, tuple(trick.cards), points=trick.points, unit=unit))
    if after.phase == "auction":
        return events  # who leads the auction is not a role yet
    earlier = {} if before.phase == "auction" else roles_of(before)
    for seat, roles in roles_of(after).items():
        for role in sorted(set(roles) - set(earlier.get(seat, ())) - {"dealer"}):
            events.append(Event("role", seat, role=role))
    me = after.viewer
    if (
        action.kind == "call"
        and after.game.name == "chiamata"
        and isinstance(me, int)
        and me >= 0
        and action.card in after.hands[me]
    ):
        # Only the seat holding the called card knows who the partner is, until it is played. (The
        # holder of a Calabresella call hands it over face up and stays a defender.)
        events.append(Event("secret", me, role="alone" if me == action.seat else "partner"))
    return events


def chance_events(need, cards: tuple, after) -> list[Event]:
    """A chance event as this node saw it (None: a card it may not see)."""
    shown = tuple(c for c in cards if c is not None)
    if need.kind == "draw":
        drawers = [(after.leader + i) % after.n for i in range(len(cards))]
        return [Event("draw", None, shown, drawn=tuple(zip(drawers, cards)))]
    if need.kind in ("monte", "dividete"):
        return [Event(need.kind, None, shown)]
    return []


def deal_events(view, seat: int | None) -> list[Event]:
    """The deal as this node sees it: its own hand, and what is face up."""
    events = []
    if seat is not None and seat >= 0:
        hand = sorted(view.hands[seat])
        events.append(Event("dealt", seat, tuple(hand)))
    else:
        events.append(Event("dealt", None, sizes=tuple(view.hand_size(s) for s in range(view.n))))
    faceup = hand_fields(view, seat)["faceup"]
    if faceup is not None:
        events.append(Event("dealt", None, (faceup,), trump=faceup.suit))
    return events


def handover_events(holder: int | None, called) -> list[Event]:
    if holder is None:
        return [Event("handover", None, card=called)]
    return [Event("handover", holder, (called,), card=called)]


def verdict_events(verdict) -> list[Event]:
    """The audit's verdict: the hand's result, or who is named (the first: a void hand)."""
    if verdict.ok:
        outcome = verdict.outcome
        if outcome is None:
            return [Event("verdict", None, hand=verdict.hand, culprits=tuple(verdict.culprits))]
        result = outcome.result
        return [
            Event(
                "verdict",
                None,
                hand=verdict.hand,
                redeal=bool(result.get("redeal")),
                result=tuple((k, v) for k, v in result.items() if k != "side_points"),
                hand_points=tuple(outcome.points),
                score=None if outcome.score is None else tuple(outcome.score),
            )
        ]
    return [
        Event(
            "verdict", c.seat if isinstance(c.seat, int) else None, hand=verdict.hand, culprits=tuple(verdict.culprits)
        )
        for c in verdict.culprits[:1]
    ]
