""" "No card at my hidden positions is in F": a blinded comparison in the style of DH private set intersection.

Public: for each of the claimant's hidden positions i, the deck's D_i and the
combined key Kp_i = k_i·B (proved by `keychain.py`, in this claim or an
earlier one); the points P_c of the forbidden cards c in F.

The holder draws one secret a and publishes A_c = a·P_c for every c in F and
R_i = r_i·D_i with r_i = a·k_i⁻¹, so that R_i = a·P*_i with P*_i the card at
i. One linear sigma proof (`sigma.py`) over (a, r_1..r_k) shows

    A_c = a·P_c,   R_i = r_i·D_i,   a·B − r_i·Kp_i = 0,

and the verifier checks that no R_i equals any A_c.

Soundness: the third relation gives a = r_i·k_i, since Kp_i = k_i·B; with
D_i = k_i·P*_i (fixed by the deck's step proofs) R_i = r_i·k_i·P*_i = a·P*_i.
If some P*_i were a forbidden P_c, R_i would be A_c, which is refused. Only
special soundness is used, and no assumption on the card points (a = 0 is
impossible: A_c would be the identity, which has no encoding).

Hiding: everything published is a·P for card points P under one uniform a
(besides a sigma proof, which is honest-verifier zero knowledge). Telling
which card an R_i is means deciding whether R_i = a·P_x given (P_c, a·P_c):
a decisional Diffie–Hellman test, the assumption the deck already rests on.

Cost: about 2|F| + 3k multiplications on each side; 33·(|F| + k) bytes of
points and 32·(k + 2) of proof.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import curve, sigma
from .curve import ORDER
from .sigma import Relation

DOMAIN = b"lacks"


def blinding(context: bytes, statement: Sequence[bytes], nonce_key: bytes | None) -> int:
    """The secret a: random, or drawn from the nonce key over the whole statement (same claim, same a)."""
    if nonce_key is None:
        return curve.random_scalar()
    label = hashlib.sha512(b"briscola-tui/lacks/blinding/v1" + len(context).to_bytes(4, "big") + context)
    for part in statement:
        label.update(part)
    return next(curve.scalar_stream(nonce_key, label.digest()))


def blinded(
    a: int, forbidden: Sequence[bytes], deck: Sequence[bytes], keys: Sequence[int]
) -> tuple[list[bytes], list[bytes], list[int]]:
    """(A, R, r): A_c = a·P_c, R_i = r_i·D_i with r_i = a·k_i⁻¹ (keys = the combined k_i)."""
    rs = [a * pow(k, -1, ORDER) % ORDER for k in keys]
    a_points = [curve.mul_bytes(p, a) for p in forbidden]
    r_points = [curve.mul_bytes(d, r) for d, r in zip(deck, rs)]
    return a_points, r_points, rs


def relations(
    forbidden: Sequence[bytes],
    deck: Sequence[bytes],
    combined: Sequence[bytes],
    a_points: Sequence[bytes],
    r_points: Sequence[bytes],
    first_witness: int,
) -> list[Relation]:
    """The system over witness a (index first_witness) and r_i (the next k indices)."""
    if len(a_points) != len(forbidden) or not (len(r_points) == len(deck) == len(combined)):
        raise ValueError("one blinded point per forbidden card and per position")
    a = first_witness
    out = [Relation(big_a, ((a, p),)) for p, big_a in zip(forbidden, a_points)]
    for n, (d, kp, big_r) in enumerate(zip(deck, combined, r_points)):
        r = first_witness + 1 + n
        out.append(Relation(big_r, ((r, d),)))
        out.append(Relation(None, ((a, curve.GENERATOR_BYTES), (r, sigma.neg_bytes(kp)))))
    return out


def disjoint(a_points: Sequence[bytes], r_points: Sequence[bytes]) -> bool:
    """No R_i equals an A_c: no forbidden card at any of the positions (given the proof)."""
    return not set(a_points) & set(r_points)


def prove(
    context: bytes,
    forbidden: Sequence[bytes],
    deck: Sequence[bytes],
    combined: Sequence[bytes],
    keys: Sequence[int],
    nonce_key: bytes | None = None,
) -> tuple[list[bytes], list[bytes], bytes]:
    """(A, R, proof) on its own, the Kp_i already known; false claims give proofs that fail."""
    a = blinding(context, [*forbidden, *deck, *combined], nonce_key)
    a_points, r_points, rs = blinded(a, forbidden, deck, keys)
    system = relations(forbidden, deck, combined, a_points, r_points, 0)
    return a_points, r_points, sigma.prove(DOMAIN, context, 1 + len(deck), system, [a, *rs], nonce_key)


def check(
    context: bytes,
    forbidden: Sequence[bytes],
    deck: Sequence[bytes],
    combined: Sequence[bytes],
    a_points: Sequence[bytes],
    r_points: Sequence[bytes],
    proof: bytes,
) -> bool:
    """True iff the proof holds and no R_i is an A_c."""
    try:
        system = relations(forbidden, deck, combined, a_points, r_points, 0)
    except ValueError:
        return False
    return disjoint(a_points, r_points) and sigma.verify(DOMAIN, context, 1 + len(deck), system, proof)
