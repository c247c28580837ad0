"""Identities, signatures and sealed messages."""

import os
import stat

import pytest

from protocol.deck import SeatSecrets
from protocol.errors import RemoteProtocolError
from protocol.identity import (
    Identity,
    KeyFileError,
    seal,
    sign_message,
    unseal,
    verify,
    verify_message,
)
from protocol.sealing import key_from_shared, shared_point


def test_sign_and_verify():
    me = Identity.generate()
    sig = me.sign(b"data")
    assert len(me.public_bytes) == 32 and len(sig) == 64
    verify(me.public_bytes, b"data", sig)


@pytest.mark.parametrize(
    "public, data, sig",
    [
        ("other", b"data", "good"),
        ("mine", b"date", "good"),
        ("mine", b"data", "flipped"),
        ("mine", b"data", "short"),
        ("short", b"data", "good"),
    ],
)
def test_verify_rejects(public, data, sig):
    me, other = Identity.generate(), Identity.generate()
    good = me.sign(b"data")
    sigs = {"good": good, "flipped": bytes([good[0] ^ 1]) + good[1:], "short": good[:63]}
    keys = {"mine": me.public_bytes, "other": other.public_bytes, "short": b"\x01" * 31}
    with pytest.raises(RemoteProtocolError) as info:
        verify(keys[public], data, sigs[sig])
    assert info.value.reason == "bad signature"


def test_message_signatures_are_domain_separated():
    me = Identity.generate()
    sig = sign_message(me, b"payload")
    verify_message(me.public_bytes, b"payload", sig)
    with pytest.raises(RemoteProtocolError):
        verify(me.public_bytes, b"payload", sig)
    with pytest.raises(RemoteProtocolError):
        verify_message(me.public_bytes, b"payload", me.sign(b"payload"))


def test_save_load(tmp_path):
    path = tmp_path / "id.pem"
    me = Identity.generate()
    me.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Identity.load(path).public_bytes == me.public_bytes
    me2 = Identity.generate()
    me2.save(path)  # overwrite keeps mode
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Identity.load(path).public_bytes == me2.public_bytes


def test_save_ignores_umask(tmp_path):
    old = os.umask(0)
    try:
        Identity.generate().save(tmp_path / "k")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "k").st_mode) == 0o600


@pytest.mark.parametrize("content", [b"", b"hello", b"-----BEGIN PRIVATE KEY-----\nxx\n"])
def test_load_rejects_non_key(tmp_path, content):
    path = tmp_path / "bad"
    path.write_bytes(content)
    with pytest.raises(KeyFileError) as info:
        Identity.load(path)
    assert "bad" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_load_rejects_other_key_type(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (tmp_path / "ec").write_bytes(pem)
    with pytest.raises(KeyFileError, match="Ed25519"):
        Identity.load(tmp_path / "ec")


def test_load_or_create(tmp_path):
    path = tmp_path / "conf" / "briscola" / "identity.pem"
    first = Identity.load_or_create(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Identity.load_or_create(path).public_bytes == first.public_bytes


def test_repr_hides_private_key():
    from cryptography.hazmat.primitives import serialization

    me = Identity.generate()
    raw = me._private.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    text = repr(me) + str(me)
    assert raw.hex() not in text
    assert me.public_bytes.hex() in repr(me)


# --- sealing ------------------------------------------------------------------


def seeds():
    return os.urandom(32), os.urandom(32), os.urandom(32)


def test_sealing_key_from_seed_is_deterministic():
    seed = os.urandom(32)
    a, b = SeatSecrets(seed), SeatSecrets(seed)
    assert a.seal_public == b.seal_public and len(a.seal_public) == 33
    assert SeatSecrets(os.urandom(32)).seal_public != a.seal_public


def test_both_sides_derive_same_key_and_third_party_cannot_unseal():
    a, b, c = (SeatSecrets(s) for s in seeds())
    ab = key_from_shared(shared_point(a.seal_key, b.seal_public), b"table|0|1")
    ba = key_from_shared(shared_point(b.seal_key, a.seal_public), b"table|0|1")
    assert ab == ba and len(ab) == 32
    assert key_from_shared(shared_point(a.seal_key, b.seal_public), b"other") != ab
    sealed = seal(ab, b"secret share", b"aad")
    assert unseal(ba, sealed, b"aad") == b"secret share"
    for eve in (shared_point(c.seal_key, a.seal_public), shared_point(c.seal_key, b.seal_public)):
        with pytest.raises(RemoteProtocolError, match="does not open"):
            unseal(key_from_shared(eve, b"table|0|1"), sealed, b"aad")


def test_seal_uses_fresh_nonces():
    key = os.urandom(32)
    assert seal(key, b"x", b"") != seal(key, b"x", b"")


def test_tampering_detected():
    key = os.urandom(32)
    sealed = seal(key, b"secret share", b"aad")
    for i in range(len(sealed)):
        bad = bytearray(sealed)
        bad[i] ^= 0x01
        with pytest.raises(RemoteProtocolError, match="does not open"):
            unseal(key, bytes(bad), b"aad")
    with pytest.raises(RemoteProtocolError):
        unseal(key, sealed, b"other aad")
    with pytest.raises(RemoteProtocolError):
        unseal(key, sealed[:20], b"aad")
    with pytest.raises(RemoteProtocolError):
        unseal(key, sealed[:-1], b"aad")


def test_bad_sealing_public():
    a = SeatSecrets(os.urandom(32))
    for bad in (b"\x02" + b"\xff" * 32, b"\x04" + a.seal_public[1:], a.seal_public[:-1], bytes(33)):
        with pytest.raises(RemoteProtocolError, match="not a curve point"):
            shared_point(a.seal_key, bad)
