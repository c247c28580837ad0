"""Each person's statistics over the hands of a `Book` (already filtered by game and date).

Hands and tables sat at, hands won (their side alone first) over hands decided, card points
per hand, Chiamata auctions won and made by bid, Calabresella contracts played and made by
kind, cheats named (a hand voided by a cheat counts against the cheater, and rates nobody),
and head to head against each other person (hands on opposite sides: won, lost, tied).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .facts import Contract, Hand, Table


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
    points: int = 0
    scored: int = 0  # hands with card points counted
    void: int = 0
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
    def points_per_hand(self) -> float | None:
        return self.points / self.scored if self.scored else None


def statistics(hands: list[tuple[Table, Hand]]) -> dict[str, Stats]:
    """Every person's statistics over `hands`."""
    out: dict[str, Stats] = {}
    for table, hand in hands:
        for seat, sitter in enumerate(hand.seats):
            stats = out.setdefault(sitter.person, Stats())
            stats.hands += 1
            stats.tables.add(table.table_id)
            _count(stats, hand, seat)
        for seat in hand.cheats:
            out[hand.seats[seat].person].cheats += 1
        for person in table.cheats if hand.number == 0 else ():
            out.setdefault(person, Stats()).cheats += 1
    return out


def _count(stats: Stats, hand: Hand, seat: int) -> None:
    if hand.void:
        stats.void += 1
        return
    if hand.points:
        stats.points += hand.points[seat]
        stats.scored += 1
    _contract(stats, hand, seat)
    mine = hand.side_of(seat)
    if mine is None:
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
