"""The notice: one line worth seeing now at the table (the partner revealed, the monte shown,
what the coach says) and what clears it. The marks the table's events leave: plain data the
table screen keeps beside the view, and paints with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.facts import Role
from protocol.events import Acted, Event, MonteShown, RoleShown, SecretRole, TrickTaken

from ..language import _
from ..notes import HostBack, Note


@dataclass
class Notice:
    text: str = ""
    until: int | None = None  # the trick count that clears it (None: something else does)
    monte: bool = False  # the monte shown: the first card played or discarded clears it

    def say(self, text: str, until: int | None = None) -> None:
        self.text, self.until, self.monte = text, until, False

    def take(self, event: Event | Note, tricks: int, words: Callable[[Event | Note], str], cards: str = "") -> None:
        """The mark `event` leaves, `tricks` taken so far in the hand; `words` writes an event,
        `cards` the cards of a monte shown."""
        match event:
            case TrickTaken() if self.until is not None and tricks >= self.until:
                self.say("")
            case MonteShown(cards=shown) if shown:
                self.say(_("The monte is shown: {cards}").format(cards=cards))
                self.monte = True
            case RoleShown(role=Role.PARTNER | Role.ALONE | Role.SOLOIST as role):
                # seen for the rest of this trick and the next
                self.say(words(event) + ("!" if role is Role.PARTNER else ""), tricks + 2)
            case HostBack():  # seen until the trick on the table is taken
                self.say(words(event), tricks + 1)
            case SecretRole():
                text = words(event)
                self.say(text[0].upper() + text[1:], self.until)
            case Acted(action=action) if action.kind in ("discard", "play") and self.monte:
                self.say("")
