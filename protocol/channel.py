"""The join code as a password-authenticated key exchange, and the encrypted channel after it, sans-IO.

A connection starts with SPAKE2 over the join code (the `spake2` package:
client is side A, host side B, each with its own identity string). Each side
sends one 33-byte message; neither message, nor both together, lets anyone
who lacks the code test a guess of it offline, and a side that runs the
exchange with a wrong guess learns only that this one guess was wrong.

The key schedule: SPAKE2 gives a 32-byte key K (a hash of the code, both
identities, both messages and the shared point). `th`, the transcript hash,
is SHA-256 over a tag and the canonical encoding of `[version, client's
message, host's message, table id]`. HKDF-SHA256 with `th` as salt and K as
input gives four 32-byte keys, each with its own label: the client's and the
host's confirmation keys, and one ChaCha20-Poly1305 key per direction.

Key confirmation: the client sends HMAC-SHA256(client confirmation key, th)
first; the host checks it before it answers anything (a wrong code is seen
here) and answers with HMAC-SHA256(host confirmation key, th), which the
client checks before it trusts anything from the host.

After that every frame is sealed (`Channel.seal`): ChaCha20-Poly1305 under the
direction's key, with a 12-byte nonce that is the count of frames already
sent that way (4 zero bytes, then the count as 8 big-endian bytes). The
receiver opens each frame with the count it expects next, so a frame that
was changed, cut short, replayed, dropped from the middle or moved fails to
open, and the connection is closed.
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A, SPAKE2_B

from .codec import encode
from .errors import LocalProtocolError, RemoteProtocolError
from .reasons import Reason
from .sizes import MAX_PLAIN  # the largest frame that can be sealed (the chain of size bounds)

TAG = b"briscola-tui/join/v3"
CLIENT_ID = TAG + b"/client"
"""SPAKE2 identity of the side that connects (side A)."""
HOST_ID = TAG + b"/host"
"""SPAKE2 identity of the host (side B)."""
MESSAGE_LEN = 33
"""A SPAKE2 message: its side byte, then a 32-byte Ed25519 group element."""
MAC_LEN = 32
SIDES = ("client", "host")

WRONG_CODE = "wrong-code"
"""The code of the refusal of a wrong join code (reasons.py)."""


class WrongCode(RemoteProtocolError):
    """The other side did not prove it derived our key: it used another join code
    (or someone in between changed the exchange)."""


class Tampered(RemoteProtocolError):
    """A sealed frame failed to open: changed, cut short, replayed or out of order."""


class Channel:
    """Both directions of one connection after the exchange. `seal` a frame before it is
    sent; `open` each frame received, in order."""

    def __init__(self, send_key: bytes, receive_key: bytes) -> None:
        self._send = ChaCha20Poly1305(send_key)
        self._receive = ChaCha20Poly1305(receive_key)
        self.sent = 0
        self.received = 0

    @staticmethod
    def _nonce(count: int) -> bytes:
        return bytes(4) + count.to_bytes(8, "big")

    def seal(self, data: bytes) -> bytes:
        """The sealed form of one frame's payload (a frame payload itself)."""
        if not 0 < len(data) <= MAX_PLAIN:
            raise LocalProtocolError(f"cannot seal a frame of {len(data)} bytes (at most {MAX_PLAIN})")
        sealed = self._send.encrypt(self._nonce(self.sent), data, None)
        self.sent += 1
        return sealed

    def open(self, data: bytes) -> bytes:
        """The payload of the next sealed frame received; Tampered if it is not exactly the
        next frame the other side sealed."""
        try:
            plain = self._receive.decrypt(self._nonce(self.received), data, None)
        except InvalidTag:
            raise Tampered(Reason.of("tampered")) from None
        self.received += 1
        return plain


class Exchange:
    """One side of SPAKE2 over the join code ("" for a table without one), then the key
    schedule and key confirmation. `message` goes to the other side; `finish` takes
    theirs and the table's id."""

    def __init__(self, side: str, code: str) -> None:
        if side not in SIDES:
            raise LocalProtocolError(f"side must be client or host, not {side!r}")
        self.side = side
        password = code.encode("utf-8")
        kind = SPAKE2_A if side == "client" else SPAKE2_B
        self._spake = kind(password, idA=CLIENT_ID, idB=HOST_ID)
        self.message: bytes = self._spake.start()
        self.transcript = b""
        """`th`, once finished: the hash every later key and proof is bound to."""
        self._keys: dict[str, bytes] = {}

    def finish(self, theirs: bytes, table_id: bytes, version: int) -> None:
        """Take the other side's message: derive the keys. RemoteProtocolError if it is no
        SPAKE2 message of the other side."""
        if self._keys:
            raise LocalProtocolError("the exchange is finished already")
        if len(theirs) != MESSAGE_LEN:
            raise RemoteProtocolError(f"a key exchange message is {MESSAGE_LEN} bytes")
        try:
            shared = self._spake.finish(theirs)
        except Exception:  # spake2 raises its own errors, ValueError and more for a bad element
            raise RemoteProtocolError("not a key exchange message of the other side") from None
        client, host = (self.message, theirs) if self.side == "client" else (theirs, self.message)
        self.transcript = hashlib.sha256(TAG + b"\x00" + encode([version, client, host, table_id])).digest()
        for label in ("client confirm", "host confirm", "client to host", "host to client"):
            self._keys[label] = HKDF(
                algorithm=hashes.SHA256(), length=32, salt=self.transcript, info=TAG + b" " + label.encode()
            ).derive(shared)

    def _key(self, label: str) -> bytes:
        if not self._keys:
            raise LocalProtocolError("the exchange is not finished")
        return self._keys[label]

    def confirmation(self) -> bytes:
        """Our proof that we derived the key: a MAC over the transcript hash."""
        return hmac.new(self._key(f"{self.side} confirm"), self.transcript, hashlib.sha256).digest()

    def check(self, theirs: bytes) -> None:
        """WrongCode unless `theirs` is the other side's proof of the same key."""
        other = "host" if self.side == "client" else "client"
        expected = hmac.new(self._key(f"{other} confirm"), self.transcript, hashlib.sha256).digest()
        if not hmac.compare_digest(expected, theirs):
            raise WrongCode(Reason.of("wrong-code"))

    def channel(self) -> Channel:
        """The sealed channel (call once the other side's confirmation checked out)."""
        up, down = self._key("client to host"), self._key("host to client")
        return Channel(up, down) if self.side == "client" else Channel(down, up)
