"""What a host tells passers-by on the LAN about its table (issue: tables that find each
other), as the text record of a DNS-SD service: the game, who sits and how many seats are
free, whether spectators may watch and how many do, the host's name, the table's id and its
key, the plate of its join code (joincode.py: the public part that names the table), the
protocol version, the addresses and port it answers on, a serial, and a signature. Never
the secret of the code and never a private key: anyone on the LAN reads it.

A record is self-certifying (issue 44): the table's id is its table key's fingerprint
(protocol/tableid.py), the record carries that key (public) and is signed by it over
everything it says. `signed(announcement, addresses, serial, identity)` gives the record's
keys and values; `read(properties, port)` takes a record heard on the LAN back, checked,
or None when it is not one this version can use or its id, key and signature disagree.
A valid record proves that whoever holds the table key said it (and so that the table is
reachable there, as far as its host knows); it does not prove the host is honest, that
the table is the one a person meant (a plate is anyone's to copy under another key), or
that it is still there (a record is replayed as easily as it is heard).

Everything in a record is the sender's word: a reader bounds it (each name at most
`engine.text.MAX_NAME` characters, at most `MAX_SEATS` seats, each value at most
`MAX_VALUE` bytes, as DNS-SD allows, at most `MAX_ADDRESSES` addresses) and shows it literally."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from engine.games import GAMES
from engine.text import MAX_NAME
from protocol.codec import encode
from protocol.errors import ProtocolError
from protocol.handshake import VERSION
from protocol.identity import Identity, verify
from protocol.tableid import table_id_of

SERVICE = "_briscola._tcp.local."
"""The DNS-SD service type of a briscola table."""
MAX_SEATS = 6
"""The most seats a table has (Briscola for 6)."""
MAX_VALUE = 255
"""Bytes of one value in a DNS-SD text record at most."""
MAX_ADDRESSES = 8
"""Addresses a record names at most (and a browser keeps for one table)."""
SEPARATOR = "\x1f"
"""Between the names of the seats taken (no name holds it)."""
RECORD_TAG = b"briscola-tui/announcement/v1\x00"
"""The domain of a record's signature (no other message of the table key's is one)."""
SERIAL, ADDRESSES, KEY, SIGNATURE, VIA = "n", "addr", "key", "sig", "via"
"""The text record's keys for the serial (it grows with every change), the addresses, the
table's public key, the signature, and (a table through a club, with no address nor port)
the name its host has at the club."""


@dataclass(frozen=True)
class Announcement:
    game: str
    players: int  # the table's seats
    seated: tuple[str, ...]  # the names of the seats taken, in seat order
    spectators: bool  # whether spectators may watch
    host: str  # the host's name
    table: str  # the table's id, in hex: its key's fingerprint
    port: int
    plate: int | None = None  # the join code's public part (None: a code with none, or no code)
    watching: int = 0  # spectators watching now
    version: int = VERSION
    key: str = ""  # the table key's public half, in hex

    @property
    def free(self) -> int:
        return self.players - len(self.seated)


@dataclass(frozen=True)
class Record:
    """A record heard and checked: what the table key signed, where, and its serial."""

    announcement: Announcement
    addresses: tuple[str, ...]
    serial: int
    via: str = ""
    """Through a club: its host's name there (and no addresses)."""


def properties(a: Announcement) -> dict[str, str]:
    """The text record of `a`, unsigned (its port goes in the service's own record)."""
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
        KEY: a.key,
    }


def signed(a: Announcement, addresses: list[str], serial: int, identity: Identity, via: str = "") -> dict[str, str]:
    """The text record of `a`, answering on `addresses` (or through a club, hosted by the member
    `via`), with `serial`, signed by the table key."""
    fields = {**properties(a), KEY: identity.public_bytes.hex(), ADDRESSES: ",".join(addresses), SERIAL: str(serial)}
    if via:
        fields[VIA] = via
    return {**fields, SIGNATURE: identity.sign(signed_bytes(fields, a.port)).hex()}


def signed_bytes(fields: dict[str, str], port: int) -> bytes:
    """What a record's signature covers: every field but the signature, and the port (canonical)."""
    pairs = sorted([key, value] for key, value in fields.items() if key != SIGNATURE)
    return RECORD_TAG + encode([port, pairs])


def read(record: dict[bytes, bytes | None], port: int) -> Record | None:
    """The record heard on the LAN, checked, or None: another version, a game this program
    does not know, a record that is not one (too long, missing, malformed), or one whose id,
    key and signature disagree (nobody holding the table's key said it)."""
    try:
        fields = {k.decode(): (v or b"").decode() for k, v in record.items()}
        if any(len(value.encode()) > MAX_VALUE for value in fields.values()) or len(fields) > 32:
            return None
        via = fields.get(VIA, "")
        announcement = _announcement(fields, port, carried=bool(via))
        addresses = _addresses(fields[ADDRESSES]) if not via else () if not fields[ADDRESSES] and not port else None
        serial = _serial(fields[SERIAL])
        key, signature = bytes.fromhex(fields[KEY]), bytes.fromhex(fields[SIGNATURE])
    except (KeyError, ValueError, UnicodeDecodeError):
        return None
    if announcement is None or addresses is None or serial is None:
        return None
    if len(key) != 32 or announcement.table != table_id_of(key).hex():
        return None  # (an id its key does not make: not that table's)
    try:
        verify(key, signed_bytes(fields, port), signature)
    except ProtocolError:
        return None
    return Record(announcement, addresses, serial, via)


def _announcement(fields: dict[str, str], port: int, carried: bool = False) -> Announcement | None:
    """The announcement in a record's fields (None: one this version cannot use); ValueError
    or KeyError for one malformed."""
    version, players = int(fields["v"]), int(fields["players"])
    seated = tuple(name for name in fields["seated"].split(SEPARATOR) if name)
    table = fields["table"]
    bytes.fromhex(table)
    plate = int(fields["plate"]) if fields.get("plate") else None
    watching = int(fields.get("watching") or 0)
    if version != VERSION or fields["game"] not in GAMES or not 2 <= players <= MAX_SEATS:
        return None
    if len(seated) > players or len(table) != 32 or not (0 < port < 65536 or carried):
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
        key=fields[KEY],
    )


def _addresses(text: str) -> tuple[str, ...] | None:
    """The IPv4 addresses a record names (None: none, too many, or one that is not one)."""
    words = text.split(",")
    if not 0 < len(words) <= MAX_ADDRESSES:
        return None
    try:
        return tuple(str(ipaddress.IPv4Address(word)) for word in words)
    except ValueError:
        return None


def _serial(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= 20 else None
