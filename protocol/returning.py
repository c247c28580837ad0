"""A returning seat's mark in its hello: a tag only the table's host can read as that seat's.

A player coming back to its table names its seat in its first frame, before the join code
is checked, so that its wrong-code tries are its own and not its address's, and so that an
outsider on the same address (one NAT, one SSH server) cannot keep it out. That first frame
goes in the clear. It once carried the seat key's signature, which anybody holding the
transcript could check against each seat's key: whoever watched the wire learned who was
connecting. Now it carries a tag: an HMAC over the hello, keyed by the static Diffie-Hellman
of the seat's key and the host's table key, each taken in its X25519 form (the map from an
Ed25519 key to the same curve's Montgomery form, as libsodium's `ed25519_pk_to_curve25519`
and age's ssh-ed25519 recipients use it). Only the two holders of those private keys can
compute the key; to anyone else the tag is random bytes, unlinkable to any key or to the
seat's other hellos.

A client that has sat at several tables lately does not know which one it is reaching
before the exchange: it sends one tag for each (at most `MAX_TAGS`), and the host tries its
seated keys against each.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from .identity import Identity

TAG = b"briscola-tui/returning/v1\x00"
TAG_LEN = 16
MAX_TAGS = 4
_P = 2**255 - 19


def montgomery(ed_public: bytes) -> X25519PublicKey:
    """The X25519 form of an Ed25519 public key: u = (1 + y) / (1 - y) mod p (ValueError for
    a point with no such form)."""
    y = int.from_bytes(ed_public, "little") & ((1 << 255) - 1)
    if y >= _P or y == 1:
        raise ValueError("not a usable public key")
    u = (1 + y) * pow(1 - y, _P - 2, _P) % _P
    return X25519PublicKey.from_public_bytes(u.to_bytes(32, "little"))


def _private(identity: Identity) -> X25519PrivateKey:
    """The X25519 form of an Ed25519 private key: the first half of SHA-512 of its seed
    (X25519 clamps it, as Ed25519 does)."""
    return X25519PrivateKey.from_private_bytes(hashlib.sha512(identity.seed()).digest()[:32])


def shared_key(mine: Identity, theirs: bytes, seat_key: bytes, host_key: bytes) -> bytes | None:
    """The key a seat and its host share (None where `theirs` has no usable X25519 form)."""
    try:
        secret = _private(mine).exchange(montgomery(theirs))
    except ValueError:  # (a low-order point: the exchange gives zero, which X25519 refuses)
        return None
    return hashlib.sha256(TAG + secret + seat_key + host_key).digest()


def tag(key: bytes, hello: bytes) -> bytes:
    """The tag of the hello bytes `hello` under a shared key."""
    return hmac.new(key, TAG + hello, hashlib.sha256).digest()[:TAG_LEN]


def seat_tag(seat: Identity, host_key: bytes, hello: bytes) -> bytes | None:
    """The tag a seat holding `seat` puts in a hello to the host whose table key is `host_key`."""
    key = shared_key(seat, host_key, seat.public_bytes, host_key)
    return None if key is None else tag(key, hello)


def tags_of(data: bytes) -> list[bytes]:
    """The tags in a hello's tag field (their concatenation)."""
    return [data[i : i + TAG_LEN] for i in range(0, len(data) - TAG_LEN + 1, TAG_LEN)]


def marked(tags: Iterable[bytes], keys: Iterable[tuple[bytes, bytes]], hello: bytes) -> bytes:
    """Which seat key made one of `tags`, given (seat key, shared key) pairs (b"": none)."""
    tags = list(tags)
    for seat_key, key in keys:
        expected = tag(key, hello)
        if any(hmac.compare_digest(expected, t) for t in tags):
            return seat_key
    return b""
