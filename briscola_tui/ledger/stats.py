"""Each person's statistics over the hands of a `Book` (already filtered by game and date).

Hands and tables sat at (a hand counts once for a person, however many of its seats they
held: a computer level often holds several), hands won (their side alone first), lost and
tied, and the others by why they were neither (voided, dealt again, one player on both
sides), so that won + lost + tied + neither is the hands; card points per hand for each kind of
table (a game and its size: points of one are not points of another, and Calabresella counts
thirds), Chiamata auctions won and made by bid, Calabresella contracts played and made by
kind, cheats named (a hand voided by a cheat counts against the cheater, and rates nobody),
and head to head against each other person (hands on opposite sides: won, lost, tied).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .facts import Contract, Hand, Table
from .roster import BOTH_SIDES, VOIDED, not_rated


@dataclass
class Record:
    """Won, lost and tied hands."""

    won: int = 0
    lost: int = 0
    tied: int = 0

    @property
    def decided(self) -> int:
        return self.won + self.lost + self.tied


@dataclass
class Stats:
    hands: int = 0
    tables: set[str] = field(default_factory=set)
    record: Record = field(default_factory=Record)
    neither: Counter = field(default_factory=Counter)  # why a hand was neither won nor lost -> hands
    points: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # (game, players) -> points, seats
    cheats: int = 0
    auctions: Counter = field(default_factory=Counter)  # Chiamata: bid -> auctions won
    auctions_made: Counter = field(default_factory=Counter)  # bid -> contracts made
    contracts: Counter = field(default_factory=Counter)  # Calabresella: kind -> played as soloist
    contracts_made: Counter = field(default_factory=Counter)
    against: dict[str, Record] = field(default_factory=dict)  # head to head, by person

    @property
    def win_rate(self) -> float | None:
        return self.record.won / self.record.decided if self.record.decided else None

    @property
    def void(self) -> int:
        return self.neither[VOIDED]

    @property
    def points_per_hand(self) -> dict[tuple[str, int], float]:
        """Card points per hand at a seat, for each kind of table played (game, players), in the
        game's own unit."""
        return {kind: points / seats for kind, (points, seats) in sorted(self.points.items()) if seats}


def statistics(hands: list[tuple[Table, Hand]]) -> dict[str, Stats]:
    """Every person's statistics over `hands`."""
    out: dict[str, Stats] = {}
    for table, hand in hands:
        seen: set[str] = set()
        for seat, sitter in enumerate(hand.seats):
            stats = out.setdefault(sitter.person, Stats())
            _seat(stats, table, hand, seat)
            if sitter.person not in seen:  # (the hand once per person, whatever seats they held)
                seen.add(sitter.person)
                stats.hands += 1
                stats.tables.add(table.table_id)
                _count(stats, hand, seat)
        for seat in hand.cheats:
            out[hand.seats[seat].person].cheats += 1
        for person in table.cheats if hand.number == 0 else ():
            out.setdefault(person, Stats()).cheats += 1
    return out


def _seat(stats: Stats, table: Table, hand: Hand, seat: int) -> None:
    """What a seat did in a hand: its card points, its auction or contract."""
    if hand.void:
        return
    if any(hand.points):  # (a redeal played no card)
        kind = (table.game, table.players)
        points, seats = stats.points.get(kind, (0, 0))
        stats.points[kind] = (points + hand.points[seat], seats + 1)
    _contract(stats, hand, seat)


def _count(stats: Stats, hand: Hand, seat: int) -> None:
    """The hand's result for the person at `seat` (and any other seat of theirs: the same side)."""
    why = not_rated(hand)
    mine = hand.side_of(seat)
    if why or mine is None:
        stats.neither[why or BOTH_SIDES] += 1
        return
    _result(stats.record, hand, mine)
    me = hand.seats[seat].person
    for other, side in enumerate(hand.sides):
        if other == mine:
            continue
        for them in {hand.seats[s].person for s in side} - {me}:
            _result(stats.against.setdefault(them, Record()), hand, mine, other)


def _result(record: Record, hand: Hand, mine: int, other: int | None = None) -> None:
    """Count the hand for side `mine`: against all (first alone wins), or against side `other`."""
    rank = hand.ranks[mine]
    if other is None:
        best = min(hand.ranks)
        if rank > best:
            record.lost += 1
        elif hand.ranks.count(best) > 1:
            record.tied += 1
        else:
            record.won += 1
        return
    theirs = hand.ranks[other]
    if rank < theirs:
        record.won += 1
    elif rank > theirs:
        record.lost += 1
    else:
        record.tied += 1


def _contract(stats: Stats, hand: Hand, seat: int) -> None:
    contract = hand.contract
    if contract.caller == seat and contract.target is not None:
        bid = bid_of(contract)
        stats.auctions[bid] += 1
        stats.auctions_made[bid] += bool(contract.success)
    if contract.soloist == seat and contract.contract is not None:
        kind = contract.contract
        stats.contracts[kind] += 1
        stats.contracts_made[kind] += bool(contract.success)


def bid_of(contract: Contract) -> str:
    """A Chiamata auction's winning bid: the rank of the card called, and the points target
    when it is above 61 (e.g. "2", "2 71")."""
    called, target = contract.called or "", int(contract.target or 0)
    rank = called[:-1] or "?"
    return rank if target <= 61 else f"{rank} {target}"
