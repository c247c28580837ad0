"""Uniform assignment of cards to places, counted exactly (`Assignment`).

The sampler behind determinization (engine/determinize.py, step 2): some
cards may go only to some places (a seat's hidden cards, a face-down
discard, the stock), and each valid assignment must be equally likely.
"""

from __future__ import annotations

from math import factorial

from .cards import Card
from .reading import Inconsistent
from .rng import Shuffler

_FACTORIALS = [factorial(i) for i in range(41)]


class Assignment:
    """Uniform choice of which cards go to which place.

    `caps[i]` cards go to place i; each card may go to the places its
    `allowed` tuple names (None: anywhere). Cards allowed in one place are
    put there; cards allowed anywhere are shuffled into what is left; the
    others are drawn one by one with probability proportional to the number
    of ways to complete the assignment, counted exactly (memoized on the
    remaining capacities). Every valid assignment is equally likely.
    """

    def __init__(self, caps: list[int], cards: list[tuple[Card, tuple[int, ...] | None]]):
        k = len(caps)
        caps = list(caps)
        self.fixed: list[list[Card]] = [[] for _ in range(k)]
        self.free: list[Card] = []
        restricted = []
        for card, allowed in cards:
            if allowed is None or len(allowed) == k:
                self.free.append(card)
            elif not allowed:
                raise Inconsistent(f"{card} can be nowhere")
            elif len(allowed) == 1:
                self.fixed[allowed[0]].append(card)
                caps[allowed[0]] -= 1
            else:
                restricted.append((card, allowed))
        if any(c < 0 for c in caps):
            raise Inconsistent("more cards must be in a place than it holds")
        self.caps = tuple(caps)
        self.restricted = sorted(restricted, key=lambda item: (item[1], item[0].index))
        self._memo: dict[tuple, int] = {}
        if self.count(0, self.caps) == 0:
            raise Inconsistent("no way to place the unseen cards")

    def count(self, i: int, caps: tuple[int, ...]) -> int:
        """Ways to place restricted cards i.. and every free card into `caps`."""
        key = (i, caps)
        found = self._memo.get(key)
        if found is not None:
            return found
        if i == len(self.restricted):
            total = _FACTORIALS[len(self.free)]
            for c in caps:
                total //= _FACTORIALS[c]
        else:
            total = 0
            for place in self.restricted[i][1]:
                if caps[place]:
                    total += self.count(i + 1, caps[:place] + (caps[place] - 1,) + caps[place + 1 :])
        self._memo[key] = total
        return total

    def sample(self, rng: Shuffler) -> list[list[Card]]:
        """Cards per place (lists the caller may reorder)."""
        out = [list(cards) for cards in self.fixed]
        caps = self.caps
        for i, (card, allowed) in enumerate(self.restricted):
            r = rng.randrange(self.count(i, caps))
            for place in allowed:
                if not caps[place]:
                    continue
                after = caps[:place] + (caps[place] - 1,) + caps[place + 1 :]
                ways = self.count(i + 1, after)
                if r < ways:
                    break
                r -= ways
            out[place].append(card)
            caps = after
        free = list(self.free)
        rng.shuffle(free)
        start = 0
        for place, cap in enumerate(caps):
            out[place].extend(free[start : start + cap])
            start += cap
        return out
