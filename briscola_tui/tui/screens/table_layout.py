"""How the table screen uses the terminal's room: a pure function of the terminal's size
(`layout_for`), applied by the screen at each paint. At 80x24 (and anything under 100x30) the
table keeps its compact layout: the seats one line each beside the log. From 100x30 the seats
sit around the trick in the middle (`widgets.ring`), with the log a third of the width; from
120x40 the cards are larger boxes (MEDIUM), from 160x50 larger still (LARGE)."""

from __future__ import annotations

from dataclasses import dataclass

from ..widgets.faces import LARGE, MEDIUM, SMALL, Face

RING_SIZE = (100, 30)
"""The least room (columns, rows) for the seats around the trick."""
MEDIUM_SIZE = (120, 40)
LARGE_SIZE = (160, 50)
"""The least room for MEDIUM and LARGE cards (the hand's and the trick's)."""
MAX_WIDTH = 200
"""The table takes at most this many columns (wider, it is centred)."""
LOG_WIDTH = 28
"""The log's width at 80 columns (at least); wider, a third of the table."""


@dataclass(frozen=True)
class Layout:
    """What the terminal's size makes of the table."""

    ring: bool  # the seats around the trick (else one line each, the 80x24 way)
    face: Face  # the largest card face (the hand's; the trick's as far as its room allows): SMALL unless ring
    log_width: int  # the log's columns
    centre: int  # the column in the middle of the seats (the hand's row of cards centres on it, with room)


def layout_for(width: int, height: int) -> Layout:
    """The table's layout in a terminal of `width` x `height` cells."""
    size = (width, height)
    ring = fits(size, RING_SIZE)
    face = LARGE if fits(size, LARGE_SIZE) else MEDIUM if fits(size, MEDIUM_SIZE) else SMALL
    log_width = max(LOG_WIDTH, min(width, MAX_WIDTH) // 3)
    return Layout(
        ring=ring, face=face if ring else SMALL, log_width=log_width, centre=(min(width, MAX_WIDTH) - log_width) // 2
    )


def fits(size: tuple[int, int], least: tuple[int, int]) -> bool:
    return size[0] >= least[0] and size[1] >= least[1]
