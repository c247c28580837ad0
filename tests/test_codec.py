"""Canonical msgpack, strict decoding, framing and shape checks."""

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.codec import (
    MAX_ARRAY,
    MAX_DEPTH,
    MAX_FRAME,
    MAX_STR,
    decode,
    encode,
    expect_array,
    expect_bytes,
    expect_int,
    expect_list,
    expect_str,
    frame,
    frame_length,
    is_cut_value,
)
from protocol.errors import LocalProtocolError, RemoteProtocolError

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.binary(max_size=64)
    | st.text(max_size=32)
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5), max_leaves=30)


def nested(depth):
    obj = 0
    for _ in range(depth):
        obj = [obj]
    return obj


# --- encode / decode ------------------------------------------------------------


@given(values)
def test_round_trip(value):
    assert decode(encode(value)) == value


@given(values)
def test_canonical_bytes(value):
    data = encode(value)
    assert encode(decode(data)) == data


def test_tuples_encode_as_arrays():
    assert encode((1, b"x", ("a",))) == encode([1, b"x", ["a"]])
    assert decode(encode((1, 2))) == [1, 2]


def test_bool_is_not_int():
    assert encode(True) != encode(1)
    assert decode(encode(True)) is True


@pytest.mark.parametrize(
    "bad",
    [1.5, {}, {"a": 1}, set(), bytearray(b"x"), object(), [1, {1: 2}], 2**64, -(2**63) - 1,
     "\ud800", "x" * (MAX_STR + 1), [0] * (MAX_ARRAY + 1), nested(MAX_DEPTH + 1)],
)
def test_encode_rejects(bad):
    with pytest.raises(LocalProtocolError):
        encode(bad)


def test_encode_accepts_limits():
    for value in ["x" * MAX_STR, [0] * MAX_ARRAY, nested(MAX_DEPTH)]:
        assert decode(encode(value)) == value


def pack(obj):
    return msgpack.packb(obj, use_bin_type=True)


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty"),
        (pack(1.5), "float"),
        (pack({}), ""),
        (pack({"a": 1}), ""),
        (pack([1, {"a": 1}]), ""),
        (pack(msgpack.ExtType(1, b"x")), ""),
        (pack(msgpack.Timestamp(1)), ""),
        (pack(1) + b"\x00", "trailing"),
        (b"\x92\x01", ""),  # truncated array
        (b"\xc1", ""),  # never-used byte
        (b"\xa2\xff\xfe", ""),  # invalid UTF-8
        (pack(nested(MAX_DEPTH + 1)), "deep"),
        (pack("x" * (MAX_STR + 1)), ""),
        (pack([0] * (MAX_ARRAY + 1)), ""),
        (pack(b"x" * (MAX_FRAME + 1)), ""),
        (b"\xcc\x05", "non-canonical"),  # 5 as uint8 instead of fixint
        (b"\xd9\x01a", "non-canonical"),  # "a" as str8
        (b"\xdc\x00\x01\x01", "non-canonical"),  # [1] as array16
        (b"\xc4\x01a", ""),  # fine: bin8 is the shortest bin
    ],
)
def test_decode_rejects(data, reason):
    if data == b"\xc4\x01a":
        assert decode(data) == b"a"
        return
    with pytest.raises(RemoteProtocolError) as info:
        decode(data)
    assert reason in info.value.reason


def test_decode_wrong_type_is_local_error():
    with pytest.raises(LocalProtocolError):
        decode("not bytes")


def test_decode_very_deep_input():
    data = b"\x91" * 100_000 + b"\x00"
    with pytest.raises(RemoteProtocolError):
        decode(data)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200))
def test_decode_fuzz_only_protocol_errors(data):
    try:
        value = decode(data)
    except RemoteProtocolError:
        return
    assert encode(value) == data


@given(values, st.data())
def test_decode_mutations_only_protocol_errors(value, data):
    raw = bytearray(encode(value))
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] = data.draw(st.integers(0, 255))
    try:
        decode(bytes(raw))
    except RemoteProtocolError:
        pass


# --- framing ------------------------------------------------------------------------


def test_frame_layout():
    assert frame(b"abc") == b"\x00\x00\x00\x03abc"


@pytest.mark.parametrize("payload", [b"", b"x" * (MAX_FRAME + 1), "str"])
def test_frame_rejects(payload):
    with pytest.raises(LocalProtocolError):
        frame(payload)


def test_frame_length():
    assert frame_length(b"\x00\x00\x01\x00") == 256
    assert frame_length(MAX_FRAME.to_bytes(4, "big")) == MAX_FRAME
    with pytest.raises(RemoteProtocolError, match="zero-length"):
        frame_length(bytes(4))
    with pytest.raises(RemoteProtocolError, match="over the"):
        frame_length((MAX_FRAME + 1).to_bytes(4, "big"))


@given(values)
def test_every_strict_prefix_of_a_value_is_cut(value):
    data = encode(value)
    assert all(is_cut_value(data[:i]) for i in range(len(data)))
    assert not is_cut_value(data)
    assert not is_cut_value(data + b"\x00")


@pytest.mark.parametrize("data", [b"\xc1", b"\x01", b"\x92\x01\xc1", b"\xdc\xff\xff"])
def test_malformed_or_whole_is_not_cut(data):
    assert not is_cut_value(data)


# --- shape checks -------------------------------------------------------------


def test_expect_helpers_accept():
    assert expect_array([1, 2], 2, "x") == [1, 2]
    assert expect_list([], 3, "x") == []
    assert expect_int(3, 0, 5, "x") == 3
    assert expect_bytes(b"ab", 2, "x") == b"ab"
    assert expect_bytes(b"ab", (1, 3), "x") == b"ab"
    assert expect_str("ab", 2, "x") == "ab"


@pytest.mark.parametrize(
    "call",
    [
        lambda: expect_array((1, 2), 2, "card"),
        lambda: expect_array([1], 2, "card"),
        lambda: expect_list("ab", 5, "card"),
        lambda: expect_list([1, 2], 1, "card"),
        lambda: expect_int(True, 0, 5, "card"),
        lambda: expect_int(b"1", 0, 5, "card"),
        lambda: expect_int(6, 0, 5, "card"),
        lambda: expect_bytes("ab", 2, "card"),
        lambda: expect_bytes(b"abc", 2, "card"),
        lambda: expect_bytes(b"", (1, 3), "card"),
        lambda: expect_str(b"ab", 5, "card"),
        lambda: expect_str("abc", 2, "card"),
    ],
)
def test_expect_helpers_reject_naming_what(call):
    with pytest.raises(RemoteProtocolError) as info:
        call()
    assert "card" in info.value.reason
