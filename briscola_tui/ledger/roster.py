"""The roster: the people whose word a reader takes, and so the hands the league rates.

A key costs nothing to make, so a league of every key in the transcripts is a league anyone
can fill with keys of their own, and a computer level (whose old key anyone holds) can be
played down or up by tables nobody saw. The roster is the reader's answer: "me" (this data
folder's identity key), the people who sat at a table with me (my own certificate is on that
table: it happened, and they were at it), the people who ran a computer player at such a
table, and the people I add by fingerprint (`briscola ledger trust`). A hand moves ratings
only when everyone at it is in the roster: each person who sat, and the runner of each
computer player. The league shows only the roster (and the levels, rated on those hands).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..language import N_
from .facts import Hand, Table

ME = N_("you")
MET = N_("played at a table with you")
TRUSTED = N_("trusted by fingerprint")

NOT_IN_ROSTER = N_("someone at them is not in your roster")
UNKNOWN_RUNNER = N_("a computer player at them was run by someone unknown (an older transcript)")

VOIDED = N_("voided by a cheat or a time-out")
DEALT_AGAIN = N_("everyone passed, so the cards were dealt again")
BOTH_SIDES = N_("one player was on both sides (a computer level in both teams: a level is not rated against itself)")


@dataclass(frozen=True)
class Roster:
    """`me`: this data folder's identity key (hex; "" when there is none); `met`: the people at
    the tables I sat at; `trusted`: those added by fingerprint."""

    me: str
    met: frozenset[str]
    trusted: frozenset[str]

    def has(self, person: str) -> bool:
        return bool(person) and (person == self.me or person in self.met or person in self.trusted)

    def why(self, person: str) -> str:
        """Why `person` is in the roster, in English (translate where shown); "" if not."""
        if person and person == self.me:
            return ME
        if person in self.trusted:
            return TRUSTED
        return MET if person in self.met else ""

    @property
    def members(self) -> list[str]:
        """Everyone in it: me first, then the others in key order."""
        others = sorted((self.met | self.trusted) - {self.me})
        return [self.me, *others] if self.me else others


def roster_of(tables: Iterable[Table], me: str, trusted: frozenset[str]) -> Roster:
    """The roster of `me` over `tables` (the kept ones) and the people `trusted`."""
    met: set[str] = set()
    for table in tables:
        for hand in table.hands:
            if me and any(seat.person == me and not seat.level for seat in hand.seats):
                met.update(seat.vouched_by for seat in hand.seats if seat.vouched_by)
    return Roster(me, frozenset(met), trusted)


def not_rated(hand: Hand) -> str:
    """Why a hand rates nobody, whoever reads it ("" when it rates people): in English,
    translate where shown. A redeal is a hand where no card was played."""
    if hand.rated:
        return ""
    if hand.void:
        return VOIDED
    return BOTH_SIDES if any(hand.points) else DEALT_AGAIN


def left_out(roster: Roster, hand: Hand) -> str:
    """Why a hand that would rate people does not ("" when it does): in English, translate
    where shown."""
    if any(seat.level and not seat.runner for seat in hand.seats):
        return UNKNOWN_RUNNER
    if not all(roster.has(seat.vouched_by) for seat in hand.seats):
        return NOT_IN_ROSTER
    return ""
