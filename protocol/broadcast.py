"""A table's broadcast to its spectators, sans-IO: where a relay fans one message out to many
(a club), the host seals each frame a spectator reads once, for all of them, instead of once
per spectator over each one's channel.

The host makes a fresh 32-byte key for each run (`new_key`) and gives it to each spectator it
admits, in a `watch` frame over that spectator's own sealed channel (so only those who proved
the join code hold it). Each broadcast message is a head, the message's number (from 0, one
more each message) and the entries stored when it was sent (8 bytes each, big-endian), then
the frame's payload sealed with ChaCha20-Poly1305 under the key, the number as the nonce, and
a tag, the table's id and the head as associated data. A message changed, moved to another
table or another place fails to open; one missing or replayed shows as a number out of order,
and the spectator connects again (it resumes from its transcript's head).
"""

from __future__ import annotations

import os
import struct

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from .errors import RemoteProtocolError
from .reasons import Reason

KEY_LEN = 32
HEAD = struct.Struct(">QQ")
TAG = b"briscola-tui/broadcast/v1\x00"


def new_key() -> bytes:
    return os.urandom(KEY_LEN)


def _nonce(number: int) -> bytes:
    return bytes(4) + number.to_bytes(8, "big")


class Sealer:
    """The host's side: each frame's payload sealed once, numbered in the order sent."""

    def __init__(self, key: bytes, table_id: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.table_id = table_id
        self.number = 0

    def seal(self, payload: bytes, stored: int) -> bytes:
        head = HEAD.pack(self.number, stored)
        sealed = self._aead.encrypt(_nonce(self.number), payload, TAG + self.table_id + head)
        self.number += 1
        return head + sealed


class Opener:
    """A spectator's side: each message opened, and its number checked to follow the last."""

    def __init__(self, key: bytes, table_id: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.table_id = table_id
        self.expected: int | None = None  # the next number (None: the first message heard sets it)

    def open(self, message: bytes) -> tuple[int, bytes]:
        """(entries stored when it was sent, the frame's payload); RemoteProtocolError for a
        message that does not open, or one that does not follow the last."""
        if len(message) < HEAD.size:
            raise RemoteProtocolError(Reason.of("tampered"))
        number, stored = HEAD.unpack_from(message)
        try:
            payload = self._aead.decrypt(
                _nonce(number), message[HEAD.size :], TAG + self.table_id + message[: HEAD.size]
            )
        except InvalidTag:
            raise RemoteProtocolError(Reason.of("tampered")) from None
        if self.expected is not None and number != self.expected:
            raise RemoteProtocolError(Reason.of("tampered"))  # (one missing or replayed: connect again)
        self.expected = number + 1
        return stored, payload
