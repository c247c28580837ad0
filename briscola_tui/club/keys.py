"""Members' credentials: NATS user nkeys (Ed25519). A member holds the seed; the server's
configuration holds only the public key, and a connection proves the seed by signing the
server's nonce, so the seed never crosses the wire and the server's files reveal none."""

from __future__ import annotations

import re
import secrets

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}\Z")
"""A club's or a member's name: lowercase letters, digits, '-' and '_', at most 32 (it is a
token of NATS subjects, so no dot, space or wildcard)."""


class BadKey(ValueError):
    """Not a NATS user seed."""


def new_seed() -> str:
    """A new user nkey seed ("SU...")."""
    import nkeys

    return bytes(nkeys.encode_seed(secrets.token_bytes(32), nkeys.PREFIX_BYTE_USER)).decode("ascii")


def public_key(seed: str) -> str:
    """The user public key ("U...") of `seed`; BadKey if it is not a user seed."""
    import nkeys

    if not seed.startswith("SU"):
        raise BadKey(seed[:2])
    try:
        pair = nkeys.from_seed(bytearray(seed.encode("ascii")))
        return bytes(pair.public_key).decode("ascii")
    except (nkeys.NkeysError, ValueError, UnicodeError) as error:
        raise BadKey(type(error).__name__) from None


def checked_public_key(key: str) -> str:
    """`key` if it is a user public key ("U...", as `briscola club members` prints one);
    BadKey otherwise (a seed, a typo, a key of another kind)."""
    import base64

    import nkeys

    key = key.strip()
    try:
        raw = base64.b32decode(key + "=" * (-len(key) % 8))
    except ValueError:
        raise BadKey(key[:2]) from None
    if len(raw) != 35 or raw[0] != nkeys.PREFIX_BYTE_USER or nkeys.crc16_checksum(raw[:-2]) != raw[-2:]:
        raise BadKey(key[:2])
    return key
