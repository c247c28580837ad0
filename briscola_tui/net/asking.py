"""A person's seat asked for its moves (`client.Client`): the question put once per turn, the
answer waited for while the table's entries go on arriving, and no answer kept past the turn
it was asked for. A line typed at the keyboard while nothing is asked is told at once why not
(`not_asked`) and dropped: never played at a later turn."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from engine.labels import LabelError, parse
from engine.state import Action
from protocol.session import TableSession

from ..language import _
from .listener import Person
from .typed import move_error


class Asking:
    """What the person at a seat is asked, and the answer being waited for."""

    def __init__(self, person: Person) -> None:
        self.person = person
        self.waiting: asyncio.Future | None = None  # the person's answer being waited for
        self.asked: list[str] | None = None  # the choices last put to the person

    def ask(self, offered: list[str]) -> None:
        """The person's turn, and what they may do: said once, not again after a reconnection
        (one answer per question)."""
        if offered != self.asked:
            self.person.prompt(offered)
            self.asked = offered

    def passed(self) -> None:
        """The turn is not the person's (any more): nothing is asked, and no answer is kept for
        a later turn (one given meanwhile is for a question gone by)."""
        self.asked = None
        if self.waiting is not None:
            self.waiting.cancel()
            self.waiting = None

    async def answer_or_entry(self, entry: Callable[[], Awaitable[bytes]]) -> tuple[object, bytes | None]:
        """The person's next answer, or the host's next entry (`entry()`), whichever comes
        first. The answer being waited for is kept for the next call (standard input cannot be
        un-read), as long as the turn is the person's."""
        if self.waiting is None:
            self.waiting = asyncio.ensure_future(self.person.answer())
        if not self.waiting.done():
            reading = asyncio.ensure_future(entry())
            # Stopped meanwhile (the app closing), the read may still end in an error of its own
            # (the host gone): taken here, it is no "exception never retrieved" on the way out.
            reading.add_done_callback(_taken)
            await asyncio.wait({self.waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
            if reading.done():
                return None, reading.result()
            reading.cancel()  # nothing read is lost: the bytes stay in the stream and the frame reader
            await asyncio.gather(reading, return_exceptions=True)
        answer, self.waiting = self.waiting.result(), None
        return answer, None

    def answer_given(self) -> bool:
        """The person has answered, and the answer waits to be taken (after a reconnection)."""
        return self.waiting is not None and self.waiting.done()


def not_asked(session: TableSession | None, names: Sequence[str], line: str) -> str:
    """What a line typed while the seat is asked nothing is told: not its turn, whose it is
    (or what the table waits for), and that the line is dropped."""
    return _('not your turn: {waiting} ("{line}" is dropped: type your move when asked)').format(
        waiting=waiting_for(session, names), line=line
    )


def waiting_for(session: TableSession | None, names: Sequence[str]) -> str:
    """What the table waits for now, as a seat sees it: another seat's move, the deal, players."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else _("seat {n}").format(n=seat)

    if session is None or session.table is None:
        return _("you are not at the table yet")
    view = session.seat_view()
    phase = view.table_phase
    if phase == "play" and view.turn is not None and view.turn != view.seat:
        return _("it is {name}'s turn").format(name=name(view.turn))
    if phase == "play":
        return _("your move is on its way to the host")
    if phase == "join":
        return _("the table waits for players to join")
    if phase == "seating":
        return _("the table waits for a seat to be taken again")
    if phase in ("coin_commit", "coin_reveal"):
        return _("the table draws who deals first")
    if phase == "reveal":
        return _("the hand's cards are shown and checked")
    if phase in ("over", "aborted"):
        return _("the table is over")
    deal = _("the mental-poker deal goes on ({phase})").format(phase=phase)
    others = ", ".join(name(seat) for seat in sorted(view.awaited) if seat != view.seat)
    return _("{deal}: waiting for {names}").format(deal=deal, names=others) if others else deal


def _taken(task: asyncio.Future) -> None:
    """Retrieve a finished task's outcome (its error is the caller's to see, or nobody's)."""
    if not task.cancelled():
        task.exception()


class NotAMove(ValueError):
    """A person's line that names no move; the message says why."""


def move_of(answer: object, session: TableSession) -> Action | None:
    """The move a person's answer names on its turn (a line, or an action chosen on the screen);
    None for an action chosen on a view that has gone by (the connection came back meanwhile,
    the move was already taken): dropped, and the person asked again. NotAMove for a line
    that names none."""
    if not isinstance(answer, str):
        return answer if isinstance(answer, Action) and answer in session.legal_actions() else None
    view = session.seat_view()
    assert view.seat is not None  # (a player's view)
    try:
        return parse(answer, view.seat, view.state)
    except LabelError as error:
        raise NotAMove(move_error(error)) from None
