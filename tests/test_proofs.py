"""The proofs on every deck step: each accepts honest steps and refuses every cheat.

The group (`protocol.curve`): one encoding per point, no identity. The
Chaum–Pedersen proof (`protocol.dleq`), the phase-1 shuffle argument
(`protocol.shuffle_proof`, cross-checked against a simple cut-and-choose
proof of the same statement on random decks) and their binding to a step
(`protocol.stepproofs`): a proof from another table, hand, seat, phase or
deck fails. At the table: a commit with a key that is no point is refused.
"""

from __future__ import annotations

import hashlib
import random
import secrets

import pytest
from coincurve import PublicKey
from helpers.cheaters import random_choosers, seat_sessions

from protocol import curve, dleq, stepproofs
from protocol import deck as mp
from protocol.curve import ORDER, PointError
from protocol.local import LocalTable
from protocol.session import TableSession
from protocol.shuffle_proof import ShuffleProof, size
from protocol.shuffle_proof import prove as prove_shuffle
from protocol.shuffle_proof import verify as verify_shuffle

# --- the group -------------------------------------------------------------------


def a_point() -> bytes:
    return curve.encode(curve.base_mul(curve.random_scalar()))


def other_encodings(encoded: bytes) -> list[bytes]:
    """Every other way of writing the same point that libsecp256k1 itself would parse."""
    full = PublicKey(encoded).format(compressed=False)
    hybrid = bytes([6 + (encoded[0] & 1)]) + full[1:]
    return [full, hybrid]


def test_a_point_has_one_encoding():
    encoded = a_point()
    assert curve.encode(curve.decode(encoded)) == encoded
    for other in other_encodings(encoded):
        PublicKey(other)  # the library accepts it...
        with pytest.raises(PointError):
            curve.decode(other)  # ...we do not


@pytest.mark.parametrize(
    "bad",
    [
        b"",
        bytes(33),
        b"\x02" + bytes(32),  # x = 0 is not on the curve; the "identity" has no encoding
        b"\x04" + bytes(32),
        b"\x00" + b"\x01" * 32,
        b"\x05" + b"\x11" * 32,  # wrong prefixes
        b"\x02" + curve.FIELD.to_bytes(32, "big"),  # x = p: the encoding of x = 0 plus p
        b"\x02" + (curve.FIELD + 7).to_bytes(32, "big"),  # x >= p, else a valid x
        b"\x02" + b"\xff" * 32,
        b"\x03" + b"\xff" * 32,
        b"\x02" + bytes(31),
        b"\x02" + bytes(33),  # wrong lengths
        "02" * 33,
        None,
        12345,
    ],
)
def test_invalid_or_non_canonical_encodings_are_refused(bad):
    with pytest.raises(PointError):
        curve.decode(bad)


def test_x_not_on_the_curve_is_refused():
    x = next(x for x in range(1, 100) if not _on_curve(x))
    with pytest.raises(PointError):
        curve.decode(b"\x02" + x.to_bytes(32, "big"))


def _on_curve(x: int) -> bool:
    try:
        PublicKey(b"\x02" + x.to_bytes(32, "big"))
        return True
    except ValueError:
        return False


def test_the_identity_never_appears():
    p = curve.decode(a_point())
    with pytest.raises(PointError):
        curve.sub(p, p)
    with pytest.raises(PointError):
        curve.add(p, curve.neg(p))
    with pytest.raises(ValueError):
        curve.mul(p, ORDER)  # n·P would be the identity: the scalar is refused
    with pytest.raises(ValueError):
        curve.mul(p, 0)


def test_scalars_lie_in_range_and_have_one_encoding():
    p = curve.decode(a_point())
    for bad in (0, ORDER, ORDER + 3, -1):
        with pytest.raises(ValueError):
            curve.mul(p, bad)
    assert curve.encode(curve.mul(p, (ORDER + 3) % ORDER)) == curve.encode(curve.mul(p, 3))
    assert curve.scalar_from_bytes((ORDER - 1).to_bytes(32, "big")) == ORDER - 1
    for bad in (ORDER.to_bytes(32, "big"), (ORDER + 3).to_bytes(32, "big"), bytes(31), bytes(33)):
        with pytest.raises(PointError):
            curve.scalar_from_bytes(bad)
    s = mp.SeatSecrets(bytes(32))
    assert all(1 <= s.card_key(i) < ORDER for i in range(40)) and 1 <= s.phase1_key < ORDER


