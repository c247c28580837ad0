"""Framing and canonical msgpack.

Only None, bool, int, bytes, str and arrays (list or tuple) are allowed:
no maps, no floats, no ext types. The encoding is canonical (one value, one
byte string) and `decode` rejects anything else, so signed bytes cannot be
malleated.
"""

from __future__ import annotations

import msgpack

from .errors import LocalProtocolError, RemoteProtocolError

MAX_FRAME = 64 * 1024
"""Largest frame payload, in bytes."""
MAX_DEPTH = 8
"""Deepest array nesting (a flat array has depth 1)."""
MAX_STR = 4096
"""Longest str, in UTF-8 bytes."""
MAX_BIN = MAX_FRAME
"""Longest bytes value."""
MAX_ARRAY = 1024
"""Most elements in one array."""

Value = None | bool | int | bytes | str | list | tuple

_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1


# --- encoding -------------------------------------------------------------


def encode(obj: Value) -> bytes:
    """Canonical msgpack bytes of `obj`; LocalProtocolError if not allowed."""
    _check_value(obj, 0)
    return msgpack.packb(obj, use_bin_type=True)


def _check_value(obj: object, depth: int) -> None:
    if obj is None or isinstance(obj, bool):
        return
    if isinstance(obj, int):
        if not _INT_MIN <= obj <= _INT_MAX:
            raise LocalProtocolError("cannot encode: int out of range")
        return
    if isinstance(obj, bytes):
        if len(obj) > MAX_BIN:
            raise LocalProtocolError("cannot encode: bytes too long")
        return
    if isinstance(obj, str):
        try:
            size = len(obj.encode("utf-8"))
        except UnicodeEncodeError:
            raise LocalProtocolError("cannot encode: str is not valid UTF-8") from None
        if size > MAX_STR:
            raise LocalProtocolError("cannot encode: str too long")
        return
    if isinstance(obj, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise LocalProtocolError("cannot encode: arrays nested too deep")
        if len(obj) > MAX_ARRAY:
            raise LocalProtocolError("cannot encode: array too long")
        for item in obj:
            _check_value(item, depth + 1)
        return
    raise LocalProtocolError(f"cannot encode: type {type(obj).__name__} not allowed")


# --- decoding -------------------------------------------------------------


def _reject_ext(code: int, data: bytes) -> None:
    raise ValueError("ext type")


def decode(data: bytes) -> Value:
    """Strictly decode one canonical msgpack value; RemoteProtocolError if bad."""
    if not isinstance(data, bytes):
        raise LocalProtocolError("decode() needs bytes")
    if not data:
        raise RemoteProtocolError("empty message")
    try:
        obj = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_reject_ext,
            max_str_len=MAX_STR,
            max_bin_len=MAX_BIN,
            max_array_len=MAX_ARRAY,
            max_map_len=0,
            max_ext_len=0,
        )
    except msgpack.ExtraData:
        raise RemoteProtocolError("trailing bytes after message") from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise RemoteProtocolError(f"malformed msgpack ({type(exc).__name__})") from None
    _check_decoded(obj)
    if msgpack.packb(obj, use_bin_type=True) != data:
        raise RemoteProtocolError("non-canonical encoding")
    return obj


def is_cut_value(data: bytes) -> bool:
    """True when `data` could be the start of one msgpack value cut short:
    it holds no whole value and nothing malformed so far.

    A frame torn by a crash mid-write passes; a length prefix changed to
    claim more bytes than its content has does not (its content ends early).
    """
    unpacker = msgpack.Unpacker(
        raw=False,
        ext_hook=_reject_ext,
        max_buffer_size=max(len(data), 1),
        max_str_len=MAX_STR,
        max_bin_len=MAX_BIN,
        max_array_len=MAX_ARRAY,
        max_map_len=0,
        max_ext_len=0,
    )
    unpacker.feed(data)
    try:
        unpacker.unpack()
    except msgpack.OutOfData:
        return True
    except (ValueError, TypeError, msgpack.UnpackException):
        return False
    return False


