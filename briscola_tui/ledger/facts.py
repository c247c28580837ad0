"""What the ledger keeps of one verified table: plain frozen data, and its JSON form.

A table is kept once it has verified, whatever file it came from; the ledger's ratings and
statistics are computed from these facts alone, never from a file again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from protocol.tableid import derived

BOT = "bot"
PERSON = "person"


@dataclass(frozen=True)
class Seat:
    """Who held a seat for one hand: `person` is the hex of the identity key (its certificate's,
    or the seat key itself without one; for a computer seat, its level's key); `name` the label
    the join gave; `level` a computer player's level; `runner` the hex of the identity key of
    the person who ran that computer player ("" when unknown: an older transcript certified it
    with the level's public key, which anyone holds)."""

    person: str
    name: str
    level: str = ""
    runner: str = ""

    @property
    def vouched_by(self) -> str:
        """Whose word this seat's results rest on: the person, or who ran the computer player
        ("" when nobody known)."""
        return self.runner if self.level else self.person


@dataclass(frozen=True)
class Contract:
    """What the ledger keeps of a hand's contract, read from the game's result (its replay form,
    `engine.facts.Result.json`, the keys below): Chiamata's caller, partner, target, card called
    and success; Calabresella's soloist, contract and success; nothing for Briscola. None: the
    game has no such fact. `json()` is the ledger file's form, as it has always been written."""

    caller: int | None = None
    partner: int | None = None
    target: int | None = None
    called: str | None = None
    soloist: int | None = None
    contract: str | None = None
    success: bool | None = None

    KEYS: ClassVar[tuple[str, ...]] = ("caller", "partner", "target", "called", "soloist", "contract", "success")

    @classmethod
    def of(cls, result: Mapping[str, object]) -> Contract:
        """The contract in a result's replay form (other keys left out)."""
        return cls.from_json({k: v for k, v in result.items() if k in cls.KEYS})

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Contract:
        """The contract `json()` wrote; TypeError or ValueError when it is none."""
        extra = set(data) - set(cls.KEYS)
        if extra:
            raise ValueError(f"unknown contract keys {sorted(extra)}")
        contract = cls(**{k: data[k] for k in cls.KEYS if k in data})  # type: ignore[arg-type]
        if contract.json() != dict(data):
            raise ValueError("not a contract as the ledger writes it")
        return contract

    def json(self) -> dict[str, object]:
        """The ledger file's form: the keys the result had (Chiamata's partner even when None)."""
        out = {k: getattr(self, k) for k in self.KEYS}
        return {k: v for k, v in out.items() if v is not None or (k == "partner" and self.caller is not None)}


NO_CONTRACT = Contract()


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
    contract: Contract = field(default_factory=lambda: NO_CONTRACT)

    @property
    def rated(self) -> bool:
        return bool(self.ranks)

    def side_of(self, seat: int) -> int | None:
        """The index of the side `seat` is on, or None."""
        return next((i for i, side in enumerate(self.sides) if seat in side), None)


@dataclass(frozen=True)
class Table:
    """A verified table: its id, its host's key (hex) and last entry's hash (`head`), what was
    played, when (the earliest time a copy of its transcript was written, seconds since the
    epoch) and its hands. `cheats`: people named outside any hand (the first-dealer coin, a
    seating). A table is the pair (id, host key): a copy of a public id under another key is
    another table, or none (`claims_its_id`)."""

    table_id: str
    host_key: str
    head: str
    game: str
    players: int
    name: str
    time: float
    hands: tuple[Hand, ...]
    cheats: tuple[str, ...] = ()

    @property
    def identity(self) -> tuple[str, str]:
        return (self.table_id, self.host_key)

    @property
    def claims_its_id(self) -> bool:
        """The id is the host key's own (protocol/tableid.py): no other key can make a table of
        that id. False for tables made before ids were derived (their id was random)."""
        return id_is_key(self.table_id, self.host_key)


def id_is_key(table_id: str, host_key: str) -> bool:
    """The table id (hex) is the one the host key (hex) makes: see `Table.claims_its_id`."""
    return derived(bytes.fromhex(table_id), bytes.fromhex(host_key))


def played(table: Table, game: str | None) -> bool:
    """The table is of `game` (None: of any): the ledger's filter by the game a person asks
    for (`--game`, the Club screen's page), never a rule of one game."""
    return asked(table.game, game)


def asked(name: str, game: str | None) -> bool:
    """The game called `name` is the one asked for (`game`; None: any), as `played` filters."""
    return game is None or name == game


def table_to_json(table: Table) -> dict:
    """A Table as plain JSON values."""
    return {
        "table_id": table.table_id,
        "host_key": table.host_key,
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
        "seats": [[s.person, s.name, s.level, s.runner] for s in hand.seats],
        "score": list(hand.score),
        "points": list(hand.points),
        "sides": [list(side) for side in hand.sides],
        "ranks": list(hand.ranks),
        "void": hand.void,
        "cheats": list(hand.cheats),
        "absent": list(hand.absent),
        "contract": hand.contract.json(),
    }


def table_from_json(data: dict) -> Table:
    """The Table `table_to_json` wrote; KeyError, TypeError or ValueError if it is not one."""
    return Table(
        table_id=_hex(data["table_id"], 16),
        host_key=_hex(data["host_key"], 32),
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
        seats=tuple(Seat(str(p), str(n), str(lv), str(r)) for p, n, lv, r in data["seats"]),
        score=tuple(int(x) for x in data["score"]),
        points=tuple(int(x) for x in data["points"]),
        sides=tuple(tuple(int(s) for s in side) for side in data["sides"]),
        ranks=tuple(int(r) for r in data["ranks"]),
        void=bool(data["void"]),
        cheats=tuple(int(s) for s in data["cheats"]),
        absent=tuple(int(s) for s in data["absent"]),
        contract=Contract.from_json(data["contract"]),
    )


def _hex(value: object, size: int) -> str:
    """`value` if it is the hex of `size` bytes; ValueError otherwise."""
    if not isinstance(value, str) or len(bytes.fromhex(value)) != size:
        raise ValueError(f"expected {size} bytes in hex")
    return value
