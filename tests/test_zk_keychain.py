"""The combined key of a held position and its chain (protocol/keychain.py), alone and in a claim."""

from __future__ import annotations

import pytest
from helpers.zkdeck import dealt

from protocol import curve, deck, hidden_claims, keychain, lacks, sigma
from protocol.curve import ORDER
from protocol.errors import LocalProtocolError
from protocol.hidden_claims import ClaimRefused

CTX = b"chain context"


def columns(d, positions):
    return [[d.position_keys[j][i] for j in range(d.n)] for i in positions]


@pytest.mark.parametrize("n", [3, 5])
def test_a_chain_ends_at_the_key_that_locks_the_position(n):
    d = dealt(n)
    for seat in range(n):
        positions = d.positions(seat)
        keys = [d.keys(seat, i) for i in positions]
        chains, proof = keychain.prove(CTX, columns(d, positions), keys, b"k" * 32)
        assert keychain.check(CTX, columns(d, positions), chains, proof)
        for i, ks, chain in zip(positions, keys, chains):
            assert len(chain) == n - 1
            k = keychain.combined_key(ks)
            assert chain[-1] == curve.encode(curve.base_mul(k))
            # (B, Kp, P_c, D_i) is a Diffie–Hellman tuple for the card at i
            assert deck.mul(deck.card_point(d.cards[i]), k) == d.final[i]


@pytest.mark.parametrize("n", [3, 5])
def test_a_chain_with_a_wrong_link_is_refused(n):
    d = dealt(n)
    positions = d.positions(1, 4)
    cols = columns(d, positions)
    keys = [d.keys(1, i) for i in positions]
    chains, proof = keychain.prove(CTX, cols, keys)
    for p in range(len(positions)):
        for j in range(n - 1):
            bad = [list(c) for c in chains]
            bad[p][j] = curve.mul_bytes(bad[p][j], 2)
            assert not keychain.check(CTX, cols, bad, proof)
            # and proved with the wrong link's own "witness": still refused
            wrong = [list(k) for k in keys]
            wrong[p][j + 1] = wrong[p][j + 1] * 2 % ORDER
            forged_chains = [keychain.links(ks, c[0]) for ks, c in zip(wrong, cols)]
            system, xs = keychain._system(cols, forged_chains)
            forged = sigma.prove(keychain.DOMAIN, CTX, xs, system, [x for ks in wrong for x in ks[1:]])
            assert not keychain.check(CTX, cols, forged_chains, forged)


def test_a_chain_is_bound_to_its_positions_keys_and_context():
    d = dealt(3)
    positions = d.positions(0, 3)
    cols = columns(d, positions)
    chains, proof = keychain.prove(CTX, cols, [d.keys(0, i) for i in positions])
    assert not keychain.check(CTX + b"!", cols, chains, proof)
    assert not keychain.check(CTX, columns(d, d.positions(0)[3:6]), chains, proof)  # other positions' keys
    assert not keychain.check(CTX, cols[::-1], chains[::-1], proof)
    assert not keychain.check(CTX, cols[:2], chains[:2], proof)
    assert not keychain.check(CTX, [], [], proof)
    assert not keychain.check(CTX, cols, [c[:-1] for c in chains], proof)


def test_a_claim_returns_the_chained_keys_and_a_later_claim_reuses_them():
    d = dealt(3)
    positions = d.positions(2)
    holding = d.holding(2, positions)
    held = {d.cards[i] for i in positions}
    forbidden = [c for c in range(40) if c not in held][:5]
    ctx = hidden_claims.claim_context(b"table", 1, 2, "act", b"1")
    proof = hidden_claims.prove_lacks(ctx, holding, positions, d.final, d.position_keys, {}, forbidden)
    chained = hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, {}, forbidden, proof)
    assert sorted(chained) == positions
    for i in positions:
        assert chained[i] == curve.encode(curve.base_mul(keychain.combined_key(holding.keys[i])))
    later = positions[2:9]
    proof = hidden_claims.prove_lacks(ctx, holding, later, d.final, d.position_keys, chained, forbidden)
    assert proof[0] == []  # no chain re-sent
    assert hidden_claims.check_lacks(ctx, later, d.final, d.position_keys, chained, forbidden, proof) == {}
    # some chained, some not: only the new ones come back
    some = {i: chained[i] for i in positions[:4]}
    proof = hidden_claims.prove_lacks(ctx, holding, positions, d.final, d.position_keys, some, forbidden)
    assert len(proof[0]) == len(positions) - 4
    new = hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, some, forbidden, proof)
    assert new == {i: chained[i] for i in positions[4:]}


