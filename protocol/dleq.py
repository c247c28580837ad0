"""Chaum–Pedersen proof of equal discrete logarithms, made non-interactive (Fiat–Shamir).

Statement, for public points A, X, C, Y: the prover knows m with X = m·A and
Y = m·C (log_A X == log_C Y).

Proof (c, s): r random, R1 = r·A, R2 = r·C, c = H(tag, context, A, X, C, Y,
R1, R2), s = r + c·m mod n. The verifier recomputes R1 = s·A − c·X and
R2 = s·C − c·Y and the hash. Soundness: two accepting answers (c, s) and
(c', s') to the same (R1, R2) give m = (s − s')/(c − c') with X = m·A and
Y = m·C; a false statement passes only if the one challenge that would
let it pass comes out of the hash: probability 1/n per query to the hash
(n ≈ 2^256). Honest-verifier zero knowledge: (c, s) uniform, R1, R2 fixed
by them. Cost: 2 multiplications to prove, 4 and 2 subtractions to check.
"""

from __future__ import annotations

from . import curve
from .curve import ORDER, Point

TAG = b"briscola-tui/dleq/v1"
PROOF_LEN = 2 * curve.SCALAR_LEN


def prove(context: bytes, a: Point, x: Point, c: Point, y: Point, m: int, r: int | None = None) -> bytes:
    """A 64-byte proof that log_a x == log_c y == m (m in [1, n-1]); `r`: the
    nonce, secret and never used for another statement (random if None)."""
    r = curve.random_scalar() if r is None else r
    challenge = _challenge(context, a, x, c, y, curve.mul(a, r), curve.mul(c, r))
    response = (r + challenge * m) % ORDER
    return challenge.to_bytes(32, "big") + response.to_bytes(32, "big")


def verify(context: bytes, a: Point, x: Point, c: Point, y: Point, proof: bytes) -> bool:
    """True iff `proof` shows log_a x == log_c y for this context."""
    if not isinstance(proof, bytes) or len(proof) != PROOF_LEN:
        return False
    challenge, response = int.from_bytes(proof[:32], "big"), int.from_bytes(proof[32:], "big")
    if not (0 < challenge < ORDER and 0 < response < ORDER):
        return False
    try:
        r1 = curve.sub(curve.mul(a, response), curve.mul(x, challenge))
        r2 = curve.sub(curve.mul(c, response), curve.mul(y, challenge))
    except ValueError:  # an identity on the way: no honest proof gives one
        return False
    return challenge == _challenge(context, a, x, c, y, r1, r2)


def _challenge(context: bytes, *points: Point) -> int:
    return curve.hash_to_scalar(TAG, context, *(curve.encode(p) for p in points))
