"""The secp256k1 group, through coincurve (libsecp256k1): the one place that touches points.

A point travels as its 33-byte compressed encoding and nothing else:
`decode` refuses every other length and prefix (libsecp256k1 would also
parse the 65-byte uncompressed and hybrid forms of the same point), refuses
an x-coordinate at or above the field prime, and compares the re-serialised
point with the bytes given. The identity has no encoding here and can never
be produced: coincurve cannot hold it, and a sum or product that would give
it raises `PointError`. The group has prime order and cofactor 1, so every
point that decodes generates the whole group; there is no small subgroup to
check for.

Scalars are Python ints. Everything that multiplies takes a scalar in
[1, n-1] and refuses any other (0 and n would give the identity); whatever
computes one reduces it mod n first. A scalar read from the wire must be
below n already (`scalar_from_bytes`): one scalar, one encoding.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator

from coincurve import PublicKey

ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""n, the prime order of the secp256k1 group."""
FIELD = 2**256 - 2**32 - 977
"""p, the prime of the base field."""
POINT_LEN = 33
SCALAR_LEN = 32

Point = PublicKey
"""A decoded, valid, non-identity point (coincurve's parsed form)."""


class PointError(ValueError):
    """Bytes that are not the one encoding of a point, or an identity result."""


def decode(data: bytes) -> Point:
    """The point whose compressed encoding is `data`; PointError for anything else."""
    if not isinstance(data, bytes) or len(data) != POINT_LEN or data[0] not in (2, 3):
        raise PointError("not a 33-byte compressed secp256k1 point")
    try:
        point = PublicKey(data)
    except ValueError:
        raise PointError("not a point on secp256k1") from None
    if point.format() != data:  # pragma: no cover - libsecp256k1 refuses x >= p itself
        raise PointError("not the canonical encoding of its point")
    return point


def encode(point: Point) -> bytes:
    return point.format()


def _check_scalar(k: int) -> bytes:
    if not isinstance(k, int) or not 1 <= k < ORDER:
        raise ValueError("scalar out of range [1, n-1]")
    return k.to_bytes(SCALAR_LEN, "big")


def mul(point: Point, k: int) -> Point:
    """k·P for k in [1, n-1] (never the identity: the order is prime)."""
    return point.multiply(_check_scalar(k))


def base_mul(k: int) -> Point:
    """k·B, B the group's generator."""
    return PublicKey.from_secret(_check_scalar(k))


def add(*points: Point) -> Point:
    """The sum of the points; PointError if it is the identity."""
    try:
        return PublicKey.combine_keys(list(points))
    except ValueError:
        raise PointError("the sum is the identity") from None


def neg(point: Point) -> Point:
    """-P: the same x with the other y (the prefix's low bit flipped)."""
    data = point.format()
    return PublicKey(bytes([data[0] ^ 1]) + data[1:])


def sub(a: Point, b: Point) -> Point:
    """a - b; PointError if a == b."""
    return add(a, neg(b))


def mul_bytes(data: bytes, k: int) -> bytes:
    """k·P from encoding to encoding (the deck's one hot operation)."""
    return decode(data).multiply(_check_scalar(k)).format()


GENERATOR = base_mul(1)
GENERATOR_BYTES = encode(GENERATOR)


def hash_to_point(tag: bytes, data: bytes) -> Point:
    """Try-and-increment: the first x = SHA-256(tag ‖ data ‖ counter (4 bytes BE))
    below p that is the x of a point, with even y. Nobody knows its discrete log."""
    counter = 0
    while True:
        digest = hashlib.sha256(tag + data + counter.to_bytes(4, "big")).digest()
        if int.from_bytes(digest, "big") < FIELD:
            try:
                return PublicKey(b"\x02" + digest)
            except ValueError:
                pass
        counter += 1


def hash_to_scalar(tag: bytes, *parts: bytes) -> int:
    """SHA-512 over the tag and length-prefixed parts, mod n (bias below 2^-256)."""
    h = hashlib.sha512(len(tag).to_bytes(2, "big") + tag)
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return int.from_bytes(h.digest(), "big") % ORDER


def random_scalar() -> int:
    """A uniform scalar in [1, n-1]."""
    return secrets.randbelow(ORDER - 1) + 1


def scalar_stream(key: bytes, label: bytes) -> Iterator[int]:
    """Endless scalars in [1, n-1] from SHA-512(key ‖ label ‖ counter), mod n.

    A prover's nonces derived from a secret key and the whole statement
    (as RFC 6979 does for signatures): the same step gives the same proof
    bytes, so a seat rebuilt after a crash signs what it signed before, and
    no two statements ever share a nonce.
    """
    counter = 0
    while True:
        digest = hashlib.sha512(key + len(label).to_bytes(4, "big") + label + counter.to_bytes(8, "big")).digest()
        counter += 1
        k = int.from_bytes(digest, "big") % ORDER
        if k:
            yield k


def scalar_from_bytes(data: bytes) -> int:
    """A 32-byte big-endian scalar in [0, n-1]; PointError if out of range."""
    if not isinstance(data, bytes) or len(data) != SCALAR_LEN:
        raise PointError("a scalar is 32 bytes")
    k = int.from_bytes(data, "big")
    if k >= ORDER:
        raise PointError("scalar not below the group order")
    return k
