"""The linear sigma proof (protocol/sigma.py) and the OR proof (protocol/orproof.py)."""

from __future__ import annotations

import random

import pytest

from protocol import curve, orproof, sigma
from protocol.curve import ORDER
from protocol.sigma import Relation

CTX = b"test context"
DOMAIN = b"test"


def point(rng: random.Random) -> bytes:
    return curve.encode(curve.base_mul(rng.randrange(1, ORDER)))


def system(rng: random.Random):
    """Three witnesses; relations of one, two and three terms, one with the identity on the left."""
    xs = [rng.randrange(1, ORDER) for _ in range(3)]
    g = [point(rng) for _ in range(6)]
    terms = [((0, g[0]),), ((0, g[1]), (1, g[2])), ((0, g[3]), (1, g[4]), (2, g[5]))]
    rels = [Relation(_combine(t, xs), t) for t in terms]
    # x0·B − x1·(x0/x1·B) = 0: the form of lacks' third relation
    k = xs[0] * pow(xs[1], -1, ORDER) % ORDER
    rels.append(Relation(None, ((0, curve.GENERATOR_BYTES), (1, sigma.neg_bytes(curve.encode(curve.base_mul(k)))))))
    return rels, xs


def _combine(terms, xs) -> bytes:
    return curve.encode(curve.add(*(curve.mul(curve.decode(g), xs[w]) for w, g in terms)))


def flip(data: bytes, index: int, bit: int = 1) -> bytes:
    return data[:index] + bytes([data[index] ^ bit]) + data[index + 1 :]


# --- sigma -------------------------------------------------------------------------------


@pytest.mark.parametrize("nonce_key", [None, b"k" * 32])
def test_a_true_system_is_accepted(nonce_key):
    rels, xs = system(random.Random(1))
    proof = sigma.prove(DOMAIN, CTX, 3, rels, xs, nonce_key)
    assert len(proof) == sigma.proof_size(3)
    assert sigma.verify(DOMAIN, CTX, 3, rels, proof)


def test_a_wrong_witness_is_refused():
    rels, xs = system(random.Random(2))
    for w in range(3):
        bad = list(xs)
        bad[w] = bad[w] % (ORDER - 1) + 1
        assert not sigma.verify(DOMAIN, CTX, 3, rels, sigma.prove(DOMAIN, CTX, 3, rels, bad))


def test_a_false_relation_is_refused():
    rng = random.Random(3)
    rels, xs = system(rng)
    proof = sigma.prove(DOMAIN, CTX, 3, rels, xs)
    for r in range(len(rels) - 1):  # every Y replaced by another point
        other = list(rels)
        other[r] = Relation(point(rng), rels[r].terms)
        assert not sigma.verify(DOMAIN, CTX, 3, other, proof)
        assert not sigma.verify(DOMAIN, CTX, 3, other, sigma.prove(DOMAIN, CTX, 3, other, xs))


def test_the_proof_is_bound_to_its_domain_context_and_statement():
    rng = random.Random(4)
    rels, xs = system(rng)
    proof = sigma.prove(DOMAIN, CTX, 3, rels, xs)
    assert not sigma.verify(b"other", CTX, 3, rels, proof)
    assert not sigma.verify(DOMAIN, CTX + b"!", 3, rels, proof)
    assert not sigma.verify(DOMAIN, CTX, 3, rels[:-1], proof)  # fewer relations
    assert not sigma.verify(DOMAIN, CTX, 3, [*rels, rels[0]], proof)  # more
    assert not sigma.verify(DOMAIN, CTX, 4, rels, proof + bytes(31) + b"\x01")  # another witness count
    swapped = [Relation(rels[1].y, tuple((1 - w if w < 2 else w, g) for w, g in rels[1].terms)), *rels[2:]]
    assert not sigma.verify(DOMAIN, CTX, 3, [rels[0], *swapped], proof)


def test_every_byte_of_a_proof_matters():
    rels, xs = system(random.Random(5))
    proof = sigma.prove(DOMAIN, CTX, 3, rels, xs)
    for i in range(len(proof)):
        assert not sigma.verify(DOMAIN, CTX, 3, rels, flip(proof, i))
    assert not sigma.verify(DOMAIN, CTX, 3, rels, proof[:-1])
    assert not sigma.verify(DOMAIN, CTX, 3, rels, proof + b"\x00")


def test_scalars_out_of_range_are_refused():
    rels, xs = system(random.Random(6))
    proof = sigma.prove(DOMAIN, CTX, 3, rels, xs)
    for i in range(4):
        for bad in (bytes(32), ORDER.to_bytes(32, "big"), b"\xff" * 32):
            assert not sigma.verify(DOMAIN, CTX, 3, rels, proof[: 32 * i] + bad + proof[32 * i + 32 :])


