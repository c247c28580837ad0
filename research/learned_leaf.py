"""The hard player's playouts cut short by the learned value (issue 38, a
research hook of `hard.make_player(leaf=Leaf(...))`, set by no level:
docs/bots.md, research notes).

In Briscola for two (the plain game, a hand at a time) a playout of
`search` plays the root's card in the determinization, closes its trick by
the normal player's answer as the playouts do (every card seen), makes the
draw, lets the normal player play `tricks` more tricks for both seats, and
then values the position with the network (research/learned.py) instead
of playing the hand out: the value averages over the stock's order, where a
playout follows one. Once at most the last draw is left the rest is searched
exactly, as the playouts do (`Table.exact_points`, sharing the search's
finishes already solved).

Cost, in the search's steps: each card played and each draw a step, as the
playouts count them, and `LEAF_STEPS` a network value, so that a budget in
steps buys about the same CPU with the leaf as without it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.games.briscola import BriscolaState
from engine.state import Action, State

from .learned import Network, load
from .learned_table import Table, supports

LEAF_STEPS = 18
"""A network value, counted in steps. Alone a value costs about 0.19 ms of CPU
(pure Python, the stock's share of the first layer already summed), some 29
steps of the playouts on numbers (about 6.6 us each, engine/bots/briscola2.py);
but a search's steps cost more than its playouts' (the sampling, the exact
finishes), and at 30 a move cost 165 ms against hard's 270 ms on three
deals. At 18 it costs about what hard's does (docs/bots.md)."""
TRICKS = 1
"""Tricks the normal player plays after the root card's own before the network
values the position (1 measured a little better than 0, within the noise: docs/bots.md)."""


@dataclass(frozen=True)
class Leaf:
    """How a playout is cut: after the root card's trick and `tricks` more, by
    `network` (None: the shipped weights), each value counted as `steps`."""

    tricks: int = TRICKS
    network: Network | None = None
    steps: int = LEAF_STEPS

    def __call__(self, state: State, solved: dict, rewards) -> LeafPlayouts | None:
        """A search's leaf playouts from its first determinization `state`, where the leaf
        applies (`hard.make_player(leaf=Leaf(...))`: engine/bots/search.py's `LeafMaker`)."""
        return LeafPlayouts(self, solved, rewards) if applies(state) else None


def applies(state: State) -> bool:
    """Briscola for two, plain, scored a hand at a time (what the network was fitted on), a card to play."""
    if not supports(state) or not isinstance(state, BriscolaState):
        return False
    return state.game.options.get("scoring", "hands") == "hands"


@dataclass
class LeafPlayouts:
    """One search's leaf playouts: the table of the determinization now played
    (every root card of an iteration is tried on the same one), the first
    layer's stock sums by stock (`Network.value`'s `shared`) and the exact
    finishes already searched (`solved`, shared with the playouts)."""

    leaf: Leaf
    solved: dict
    rewards: Callable[..., list[float]]
    network: Network = field(init=False)
    shared: dict = field(default_factory=dict)
    state: State | None = None
    table: Table | None = None
    moves: int = 0

    def __post_init__(self) -> None:
        self.network = self.leaf.network or load()

    def value(self, state: State, action: Action, seat: int) -> tuple[float, int]:
        """`seat`'s reward of playing `action` in full `state`, and the steps it took."""
        if state is not self.state or self.table is None or self.moves != len(state.history):
            self.state, self.table, self.moves = state, Table.of(state), len(state.history)
        table = self.table.copy()
        assert action.card is not None  # Briscola for two in play: a card
        steps = advance(table, action.card.index, self.leaf.tricks)
        if table.pile() <= 2:
            points = table.exact_points(self.solved)
            return self.rewards(state, points)[seat], steps
        value = self.network.value(table.position(), self.shared)
        return (value if table.leader == seat else -value), steps + self.leaf.steps


def advance(table: Table, card: int, tricks: int) -> int:
    """Play `card` on `table`, close its trick by the normal player's answer,
    then `tricks` more tricks by the normal player, or fewer once at most the
    last draw is left; the steps taken (each card and each trick's draw one)."""
    steps = 2
    table.play(card)
    if table.trick:
        table.play(table.normal_card())
        steps += 1
    for _ in range(tricks):
        if table.pile() <= 2:
            break
        table.play(table.normal_card())
        table.play(table.normal_card())
        steps += 3
    return steps
