"""A weighted assignment of cards to places (`WeightedAssignment`): the
learned holdings' draw (research/holdings.py).

Like engine/assignment.py's `Assignment`, but an assignment is drawn with a
chance proportional to the product of its cards' weights in their places,
not uniformly. The weighted count of the ways to finish an assignment is
made exactly once, over the remaining capacities, card by card (a table a
layer per card); each draw then walks the cards once.
"""

from __future__ import annotations

from engine.cards import Card
from engine.reading import Inconsistent


class WeightedAssignment:
    """`caps[i]` cards go to place i; `weights[card]` maps the places the card
    may be in to its weight there (a place left out: not allowed)."""

    def __init__(self, caps: list[int], weights: dict[Card, dict[int, float]]):
        self.cards = sorted(weights, key=lambda c: (len(weights[c]), c.index))
        self.options = [tuple(sorted(weights[c].items())) for c in self.cards]
        self.caps = tuple(caps)
        self.places = len(caps)
        if sum(caps) != len(self.cards):
            raise Inconsistent(f"{len(self.cards)} cards for {sum(caps)} places")
        self.table = self._count()
        if self.table[0].get(self.caps, 0.0) <= 0.0:
            raise Inconsistent("no way to place the unseen cards")

    def _reachable(self) -> list[set[tuple[int, ...]]]:
        """Per card, the capacities left before it is placed."""
        reach = [{self.caps}]
        for options in self.options:
            after = set()
            for caps in reach[-1]:
                for p, _ in options:
                    if caps[p]:
                        after.add(caps[:p] + (caps[p] - 1,) + caps[p + 1 :])
            reach.append(after)
        return reach

    def _count(self) -> list[dict[tuple[int, ...], float]]:
        """`table[i][caps]`: the weighted ways to place cards i.. into `caps`."""
        reach = self._reachable()
        m = len(self.cards)
        table: list[dict[tuple[int, ...], float]] = [{} for _ in range(m + 1)]
        table[m] = {caps: 1.0 for caps in reach[m] if not any(caps)}
        for i in range(m - 1, -1, -1):
            later, here = table[i + 1], table[i]
            for caps in reach[i]:
                total = 0.0
                for p, w in self.options[i]:
                    if caps[p]:
                        total += w * later.get(caps[:p] + (caps[p] - 1,) + caps[p + 1 :], 0.0)
                here[caps] = total
        return table

    def sample(self, rng) -> list[list[Card]]:
        """Cards per place, drawn with a chance proportional to the product of their weights."""
        out: list[list[Card]] = [[] for _ in range(self.places)]
        caps = self.caps
        for i, card in enumerate(self.cards):
            later = self.table[i + 1]
            r = rng.random() * self.table[i][caps]
            chosen = None
            for p, w in self.options[i]:
                if not caps[p]:
                    continue
                after = caps[:p] + (caps[p] - 1,) + caps[p + 1 :]
                ways = w * later.get(after, 0.0)
                if ways <= 0.0:
                    continue
                chosen = (p, after)
                if r < ways:
                    break
                r -= ways
            if chosen is None:
                raise Inconsistent(f"{card} has no place left")
            out[chosen[0]].append(card)
            caps = chosen[1]
        return out
