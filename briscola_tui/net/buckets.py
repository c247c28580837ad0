"""Token buckets keyed by who spends them: "so many at once, then one more every so often".

The host's two rate limits are both such buckets, held here by one piece of code: the join
code's tries of an address (`guesses.Guesses`) and the messages of a key or of a
spectator's address (`admission.Admission.rate`). They differ in two parameters only: what
is forgotten first when the buckets held reach their bound (`forget`), and how long one
that ran dry keeps its spender out (`penalty`). A full bucket is the same as none, so one
that has refilled is not held (nor is one never spent from).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Forget = Literal["fullest", "oldest"]
"""What goes when the buckets held are at their bound and none has refilled: the one with the
most tokens (it cost its spender least to lose) or the one used least recently."""


@dataclass
class Bucket:
    """What one spender may still spend: `tokens`, refilled since `stamp`; one that ran dry is
    kept out until `until`."""

    tokens: float
    stamp: float
    until: float = 0.0


class Buckets:
    """`capacity` tokens at once, then one more each `seconds`, for each spender; at most
    `size` buckets held at once."""

    def __init__(
        self,
        capacity: float,
        seconds: float,
        size: int,
        *,
        forget: Forget,
        penalty: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity, self.seconds, self.size = capacity, seconds, size
        self.forget, self.penalty, self.clock = forget, penalty, clock
        self.held: OrderedDict[object, Bucket] = OrderedDict()  # least recently used first ("oldest")

    def __len__(self) -> int:
        return len(self.held)

    def _refilled(self, bucket: Bucket, now: float) -> float:
        return min(float(self.capacity), bucket.tokens + (now - bucket.stamp) / self.seconds)

    def _used(self, who: object) -> Bucket | None:
        bucket = self.held.get(who)
        if bucket is not None and self.forget == "oldest":
            self.held.move_to_end(who)
        return bucket

    def tokens(self, who: object) -> float:
        """What `who` may spend now."""
        bucket = self.held.get(who)
        return float(self.capacity) if bucket is None else self._refilled(bucket, self.clock())

    def wait(self, who: object) -> float:
        """Seconds until `who` has a token to spend (0: now)."""
        tokens = self.tokens(who)
        return 0.0 if tokens >= 1 else (1 - tokens) * self.seconds

    def kept_out(self, who: object) -> float:
        """Seconds `who` is still kept out for having run dry (0: it is not)."""
        bucket = self._used(who)
        return 0.0 if bucket is None else max(0.0, bucket.until - self.clock())

    def spend(self, who: object) -> bool:
        """Take one of `who`'s tokens; False if it has none (it is then kept out `penalty` seconds)."""
        now = self.clock()
        bucket = self._used(who)
        if bucket is None:
            if len(self.held) >= self.size:
                self._make_room(now)
            bucket = self.held[who] = Bucket(float(self.capacity), now)
        tokens = self._refilled(bucket, now)
        if tokens < 1:
            bucket.until = now + self.penalty
            return False
        bucket.tokens, bucket.stamp = tokens - 1, now
        return True

    def give_back(self, who: object) -> None:
        """A token `who` spent is not counted after all."""
        bucket = self.held.get(who)
        if bucket is None:
            return
        now = self.clock()
        tokens = self._refilled(bucket, now) + 1
        if tokens >= self.capacity:
            del self.held[who]
        else:
            bucket.tokens, bucket.stamp = tokens, now

    def forget_full(self) -> None:
        """Forget every bucket that has refilled and keeps no one out (a new one is the same)."""
        now = self.clock()
        for who in [w for w, b in self.held.items() if self._refilled(b, now) >= self.capacity and b.until <= now]:
            del self.held[who]

    def _make_room(self, now: float) -> None:
        """Room for one more bucket: forget those that have refilled, else as `forget` says."""
        self.forget_full()
        while len(self.held) >= self.size:
            if self.forget == "oldest":
                self.held.popitem(last=False)
            else:
                del self.held[max(self.held, key=lambda who: self._refilled(self.held[who], now))]