def _check_decoded(obj: object) -> None:
    """Walk the decoded value without recursion; reject disallowed types."""
    stack = [(obj, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, list):
            if depth >= MAX_DEPTH:
                raise RemoteProtocolError("arrays nested too deep")
            stack.extend((child, depth + 1) for child in item)
        elif item is not None and not isinstance(item, (bool, int, bytes, str)):
            raise RemoteProtocolError(f"type {type(item).__name__} not allowed")
        elif isinstance(item, str) and len(item.encode("utf-8")) > MAX_STR:
            raise RemoteProtocolError("string too long")


# --- framing --------------------------------------------------------------


def frame(payload: bytes) -> bytes:
    """4-byte big-endian length, then `payload`."""
    if not isinstance(payload, bytes):
        raise LocalProtocolError("frame() needs bytes")
    if not 0 < len(payload) <= MAX_FRAME:
        raise LocalProtocolError(f"frame payload of {len(payload)} bytes not allowed")
    return len(payload).to_bytes(4, "big") + payload


def frame_length(prefix: bytes | bytearray) -> int:
    """The payload size a 4-byte length prefix announces.

    RemoteProtocolError if it is zero or over MAX_FRAME.
    """
    size = int.from_bytes(prefix, "big")
    if size == 0:
        raise RemoteProtocolError("zero-length frame")
    if size > MAX_FRAME:
        raise RemoteProtocolError(f"frame of {size} bytes is over the {MAX_FRAME}-byte limit")
    return size


class FrameReader:
    """Sans-IO frame splitter: `feed` bytes in, take whole frames out.

    A bad length prefix raises RemoteProtocolError as soon as its four bytes
    arrive; after that the reader is broken and keeps raising.

    Work is linear in the bytes fed, however they are split: each length
    prefix is checked once, when its last byte arrives, and the reader
    remembers where the next unchecked prefix starts.

    Memory is bounded: the reader refuses to hold more than `max_buffer`
    bytes not yet taken out (RemoteProtocolError "too much unread data",
    and the reader is broken), so a peer cannot make it buffer frames
    without end. `max_buffer` must hold at least one maximal frame with its
    prefix; the default, four maximal frames, leaves a caller that takes
    frames out after every `feed` room to feed some 192 KiB at a time.
    """

    def __init__(self, max_buffer: int = 4 * MAX_FRAME) -> None:
        if max_buffer < 4 + MAX_FRAME:
            raise LocalProtocolError(f"max_buffer must be at least {4 + MAX_FRAME} bytes")
        self.max_buffer = max_buffer
        self._buffer = bytearray()
        self._checked = 0
        """Offset in the buffer of the first length prefix not yet checked
        (it may lie beyond the end, inside a frame still arriving)."""
        self._error: RemoteProtocolError | None = None

    def feed(self, data: bytes) -> None:
        """Add received bytes."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise LocalProtocolError("feed() needs bytes")
        self._raise_if_broken()
        if len(self._buffer) + memoryview(data).nbytes > self.max_buffer:
            self._error = RemoteProtocolError(f"too much unread data: over {self.max_buffer} bytes not taken out")
            raise self._error
        self._buffer += data
        self._check_new_lengths()

    def next_frame(self) -> bytes | None:
        """The next whole frame payload, or None if it has not all arrived."""
        self._raise_if_broken()
        if len(self._buffer) < 4:
            return None
        size = int.from_bytes(self._buffer[:4], "big")  # checked when it arrived
        if len(self._buffer) < 4 + size:
            return None
        payload = bytes(self._buffer[4 : 4 + size])
        del self._buffer[: 4 + size]
        self._checked -= 4 + size
        return payload

    def frames(self) -> list[bytes]:
        """Every whole frame available now."""
        out = []
        while (payload := self.next_frame()) is not None:
            out.append(payload)
        return out

    @property
    def pending(self) -> int:
        """Bytes buffered but not yet returned as a frame."""
        return len(self._buffer)

    def _check_new_lengths(self) -> None:
        """Check every length prefix whose four bytes are now all here, each once."""
        while len(self._buffer) >= self._checked + 4:
            self._checked += 4 + self._check_length(self._checked)

    def _check_length(self, offset: int) -> int:
        """The size the prefix at `offset` announces; a bad one breaks the reader."""
        try:
            return frame_length(self._buffer[offset : offset + 4])
        except RemoteProtocolError as exc:
            self._error = exc
            raise

    def _raise_if_broken(self) -> None:
        if self._error is not None:
            raise self._error


# --- shape checks for message parsing ---------------------------------------


def expect_array(obj: object, n: int, what: str) -> list:
    """`obj` must be an array of exactly `n` items."""
    if not isinstance(obj, list):
        raise RemoteProtocolError(f"{what}: expected an array")
    if len(obj) != n:
        raise RemoteProtocolError(f"{what}: expected {n} fields, got {len(obj)}")
    return obj


def expect_list(obj: object, maxlen: int, what: str) -> list:
    """`obj` must be an array of at most `maxlen` items."""
    if not isinstance(obj, list):
        raise RemoteProtocolError(f"{what}: expected an array")
    if len(obj) > maxlen:
        raise RemoteProtocolError(f"{what}: more than {maxlen} items")
    return obj


def expect_int(obj: object, lo: int, hi: int, what: str) -> int:
    """`obj` must be an int (not a bool) with lo <= obj <= hi."""
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise RemoteProtocolError(f"{what}: expected an integer")
    if not lo <= obj <= hi:
        raise RemoteProtocolError(f"{what}: {obj} not in {lo}..{hi}")
    return obj


def expect_bytes(obj: object, n: int | tuple[int, int], what: str) -> bytes:
    """`obj` must be bytes of length `n`, or of length in lo..hi if n=(lo, hi)."""
    if not isinstance(obj, bytes):
        raise RemoteProtocolError(f"{what}: expected bytes")
    lo, hi = (n, n) if isinstance(n, int) else n
    if not lo <= len(obj) <= hi:
        want = str(lo) if lo == hi else f"{lo}..{hi}"
        raise RemoteProtocolError(f"{what}: expected {want} bytes, got {len(obj)}")
    return obj


def expect_str(obj: object, maxlen: int, what: str) -> str:
    """`obj` must be a str of at most `maxlen` characters."""
    if not isinstance(obj, str):
        raise RemoteProtocolError(f"{what}: expected a string")
    if len(obj) > maxlen:
        raise RemoteProtocolError(f"{what}: longer than {maxlen} characters")
    return obj
