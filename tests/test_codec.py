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
    FrameReader,
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
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.binary(max_size=64) | st.text(max_size=32)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5), max_leaves=30)


def nested(depth):
    obj = 0
    for _ in range(depth):
        obj = [obj]
    return obj


# --- encode / decode ------------------------------------------------------------


@pytest.mark.slow
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
    [
        1.5,
        {},
        {"a": 1},
        set(),
        bytearray(b"x"),
        object(),
        [1, {1: 2}],
        2**64,
        -(2**63) - 1,
        "\ud800",
        "x" * (MAX_STR + 1),
        [0] * (MAX_ARRAY + 1),
        nested(MAX_DEPTH + 1),
    ],
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


def test_reader_splits_and_joins():
    data = frame(b"one") + frame(b"two") + frame(b"x" * MAX_FRAME)
    reader = FrameReader()
    out = []
    for i in range(0, len(data), 7):
        reader.feed(data[i : i + 7])
        out += reader.frames()
    assert out == [b"one", b"two", b"x" * MAX_FRAME]
    assert reader.next_frame() is None
    assert reader.pending == 0


def test_reader_incomplete():
    reader = FrameReader()
    reader.feed(b"\x00\x00")
    assert reader.next_frame() is None
    reader.feed(b"\x00\x02a")
    assert reader.next_frame() is None
    reader.feed(b"b")
    assert reader.next_frame() == b"ab"


def test_reader_oversized_length_rejected_before_body():
    reader = FrameReader()
    with pytest.raises(RemoteProtocolError):
        reader.feed((MAX_FRAME + 1).to_bytes(4, "big"))
    with pytest.raises(RemoteProtocolError):  # stays broken
        reader.next_frame()
    with pytest.raises(RemoteProtocolError):
        reader.feed(b"more")


def test_reader_oversized_after_good_frame():
    reader = FrameReader()
    with pytest.raises(RemoteProtocolError):
        reader.feed(frame(b"ok") + b"\xff\xff\xff\xff")


def test_reader_zero_length():
    reader = FrameReader()
    with pytest.raises(RemoteProtocolError):
        reader.feed(b"\x00\x00\x00\x00")


@pytest.mark.parametrize("bad", ["text", 5, None, [1]])
def test_reader_wrong_type(bad):
    with pytest.raises(LocalProtocolError):
        FrameReader().feed(bad)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=8))
def test_reader_fuzz(chunks):
    reader = FrameReader()
    try:
        for chunk in chunks:
            reader.feed(chunk)
            for payload in reader.frames():
                assert 0 < len(payload) <= MAX_FRAME
    except RemoteProtocolError:
        pass


@given(st.lists(st.binary(min_size=1, max_size=100), max_size=6), st.integers(1, 50))
def test_reader_round_trip_any_chunking(payloads, step):
    data = b"".join(frame(p) for p in payloads)
    reader = FrameReader()
    out = []
    for i in range(0, len(data), step):
        reader.feed(data[i : i + step])
        out += reader.frames()
    assert out == payloads


@given(st.binary(min_size=1, max_size=100), st.integers(0, 3))
def test_reader_truncated_frame_waits(payload, cut):
    reader = FrameReader()
    reader.feed(frame(payload)[: -1 - cut])
    assert reader.frames() == []


@given(st.binary(max_size=300))
def test_decode_after_reader_fuzz(data):
    reader = FrameReader()
    try:
        reader.feed(data)
        for payload in reader.frames():
            decode(payload)
    except ProtocolError:
        pass


def counting_checks(monkeypatch) -> list[int]:
    """Record the offset of every length-prefix check any FrameReader makes."""
    calls: list[int] = []
    check = FrameReader._check_length

    def counted(self, offset):
        calls.append(offset)
        return check(self, offset)

    monkeypatch.setattr(FrameReader, "_check_length", counted)
    return calls


