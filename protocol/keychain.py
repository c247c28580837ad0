"""The combined key of a held position, published with a chain that proves it.

Position i of the final deck holds D_i = k_i·P_c with k_i = Π_j k_{j,i}, the
product of every seat's committed key K_{j,i} = k_{j,i}·B (`deck.py`). Its
holder knows every k_{j,i} (the other seats' shares are their inverses), so
it can publish Kp_i = k_i·B and prove it without opening anything:

- the chain M_0 = K_{0,i}, M_j = k_{j,i}·M_{j−1} for j = 1..n−1, so that
  M_{n−1} = Kp_i; the holder publishes M_1..M_{n−1};
- one linear sigma proof (`sigma.py`) that log_B K_{j,i} = log_{M_{j−1}} M_j
  for every j ≥ 1: the relations K_{j,i} = x·B and M_j = x·M_{j−1} with one
  witness x = k_{j,i} per link, every position of a claim under one challenge.

Soundness: the extracted x is log_B K_{j,i} = k_{j,i} (B has prime order),
so by induction M_j = (k_{0,i}·…·k_{j,i})·B and Kp_i = k_i·B with the same
k_i the deck's step proofs put into D_i: (B, Kp_i, P_c, D_i) is then a
Diffie–Hellman tuple for exactly the card at i. Hiding: M_j is a product of
committed keys in the exponent of B; given the K_{j,i} it is a DDH value
and opens no card (that needs the holder's own key as a scalar, which
never leaves it). (n−1)·33 bytes of chain and (n−1) responses a position.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import curve, sigma
from .curve import ORDER
from .sigma import Relation

DOMAIN = b"keychain"


def links(keys: Sequence[int], first_key: bytes) -> list[bytes]:
    """M_1..M_{n−1} for one position: keys = [k_{0,i}, ..., k_{n−1,i}], first_key = K_{0,i}."""
    out, previous = [], first_key
    for k in keys[1:]:
        previous = curve.mul_bytes(previous, k)
        out.append(previous)
    return out


def combined_key(keys: Sequence[int]) -> int:
    """k_i = Π_j k_{j,i} mod n: the scalar that locks the position."""
    out = 1
    for k in keys:
        out = out * k % ORDER
    return out


def combined_point(column: Sequence[bytes], chain: Sequence[bytes]) -> bytes:
    """Kp_i: the chain's last link (K_{0,i} itself when one seat holds every key)."""
    return chain[-1] if chain else column[0]


def relations(column: Sequence[bytes], chain: Sequence[bytes], first_witness: int) -> list[Relation]:
    """The links of one position: K_{j,i} = x·B and M_j = x·M_{j−1}, witness first_witness + j − 1.

    `column` = [K_{0,i}, ..., K_{n−1,i}] as committed; `chain` = M_1..M_{n−1}."""
    if len(chain) != len(column) - 1:
        raise ValueError("a chain has one link for every seat after the first")
    out = []
    previous = column[0]
    for j in range(1, len(column)):
        w = first_witness + j - 1
        out.append(Relation(column[j], ((w, curve.GENERATOR_BYTES),)))
        out.append(Relation(chain[j - 1], ((w, previous),)))
        previous = chain[j - 1]
    return out


def witnesses(keys: Sequence[int]) -> list[int]:
    """The scalars of one position's links: k_{1,i}..k_{n−1,i}."""
    return list(keys[1:])


def prove(
    context: bytes, columns: Sequence[Sequence[bytes]], keys: Sequence[Sequence[int]], nonce_key: bytes | None = None
) -> tuple[list[list[bytes]], bytes]:
    """(chains, proof) for the positions whose committed keys are `columns`, holder's keys `keys`.

    On its own, for the tests and any caller that sends chains apart from a
    claim; `hidden_claims` puts the same relations under one challenge with
    the claim's."""
    chains = [links(ks, column[0]) for column, ks in zip(columns, keys)]
    system, xs = _system(columns, chains)
    wit = [x for ks in keys for x in witnesses(ks)]
    return chains, sigma.prove(DOMAIN, context, xs, system, wit, nonce_key)


def check(context: bytes, columns: Sequence[Sequence[bytes]], chains: Sequence[Sequence[bytes]], proof: bytes) -> bool:
    """True iff every chain links its position's committed keys (then the last links are the Kp_i)."""
    if len(chains) != len(columns) or not columns:
        return False
    try:
        system, xs = _system(columns, chains)
    except ValueError:
        return False
    return sigma.verify(DOMAIN, context, xs, system, proof)


def _system(columns: Sequence[Sequence[bytes]], chains: Sequence[Sequence[bytes]]) -> tuple[list[Relation], int]:
    system: list[Relation] = []
    w = 0
    for column, chain in zip(columns, chains):
        system += relations(column, chain, w)
        w += len(column) - 1
    return system, w
