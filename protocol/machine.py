"""The session's state machine as data: which messages each phase waits for,
and every phase change, (phase, move) -> phase, in one table.

A `TableSession`'s phase (phases.py) changes only here, in `Machine.advance`:
the handlers (lifecycle.py, handflow.py) name the move the entry made (the
table opened, every seat joined, a hand's last commitment, a dealing step
opened, the hand stopped...), and `advance` looks the new phase up in
`TRANSITIONS`. A move the table does not allow in the phase the table is in
is a bug of this node (each message was checked against `WAITS_FOR`,
`HOST_MAY` and `INTERRUPTS` before it was applied): LocalProtocolError.
h11's `_state.py` is the model.

This module imports nothing of the protocol but its errors, the phases and
the message kinds' names.
"""

from __future__ import annotations

from typing import Literal

from .errors import LocalProtocolError
from .messages import MessageKind
from .phases import HAND_PHASES, TablePhase

Move = Literal[
    "opened",  # the host's table message
    "all joined",  # the last free seat's join
    "coins committed",  # every seat present committed to its coin value
    "hand starts",  # the coin chose the dealer, the empty seats are taken, or the last hand was audited
    "seat empty",  # a hand would start, but a seat is empty (timed out, or evicted)
    "committed",  # the hand's last commitment
    "step opened",  # a dealing step: every seat sends its key shares
    "decision due",  # a seat decides (`act`)
    "handover due",  # a Calabresella Chiamo: the called card's holder shows it, the others deny
    "hand played",  # the hand reached its end: every seat reveals
    "deal failed",  # a card of a dealing step does not open, or contradicts another: the seats reveal
    "stopped",  # an early reveal, a complaint, evidence or a time-out stops the hand
    "series over",  # the audited hand ends the series
    "cheat",  # the audit names a cheat (and the table rule does not replace it), or evidence outside a hand
    "closed",  # the host closed the table
    "host refused falsely",  # evidence of a message this node finds valid: the host lied
]
"""What moves the table from one phase to another (`TRANSITIONS`)."""

LIVE: tuple[TablePhase, ...] = ("table", "join", "seating", "coin_commit", "coin_reveal", *HAND_PHASES)
"""The phases before the table is over or aborted (`CLOSED`)."""

CLOSED: tuple[TablePhase, ...] = ("over", "aborted")
"""The phases after which the table takes no entry."""

DEALT: tuple[TablePhase, ...] = ("deal", "play", "handover")
"""A hand's phases once a dealing step is open: the hand moves on from any of them."""


def _all(phases: tuple[TablePhase, ...], move: Move, to: TablePhase) -> dict[tuple[TablePhase, Move], TablePhase]:
    return {(phase, move): to for phase in phases}


TRANSITIONS: dict[tuple[TablePhase, Move], TablePhase] = {
    ("table", "opened"): "join",
    ("join", "all joined"): "coin_commit",
    ("coin_commit", "coins committed"): "coin_reveal",
    **_all(("coin_reveal", "seating", "reveal"), "hand starts", "commit"),
    **_all(("coin_reveal", "reveal"), "seat empty", "seating"),
    ("commit", "committed"): "shuffle",
    **_all(("shuffle", *DEALT), "step opened", "deal"),
    **_all(DEALT, "decision due", "play"),
    **_all(DEALT, "handover due", "handover"),
    **_all(DEALT, "hand played", "reveal"),
    ("deal", "deal failed"): "reveal",
    **_all(HAND_PHASES, "stopped", "reveal"),
    ("reveal", "series over"): "over",
    **_all(("reveal", "join", "seating", "coin_commit", "coin_reveal"), "cheat", "aborted"),
    **_all(("join", "seating", "commit"), "closed", "over"),
    **_all((*LIVE[1:], *CLOSED), "host refused falsely", "aborted"),  # (the message it applied may have moved it)
}
"""Every phase change: (the phase the table is in, the move) -> the phase it goes to.
A move not listed for a phase cannot happen in it."""

WAITS_FOR: dict[TablePhase, MessageKind] = {
    "table": "table",
    "join": "join",
    "seating": "join",
    "coin_commit": "coin_commit",
    "coin_reveal": "coin_reveal",
    "commit": "commit",
    "shuffle": "shuffle",
    "deal": "shares",
    "play": "act",
    "handover": "handover",
    "reveal": "reveal",
}
"""The one message kind each phase waits for (from the seats that owe it; the host's
table message first). `over` and `aborted` wait for nothing."""

INTERRUPTS: dict[str, tuple[TablePhase, ...]] = {
    "reveal": ("shuffle", *DEALT),  # once the secrets are committed, a reveal may stop a hand at any point
    "complaint": DEALT,  # about a step dealt: `on_complaint` checks which
}
"""A seat's messages that may come, besides the one waited for, in these phases (from a seat that committed)."""

HOST_MAY: dict[str, tuple[TablePhase, ...]] = {
    "table": ("table",),
    "evidence": LIVE[1:],
    "timeout": ("coin_commit", "coin_reveal", *HAND_PHASES),
    "close": ("join", "seating", "commit"),  # in "commit" only before its first commitment
}
"""The host's own messages, and the phases each is allowed in."""


class Machine:
    """The phase of one node's table, changed only by `advance`."""

    __slots__ = ("_phase",)

    def __init__(self) -> None:
        self._phase: TablePhase = "table"

    @property
    def phase(self) -> TablePhase:
        return self._phase

    def advance(self, move: Move) -> TablePhase:
        """Apply `move` (`TRANSITIONS`): the new phase; LocalProtocolError if the move cannot happen now."""
        to = TRANSITIONS.get((self._phase, move))
        if to is None:
            raise LocalProtocolError(f"the table cannot move by {move!r} in phase {self._phase}")
        self._phase = to
        return to

    def waits_for(self) -> MessageKind | None:
        """The message kind the phase waits for (None once the table is closed)."""
        return WAITS_FOR.get(self._phase)

    def interrupted_by(self, kind: str) -> bool:
        """Can a seat's `kind` interrupt the phase (`INTERRUPTS`)?"""
        return self._phase in INTERRUPTS.get(kind, ())

    def host_may(self, kind: str) -> bool:
        """Is the host's `kind` allowed in the phase (`HOST_MAY`)?"""
        return self._phase in HOST_MAY.get(kind, ())

    @property
    def closed(self) -> bool:
        return self._phase in CLOSED

    @property
    def in_hand(self) -> bool:
        return self._phase in HAND_PHASES
