"""The connection handshake and the frames around the transcript, sans-IO.

Outside the transcript, host and client exchange canonical msgpack arrays,
one per frame, the first element naming the kind. The first four go in the
clear: SPAKE2 over the join code (`protocol/channel.py`) and its key
confirmation. Every frame after them is sealed with the keys it gave
(`Channel.seal`, one key and one frame counter per direction):

    client -> host   ["hello", version, spake2_message]       in the clear
                or   ["hello", version, spake2_message, tags]
    host -> client   ["exchange", table_id, spake2_message]   in the clear
    client -> host   ["confirm", mac]                         in the clear
    host -> client   ["confirm", mac]  or  ["refuse", reason] in the clear
    --- sealed from here on ---
    client -> host   ["request", role, key, name, seat, have, head]
    host -> client   ["challenge", nonce]                     (players only)
    client -> host   ["proof", signature]                     (over the nonce, table, key and exchange)
    host -> client   ["welcome", table_id, seat, count]       (then `count` entries: the transcript from `have`)
                     ["refuse", reason]
    host -> client   ["entry", entry_bytes]                   (each entry, in order)
    host -> client   ["away", seats]                          (the seated players with no connection now)
    client -> host   ["submit", signed_message]               (a message for the table)
    either way       ["bye", reason]                          (closing, with why)
    host -> client   ["busy", reason, seconds]                (refused for load: try again that much later)

Every `reason` is a code of reasons.py and its fields (`Reason.wire()`), which
the receiver words in its own language; a text that is no code is the peer's
own words.

A player coming back may name its key in its hello, without saying it: `tags`
holds, for each table key it may be reaching (four at most), an HMAC over the
hello's version and SPAKE2 message keyed by the static Diffie-Hellman of its
seat key and that table key (returning.py), and the host finds which seated
key made one (it tries each, six at most). Nobody else can compute such a
tag, so nobody on the way, even one holding the transcript and every public
key in it, learns whose hello it is, nor that two hellos come from one key
(it was once the seat key's signature, which anyone with the transcript could
check). A hello marked by a key that holds a seat spends that key's wrong-code
tries, not its address's, and takes a slot of the handshake pool kept for it,
so a returning seat is not kept out by an outsider on its address (behind one
NAT, one SSH server). A tag that matches no seated key, or a hello seen
before (a replay), names nobody: the address's tries. The key named must be
the one the request then brings.

A client's `mac` proves it derived the host's key, so it used the join code
("" for a table without one): the host checks it before it answers anything
else, and refuses a wrong one ("wrong join code"). The host's `mac` proves
the same to the client, which trusts nothing from the host before it.

`role` is "player" or "spectator"; a spectator sends no key. `seat` is the
seat asked for, or -1 for any. `have` and `head` say how much of the
transcript the client already holds (0 and 32 zero bytes for none): the host
sends the entries from there when `head` is the hash of entry `have - 1`,
else from the start. A player proves it holds `key` by signing the host's
fresh nonce (bound to this table and this connection's exchange); from then
on the connection may only submit messages signed by that key (a `join` must
bind it).

A handshake that fails (wrong code, seat taken, bad proof, a frame that is no
hello) is answered with `refuse`, which a client does not retry; `bye` closes
a connection that may come back (a drop, a stale connection, a frame that
failed its integrity check, the table's end). `busy` is a refusal for load,
not for who the client is (too many connections, or this key or address sent
too many messages and is kept out for a while): in the clear before the
exchange, sealed after it, at any point of the handshake; the client tries
again after `seconds` at the earliest, backing off. After the welcome's entries,
and whenever it changes, the host says which seats held by a player (not one
of its own computer players) have no connection: the others show such a seat
as away rather than thinking. A client says `bye` once it holds the table's
end: the host keeps serving a finished table until each seat played from afar
has, for a few seconds at most, so one that reconnects near the end still
gets it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.text import name_problem

from .channel import MAC_LEN, MESSAGE_LEN
from .codec import decode, encode, expect_array, expect_bytes, expect_int, expect_list, expect_str
from .errors import RemoteProtocolError
from .identity import Identity, verify
from .reasons import MAX_REASON, Reason
from .returning import MAX_TAGS, TAG_LEN, marked, seat_tag, tags_of

VERSION = 3
"""3: the join code is a SPAKE2 password and every frame after the exchange is sealed (2 sent the
code in the clear; 1 had no `away`)."""
PROOF_TAG = b"briscola-tui/handshake/v3\x00"
HELLO_TAG = b"briscola-tui/hello/v3\x00"
ROLES = ("player", "spectator")
NONCE_LEN = 32
MAX_CODE = 64
MAX_NAME = 64


@dataclass(frozen=True)
class Hello:
    """A client's request (sent sealed, after the exchange): who it is and what it holds."""

    role: str
    key: bytes
    name: str
    seat: int
    have: int
    head: bytes


