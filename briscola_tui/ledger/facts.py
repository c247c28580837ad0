"""What the ledger keeps of one verified table: plain frozen data, and its JSON form.

A table is kept once it has verified, whatever file it came from; the ledger's ratings and
statistics are computed from these facts alone, never from a file again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BOT = "bot"
PERSON = "person"


@dataclass(frozen=True)
class Seat:
    """Who held a seat for one hand: `person` is the hex of the identity key (its certificate's,
    or the seat key itself without one); `name` the label the join gave; `level` a computer
    player's level when the identity is that level's key."""

    person: str
    name: str
    level: str = ""


@dataclass(frozen=True)
class Hand:
    """One hand of a table as its audit left it.

    `sides`: the seats that win or lose together (a side of one seat alone), `ranks` each
    side's place (0 first; equal places tie); both empty when the hand rates nobody (void,
    a redeal, nobody called, or one person on two sides). `cheats`: the seats the audit
    named cheats; `absent`: the seats timed out. `contract`: Chiamata's caller, partner, bid
    and success, or Calabresella's soloist, contract and success."""

    number: int
    seats: tuple[Seat, ...]
    score: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    sides: tuple[tuple[int, ...], ...] = ()
    ranks: tuple[int, ...] = ()
    void: bool = False
    cheats: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()
    contract: dict = field(default_factory=dict)

    @property
    def rated(self) -> bool:
        return bool(self.ranks)

    def side_of(self, seat: int) -> int | None:
        """The index of the side `seat` is on, or None."""
        return next((i for i, side in enumerate(self.sides) if seat in side), None)


@dataclass(frozen=True)
class Table:
    """A verified table: its id and last entry's hash (`head`), what was played, when (the
    earliest time a copy of its transcript was written, seconds since the epoch) and its hands.
    `cheats`: people named outside any hand (the first-dealer coin, a seating)."""

    table_id: str
    head: str
    game: str
    players: int
    name: str
    time: float
    hands: tuple[Hand, ...]
    cheats: tuple[str, ...] = ()


def played(table: Table, game: str | None) -> bool:
    """The table is of `game` (None: of any): the ledger's filter by the game a person asks
    for (`--game`, the Club screen's page), never a rule of one game."""
    return game is None or table.game == game


def table_to_json(table: Table) -> dict:
    """A Table as plain JSON values."""
    return {
        "table_id": table.table_id,
        "head": table.head,
        "game": table.game,
        "players": table.players,
        "name": table.name,
        "time": table.time,
        "cheats": list(table.cheats),
        "hands": [_hand_to_json(h) for h in table.hands],
    }


def _hand_to_json(hand: Hand) -> dict:
    return {
        "number": hand.number,
        "seats": [[s.person, s.name, s.level] for s in hand.seats],
        "score": list(hand.score),
        "points": list(hand.points),
        "sides": [list(side) for side in hand.sides],
        "ranks": list(hand.ranks),
        "void": hand.void,
        "cheats": list(hand.cheats),
        "absent": list(hand.absent),
        "contract": dict(hand.contract),
    }


def table_from_json(data: dict) -> Table:
    """The Table `table_to_json` wrote; KeyError, TypeError or ValueError if it is not one."""
    return Table(
        table_id=str(data["table_id"]),
        head=str(data["head"]),
        game=str(data["game"]),
        players=int(data["players"]),
        name=str(data["name"]),
        time=float(data["time"]),
        cheats=tuple(str(c) for c in data["cheats"]),
        hands=tuple(_hand_from_json(h) for h in data["hands"]),
    )


def _hand_from_json(data: dict) -> Hand:
    return Hand(
        number=int(data["number"]),
        seats=tuple(Seat(str(p), str(n), str(lv)) for p, n, lv in data["seats"]),
        score=tuple(int(x) for x in data["score"]),
        points=tuple(int(x) for x in data["points"]),
        sides=tuple(tuple(int(s) for s in side) for side in data["sides"]),
        ranks=tuple(int(r) for r in data["ranks"]),
        void=bool(data["void"]),
        cheats=tuple(int(s) for s in data["cheats"]),
        absent=tuple(int(s) for s in data["absent"]),
        contract=dict(data["contract"]),
    )