def test_reader_checks_each_prefix_once_on_a_byte_by_byte_stream(monkeypatch):
    calls = counting_checks(monkeypatch)
    payloads = [bytes([i]) * (i % 7 + 1) for i in range(200)]
    data = b"".join(frame(p) for p in payloads)
    reader = FrameReader()
    for i in range(len(data)):
        reader.feed(data[i : i + 1])  # nothing taken out meanwhile
    assert len(calls) == 200  # not one check per prefix per feed
    assert reader.frames() == payloads
    assert len(calls) == 200 and reader.pending == 0


def test_reader_checks_each_prefix_once_when_frames_are_taken_out(monkeypatch):
    calls = counting_checks(monkeypatch)
    payloads = [bytes([i]) * (i % 5 + 1) for i in range(200)]
    data = b"".join(frame(p) for p in payloads)
    reader, out = FrameReader(), []
    for i in range(0, len(data), 3):
        reader.feed(data[i : i + 3])
        out += reader.frames()
    assert out == payloads
    assert len(calls) == 200


def test_reader_bad_prefix_still_raises_when_its_fourth_byte_arrives():
    reader = FrameReader()
    for byte in frame(b"ok") + b"\x00\x01\x00":
        reader.feed(bytes([byte]))
    with pytest.raises(RemoteProtocolError, match="over the"):
        reader.feed(b"\x01")  # 0x00010001 > MAX_FRAME
    with pytest.raises(RemoteProtocolError):
        reader.next_frame()  # broken, though a whole frame was buffered


def test_reader_refuses_too_much_unread_data():
    big = frame(b"x" * MAX_FRAME)
    reader = FrameReader()
    for _ in range(3):
        reader.feed(big)  # 3 * (MAX_FRAME + 4) bytes, none taken out
    with pytest.raises(RemoteProtocolError, match="too much unread data"):
        reader.feed(big)
    with pytest.raises(RemoteProtocolError, match="too much unread data"):
        reader.next_frame()  # and it stays broken
    assert reader.pending == 3 * len(big)  # the refused bytes were not kept


def test_reader_bound_is_exact():
    reader = FrameReader(max_buffer=100_000)
    reader.feed(frame(b"x" * 60_000))
    reader.feed(frame(b"y" * (100_000 - 60_004 - 4)))  # exactly full
    with pytest.raises(RemoteProtocolError, match="too much unread data"):
        reader.feed(b"\x00")


def test_reader_bound_counts_only_what_is_not_taken_out():
    big = frame(b"x" * MAX_FRAME)
    reader = FrameReader(max_buffer=len(big))  # room for one maximal frame
    for _ in range(20):
        reader.feed(big[:100])
        reader.feed(big[100:])
        assert reader.frames() == [b"x" * MAX_FRAME]


def test_reader_max_buffer_must_hold_a_maximal_frame():
    with pytest.raises(LocalProtocolError):
        FrameReader(max_buffer=MAX_FRAME + 3)


def test_frame_length():
    assert frame_length(b"\x00\x00\x01\x00") == 256
    assert frame_length(MAX_FRAME.to_bytes(4, "big")) == MAX_FRAME
    with pytest.raises(RemoteProtocolError, match="zero-length"):
        frame_length(bytes(4))
    with pytest.raises(RemoteProtocolError, match="over the"):
        frame_length((MAX_FRAME + 1).to_bytes(4, "big"))


@pytest.mark.slow
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


def test_the_away_frame_round_trips_and_a_bad_one_is_the_peers_error():
    from protocol import handshake as hs
    from protocol.codec import encode

    assert hs.parse(hs.away((2, 0))) == ("away", [(0, 2)])
    assert hs.parse(hs.away(())) == ("away", [()])
    for bad in ([7], [-1], ["1"], [True], list(range(7))):
        with pytest.raises(RemoteProtocolError):
            hs.parse(encode(["away", bad]))
    with pytest.raises(RemoteProtocolError):
        hs.parse(encode(["away", 1]))