def test_card_points_are_hashed_points_with_even_y():
    points = [mp.card_point(c) for c in range(40)]
    assert len(set(points)) == 40 and all(p[0] == 2 and curve.encode(curve.decode(p)) == p for p in points)
    expected = curve.encode(curve.hash_to_point(mp.CARD_TAG, (7).to_bytes(2, "big")))
    assert points[7] == expected


# --- Chaum–Pedersen ------------------------------------------------------------------


def dleq_statement(m: int):
    a, c = curve.decode(a_point()), curve.decode(a_point())
    return a, curve.mul(a, m), c, curve.mul(c, m)


def test_dleq_accepts_the_honest_statement_only():
    m = curve.random_scalar()
    a, x, c, y = dleq_statement(m)
    proof = dleq.prove(b"ctx", a, x, c, y, m)
    assert dleq.verify(b"ctx", a, x, c, y, proof)
    assert not dleq.verify(b"other ctx", a, x, c, y, proof)
    wrong_y = curve.mul(c, m + 1)  # the right key for A, another one for C
    assert not dleq.verify(b"ctx", a, x, c, wrong_y, dleq.prove(b"ctx", a, x, c, wrong_y, m))
    assert not dleq.verify(b"ctx", a, x, y, c, proof)  # roles swapped


@pytest.mark.parametrize(
    "tamper",
    [
        lambda p: p[:31] + bytes([p[31] ^ 1]) + p[32:],  # the challenge
        lambda p: p[:63] + bytes([p[63] ^ 1]),  # the response
        lambda p: bytes(32) + p[32:],  # a zero challenge
        lambda p: p[:32] + bytes(32),  # a zero response
        lambda p: p[:32] + ORDER.to_bytes(32, "big"),  # a response not below n
        lambda p: p[:-1],  # short
        lambda p: p + b"\x00",  # long
    ],
)
def test_dleq_refuses_a_tampered_proof(tamper):
    m = curve.random_scalar()
    a, x, c, y = dleq_statement(m)
    proof = dleq.prove(b"ctx", a, x, c, y, m)
    assert not dleq.verify(b"ctx", a, x, c, y, tamper(proof))


# --- the shuffle argument ---------------------------------------------------------------


def shuffled(m: int, seed: bytes | None = None):
    """(X, Y, K, k, perm): an m-card deck and its honest phase-1 step, as points."""
    s = mp.SeatSecrets(seed or secrets.token_bytes(32))
    start = mp.start_deck(range(m))
    out = mp.shuffle_phase1(start, s)
    return _points(start), _points(out), curve.base_mul(s.phase1_key), s.phase1_key, s.permutation(m)


def _points(deck):
    return [curve.decode(p) for p in deck]


def marked(xs, ys, k, perm):
    bad = list(ys)
    bad[5] = curve.mul(bad[5], 7)  # a point only its maker can follow
    return bad


def substituted(xs, ys, k, perm):
    bad = list(ys)
    bad[5] = curve.mul(curve.decode(mp.card_point(39)), k)  # card 39 is not in a 30-card deck
    return bad


def duplicated(xs, ys, k, perm):
    bad = list(ys)
    bad[1] = bad[0]
    return bad


def other_key(xs, ys, k, perm):
    other = curve.random_scalar()  # the right permutation under another key
    return [curve.mul(xs[perm[j]], other) for j in range(len(xs))]


def swapped(xs, ys, k, perm):
    bad = list(ys)
    bad[0], bad[1] = bad[1], bad[0]  # what the proof's permutation does not say
    return bad


CHEATS = [marked, substituted, duplicated, other_key, swapped]


def test_shuffle_proof_accepts_an_honest_step():
    xs, ys, key, k, perm = shuffled(40)
    proof = prove_shuffle(b"ctx", xs, ys, key, k, perm)
    data = proof.to_bytes()
    assert len(data) == size(40) == 10262
    assert verify_shuffle(b"ctx", xs, ys, key, ShuffleProof.from_bytes(data, 40))


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda f: f.__name__)
def test_shuffle_proof_refuses_each_cheat(cheat):
    """The cheater runs the honest prover on its false statement, with its real key and permutation."""
    xs, ys, key, k, perm = shuffled(30)
    bad = cheat(xs, ys, k, perm)
    assert not verify_shuffle(b"ctx", xs, bad, key, prove_shuffle(b"ctx", xs, bad, key, k, perm))


