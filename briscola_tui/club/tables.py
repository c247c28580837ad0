"""The tables a club's hosts announce: each host keeps its table's signed record (the same one
as on the LAN, net/announcement.py, with its name at the club in place of addresses) in the
club's key-value bucket under `<host>.<table>`, put again every REANNOUNCE_SECONDS and on every
change, deleted when the table stops taking anyone. The bucket forgets a key not put for
TTL_SECONDS: a dead host leaves the list by itself. A member may put only under its own name
(config.py); a reader trusts a record only as its table key signed it, as on the LAN."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from protocol.identity import Identity
from protocol.tableid import table_id_of

from ..language import _
from ..net.announcement import Announcement, Record, read, signed
from ..net.mdns import Seen
from . import subjects

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.js.client import JetStreamContext
    from nats.js.kv import KeyValue

TTL_SECONDS = 30.0
"""A record not put again for this long is gone from the bucket (a host re-announces every 10 s)."""
REANNOUNCE_SECONDS = 10.0
REFRESH_SECONDS = 1.0
"""How often a host looks at its table for a change to announce."""
MAX_RECORD = 4096
"""A record's bytes at most (a signed record of six seats is well under 1 KiB)."""
MAX_LISTED = 256
"""Tables read from the bucket at most, the newest first."""


def stream_of(club: str) -> str:
    return f"KV_{subjects.bucket(club)}"


async def ensure_bucket(js: JetStreamContext, club: str, replicas: int = 1) -> None:
    """The bucket, made if missing (the keeper's job when the server starts)."""
    from nats.js.api import KeyValueConfig, StorageType
    from nats.js.errors import BucketNotFoundError, NotFoundError

    try:
        await js.key_value(subjects.bucket(club))
    except (BucketNotFoundError, NotFoundError):
        config = KeyValueConfig(
            bucket=subjects.bucket(club),
            history=1,
            ttl=TTL_SECONDS,
            max_value_size=MAX_RECORD,
            storage=StorageType.FILE,
            replicas=replicas,
        )
        await js.create_key_value(config)


def encode(fields: dict[str, str]) -> bytes:
    return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode("utf-8")


def decode(data: bytes) -> Record | None:
    """The record a value holds, checked as on the LAN; None for one that is not a club's record."""
    if len(data) > MAX_RECORD:
        return None
    try:
        fields = json.loads(data)
    except ValueError:
        return None
    if not isinstance(fields, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
        return None
    record = read({k.encode(): v.encode() for k, v in fields.items()}, 0)
    return record if record is not None and record.via else None


async def announce(
    nc: Client,
    club: str,
    member: str,
    now: Callable[[], Announcement],
    identity: Identity,
    say: Callable[[str], None],
) -> None:
    """Keep `now()` in the bucket, signed by the table key, until cancelled; then delete it. A
    table that cannot be listed is said in a line and served all the same."""
    from nats.errors import Error

    kv = None
    sent = now()
    if sent.table != table_id_of(identity.public_bytes).hex():
        say(_("not listed by the club: this table's id is not its key's fingerprint (an older table)"))
        return
    key = subjects.table_key(member, sent.table)
    serial, last = 0, 0.0
    try:
        kv = await nc.jetstream().key_value(subjects.bucket(club))
        while True:
            current = now()
            if serial == 0 or current != sent or time.monotonic() - last >= REANNOUNCE_SECONDS:
                serial += 1
                if await _put(kv, key, encode(signed(current, [], serial, identity, via=member)), serial == 1):
                    if serial == 1:
                        say(_("listed by the club: join with the code alone and --club"))
                    sent, last = current, time.monotonic()
            await asyncio.sleep(REFRESH_SECONDS)
    except (Error, TimeoutError) as error:
        if serial == 0:
            say(_("not listed by the club: {why}").format(why=str(error) or type(error).__name__))
        raise
    finally:
        if kv is not None and serial:
            with contextlib.suppress(Exception):  # (the club gone: the record leaves within TTL_SECONDS)
                await asyncio.shield(asyncio.wait_for(kv.delete(key), 2.0))


async def _put(kv: KeyValue, key: str, record: bytes, first: bool) -> bool:
    """The record put: True; False if the club could not take it now (a node of its cluster
    gone and its bucket between leaders, the connection on its way to another node), to be put
    again at the next look. The first put's failure is raised (the table is not listed)."""
    from nats.errors import Error

    try:
        await kv.put(key, record)
    except (Error, TimeoutError):
        if first:
            raise
        return False
    return True


@dataclass(frozen=True)
class Listed:
    """A table the club lists: as a LAN browser would have seen it, and its host's name there."""

    seen: Seen
    host: str


async def listed(nc: Client, club: str) -> list[Listed]:
    """The tables the club lists now, each checked (its record signed by its table key, put
    under its host's own name), the newest first, at most MAX_LISTED."""
    from nats.errors import Error
    from nats.js.errors import NotFoundError

    js = nc.jetstream()
    stream = stream_of(club)
    info = await js.stream_info(stream)
    found: dict[str, Listed] = {}
    seq = info.state.first_seq
    prefix = f"$KV.{subjects.bucket(club)}."
    while seq <= info.state.last_seq and len(found) < MAX_LISTED:
        try:
            msg = await js.get_msg(stream, seq=seq, subject=f"{prefix}>", next=True)
        except NotFoundError:
            break
        except Error:
            break
        seq = (msg.seq or seq) + 1
        if msg.headers and msg.headers.get("KV-Operation") in ("DEL", "PURGE"):
            continue
        record = decode(msg.data or b"")
        key = (msg.subject or "")[len(prefix) :]
        if record is None or key != subjects.table_key(record.via, record.announcement.table):
            continue
        table = record.announcement.table
        found.pop(table, None)  # (put again: the newer record, later in the stream)
        found[table] = Listed(Seen(record.announcement, (), time.monotonic(), record.serial), record.via)
    return list(reversed(found.values()))