def hello(message: bytes, seat: Identity | None = None, host_keys: Sequence[bytes] = ()) -> bytes:
    """The client's first frame: the protocol version and its SPAKE2 message; for a player
    coming back, a tag for each table key it may be reaching (returning.py: only that host
    can tell whose it is; `named`)."""
    tags = [seat_tag(seat, key, _hello_bytes(message)) for key in host_keys[:MAX_TAGS]] if seat else []
    marks = b"".join(t for t in tags if t is not None)
    if not marks:
        return encode(["hello", VERSION, message])
    return encode(["hello", VERSION, message, marks])


def _hello_bytes(message: bytes) -> bytes:
    return HELLO_TAG + VERSION.to_bytes(2, "big") + message


def named(fields: list, shared: Iterable[tuple[bytes, bytes]]) -> bytes:
    """Which seat key marked this hello, given each seated key and the key it shares with the
    host (b"": none, or the hello is not marked)."""
    if len(fields) < 3:
        return b""
    _version, message, marks = fields
    return marked(tags_of(marks), shared, _hello_bytes(message))


def exchange(table_id: bytes, message: bytes) -> bytes:
    return encode(["exchange", table_id, message])


def confirm(mac: bytes) -> bytes:
    return encode(["confirm", mac])


def request(role: str, key: bytes, name: str, seat: int = -1, have: int = 0, head: bytes = bytes(32)) -> bytes:
    return encode(["request", role, key, name, seat, have, head])


def challenge(nonce: bytes) -> bytes:
    return encode(["challenge", nonce])


def proof(identity: Identity, nonce: bytes, table_id: bytes, binding: bytes) -> bytes:
    """`binding`: the exchange's transcript hash (`Exchange.transcript`)."""
    return encode(["proof", identity.sign(_proof_bytes(nonce, table_id, identity.public_bytes, binding))])


def welcome(table_id: bytes, seat: int, count: int) -> bytes:
    return encode(["welcome", table_id, seat, count])


def refuse(reason: Reason | str) -> bytes:
    """A refusal: a `Reason` as its code, or (a peer of an earlier version) words."""
    return encode(["refuse", _reason(reason)])


def _reason(reason: Reason | str) -> str:
    return reason.wire() if isinstance(reason, Reason) else reason[:MAX_REASON]


def entry(data: bytes) -> bytes:
    return encode(["entry", data])


def submit(signed: bytes) -> bytes:
    return encode(["submit", signed])


def away(seats: Iterable[int]) -> bytes:
    return encode(["away", sorted(seats)])


def _seats(v: object) -> tuple[int, ...]:
    return tuple(expect_int(s, 0, 5, "seat") for s in expect_list(v, 6, "seats"))


def watch(key: bytes) -> bytes:
    """To a spectator through a relay that fans out: the key the table's broadcast is sealed
    with (protocol/broadcast.py); the entries after its welcome's come that way."""
    return encode(["watch", key])


