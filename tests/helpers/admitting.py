"""The host's admission (briscola_tui/net/admission.py) alone, sans IO: no host, no socket,
a relay that only notes whom it closed, and a clock the test turns (tests/test_admission.py,
test_join_code.py, test_shared_address.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from briscola_tui.net.admission import Admission
from briscola_tui.net.connection import Conn, Limits
from briscola_tui.net.guesses import GuessLimits


class Closer:
    """The relay, as the pool uses it: who was closed, and why."""

    def __init__(self):
        self.closed: list[tuple[int, str]] = []

    def close(self, conn, reason, **_how) -> None:
        self.closed.append((conn.number, str(reason)))  # (a Reason: its English)


class Clock:
    """Seconds that pass only when the test says (`clock.now += 3`)."""

    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def lone_admission(
    limits: Limits | None = None,
    guesses: GuessLimits | None = None,
    clock: Callable[[], float] = time.monotonic,
    say: Callable[[str], None] = print,
) -> Admission:
    return Admission(
        None,  # the host: neither the pool nor the limits look at it
        Closer(),
        code="x",
        limits=limits or Limits(),
        guesses=guesses or GuessLimits(),
        bots={},
        reserved={},
        lock=asyncio.Lock(),
        say=say,
        tell_away=lambda: False,
        clock=clock,
    )


def player(number: int, key: bytes, seat: int = 0) -> Conn:
    """A player's connection past its proof (its key known, its seat given)."""
    return Conn(number, None, role="player", key=key, seat=seat, address="10.0.0.1")
