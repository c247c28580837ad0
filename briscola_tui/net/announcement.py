"""What a host tells passers-by on the LAN about its table (issue: tables that find each
other), as the text record of a DNS-SD service: the game, who sits and how many seats are
free, whether spectators may watch and how many do, the host's name, the table's id, the
plate of its join code (joincode.py: the public part that names the table), the protocol
version and the port. Never the secret of the code and never a key: anyone on the LAN reads it.

`properties(announcement)` gives the record's keys and values; `read(properties, port)`
takes a record heard on the LAN back, or None when it is not one this version can use.
Everything in a record is the sender's word: a reader bounds it (each name at most
`engine.text.MAX_NAME` characters, at most `MAX_SEATS` seats, each value at most
`MAX_VALUE` bytes, as DNS-SD allows) and shows it literally."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games import GAMES
from engine.text import MAX_NAME
from protocol.handshake import VERSION

SERVICE = "_briscola._tcp.local."
"""The DNS-SD service type of a briscola table."""
MAX_SEATS = 6
"""The most seats a table has (Briscola for 6)."""
MAX_VALUE = 255
"""Bytes of one value in a DNS-SD text record at most."""
SEPARATOR = "\x1f"
"""Between the names of the seats taken (no name holds it)."""


@dataclass(frozen=True)
class Announcement:
    game: str
    players: int  # the table's seats
    seated: tuple[str, ...]  # the names of the seats taken, in seat order
    spectators: bool  # whether spectators may watch
    host: str  # the host's name
    table: str  # the table's id, in hex
    port: int
    plate: int | None = None  # the join code's public part (None: a code with none, or no code)
    watching: int = 0  # spectators watching now
    version: int = VERSION

    @property
    def free(self) -> int:
        return self.players - len(self.seated)


def properties(a: Announcement) -> dict[str, str]:
    """The text record of `a` (its port goes in the service's own record)."""
    return {
        "v": str(a.version),
        "game": a.game,
        "players": str(a.players),
        "seated": SEPARATOR.join(a.seated),
        "watch": "1" if a.spectators else "0",
        "host": a.host,
        "table": a.table,
        "plate": "" if a.plate is None else str(a.plate),
        "watching": str(a.watching),
    }


def read(record: dict[bytes, bytes | None], port: int) -> Announcement | None:
    """The announcement in a text record heard on the LAN, or None: another version, a game
    this program does not know, or a record that is not one (too long, missing, malformed)."""
    try:
        fields = {k.decode(): (v or b"").decode() for k, v in record.items() if len(v or b"") <= MAX_VALUE}
        version, players = int(fields["v"]), int(fields["players"])
        seated = tuple(name for name in fields["seated"].split(SEPARATOR) if name)
        table = fields["table"]
        bytes.fromhex(table)
        plate = int(fields["plate"]) if fields.get("plate") else None
        watching = int(fields.get("watching") or 0)
    except (KeyError, ValueError, UnicodeDecodeError):
        return None
    if version != VERSION or fields["game"] not in GAMES or not 2 <= players <= MAX_SEATS:
        return None
    if len(seated) > players or len(table) != 32 or not 0 < port < 65536:
        return None
    if not (plate is None or 0 <= plate < 10_000) or not 0 <= watching < 100_000:
        return None
    return Announcement(
        game=fields["game"],
        players=players,
        seated=tuple(name[:MAX_NAME] for name in seated),
        spectators=fields.get("watch") == "1",
        host=fields.get("host", "")[:MAX_NAME],
        table=table,
        port=port,
        plate=plate,
        watching=watching,
    )
