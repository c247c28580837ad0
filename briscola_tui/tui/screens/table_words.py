"""What the table screen writes from the view it is given: the line that says what the
table waits for, the last trick in full, the hand's tricks for its summary, the news said
in a toast over whatever is on top, and my decision on its way. Plain functions of the view
or the update (and the screen's marks: my decision sent, a seat away...): the screen shows
what they return."""

from __future__ import annotations

from collections.abc import Callable

from textual.notifications import SeverityLevel

from engine.actions import Action
from engine.view import SeatView
from protocol.events import Event, TimedOut, TrickTaken

from ...language import _
from ...notes import Away, Back, HostBack, Note
from ...render import worth
from ...tables.controller import TableUpdate
from ..frame import Marks
from ..widgets.cards import Style
from ..widgets.seats import is_you, seat_name


def waiting_words(view: SeatView, marks: Marks, ellipsis: str, style: Style | None = None) -> str:
    """What the table waits for, while it asks nothing of me: my decision just sent (its cards
    as `style` writes them), a seat away, a seat thinking (once it has thought long enough to
    say so), the deal, or another seat's turn."""
    if marks.sent is not None:
        return sent_words(marks.sent, style or Style(ascii=True)) + ellipsis
    if view.turn is not None and view.turn in marks.away:
        away = _("{name} is away (no connection): the table waits for them to come back")
        return away.format(name=seat_name(view, view.turn)) + ellipsis
    if marks.thinking is not None:
        return _("{name} is thinking").format(name=seat_name(view, marks.thinking)) + ellipsis
    if view.table_phase not in ("play", "over"):
        waiting = ", ".join(seat_name(view, seat) for seat in sorted(view.awaited) if seat != view.seat)
        deal = _("the mental-poker deal goes on ({phase})").format(phase=view.table_phase)
        if waiting:
            deal = _("{deal}: waiting for {names}").format(deal=deal, names=waiting)
        return deal + ellipsis
    if view.turn is not None and view.turn != view.seat:
        return _("waiting for {name}").format(name=seat_name(view, view.turn)) + ellipsis
    return ""


NEWS = (HostBack, Away, Back, TimedOut)
"""Events said in a toast too when the table is not the screen showing (a summary, a dialog)."""


def toasts(
    update: TableUpdate, before: TableUpdate | None, words: Callable[[Event | Note], str]
) -> list[tuple[str, SeverityLevel]]:
    """What a toast says of `update` (after `before`) over another screen: its news, as `words`
    writes them, and the connection lost (said once, as it goes from no status to one)."""
    said: list[tuple[str, SeverityLevel]] = [(words(e), "information") for e in update.events if isinstance(e, NEWS)]
    if update.status and (before is None or not before.status):
        said.append((update.status, "warning"))
    return said


def sent_words(action: Action, style: Style) -> str:
    """My decision on its way to the table: "playing 7♠", else "sent: bid K"."""
    if action.kind == "play":
        return _("playing {card}").format(card=style.card(action.card))
    return _("sent: {action}").format(action=style.action(action))


def last_trick_text(view: SeatView | None, style: Style) -> str:
    """The last trick taken in this hand, card by card from the lead, and who took it for what."""
    if view is None or not view.tricks:
        return _("No trick has been taken yet in this hand.")
    t = view.tricks[-1]
    cards = "\n".join(
        f"  {seat_name(view, (t.leader + i) % view.players):<6} {style.card(c)}" for i, c in enumerate(t.cards)
    )
    taker = _("you take it: {points}") if is_you(view, t.winner) else _("{name} takes it: {points}")
    took = taker.format(name=seat_name(view, t.winner), points=worth(t.points, view.unit))
    if is_you(view, t.leader):
        led = _("Last trick (led by you):")
    else:
        led = _("Last trick (led by {name}):").format(name=seat_name(view, t.leader))
    return f"{led}\n\n{cards}\n\n{took}"


def hand_tricks(view: SeatView, seen: SeatView | None) -> tuple[TrickTaken, ...]:
    """Every trick of the hand `view` has just audited: as the audit replayed them, else (no
    outcome: a void hand) as `seen`, the last view given in that hand, showed them. A node that
    joins or comes back mid-hand is told the hand so far by its view, not by events."""
    last = view.last_hand
    if last is not None and last.tricks:
        tricks, unit = last.tricks, seen.unit if seen is not None else view.unit
    elif last is not None and seen is not None and seen.hand_number == last.number:
        tricks, unit = seen.tricks, seen.unit
    else:
        return ()
    return tuple(TrickTaken(t.winner, tuple(t.cards), t.points, unit) for t in tricks)
