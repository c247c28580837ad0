"""Every size bound of a message on its way, as one chain derived from the frame limit.

A seat's signed message travels inside things the host wraps around it, and
each wrapping must fit the next one out. From the outside in:

    MAX_FRAME      a frame's payload (codec.py)                         65,536
    MAX_PLAIN      what a sealed frame may carry (the tag takes 16)     65,520
    MAX_ENTRY      an encoded Entry, so that ["entry", entry] is sealed 65,510
    MAX_MESSAGE    an encoded Signed, so that an Entry around it fits   65,397
    MAX_SUBMIT     a seat's Signed, so that the host's evidence around
                   it is still a MAX_MESSAGE                             65,041

Each bound is the one before it less the worst-case overhead of one
wrapping, counted byte by byte below; tests/test_size_chain.py builds every
wrapping at its extremes and checks each fits exactly. The host takes no
seat's message over MAX_SUBMIT (`Host.screen`), so whatever it orders (the
message, or the evidence that holds it) can be relayed to every connection.
"""

from __future__ import annotations

from .codec import MAX_FRAME

SEAL_OVERHEAD = 16
"""What sealing adds to a frame: the Poly1305 tag."""
MAX_PLAIN = MAX_FRAME - SEAL_OVERHEAD
"""Largest frame payload that can be sealed (the sealed frame is itself a frame)."""

RELAY_OVERHEAD = 1 + (1 + len("entry")) + 3
"""["entry", entry] around an entry: fixarray of 2, the fixstr "entry", the
entry's bin16 header (every entry is under 2**16 bytes): 10 bytes. A submit
(["submit", signed]) costs one byte more around a smaller message."""
MAX_ENTRY = MAX_PLAIN - RELAY_OVERHEAD
"""Largest encoded `Entry`: its relay frame is sealed whole."""

HASH_LEN = 32
SIGNATURE_LEN = 64
INT_MAX = 9
"""The largest msgpack integer: uint64/int64 marker + 8 bytes."""
ENTRY_OVERHEAD = 1 + INT_MAX + (2 + HASH_LEN) + 3 + (2 + SIGNATURE_LEN)
"""Bytes an encoded `Entry` adds around its message, at worst: the array
[index, prev, message, signature] costs 1 (fixarray of 4), 9 for the largest
index, 2 + 32 for prev (bin8 header + hash), 3 for the message's bin16
header, and 2 + 64 for the signature: 113 bytes."""
MAX_MESSAGE = MAX_ENTRY - ENTRY_OVERHEAD
"""Largest encoded `Signed` (anybody's), so that an `Entry` wrapping it is relayed."""

MAX_REASON = 200
"""Bytes of UTF-8 a host keeps of a reason it writes (`evidence`, `close`)."""
SIGNED_OVERHEAD = 1 + 3 + (2 + SIGNATURE_LEN)
"""[payload, signature] around a payload: fixarray of 2, the payload's bin16
header, the signature with its bin8 header: 70 bytes."""
TABLE_ID_LEN = 16
EVIDENCE_HEADER = 1 + INT_MAX + (2 + TABLE_ID_LEN) + (1 + len("evidence")) + 1 + INT_MAX + (2 + HASH_LEN)
"""The evidence payload up to its body: fixarray of 8, version, table id, the
fixstr kind, sender -1 (a negative fixint), seq, echoed head: 81 bytes at worst."""
EVIDENCE_OVERHEAD = SIGNED_OVERHEAD + EVIDENCE_HEADER + 3 + (2 + MAX_REASON)
"""The host's signed `evidence` around a seat's message: the envelope, the
header, the message's bin16 header, the reason (str8 header + 200 bytes): 356 bytes."""
MAX_SUBMIT = MAX_MESSAGE - EVIDENCE_OVERHEAD
"""Largest encoded `Signed` a seat may send: kept as evidence, it is still a MAX_MESSAGE."""


def clip_reason(reason: str) -> str:
    """`reason` cut to MAX_REASON bytes of UTF-8, at a character boundary."""
    return reason.encode("utf-8")[:MAX_REASON].decode("utf-8", "ignore")


MAX_LEVEL = 16
"""The longest computer level's name a seat's certificate names (and `level_identity` takes)."""