def test_a_claim_that_resends_or_omits_a_chain_is_refused():
    d = dealt(5)
    positions = d.positions(3)
    holding = d.holding(3, positions)
    held = {d.cards[i] for i in positions}
    forbidden = [c for c in range(40) if c not in held][:3]
    ctx = b"ctx"
    first = hidden_claims.prove_lacks(ctx, holding, positions, d.final, d.position_keys, {}, forbidden)
    chained = hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, {}, forbidden, first)
    # re-sent: the first proof again, now that the chains are known
    with pytest.raises(ClaimRefused):
        hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, chained, forbidden, first)
    # omitted: a proof made as if everything were chained, checked by a node that knows none
    later = hidden_claims.prove_lacks(ctx, holding, positions, d.final, d.position_keys, chained, forbidden)
    with pytest.raises(ClaimRefused):
        hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, {}, forbidden, later)
    # one chain left out of the first proof
    short = [first[0][1:], *first[1:]]
    with pytest.raises(ClaimRefused):
        hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, {}, forbidden, short)


def test_a_combined_key_not_the_chain_s_lets_a_renege_pass_the_comparison_alone():
    """Why the chain is needed: with a Kp of its own choosing, a seat that holds a forbidden
    card passes the blinded comparison; the same forgery inside a claim is refused, because
    the chain must end at the Kp the comparison uses."""
    d = dealt(3)
    positions = d.positions(0, 6)
    holding = d.holding(0, positions)
    forbidden = [d.cards[positions[2]]]  # held: the claim is false
    fp, dp = [deck.card_point(c) for c in forbidden], [d.final[i] for i in positions]
    true_keys = [keychain.combined_key(holding.keys[i]) for i in positions]
    fake = list(true_keys)
    fake[2] = fake[2] * 3 % ORDER
    fake_kps = [curve.encode(curve.base_mul(k)) for k in fake]
    a_points, r_points, proof = lacks.prove(CTX, fp, dp, fake_kps, fake)
    assert lacks.check(CTX, fp, dp, fake_kps, a_points, r_points, proof)  # the comparison alone is fooled
    # inside a claim: the fake Kp as the chain's last link (the chain's links then fail)
    ctx = b"claim"
    honest = hidden_claims.prove_lacks(ctx, holding, positions, d.final, d.position_keys, {}, forbidden)
    with pytest.raises(ClaimRefused):
        hidden_claims.check_lacks(ctx, positions, d.final, d.position_keys, {}, forbidden, honest)
    chains = [list(c) for c in honest[0]]
    chains[2][-1] = fake_kps[2]
    bound = hidden_claims._bound(ctx, b"lacks", positions, forbidden, 3)
    keys = [holding.keys[i] for i in positions]
    a = 5
    a_points, r_points, rs = lacks.blinded(a, fp, dp, fake)
    cols = columns(d, positions)
    system, w = hidden_claims._lacks_system(
        positions, dict(zip(positions, cols)), dict(zip(positions, chains)), fp, dp, fake_kps, a_points, r_points
    )
    forged = sigma.prove(hidden_claims.LACKS_DOMAIN, bound, w, system, [x for ks in keys for x in ks[1:]] + [a, *rs])
    with pytest.raises(ClaimRefused):
        hidden_claims.check_lacks(
            ctx, positions, d.final, d.position_keys, {}, forbidden, [chains, a_points, r_points, forged]
        )
    # and a node that was told the fake Kp earlier is not what the honest nodes hold: a prover
    # with its honest Kp on record cannot use the fake one
    on_record = {i: curve.encode(curve.base_mul(k)) for i, k in zip(positions, true_keys)}
    system, w = hidden_claims._lacks_system([], {}, {}, fp, dp, [on_record[i] for i in positions], a_points, r_points)
    forged = sigma.prove(hidden_claims.LACKS_DOMAIN, bound, w, system, [a, *rs])
    with pytest.raises(ClaimRefused):
        hidden_claims.check_lacks(
            ctx, positions, d.final, d.position_keys, on_record, forbidden, [[], a_points, r_points, forged]
        )


def test_the_prover_refuses_a_chained_key_that_is_not_its_own():
    d = dealt(3)
    positions = d.positions(1, 3)
    holding = d.holding(1, positions)
    wrong = {positions[0]: curve.encode(curve.base_mul(7))}
    with pytest.raises(LocalProtocolError):
        hidden_claims.prove_lacks(b"c", holding, positions, d.final, d.position_keys, wrong, [0])
