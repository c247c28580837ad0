"""One Fiat–Shamir proof for any system of linear relations over secp256k1 (Maurer's sigma protocol).

Statement: public points Y_r and G_{r,w}; the prover knows scalars x_w with
Y_r = Σ_w x_w·G_{r,w} for every relation r. A relation may have the identity
on its left (`y` None): that is how "a·B − r·K = 0" is said, the identity
having no encoding.

Proof (c, z_0..z_{W−1}): nonces t_w, commitments T_r = Σ_w t_w·G_{r,w},
c = H(tag, domain, context, statement, T), z_w = t_w − c·x_w mod n. The
verifier recomputes T_r = Σ_w z_w·G_{r,w} + c·Y_r (one sum a relation, no
negation) and the hash. Special soundness: two accepting answers (c, z),
(c', z') to the same T give x_w = (z'_w − z_w)/(c − c') satisfying every relation, so a false system
passes only for the one challenge that would let it pass: 1/n per query to
the hash. Honest-verifier zero knowledge: for any c, uniform z fixes T, so
(c, z) is simulated without the witnesses. The statement hashed is every
relation's Y and every (witness, G) pair in order, so a proof passes for no
other system, context or domain.

Nonces: random, or drawn from `curve.scalar_stream` keyed by a secret nonce
key over a digest of the whole statement and the witnesses (as the step
proofs do): the same statement gives the same bytes, and no two statements
or witnesses ever share a nonce.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from . import curve
from .curve import ORDER, SCALAR_LEN, Point

TAG = b"briscola-tui/sigma/v1"
_NO_POINT = bytes(curve.POINT_LEN)
"""Stands for the identity in the hashed statement (no point encodes to zeros)."""


@dataclass(frozen=True)
class Relation:
    """Y = Σ x_w·G over `terms` ((witness index, encoded G) pairs); `y` None is the identity."""

    y: bytes | None
    terms: tuple[tuple[int, bytes], ...]


def proof_size(n_witnesses: int) -> int:
    """Bytes of a proof over `n_witnesses` scalars: the challenge and one response each."""
    return SCALAR_LEN * (1 + n_witnesses)


def neg_bytes(encoded: bytes) -> bytes:
    """The encoding of −P from that of P (the other y: the prefix's low bit flipped)."""
    return bytes([encoded[0] ^ 1]) + encoded[1:]


def prove(
    domain: bytes,
    context: bytes,
    n_witnesses: int,
    relations: Sequence[Relation],
    witnesses: Sequence[int],
    nonce_key: bytes | None = None,
) -> bytes:
    """The proof that `witnesses` satisfy every relation (for a false system it will not verify).

    The points must be valid encodings (ours or already decoded once);
    ValueError for a bad shape, a witness out of [1, n-1], or a point that is not one."""
    if len(witnesses) != n_witnesses:
        raise ValueError("one witness per index")
    for x in witnesses:
        if not isinstance(x, int) or not 1 <= x < ORDER:
            raise ValueError("witness out of range [1, n-1]")
    statement = _statement(n_witnesses, relations)
    points = _Points()
    if nonce_key is None:
        nonces = [curve.random_scalar() for _ in range(n_witnesses)]
    else:
        secret = hashlib.sha512(b"".join(x.to_bytes(SCALAR_LEN, "big") for x in witnesses)).digest()
        label = hashlib.sha512(TAG + domain + _prefixed(context) + statement + secret).digest()
        stream = curve.scalar_stream(nonce_key, label)
        nonces = [next(stream) for _ in range(n_witnesses)]
    commitments = [_combination(points, r.terms, nonces) for r in relations]
    c = _challenge(domain, context, statement, commitments)
    responses = [(t - c * x) % ORDER for t, x in zip(nonces, witnesses)]
    return b"".join(v.to_bytes(SCALAR_LEN, "big") for v in [c, *responses])


def verify(domain: bytes, context: bytes, n_witnesses: int, relations: Sequence[Relation], proof: bytes) -> bool:
    """True iff `proof` shows the system holds for this domain and context.

    False for a proof of the wrong size, a scalar out of [1, n-1], a point
    that does not decode, or an identity on the way (no honest proof meets one)."""
    if not isinstance(proof, bytes) or len(proof) != proof_size(n_witnesses):
        return False
    values = [int.from_bytes(proof[i : i + SCALAR_LEN], "big") for i in range(0, len(proof), SCALAR_LEN)]
    if not all(0 < v < ORDER for v in values):
        return False
    c, responses = values[0], values[1:]
    points = _Points()
    try:
        statement = _statement(n_witnesses, relations)
        commitments = [
            _combination(points, r.terms, responses, None if r.y is None else curve.mul(points.get(r.y), c))
            for r in relations
        ]
    except ValueError:  # a bad shape, a bad encoding (PointError) or an identity
        return False
    return c == _challenge(domain, context, statement, commitments)


class _Points:
    """Decoded points and their products by one scalar vector, each computed once."""

    def __init__(self) -> None:
        self._decoded: dict[bytes, Point] = {}
        self._products: dict[tuple[int, bytes], Point] = {}

    def get(self, encoded: bytes) -> Point:
        point = self._decoded.get(encoded)
        if point is None:
            point = self._decoded[encoded] = curve.decode(encoded)
        return point

    def product(self, w: int, encoded: bytes, scalar: int) -> Point:
        """scalar·G, shared by every relation with the same (witness, G) term."""
        key = (w, encoded)
        out = self._products.get(key)
        if out is None:
            if encoded == curve.GENERATOR_BYTES:
                out = curve.base_mul(scalar)
            else:
                out = curve.mul(self.get(encoded), scalar)
            self._products[key] = out
        return out


def _combination(
    points: _Points, terms: tuple[tuple[int, bytes], ...], scalars: Sequence[int], extra: Point | None = None
) -> Point:
    """Σ scalars[w]·G over the terms (plus `extra`), with one addition at most."""
    if not terms:
        raise ValueError("a relation needs at least one term")
    products = [points.product(w, g, scalars[w]) for w, g in terms]
    if extra is not None:
        products.append(extra)
    return products[0] if len(products) == 1 else curve.add(*products)


def _statement(n_witnesses: int, relations: Sequence[Relation]) -> bytes:
    """The system as bytes, fixed widths throughout (so one encoding, one system)."""
    if not 1 <= n_witnesses < 1 << 16 or len(relations) >= 1 << 16:
        raise ValueError("a system of 1 to 65535 witnesses and fewer than 65536 relations")
    parts = [n_witnesses.to_bytes(2, "big"), len(relations).to_bytes(2, "big")]
    for r in relations:
        if len(r.terms) >= 1 << 16:
            raise ValueError("too many terms in one relation")
        parts.append(_NO_POINT if r.y is None else _point_bytes(r.y))
        parts.append(len(r.terms).to_bytes(2, "big"))
        for w, g in r.terms:
            if not isinstance(w, int) or not 0 <= w < n_witnesses:
                raise ValueError("a term names a witness that does not exist")
            parts.append(w.to_bytes(2, "big") + _point_bytes(g))
    return b"".join(parts)


def _point_bytes(encoded: bytes) -> bytes:
    if not isinstance(encoded, bytes) or len(encoded) != curve.POINT_LEN:
        raise ValueError("a point is 33 bytes")
    return encoded


def _prefixed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _challenge(domain: bytes, context: bytes, statement: bytes, commitments: Sequence[Point]) -> int:
    return curve.hash_to_scalar(TAG, domain, context, statement, b"".join(curve.encode(t) for t in commitments))
