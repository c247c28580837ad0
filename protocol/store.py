"""What a seat must never lose: its secrets and the messages it has signed.

A seat writes each secret (a hand's seed, a coin value) and each signed
message to its store *before* anything that depends on it leaves the node.
After a crash, `TableSession.resume` rebuilds the seat from the transcript
plus this store: the same seeds, the same coin, and, for a sequence number
already signed, the very bytes signed then, so a seat never signs two
different messages at one sequence number.

`SeatStore` keeps everything in memory and calls `save()` after each change;
a store that persists (a file in the user's data directory, see
`briscola_tui.storage.FileSeatStore`) overrides `save` and `load`. The
identity key is stored apart, by whoever created it.
"""

from __future__ import annotations

from collections.abc import Callable

from .codec import decode, encode, expect_array, expect_bytes, expect_int, expect_list
from .errors import RemoteProtocolError

STORE_MAGIC = "briscola-seat-store"
STORE_VERSION = 1


class SeatStore:
    """A seat's secrets and unconfirmed signed messages, in memory."""

    def __init__(self) -> None:
        self.seeds: dict[int, bytes] = {}  # hand number -> seed
        self.coins: dict[int, bytes] = {}  # coin round -> value
        self.sent: dict[int, bytes] = {}  # seq -> signed bytes not yet seen in the transcript

    def __repr__(self) -> str:
        return f"<{type(self).__name__} hands={sorted(self.seeds)} unconfirmed={sorted(self.sent)}>"

    # --- writes (each one saved before it returns) ----------------------------

    def put_seed(self, hand: int, seed: bytes) -> None:
        self.seeds[hand] = seed
        self.save()

    def put_coin(self, round_: int, value: bytes) -> None:
        self.coins[round_] = value
        self.save()

    def put_sent(self, seq: int, signed: bytes) -> None:
        self.sent[seq] = signed
        self.save()

    def confirm(self, seq: int) -> None:
        """The transcript holds this seat's message `seq`: forget it and every earlier one,
        and the seeds of hands already revealed are no longer secret anyway."""
        stale = [q for q in self.sent if q <= seq]
        if stale:
            for q in stale:
                del self.sent[q]
            self.save()

    def forget_hand(self, hand: int) -> None:
        """The hand's seed has been revealed (it is in the transcript now)."""
        if self.seeds.pop(hand, None) is not None:
            self.save()

    # --- persistence ------------------------------------------------------------

    def save(self) -> None:
        """Persist everything (a no-op in memory); must be durable when it returns."""

    def to_bytes(self) -> bytes:
        return encode(
            [
                STORE_MAGIC,
                STORE_VERSION,
                [[h, s] for h, s in sorted(self.seeds.items())],
                [[r, v] for r, v in sorted(self.coins.items())],
                [[q, m] for q, m in sorted(self.sent.items())],
            ]
        )

    def load_bytes(self, data: bytes) -> None:
        """Replace the contents with a stored copy; RemoteProtocolError if it is not one."""
        fields = expect_array(decode(data), 5, "seat store")
        if fields[0] != STORE_MAGIC or fields[1] != STORE_VERSION:
            raise RemoteProtocolError("not a seat store of this version")
        self.seeds = _pairs(fields[2], lambda v: expect_bytes(v, 32, "seed"))
        self.coins = _pairs(fields[3], lambda v: expect_bytes(v, 32, "coin value"))
        self.sent = _pairs(fields[4], lambda v: expect_bytes(v, (1, 1 << 16), "signed message"))


def _pairs(items: object, parse: Callable[[object], bytes]) -> dict[int, bytes]:
    out = {}
    for item in expect_list(items, 10_000, "store entries"):
        key, value = expect_array(item, 2, "store entry")
        out[expect_int(key, 0, 2**63 - 1, "store key")] = parse(value)
    return out