def bye(reason: Reason | str) -> bytes:
    return encode(["bye", _reason(reason)])


def busy(reason: Reason | str, seconds: float) -> bytes:
    """Refused for load: try again in `seconds` (whole seconds, rounded up; at most an hour)."""
    return encode(["busy", _reason(reason), min(3600, max(0, math.ceil(seconds)))])


def _proof_bytes(nonce: bytes, table_id: bytes, key: bytes, binding: bytes) -> bytes:
    return PROOF_TAG + table_id + nonce + key + binding


def check_proof(key: bytes, nonce: bytes, table_id: bytes, binding: bytes, signature: bytes) -> None:
    """RemoteProtocolError unless `signature` is `key`'s over this nonce, table and exchange."""
    try:
        verify(key, _proof_bytes(nonce, table_id, key, binding), signature)
    except (RemoteProtocolError, ValueError):
        raise RemoteProtocolError(Reason.of("bad-proof")) from None


def parse(data: bytes) -> tuple[str, list]:
    """(kind, fields) of a connection frame; RemoteProtocolError if malformed."""
    value = decode(data)
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise RemoteProtocolError(Reason.of("bad-frame"))
    kind, fields = value[0], value[1:]
    shape = SHAPES.get(kind)
    if shape is None:
        raise RemoteProtocolError(Reason.of("unknown-frame", kind=repr(kind[:20])))
    if kind == "hello" and fields and isinstance(fields[0], int) and fields[0] != VERSION:
        # every version's hello starts with its version: name both, whatever else it holds
        raise RemoteProtocolError(Reason.of("version", theirs=fields[0], ours=VERSION))
    if kind == "hello" and isinstance(fields, list) and len(fields) == 2:  # a hello that names no key
        shape = shape[:2]
    expect_array(fields, len(shape), kind)
    return kind, [check(v) for check, v in zip(shape, fields)]


def parse_hello(fields: list) -> Hello:
    """The fields of a client's `request`, checked."""
    role, key, name, seat, have, head = fields
    if role not in ROLES:
        raise RemoteProtocolError(Reason.of("bad-role", role=repr(role[:20])))
    if role == "player" and len(key) != 32:
        raise RemoteProtocolError(Reason.of("no-key"))
    if name and name_problem(name) is not None:  # "": none (the seat's number stands for it)
        raise RemoteProtocolError(Reason.of("bad-name", name=name))  # the receiver says why
    return Hello(role, key, name, seat, have, head)


def _bytes(n: int | tuple[int, int]) -> Callable[[object], bytes]:
    return lambda v: expect_bytes(v, n, "field")


def _int(lo: int, hi: int) -> Callable[[object], int]:
    return lambda v: expect_int(v, lo, hi, "field")


def _str(n: int) -> Callable[[object], str]:
    return lambda v: expect_str(v, n, "field")


SHAPES = {
    "hello": (_int(0, 1 << 16), _bytes(MESSAGE_LEN), _bytes((TAG_LEN, TAG_LEN * MAX_TAGS))),
    "exchange": (_bytes(16), _bytes(MESSAGE_LEN)),
    "confirm": (_bytes(MAC_LEN),),
    "request": (
        _str(16),
        _bytes((0, 32)),
        _str(MAX_NAME),
        _int(-1, 5),
        _int(0, 1 << 40),
        _bytes(32),
    ),
    "challenge": (_bytes(NONCE_LEN),),
    "proof": (_bytes(64),),
    "welcome": (_bytes(16), _int(-1, 5), _int(0, 1 << 40)),
    "refuse": (_str(200),),
    "entry": (_bytes((1, 1 << 16)),),
    "submit": (_bytes((1, 1 << 16)),),
    "away": (_seats,),
    "bye": (_str(200),),
    "watch": (_bytes(32),),
    "busy": (_str(200), _int(0, 3600)),
}
