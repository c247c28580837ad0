"""How many no-ops a seat may cost the table: the host's bound on messages that crossed an
interruption in flight (`TableSession._is_stale`), sans-IO.

An honest seat crosses an interruption with the few messages it had signed before it saw it:
a handful, echoing a head a few entries behind. A seat that echoes an old head on purpose
could have every message it signs ordered as a no-op, of any size, for as long as the table
runs. So the host orders a seat's no-ops only within these bounds, counted from the latest
interruption: past them it drops the message without ordering it (`Flooding`), and a seat
that keeps sending after that (FLOOD_DROPS messages dropped in a row) is a flooder: its
connection is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sizes import MAX_SUBMIT

STALE_ECHO = 256
"""Entries a no-op's echo may be behind the entry it would be (a reader catching up)."""
STALE_MESSAGES = 8
"""No-ops a seat may cost the table from one interruption to the next."""
STALE_BYTES = 2 * MAX_SUBMIT
"""Bytes of those no-ops, together (two messages of the largest size)."""
FLOOD_DROPS = 8
"""Messages of one seat dropped in a row, from the first past the bounds on, that make it a
flooder (its connection is refused: `briscola_tui/net/ordering.py`)."""


@dataclass
class Spent:
    """What one seat's no-ops cost the table since the interruption `since`."""

    since: int
    messages: int = 0
    size: int = 0


def past_bounds(spent: Spent, echo_behind: int, size: int) -> str | None:
    """Why one more no-op of `size` bytes, echoing `echo_behind` entries back, is past the
    bounds; None if it is within them."""
    if echo_behind > STALE_ECHO:
        return f"an out-of-date message echoing {echo_behind} entries back (at most {STALE_ECHO})"
    if spent.messages >= STALE_MESSAGES:
        return f"more than {STALE_MESSAGES} out-of-date messages since the last interruption"
    if spent.size + size > STALE_BYTES:
        return f"more than {STALE_BYTES} bytes of out-of-date messages since the last interruption"
    return None


class NoopBounds:
    """Each seat's `Spent`, counted again from each new interruption."""

    def __init__(self) -> None:
        self.spent: dict[int, Spent] = {}

    def of(self, seat: int, interrupted_at: int) -> Spent:
        """The seat's count since the interruption at `interrupted_at` (a new one starts afresh)."""
        spent = self.spent.get(seat)
        if spent is None or spent.since != interrupted_at:
            spent = self.spent[seat] = Spent(interrupted_at)
        return spent

    def check(self, seat: int, interrupted_at: int, echo_behind: int, size: int) -> str | None:
        """Why this no-op may not be ordered, or None."""
        return past_bounds(self.of(seat, interrupted_at), echo_behind, size)

    def charge(self, seat: int, interrupted_at: int, size: int) -> None:
        """A no-op of `size` bytes ordered for `seat`."""
        spent = self.of(seat, interrupted_at)
        spent.messages += 1
        spent.size += size
