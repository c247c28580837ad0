"""What the audit reads of one hand, as the transcript gave it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.state import NeedKind

from .messages import Commit, Shares, Shuffle
from .verdict import Culprit

StepKind = Literal["deal"] | NeedKind
"""A dealing step: the deal, or the chance event it opens the cards of."""


@dataclass
class Step:
    """A dealing step: positions to open and who sees each (a seat or PUBLIC)."""

    number: int
    kind: StepKind
    positions: tuple[int, ...]
    audiences: tuple[int, ...]
    shares: dict[int, Shares] = field(default_factory=dict)


@dataclass
class HandRecord:
    """Every message of one hand the audit needs, with its transcript entry."""

    number: int
    dealer: int
    commits: dict[int, tuple[Commit, int]] = field(default_factory=dict)
    shuffles: list[tuple[int, Shuffle, int]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    share_entries: dict[tuple[int, int], int] = field(default_factory=dict)
    moves: list[tuple] = field(default_factory=list)  # (entry, seat, kind, message)
    reveals: dict[int, tuple[bytes, int]] = field(default_factory=dict)
    findings: list[Culprit] = field(default_factory=list)  # evidence and time-outs, proved as they came
    stopped: tuple[int, int] | None = None  # (seat, entry) of the early reveal that stopped the hand, if one did
