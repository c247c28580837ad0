"""How fast join codes may be guessed: `Guesses` counts the wrong codes (and the key exchanges
never finished) of each spender, an address or a seated key that signed its hello, and sums
them up on the console; `GuessLimits` are its bounds, `TooManyGuesses` its refusal (`busy`).
The handshake that spends them is `admission.Admission`'s.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from protocol.reasons import Reason

from ..language import _, n_
from .buckets import Buckets
from .connection import Busy


@dataclass
class GuessLimits:
    """How fast one address may try join codes: `free` wrong codes at once, then one more
    each `seconds` (a token bucket; a right code gives its token back). Wrong codes are not
    said one by one on the console: the first is, then `report_seconds` later one line sums
    up every wrong code and refused try since it."""

    free: int = 5
    seconds: float = 10.0
    free_hellos: int = 8  # key exchanges left unfinished that cost no try (one more back each `hello_seconds`)
    hello_seconds: float = 2.0
    report_seconds: float = 60.0
    addresses: int = 4096  # the most addresses remembered at once (those with tries left are forgotten first)


class TooManyGuesses(Busy):
    """This address (or seated key) has no try left for now: told when to come back (`busy`),
    which the client does."""


class Guesses:
    """Wrong join codes per spender: a source address (IPv4 addresses one by one, IPv6 by /64,
    one host's share of a network, so an attacker with many addresses of one network is one
    source), or a seated key that signed its hello (`("key", key)`: its tries are its own, so
    nobody on its address spends them). A key exchange the client never finishes (a hello
    and no confirmation: SPAKE2 work for nothing) costs a try too, past `free_hellos`."""

    def __init__(self, limits: GuessLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.tries = Buckets(limits.free, limits.seconds, limits.addresses, forget="fullest", clock=clock)
        self.halves = Buckets(limits.free_hellos, limits.hello_seconds, limits.addresses, forget="fullest", clock=clock)
        self.wrong: Counter = Counter()  # wrong codes since the last report, per source
        self.held = 0  # tries refused since the last report (no try left)
        self.unfinished = 0  # key exchanges never finished since the last report, past the free ones
        self.told = False  # the first wrong code since the last report was said at once

    def unconfirmed(self, who: object) -> None:
        """A key exchange `who` began and never finished: free while it has some left, else a try."""
        if self.halves.spend(who):
            return
        self.unfinished += 1
        self.tries.spend(who)

    def wait(self, who: object) -> float:
        """Seconds until `who` (an address, or a seated key) may try a code (0: now)."""
        return self.tries.wait(who)

    @property
    def pending(self) -> bool:
        """Something to sum up at the next report."""
        return bool(self.wrong or self.held or self.unfinished)

    def hold(self, who: object) -> TooManyGuesses:
        """A try refused: `who` has none left. The refusal (`busy`, with when to try again)."""
        self.held += 1
        wait = self.wait(who)
        code = "guesses-key" if isinstance(who, tuple) else "guesses-address"
        return TooManyGuesses(Reason.of(code, seconds=math.ceil(wait)), wait)

    def take(self, who: object) -> bool:
        """Spend one try of `who` (before its code is checked); False if none is left."""
        return self.tries.spend(who)

    def give_back(self, who: object) -> None:
        """The code was right: that try is not counted."""
        self.tries.give_back(who)

    @property
    def window(self) -> str:
        seconds = self.limits.report_seconds
        return _("a minute") if seconds == 60 else _("{seconds:g} s").format(seconds=seconds)

    @property
    def last(self) -> str:
        """ "in the last minute": the time the report sums up."""
        seconds = self.limits.report_seconds
        return _("in the last minute") if seconds == 60 else _("in the last {seconds:g} s").format(seconds=seconds)

    def wrong_code(self, source: str) -> str | None:
        """Count a wrong code; the line to say now if it is the first since the last report
        (the others wait for the report)."""
        self.wrong[source] += 1
        if self.told:
            return None
        self.told = True
        return _("a wrong join code from {source} (any more are summed up in {window})").format(
            source=source, window=self.window
        )

    def report(self) -> str | None:
        """One line for the wrong codes and refused tries since the last report (None if there
        were none, or only the wrong code said at once)."""
        wrong, held, self.wrong, self.held = self.wrong, self.held, Counter(), 0
        told, self.told = self.told, False
        self.tries.forget_full()
        self.halves.forget_full()
        total = sum(wrong.values())
        if not held and total <= (1 if told else 0):  # nothing, or only the one said at once
            return self._unfinished(None)
        return self._unfinished(self._wrong_line(wrong, held, total))

    def _unfinished(self, line: str | None) -> str | None:
        """`line`, with the key exchanges never finished (past the free ones) since the last report."""
        unfinished, self.unfinished = self.unfinished, 0
        if not unfinished:
            return line
        words = n_(
            "{n} key exchange never finished (counted as a try)",
            "{n} key exchanges never finished (counted as tries)",
            unfinished,
        ).format(n=unfinished)
        return f"{line}; {words}" if line else _("{words} {last}").format(words=words, last=self.last)

    def _wrong_line(self, wrong: Counter, held: int, total: int) -> str:
        last = self.last
        if len(wrong) == 1:
            [(source, n)] = wrong.items()
            line = n_("{n} wrong join code from {source} {last}", "{n} wrong join codes from {source} {last}", n)
            line = line.format(n=n, source=source, last=last)
        elif wrong:
            top = wrong.most_common(3)
            sources = ", ".join(_("{n} from {source}").format(n=n, source=s) for s, n in top)
            line = n_("{n} wrong join code {last}: {sources}", "{n} wrong join codes {last}: {sources}", total)
            line = line.format(n=total, last=last, sources=sources)
            if len(wrong) > 3:
                rest = total - sum(n for _s, n in top)
                line += _(" and {n} from {others} other addresses").format(n=rest, others=len(wrong) - 3)
        else:
            line = n_(
                "{n} try refused {last}: too many wrong codes", "{n} tries refused {last}: too many wrong codes", held
            )
            return line.format(n=held, last=last)
        if held:
            more = n_(
                "; {n} more try refused (too many wrong codes)", "; {n} more tries refused (too many wrong codes)", held
            )
            line += more.format(n=held)
        return line