def test_shuffle_proof_refuses_the_right_shuffle_proved_for_another_committed_key():
    xs, ys, key, k, perm = shuffled(20)
    other = curve.base_mul(curve.random_scalar())
    assert not verify_shuffle(b"ctx", xs, ys, other, prove_shuffle(b"ctx", xs, ys, key, k, perm))
    assert not verify_shuffle(b"ctx", xs, ys, other, prove_shuffle(b"ctx", xs, ys, other, k, perm))


def test_shuffle_proof_is_bound_to_its_decks_and_context():
    xs, ys, key, k, perm = shuffled(20)
    proof = prove_shuffle(b"ctx", xs, ys, key, k, perm)
    assert not verify_shuffle(b"other", xs, ys, key, proof)
    _, ys2, _, _, _ = shuffled(20)
    assert not verify_shuffle(b"ctx", ys2, ys, key, proof)  # another input deck
    assert not verify_shuffle(b"ctx", xs, ys[:-1], key, proof)


def _tampered(proof: ShuffleProof) -> list[ShuffleProof]:
    from dataclasses import replace

    a = list(proof.a)
    a[0], a[1] = a[1], a[0]
    return [
        replace(proof, a=tuple(a)),
        replace(proof, c=(proof.c + 1) % ORDER),
        replace(proof, fk=(proof.fk + 1) % ORDER),
        replace(proof, s1=(proof.s1[0] + 1,) + proof.s1[1:]),
        replace(proof, u=proof.u[:-1] + ((proof.u[-1] + 1) % ORDER,)),
        replace(proof, e=proof.e[1:] + proof.e[:1]),
        replace(proof, b=proof.b[:-1]),
    ]


def test_shuffle_proof_refuses_a_tampered_proof():
    xs, ys, key, k, perm = shuffled(12)
    proof = prove_shuffle(b"ctx", xs, ys, key, k, perm)
    for bad in _tampered(proof):
        assert not verify_shuffle(b"ctx", xs, ys, key, bad)


def test_shuffle_proof_bytes_are_parsed_strictly():
    xs, ys, key, k, perm = shuffled(6)
    data = prove_shuffle(b"ctx", xs, ys, key, k, perm).to_bytes()
    full = PublicKey(data[:33]).format(compressed=False)
    for bad in (
        data[:-1],
        data + b"\x00",
        b"\x04" + data[1:],
        b"\x02" + b"\xff" * 32 + data[33:],
        data[:-32] + ORDER.to_bytes(32, "big"),
    ):
        with pytest.raises(ValueError):
            ShuffleProof.from_bytes(bad, 6)
    with pytest.raises(ValueError):
        ShuffleProof.from_bytes(full + data[33:], 6)
    with pytest.raises(ValueError):
        ShuffleProof.from_bytes(data, 7)


# --- the cross-check: a cut-and-choose proof of the same statement -------------------------


def cc_prove(ctx: bytes, xs, ys, key, k: int, perm: list[int], rounds: int) -> tuple:
    """Cut-and-choose (Fiat–Shamir): round r commits Z = σ(ρ·X), W = ρ·B; bit 0
    opens (ρ, σ); bit 1 opens (ρ/k, π⁻¹∘σ), checked against Y and K."""
    m = len(xs)
    inverse = [0] * m
    for j, i in enumerate(perm):
        inverse[i] = j
    committed, h = [], _cc_header(ctx, xs, ys, key)
    for _ in range(rounds):
        rho, sigma = curve.random_scalar(), random.SystemRandom().sample(range(m), m)
        h.update(_encoded([curve.mul(xs[sigma[j]], rho) for j in range(m)] + [curve.base_mul(rho)]))
        committed.append((rho, sigma))
    digest = h.digest()
    k_inv = pow(k, -1, ORDER)
    return digest, [
        (rho, sigma) if bit == 0 else (rho * k_inv % ORDER, [inverse[sigma[j]] for j in range(m)])
        for bit, (rho, sigma) in zip(_bits(digest, rounds), committed)
    ]


