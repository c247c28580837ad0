"""What happened, in terms a player understands: the events a session reports.

`TableSession.receive` and `act` return an `Update`: the messages to send,
and the events the entry caused, each with a one-line `text` a headless
client prints and a UI animates from. Events tell only what this node may
know: a seat hears which cards it was dealt, a spectator only how many.

Kinds: table, seated, dealer, hand, dealt, play, bid, pass, call, exchange,
declare, return, discard, raise, take, role, secret, trick, draw, monte,
dividete, handover, stopped, refused, timeout, verdict, series, closed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.cards import fmt
from engine.labels import label
from engine.state import ActionKind
from engine.view import hand_fields, roles_of

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
    kind: EventKind
    seat: int | None  # who did it (or won, or was named); None for the table itself
    text: str
    cards: tuple = ()  # the cards this node saw move, when there are any


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
            f"{who(action.seat)}: {label(action)}",
            tuple(c for c in (action.card, *action.cards) if c is not None),
        )
    ]
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        unit = getattr(after, "POINT_UNIT", "point")
        worth = f"{trick.points} {unit}" + ("" if trick.points == 1 else "s")
        events.append(
            Event(
                "trick",
                trick.winner,
                f"{who(trick.winner)} takes the trick ({fmt(trick.cards)}) for {worth}",
                trick.cards,
            )
        )
    if after.phase == "auction":
        return events  # who leads the auction is not a role yet
    earlier = {} if before.phase == "auction" else roles_of(before)
    for seat, roles in roles_of(after).items():
        for role in sorted(set(roles) - set(earlier.get(seat, ())) - {"dealer"}):
            events.append(Event("role", seat, ROLE_NEWS[role].format(who(seat))))
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
        events.append(
            Event(
                "secret",
                me,
                "you called your own card: you play alone"
                if me == action.seat
                else "you hold the called card: you are the caller's partner, and nobody else knows",
            )
        )
    return events


ROLE_NEWS = {
    "partner": "{} is the caller's partner",
    "alone": "{} called its own card: it plays alone",
    "caller": "{} wins the auction",
    "soloist": "{} plays alone against the others",
}


def chance_events(need, cards: tuple, after) -> list[Event]:
    """A chance event as this node saw it (None: a card it may not see)."""
    shown = tuple(c for c in cards if c is not None)
    if need.kind == "draw":
        drawers = [(after.leader + i) % after.n for i in range(len(cards))]
        parts = [f"{who(s)} {'draws ' + str(c) if c is not None else 'draws a card'}" for s, c in zip(drawers, cards)]
        return [Event("draw", None, "; ".join(parts), shown)]
    if need.kind in ("monte", "dividete"):
        verb = "the monte is shown" if need.kind == "monte" else "the monte is divided"
        return [Event(need.kind, None, f"{verb}: {fmt(c for c in cards if c is not None) or 'face down'}", shown)]
    return []


def deal_events(view, seat: int | None) -> list[Event]:
    """The deal as this node sees it: its own hand, and what is face up."""
    events = []
    if seat is not None and seat >= 0:
        hand = sorted(view.hands[seat])
        events.append(Event("dealt", seat, f"you are dealt {fmt(hand)}", tuple(hand)))
    else:
        sizes = ", ".join(str(view.hand_size(s)) for s in range(view.n))
        events.append(Event("dealt", None, f"cards dealt ({sizes} each)"))
    faceup = hand_fields(view, seat)["faceup"]
    if faceup is not None:
        events.append(Event("dealt", None, f"the face-up card is {faceup}: trump {faceup.suit}", (faceup,)))
    return events


def handover_events(holder: int | None, called) -> list[Event]:
    if holder is None:
        return [Event("handover", None, f"nobody hands over {called}: the caller holds it")]
    return [Event("handover", holder, f"{who(holder)} hands over {called}", (called,))]


def hand_facts(verdict) -> str:
    """One line of what an audited hand gave: the result, card points, score change."""
    outcome = verdict.outcome
    if outcome is None or not verdict.ok:
        return "; ".join(map(str, verdict.culprits)) or "void"
    result = outcome.result
    if result.get("redeal"):
        return "everybody passed, redeal"
    facts = ", ".join(f"{k} {v}" for k, v in result.items() if k != "side_points")
    return f"{facts}; points {outcome.points}; score {outcome.score}"


def verdict_events(verdict) -> list[Event]:
    """The audit's verdict: the hand's result, or who is named."""
    if verdict.ok:
        return [Event("verdict", None, f"hand {verdict.hand + 1}: {hand_facts(verdict)}")]
    named = "; ".join(map(str, verdict.culprits))
    return [
        Event("verdict", c.seat if isinstance(c.seat, int) else None, f"hand {verdict.hand + 1} void: {named}")
        for c in verdict.culprits[:1]
    ]
