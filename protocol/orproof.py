"""An OR of Schnorr statements (Cramer, Damgård and Schoenmakers, 1994), made non-interactive.

Statement, for a public target P and bases D_0..D_{k−1}: the prover knows s
with P = s·D_i for *some* i, and the proof does not say which.

Proof (c_0..c_{k−1}, z_0..z_{k−1}): for every branch j but the true one t,
c_j and z_j are drawn at random and T_j = z_j·D_j + c_j·P (the simulator of
a Schnorr proof); for t, T_t = w·D_t. Then c = H(tag, context, P, D, T),
c_t = c − Σ_{j≠t} c_j and z_t = w − c_t·s. The verifier recomputes every
T_j = z_j·D_j + c_j·P (one addition, no negation) and checks Σ c_j = H(...). Soundness: two accepting
proofs for the same T with different c differ in some c_j, and that
branch's two answers give s with P = s·D_j (special soundness); so a
prover who knows no such s for any branch passes only for one challenge in
n. Witness indistinguishability is perfect: whatever t, the c_j are uniform
given their sum and each z_j uniform given c_j. 64 bytes a branch;
2 multiplications a branch on each side.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import curve
from .curve import ORDER, SCALAR_LEN, Point

TAG = b"briscola-tui/or-proof/v1"
BRANCH_LEN = 2 * SCALAR_LEN


def proof_size(k: int) -> int:
    """Bytes of an OR proof over k branches."""
    return k * BRANCH_LEN


def prove(
    context: bytes,
    target: bytes,
    bases: Sequence[bytes],
    index: int,
    secret: int,
    nonce_key: bytes | None = None,
) -> bytes:
    """The proof that target = secret·bases[index] for some index (false: it will not verify).

    ValueError for an index out of the branches, a secret out of [1, n-1] or a
    point that does not decode (our own inputs, not the wire's)."""
    k = len(bases)
    if not 0 <= index < k:
        raise ValueError("the true branch is not one of the bases")
    if not isinstance(secret, int) or not 1 <= secret < ORDER:
        raise ValueError("secret out of range [1, n-1]")
    p, ds = curve.decode(target), [curve.decode(d) for d in bases]
    if nonce_key is None:
        draws = [curve.random_scalar() for _ in range(2 * k - 1)]
    else:
        label = hashlib.sha512(
            TAG + _statement(context, target, bases) + index.to_bytes(2, "big") + secret.to_bytes(SCALAR_LEN, "big")
        ).digest()
        stream = curve.scalar_stream(nonce_key, label)
        draws = [next(stream) for _ in range(2 * k - 1)]
    w, rest = draws[0], iter(draws[1:])
    cs, zs, ts = [0] * k, [0] * k, []
    for j in range(k):
        if j == index:
            ts.append(curve.mul(ds[j], w))
        else:
            cs[j], zs[j] = next(rest), next(rest)
            ts.append(curve.add(curve.mul(ds[j], zs[j]), curve.mul(p, cs[j])))
    c = _challenge(context, target, bases, ts)
    cs[index] = (c - sum(cs)) % ORDER
    zs[index] = (w - cs[index] * secret) % ORDER
    return b"".join(c_j.to_bytes(SCALAR_LEN, "big") + z_j.to_bytes(SCALAR_LEN, "big") for c_j, z_j in zip(cs, zs))


def verify(context: bytes, target: bytes, bases: Sequence[bytes], proof: bytes) -> bool:
    """True iff `proof` shows target = s·bases[i] for some i and a known s, in this context."""
    k = len(bases)
    if k == 0 or not isinstance(proof, bytes) or len(proof) != proof_size(k):
        return False
    values = [int.from_bytes(proof[i : i + SCALAR_LEN], "big") for i in range(0, len(proof), SCALAR_LEN)]
    if not all(0 < v < ORDER for v in values):
        return False
    cs, zs = values[0::2], values[1::2]
    try:
        p = curve.decode(target)
        ts = [curve.add(curve.mul(curve.decode(d), z), curve.mul(p, c)) for d, c, z in zip(bases, cs, zs)]
    except ValueError:  # a bad encoding or an identity: no honest proof meets one
        return False
    return sum(cs) % ORDER == _challenge(context, target, bases, ts)


def _statement(context: bytes, target: bytes, bases: Sequence[bytes]) -> bytes:
    return len(context).to_bytes(4, "big") + context + target + len(bases).to_bytes(2, "big") + b"".join(bases)


def _challenge(context: bytes, target: bytes, bases: Sequence[bytes], commitments: Sequence[Point]) -> int:
    return curve.hash_to_scalar(TAG, context, target, b"".join(bases), b"".join(curve.encode(t) for t in commitments))
