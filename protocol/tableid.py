"""A table's id, derived from its host's table key: self-certifying, as an onion address is.

Each table is hosted with a key of its own (the table key, made when the table is opened
and kept beside its transcript). Its id is the first 16 bytes of SHA-256 over a domain tag
and that key's public half: whoever names the id names the key, and nobody without the
private half can sign a transcript, an announcement or a welcome that a reader takes for
that table's. A copy of a public id under another key is simply another table.

Tables opened before ids were derived (protocol 3 transcripts made before this module)
carry a random id: they still verify, and `derived(table_id, key)` says False for them,
so a reader that needs the id to prove the key (the ledger, a join) tells them apart by
the pair (id, host key) instead.
"""

from __future__ import annotations

import hashlib
import hmac

from .sizes import TABLE_ID_LEN

TABLE_ID_TAG = b"briscola-tui/table-id/v1\x00"


def table_id_of(host_key: bytes) -> bytes:
    """The id of the table whose host signs with the public key `host_key`."""
    return hashlib.sha256(TABLE_ID_TAG + host_key).digest()[:TABLE_ID_LEN]


def derived(table_id: bytes, host_key: bytes) -> bool:
    """True when `table_id` is the id `host_key` makes (the table is self-certifying)."""
    return hmac.compare_digest(table_id, table_id_of(host_key))
