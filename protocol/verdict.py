"""What an audit finds, as plain data: the seats it names (`Culprit`, a cheat or a seat
absent past the time limit) and a hand's `Verdict` (audit.py makes them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.deal import Deal
from engine.state import Outcome

CHEAT = "cheat"
ABSENT = "absent"


@dataclass(frozen=True)
class Culprit:
    """A seat named, why, and the transcript entry that shows it.

    `kind` is CHEAT (the table stops) or ABSENT (the seat left or withheld a
    message past the time limit: the hand is void, the table may go on).
    """

    seat: int | str  # a seat number, or "host"
    reason: str
    entry: int | None
    kind: str = CHEAT

    def __str__(self) -> str:
        where = "" if self.entry is None else f" (transcript entry {self.entry})"
        who = "the host" if self.seat == "host" else f"seat {self.seat}"
        return f"{who}: {self.reason}{where}"


@dataclass
class Verdict:
    hand: int
    culprits: list[Culprit] = field(default_factory=list)
    outcome: Outcome | None = None
    deal: Deal | None = None  # every card as dealt, once the audit could open the whole deck

    @property
    def ok(self) -> bool:
        return not self.culprits

    @property
    def cheats(self) -> list[Culprit]:
        return [c for c in self.culprits if c.kind == CHEAT]

    def __str__(self) -> str:
        if self.ok:
            return f"hand {self.hand + 1}: all checks pass"
        return f"hand {self.hand + 1}: " + "; ".join(map(str, self.culprits))
