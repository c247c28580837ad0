"""The generic search of the hard player: single-observer ISMCTS with common
determinizations and successive halving at the root (`search`, `Node`), the
playouts and their exact finish in Briscola for two (`playout`,
`briscola_finish`), and the move it keeps (`best_action`). docs/bots.md
describes the method and its figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import ceil, log, log2, sqrt
from random import Random
from types import ModuleType
from typing import Final, Literal, Protocol

from ..determinize import Determinizer
from ..state import CHANCE, TERMINAL, Action, State
from ..view import as_seen
from . import briscola2, fast_briscola
from .inference import Inference
from .narrowing import available, root_candidates
from .playout import NORMAL_PLAYOUT, Policy
from .rewards import reward_function
from .rollout import fast_module, fast_playout, finisher, playout, plays_left

DEFAULT_STEPS = 4000
"""The default budget, in steps of simulation a move (`search`): an early
move, whose playouts are long, gets few iterations, a late one many more for
the same CPU. A budget counted in steps, not seconds, makes a move the same
whatever the machine's load: about 80 ms of CPU a move on average
(docs/bots.md gives the figures per game, at most about 0.25 s), chosen so
that each arena of docs/bots.md fits in well under an hour on two cores."""
FAST_STEPS = 32000
"""... and where the playouts run on numbers in Briscola for two
(`engine/bots/briscola2.py`, a step about a quarter of the CPU): about 0.2 s
of CPU a move on average, at most about 0.5 s (docs/bots.md)."""
BRISCOLA_STEPS = 40000
"""Briscola for three, four and six, its playouts on numbers
(`engine/bots/fast_briscola.py`, a step about a sixth of the engine's
CPU): about 0.15-0.17 s of CPU a move on average, at most about 0.45 s
(docs/bots.md)."""
PLAY_STEPS = 32000
"""Chiamata and Calabresella, whose play runs on numbers
(`engine/bots/fast_chiamata.py`, `fast_calabresella.py`; the auction and
what follows it until the play on the engine): about 0.19 s of CPU a move
on average; a Chiamata bid, its playouts bidding on the engine, up to
`CPU_SECONDS` (docs/bots.md)."""
DEFAULT: Final = "default"
"""`steps=DEFAULT`: the budget of `fast_steps` where the playouts run on
numbers, else `DEFAULT_STEPS`."""
CPU_SECONDS = 0.9
"""A search with a wall-clock limit (the default players') ends once it has
spent this much CPU (`time.process_time`): issue 24's cap of 1 s a move,
with a margin. Only the dearest moves come near it (a Chiamata bid, whose
playouts bid on the engine: 0.6 s on average, up to 1.16 s with both cores
busy before this cap), so the moves do not depend on the load but for those."""
SAMPLE_STEPS = 10
"""What sampling one determinization costs, counted in steps."""
CONFIDENCE = 1.0
"""Standard errors by which the search's move must beat the anchor's on the
same determinizations (Briscola for two against normal, seed 11, without
halving: 2 won 57.9% of the decided hands over 300 deals, 1 won 59.9% and 0
won 52.3% over 200; docs/bots.md)."""
MIN_ROUND = 2
"""Iterations a round of successive halving gets at least."""
EXPAND_AFTER = 8
"""Below the root a decision node grows children once visited this often..."""
TREE_PLAYS = 15
"""... once at most this many cards are left to play (the last five tricks
of Calabresella, three of Chiamata); earlier, and in Briscola for two (whose
end the playouts search exactly), the root's actions are compared by
playouts alone. A tree all through the hand won 54.0% of the decided hands
of Briscola for two against normal, the root alone 60.7% (the same 200
deals, docs/bots.md): at a few dozen iterations an action, the replies tried
below it only add noise. In the last tricks the iterations are many and the
tree finds what the playouts misplay (tests/test_hard.py's endgames)."""
EXPLORATION = 0.7
"""UCB1 exploration constant (rewards are about -1..1)."""


def best_action(root: Node, legal: Sequence[Action], confidence: float = CONFIDENCE) -> Action:
    """The anchor's action (the root's prior), unless a finalist's reward
    beats it on the same determinizations by `confidence` standard errors
    of the mean difference: then the finalist that beats it most. With no
    anchor, the finalist of best mean reward."""
    allowed = set(legal)
    finalists = [a for a in root.finalists if a in allowed and a in root.children]
    if not finalists:
        return root.prior if root.prior is not None and root.prior in allowed else legal[0]
    prior = root.prior
    kept = root.children.get(prior)
    if prior is None or kept is None or prior not in allowed:
        return max(finalists, key=lambda a: root.children[a].mean())
    best, margin = prior, 0.0
    for action in finalists:
        if action != root.prior:
            mean, spread = paired(root.children[action], kept)
            if mean > confidence * sqrt(spread) and mean > margin:
                best, margin = action, mean
    return best


# --- the tree -------------------------------------------------------------------


class Node:
    """One information set of the searching seat, reached by what it saw.

    `player` is the seat whose move leads here (None after a chance event or
    a hidden move): `total` sums that seat's rewards. `avail` counts the
    iterations in which the move was available; `candidates` caches the searching seat's own narrowed discards. At the
    root: `prior`, the anchor's action, always compared; `finalists`, the
    actions compared to the end; and each child's `samples`, the seat's
    reward by iteration.
    """

    __slots__ = (
        "action",
        "player",
        "children",
        "visits",
        "total",
        "avail",
        "candidates",
        "prior",
        "samples",
        "finalists",
    )

    def __init__(self, action: Action | None = None, player: int | None = None):
        self.action = action
        self.player = player
        self.children: dict = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.candidates: list[Action] | None = None
        self.prior: Action | None = None
        self.samples: dict[int, float] = {}
        self.finalists: list[Action] = []

    def child(self, key: Action | tuple[str, int], action: Action | None = None, player: int | None = None) -> Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Node(action, player)
        return node

    def select(self, actions: list[Action], exploration: float) -> Node:
        """UCB1 over the children of the available actions (counting their availability)."""
        children = [self.children[action] for action in actions]
        for child in children:
            child.avail += 1
        best, best_value = None, -1e300
        for child in children:
            value = child.total / child.visits + exploration * sqrt(log(child.avail) / child.visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None  # `actions` is never empty
        return best

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        return f"<Node {self.action} by {self.player}: {self.visits} visits, mean {self.mean():.3f}>"


class LeafValue(Protocol):
    """A playout's end before the hand's: `seat`'s reward of playing `action` in the full
    `state`, and the steps it cost (research/learned_leaf.py values a position so)."""

    def value(self, state: State, action: Action, seat: int) -> tuple[float, int]: ...


LeafMaker = Callable[[State, dict, Callable], LeafValue | None]
"""Given a search's first determinization, the exact finishes it has solved (shared) and its
rewards: the `LeafValue` its playouts end at, or None where none applies."""


def search(
    determinizer: Determinizer | Inference,
    seat: int,
    rng: Random,
    policy: Policy,
    iterations: int | None,
    seconds: float | None,
    exploration: float = EXPLORATION,
    prior: Action | None = None,
    steps: int | Literal["default"] | None = None,
    expand_after: int | None = EXPAND_AFTER,
    leaf: LeafMaker | None = None,
) -> Node:
    """Run the search for `seat` within the budget (`prior`: the anchor's
    action, always among the compared ones); return the root.

    Each iteration samples one determinization and plays every root action
    still compared in it (`Node.samples` keeps each one's reward by
    iteration, so that two actions are compared on the same deals). The
    budget is split into rounds of successive halving: after each round the
    worse half of the actions (by mean paired difference to the anchor's) is
    dropped, the anchor's never. It ends at whichever comes first:
    `iterations`, `seconds` of wall-clock time, `steps` of simulation (each
    iteration counts the actions it applies plus `SAMPLE_STEPS`; `DEFAULT`:
    `fast_steps` where the playouts run on numbers, else `DEFAULT_STEPS`).
    `leaf`: the values that end Briscola-for-two playouts early (`LeafMaker`), if set."""
    root = Node()
    root.prior = prior
    rewards = reward_function(determinizer.game)
    finish = finisher(determinizer.game)
    began = time.perf_counter()
    state = determinizer.sample(rng)
    if finish is not None or (expand_after is not None and plays_left(state) > TREE_PLAYS):
        expand_after = None  # Briscola for two: its last tricks are searched exactly (`finisher`)
    fast = fast_module(determinizer.game, state) if policy is NORMAL_PLAYOUT else None
    if steps == DEFAULT:
        steps = DEFAULT_STEPS if fast is None else fast_steps(fast)
    budget = Budget(iterations, seconds, steps, began)
    budget.steps += inference_steps(determinizer)  # the first sample's checks
    plays = Playouts(seat, policy, exploration, expand_after, fast, rewards, finish)
    plays.leaf = leaf(state, plays.solved, rewards) if leaf is not None and fast is briscola2 else None
    alive = root_candidates(state, root, rng, policy)
    rounds = max(1, ceil(log2(len(alive))))
    for number in range(1, rounds + 1):
        done = 0
        while done < MIN_ROUND or not budget.used(number / rounds):
            if done or number > 1:
                state = determinizer.sample(rng)
                budget.steps += inference_steps(determinizer)
            seed = rng.getrandbits(32)
            for action in alive:
                budget.steps += plays.try_action(root, state, action, seed)
            root.visits += 1
            budget.iterations += 1
            budget.steps += SAMPLE_STEPS
            done += 1
        if number < rounds:
            alive = halve(root, alive)
    root.finalists = alive
    return root


@dataclass
class Playouts:
    """How `search` plays a root action out in a determinization: the tree below it
    (`expand_after`: None, playouts only), then a playout by `policy` (on numbers,
    `fast`, where it can)."""

    seat: int
    policy: Callable[[State, Random], Action]
    exploration: float
    expand_after: int | None
    fast: ModuleType | None
    rewards: Callable
    finish: Callable | None
    solved: dict = field(default_factory=dict)
    """The exact finishes already searched, shared by every playout of the search."""
    leaf: LeafValue | None = None
    """Where set, a playout ends at its value (`LeafValue`)."""

    def try_action(self, root: Node, state: State, action: Action, seed: int) -> int:
        """Apply `action` to a copy of `state` and play the hand out (the playout's
        random numbers from `seed`); add the reward to the tree and to `action`'s
        samples; return the steps it took."""
        seat = self.seat
        if self.leaf is not None:
            value, steps = self.leaf.value(state, action, seat)
            child = root.child(action, action, seat)
            backpropagate([child], [value if s == seat else -value for s in range(2)])
            child.samples[root.visits] = value
            return steps
        one = state.clone()
        start = len(one.history)
        child = root.child(action, action, seat)
        one.apply(action)
        play_rng = Random(seed)
        path = (
            []
            if self.expand_after is None
            else descend(child, one, seat, play_rng, self.policy, self.exploration, self.expand_after)
        )
        steps = 0
        if self.fast is not None:
            reward, steps = fast_playout(one, play_rng, self.policy, self.fast, self.rewards, self.solved)
        else:
            reward = self.rewards(one, playout(one, play_rng, self.policy, self.finish))
        backpropagate([child] + path, reward)
        child.samples[root.visits] = reward[seat]
        return steps + len(one.history) - start


def inference_steps(sampler: Determinizer | Inference) -> int:
    """The steps an `Inference` sampler's checks cost since last asked (0 for
    a plain `Determinizer`)."""
    if not isinstance(sampler, Inference):
        return 0
    spent = sampler.spent
    if spent:
        sampler.spent = 0
    return spent


class Budget:
    """What a search has spent of its limits (None: no limit of that kind),
    and of `CPU_SECONDS` when it has a wall-clock limit (a budget without
    seconds stays one of the seed alone)."""

    def __init__(self, iterations: int | None, seconds: float | None, steps: int | None, start: float | None = None):
        self.limits = (iterations, seconds, steps)
        self.start = time.perf_counter() if start is None else start
        self.cpu_start = time.process_time()
        self.iterations = self.steps = 0

    def used(self, share: float) -> bool:
        """True once any limit is spent up to `share` of it."""
        iterations, seconds, steps = self.limits
        return (
            (iterations is not None and self.iterations >= share * iterations)
            or (steps is not None and self.steps >= share * steps)
            or (
                seconds is not None
                and (
                    time.perf_counter() - self.start >= share * seconds
                    or time.process_time() - self.cpu_start >= share * CPU_SECONDS
                )
            )
        )


def halve(root: Node, alive: list[Action]) -> list[Action]:
    """The better half of `alive` by mean paired difference to the anchor's
    action (kept in any case; with no anchor, by mean reward)."""
    ranked = sorted(alive, key=lambda a: -score(root, a))
    keep = ranked[: ceil(len(alive) / 2)]
    if root.prior in alive and root.prior not in keep:
        keep.append(root.prior)
    return keep


def score(root: Node, action: Action) -> float:
    child = root.children[action]
    kept = root.children.get(root.prior)
    if kept is None:
        return child.mean()
    return paired(child, kept)[0]


def paired(child: Node, kept: Node) -> tuple[float, float]:
    """(mean, squared standard error) of `child`'s reward minus `kept`'s on
    the iterations that played both."""
    diffs = [reward - kept.samples[i] for i, reward in child.samples.items() if i in kept.samples]
    k = len(diffs)
    if k < 2:
        return 0.0, 1e9
    mean = sum(diffs) / k
    variance = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean, variance / k


def descend(
    node: Node, state: State, seat: int, rng: Random, policy: Policy, exploration: float, expand_after: int
) -> list[Node]:
    """Selection and expansion below `node` on `state` (changed in place): the
    nodes walked past `node`. A decision node grows children only once it has
    been visited `expand_after` times (before that the playout goes on from
    it), the playout policy's action first, then UCB1."""
    path: list[Node] = []
    while True:
        turn = state.current_player()
        if turn == TERMINAL:
            return path
        if turn == CHANCE:
            action = state.chance_outcome()
            node = node.child(as_seen(action, state.need(), seat))
        elif turn != seat and state.phase == "discard":
            action = policy(state, rng)  # face down: the searching seat sees only that it happened
            node = node.child(("discard", turn))
        elif node.visits < expand_after:
            return path
        else:
            actions = available(state, node, rng, policy)
            untried = [a for a in actions if a not in node.children]
            if untried:
                suggested = policy(state, rng)
                action = suggested if suggested in untried else rng.choice(untried)
                node = node.child(action, action, turn)
                state.apply(action)
                path.append(node)
                return path
            node = node.select(actions, exploration)
            assert node.action is not None  # a decision's child: the action into it
            action = node.action
        state.apply(action)
        path.append(node)


def fast_steps(module: ModuleType) -> int:
    """The default budget in steps a move where `module` plays the playouts."""
    if module is briscola2:
        return FAST_STEPS
    return BRISCOLA_STEPS if module is fast_briscola else PLAY_STEPS


def backpropagate(path: list[Node], rewards: list[float]) -> None:
    for node in path:
        node.visits += 1
        if node.player is not None:
            reward = rewards[node.player]
            node.total += reward