def test_a_point_that_does_not_decode_is_refused_not_raised():
    rels, xs = system(random.Random(7))
    proof = sigma.prove(DOMAIN, CTX, 3, rels, xs)
    for bad in (b"\x04" + bytes(32), b"\x02" + b"\xff" * 32, b"\x02" * 5):
        assert not sigma.verify(DOMAIN, CTX, 3, [Relation(bad, rels[0].terms), *rels[1:]], proof)
        assert not sigma.verify(DOMAIN, CTX, 3, [Relation(rels[0].y, ((0, bad),)), *rels[1:]], proof)


def test_nonces_from_a_key_are_deterministic_and_statement_bound():
    rng = random.Random(8)
    rels, xs = system(rng)
    key = b"n" * 32
    one = sigma.prove(DOMAIN, CTX, 3, rels, xs, key)
    assert one == sigma.prove(DOMAIN, CTX, 3, rels, xs, key)
    assert one[32:] != sigma.prove(DOMAIN, CTX + b"2", 3, rels, xs, key)[32:]
    assert one != sigma.prove(DOMAIN, CTX, 3, rels, xs, b"m" * 32)
    assert sigma.prove(DOMAIN, CTX, 3, rels, xs) != sigma.prove(DOMAIN, CTX, 3, rels, xs)


def test_misuse_is_a_value_error():
    rels, xs = system(random.Random(9))
    with pytest.raises(ValueError):
        sigma.prove(DOMAIN, CTX, 3, rels, xs[:2])
    with pytest.raises(ValueError):
        sigma.prove(DOMAIN, CTX, 3, rels, [0, *xs[1:]])
    with pytest.raises(ValueError):
        sigma.prove(DOMAIN, CTX, 3, [Relation(rels[0].y, ((5, rels[0].terms[0][1]),))], xs)


# --- the OR proof ------------------------------------------------------------------------


def or_statement(rng: random.Random, k: int, index: int):
    bases = [point(rng) for _ in range(k)]
    s = rng.randrange(1, ORDER)
    return curve.mul_bytes(bases[index], s), bases, s


@pytest.mark.parametrize("k", [1, 2, 5])
def test_an_or_proof_is_accepted_whichever_branch_is_true(k):
    rng = random.Random(k)
    for index in range(k):
        target, bases, s = or_statement(rng, k, index)
        for key in (None, b"k" * 32):
            proof = orproof.prove(CTX, target, bases, index, s, key)
            assert len(proof) == orproof.proof_size(k)
            assert orproof.verify(CTX, target, bases, proof)


def test_an_or_proof_without_a_true_branch_is_refused():
    rng = random.Random(10)
    target, bases, s = or_statement(rng, 4, 2)
    for index in range(4):
        if index != 2:  # the right secret for another branch's base
            assert not orproof.verify(CTX, target, bases, orproof.prove(CTX, target, bases, index, s))
    assert not orproof.verify(CTX, target, bases, orproof.prove(CTX, target, bases, 2, s + 1))
    others = [point(rng) for _ in range(4)]
    assert not orproof.verify(CTX, target, others, orproof.prove(CTX, target, others, 2, s))


def test_an_or_proof_is_bound_and_every_byte_matters():
    rng = random.Random(11)
    target, bases, s = or_statement(rng, 3, 1)
    proof = orproof.prove(CTX, target, bases, 1, s)
    assert not orproof.verify(CTX + b"!", target, bases, proof)
    assert not orproof.verify(CTX, point(rng), bases, proof)
    assert not orproof.verify(CTX, target, bases[::-1], proof)
    assert not orproof.verify(CTX, target, bases[:2], proof[:128])
    assert not orproof.verify(CTX, target, [], b"")
    for i in range(len(proof)):
        assert not orproof.verify(CTX, target, bases, flip(proof, i))


def test_an_or_proof_verifies_from_either_witness_of_the_same_statement():
    """When both branches are true, a proof from either passes: the verifier cannot require one."""
    rng = random.Random(12)
    logs = [rng.randrange(1, ORDER) for _ in range(2)]
    bases = [curve.encode(curve.base_mul(x)) for x in logs]
    s0 = rng.randrange(1, ORDER)
    target = curve.encode(curve.base_mul(logs[0] * s0 % ORDER))
    s1 = logs[0] * s0 * pow(logs[1], -1, ORDER) % ORDER
    assert orproof.verify(CTX, target, bases, orproof.prove(CTX, target, bases, 0, s0))
    assert orproof.verify(CTX, target, bases, orproof.prove(CTX, target, bases, 1, s1))