def cc_verify(ctx: bytes, xs, ys, key, proof: tuple, rounds: int) -> bool:
    digest, answers = proof
    m, h = len(xs), _cc_header(ctx, xs, ys, key)
    if len(ys) != m or len(answers) != rounds:
        return False
    for bit, (s, order) in zip(_bits(digest, rounds), answers):
        if sorted(order) != list(range(m)) or not 0 < s < ORDER:
            return False
        source, base = (xs, curve.base_mul(s)) if bit == 0 else (ys, curve.mul(key, s))
        h.update(_encoded([curve.mul(source[order[j]], s) for j in range(m)] + [base]))
    return h.digest() == digest


def _cc_header(ctx, xs, ys, key):
    return hashlib.sha512(b"test cut-and-choose" + ctx + _encoded([*xs, *ys, key]))


def _encoded(points) -> bytes:
    return b"".join(curve.encode(p) for p in points)


def _bits(digest: bytes, rounds: int) -> list[int]:
    return [(digest[r // 8] >> (r % 8)) & 1 for r in range(rounds)]


def test_cut_and_choose_itself_accepts_and_refuses():
    xs, ys, key, k, perm = shuffled(5)
    assert cc_verify(b"c", xs, ys, key, cc_prove(b"c", xs, ys, key, k, perm, 24), 24)
    bad = swapped(xs, ys, k, perm)
    assert not cc_verify(b"c", xs, bad, key, cc_prove(b"c", xs, bad, key, k, perm, 24), 24)


@pytest.mark.parametrize("trial", range(12))
def test_the_shuffle_argument_agrees_with_cut_and_choose_on_random_decks(trial):
    """Random deck sizes, keys and permutations, honest or cheating in a random
    way: both proofs, made by the same prover's algorithm, give the same verdict."""
    rng = random.Random(trial)
    m = rng.randint(6, 12)
    xs, ys, key, k, perm = shuffled(m, bytes([trial]) * 32)
    cheat = rng.choice([None, marked, duplicated, other_key, swapped])
    out = ys if cheat is None else cheat(xs, ys, k, perm)
    rounds = 24  # error 2^-24 for the simple proof, which may live only in tests
    bg = verify_shuffle(b"x", xs, out, key, prove_shuffle(b"x", xs, out, key, k, perm))
    cc = cc_verify(b"x", xs, out, key, cc_prove(b"x", xs, out, key, k, perm, rounds), rounds)
    assert bg == cc == (cheat is None)


# --- a step's proof, bound to its place -----------------------------------------------------------


TABLE = bytes(range(16))


def a_step(phase: int, m: int = 10, seat: int = 1, hand: int = 3):
    """(ctx, keys, deck_in, deck_out, proof, secrets) for an honest step."""
    s = mp.SeatSecrets(secrets.token_bytes(32))
    keys = s.public_keys(m)
    deck_in = mp.start_deck(range(m))
    if phase == 2:
        deck_in = mp.shuffle_phase1(deck_in, mp.SeatSecrets(secrets.token_bytes(32)))
        deck_in = mp.shuffle_phase1(deck_in, s)
    step = mp.shuffle_phase1 if phase == 1 else mp.shuffle_phase2
    deck_out = step(deck_in, s)
    ctx = stepproofs.context(TABLE, hand, seat, phase, keys, deck_in, deck_out)
    return ctx, keys, deck_in, deck_out, stepproofs.prove(ctx, phase, s, keys, deck_in, deck_out), s


@pytest.mark.parametrize("phase", [1, 2])
def test_an_honest_step_passes(phase):
    ctx, keys, deck_in, deck_out, proof, _ = a_step(phase)
    assert len(proof) == stepproofs.proof_size(phase, 10)
    stepproofs.check(ctx, phase, keys, deck_in, deck_out, proof)


@pytest.mark.parametrize("phase", [1, 2])
@pytest.mark.parametrize(
    "elsewhere",
    [
        {"table_id": bytes(16)},
        {"hand": 4},
        {"seat": 2},
        {"phase": None},
    ],
)
def test_a_proof_from_another_table_hand_seat_or_phase_fails(phase, elsewhere):
    ctx, keys, deck_in, deck_out, proof, _ = a_step(phase)
    where = {"table_id": TABLE, "hand": 3, "seat": 1, "phase": phase, **elsewhere}
    if where["phase"] is None:
        where["phase"] = 3 - phase
    other = stepproofs.context(where["table_id"], where["hand"], where["seat"], where["phase"], keys, deck_in, deck_out)
    with pytest.raises(mp.DeckError):
        stepproofs.check(other, phase, keys, deck_in, deck_out, proof)


def test_the_context_binds_the_decks_and_every_key():
    ctx, keys, deck_in, deck_out, _, _ = a_step(2)
    other_keys = (keys[0], (*keys[1][:-1], a_point()))
    variants = [
        stepproofs.context(TABLE, 3, 1, 2, other_keys, deck_in, deck_out),
        stepproofs.context(TABLE, 3, 1, 2, keys, deck_in[::-1], deck_out),
        stepproofs.context(TABLE, 3, 1, 2, keys, deck_in, deck_out[::-1]),
        stepproofs.context(TABLE, 3, 1, 2, (a_point(), keys[1]), deck_in, deck_out),
    ]
    assert ctx not in variants and len(set(variants)) == 4


def test_phase2_refuses_swapped_positions():
    ctx, keys, deck_in, deck_out, _, s = a_step(2)
    bad = list(deck_out)
    bad[3], bad[4] = bad[4], bad[3]
    ctx_bad = stepproofs.context(TABLE, 3, 1, 2, keys, deck_in, bad)
    with pytest.raises(mp.DeckError, match="position 3"):
        stepproofs.check(ctx_bad, 2, keys, deck_in, bad, stepproofs.prove(ctx_bad, 2, s, keys, deck_in, bad))


def test_phase2_refuses_a_re_encryption_with_the_wrong_position_key():
    ctx, keys, deck_in, deck_out, _, s = a_step(2)
    bad = list(deck_out)
    unlock = pow(s.phase1_key, -1, ORDER)
    bad[6] = mp.mul(deck_in[6], s.card_key(7) * unlock % ORDER)  # position 7's key on position 6
    ctx_bad = stepproofs.context(TABLE, 3, 1, 2, keys, deck_in, bad)
    with pytest.raises(mp.DeckError, match="position 6"):
        stepproofs.check(ctx_bad, 2, keys, deck_in, bad, stepproofs.prove(ctx_bad, 2, s, keys, deck_in, bad))


def test_phase1_refuses_a_step_locked_under_another_key_than_the_committed_one():
    ctx, keys, deck_in, _, _, s = a_step(1)
    other = mp.SeatSecrets(secrets.token_bytes(32))
    bad = [mp.mul(deck_in[j], other.phase1_key) for j in s.permutation(len(deck_in))]
    ctx_bad = stepproofs.context(TABLE, 3, 1, 1, keys, deck_in, bad)
    with pytest.raises(mp.DeckError, match="phase-1 shuffle proof fails"):
        stepproofs.check(ctx_bad, 1, keys, deck_in, bad, stepproofs.prove(ctx_bad, 1, s, keys, deck_in, bad))


@pytest.mark.parametrize("phase", [1, 2])
def test_a_tampered_or_cut_step_proof_fails(phase):
    ctx, keys, deck_in, deck_out, proof, _ = a_step(phase)
    for bad in (proof[:-1], proof + b"\x00", proof[:-1] + bytes([proof[-1] ^ 1]), bytes(len(proof))):
        with pytest.raises(mp.DeckError):
            stepproofs.check(ctx, phase, keys, deck_in, deck_out, bad)


def test_a_public_share_is_checked_against_the_committed_position_key():
    s = mp.SeatSecrets(secrets.token_bytes(32))
    _, position_keys = s.public_keys(40)
    share = mp.key_share(s, 9)
    assert mp.check_share(position_keys[9], share)
    assert not mp.check_share(position_keys[9], share * 3 % ORDER)
    assert not mp.check_share(position_keys[8], share)
    assert not mp.check_share(b"\x02" + b"\xff" * 32, share)


# --- at the table ------------------------------------------------------------------------


class BadDeckKey(TableSession):
    """Commits a position key that is no curve point."""

    def make_commit(self):
        from dataclasses import replace

        message = super().make_commit()
        keys = list(message.position_keys)
        keys[3] = b"\x02" + b"\xff" * 32
        return replace(message, position_keys=tuple(keys))


def test_a_commit_with_a_key_that_is_no_point_is_refused_at_once():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=seat_sessions(2, {1: BadDeckKey}))
    table.run(max_hands=1)
    (ordered,) = table.refused
    assert ordered.refused.culprit == 1 and "deck key that is not a curve point" in ordered.refused.reason
    host = table.host.session
    assert host.phase == "aborted" and 1 not in host.hand.commits
    assert {c.seat for c in host.verdicts[-1].culprits} == {1}


@pytest.mark.parametrize("phase", [1, 2])
def test_a_step_proof_is_the_same_bytes_each_time_it_is_made(phase):
    """A seat rebuilt after a crash must sign what it signed before: the nonces are derived."""
    ctx, keys, deck_in, deck_out, proof, s = a_step(phase)
    again = mp.SeatSecrets(s.seed)
    assert stepproofs.prove(ctx, phase, again, keys, deck_in, deck_out) == proof
    other = stepproofs.context(TABLE, 4, 1, phase, keys, deck_in, deck_out)
    assert stepproofs.prove(other, phase, again, keys, deck_in, deck_out) != proof


class KeysOfAnotherSeed(TableSession):
    """Commits to one seed but plays the whole hand with the keys of another
    (every step proved against the keys it committed), and reveals the first."""

    def make_commit(self):
        from dataclasses import replace

        message = super().make_commit()
        self.committed_seed, self.secrets = self.secrets.seed, mp.SeatSecrets(secrets.token_bytes(32))
        phase1_key, position_keys = self.secrets.public_keys(self.plan.size)
        return replace(message, phase1_key=phase1_key, position_keys=position_keys)

    def make_reveal(self):
        from protocol.messages import Reveal

        message = super().make_reveal()
        return None if message is None else Reveal(message.hand, self.committed_seed)

    def pair_key(self, other: int) -> bytes:
        """Sealing stays with the committed seed's key (its commit publishes that U): only the deck keys lie."""
        from protocol.sealing import hand_pair_key

        their = self.hand.commits[other][0].seal_key
        u = mp.SeatSecrets(self.committed_seed).seal_key
        return hand_pair_key(self.transcript.table_id, self.hand.number, self.seat, u, other, their)


def test_deck_keys_that_are_not_the_seeds_are_named_at_the_audit():
    table = LocalTable(
        "briscola", 2, {}, choosers=random_choosers(2), sessions=seat_sessions(2, {0: KeysOfAnotherSeed})
    )
    table.run(max_hands=1)
    assert not table.refused and not table.failures  # every step was proved against the keys it committed
    host = table.host.session
    assert host.hand.moves and host.phase == "aborted"
    (culprit,) = host.verdicts[-1].culprits
    assert culprit.seat == 0 and "committed deck keys are not the ones its seed gives" in culprit.reason
    assert culprit.entry == host.hand.commits[0][1]


def _uncompressed(point: bytes) -> bytes:
    return PublicKey(point).format(compressed=False)


@pytest.mark.parametrize(
    "spoil, reason",
    [
        (lambda p: _uncompressed(p), "deck card: expected 33 bytes"),  # the same point, 65 bytes
        (lambda p: bytes([6 + (p[0] & 1)]) + _uncompressed(p)[1:], "deck card: expected 33 bytes"),  # hybrid
        (lambda p: b"\x04" + p[1:], "not a curve point"),  # a 33-byte value with another prefix
        (
            lambda p: bytes([p[0] ^ 1]) + p[1:],
            "phase-1 shuffle proof fails",
        ),  # the point's negation: valid, not the card
        (lambda p: b"\x02" + curve.FIELD.to_bytes(32, "big"), "not a curve point"),  # x = p
    ],
    ids=["uncompressed", "hybrid", "prefix-04", "negated", "x-equals-p"],
)
def test_a_deck_with_another_encoding_or_an_invalid_point_is_refused_at_once(spoil, reason):
    from briscola_tui.tools.deck_cheats import ShuffleSpoiler

    cls = type("Encoder", (ShuffleSpoiler,), {"spoil": lambda self, deck: deck.__setitem__(0, spoil(deck[0]))})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=seat_sessions(2, {1: cls}))
    table.run(max_hands=1)
    (ordered,) = table.refused
    assert ordered.refused.culprit == 1 and reason in ordered.refused.reason, ordered.refused.reason
    host = table.host.session
    assert [seat for seat, _, _ in host.hand.shuffles] == [0] and host.phase == "aborted"
    assert {c.seat for c in host.verdicts[-1].culprits} == {1}
