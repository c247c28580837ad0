"""The hard player: single-observer Information Set Monte Carlo Tree Search.

SO-ISMCTS (Cowling, Powley and Whitehouse 2012) from the point of view of
the seat to act, for every decision of every game: the play, the Briscola
exchange and black hand, the auctions, the calls, the Solissimo raise, the
Calabresella return, take and discards.

Each iteration samples one full state from the seat's view
(`engine.determinize.Determinizer`, read once per move) and plays **every
root action still compared** in it, each in its own subtree (common
determinizations: two moves are compared on the same deals, so the luck of
the deal, by far the largest part of a reward's spread, cancels out of
their difference, as in a duplicate match). Until the last `TREE_PLAYS`
cards of the hand (and all through Briscola for two) each root action is
followed by a playout alone; in those last cards the tree grows below each
root action and is walked with the determinization:

- a node is reached by the sequence of actions *as the seat saw them*: its
  own and the other seats' public moves as they are, chance events with the
  cards it may not see hidden (a Briscola draw is keyed by its own card), a
  face-down discard of another seat as just "seat s discarded";
- a decision node grows children once it has been visited `EXPAND_AFTER`
  times (the playout policy's action first; before that the playout goes
  on from it, so a few iterations are not spent on another seat's unlikely
  replies); then the actions legal in this determinization are available,
  an untried one is expanded, else UCB1 with availability counts picks the
  child (each child keeps the reward of the seat that moved into it, so
  other seats play for themselves);
- chance events come from the determinized state (`chance_outcome()`); a
  face-down discard of another seat is played by the playout policy;
- a playout finishes the hand, and every seat's reward goes back up the
  path. The playouts are played by the normal player
  (`engine/bots/normal.py`, given the determinized full state as its view)
  by default (in Briscola for two on plain numbers,
  `engine/bots/briscola2.py`: the same moves, a step about a quarter of the
  CPU); this module's heuristic (`heuristic_action`, about ten times faster
  per playout, with a tenth of random moves) or `random_legal` on request.

**Successive halving** at the root: the budget is split into equal rounds,
log2 of the number of root actions rounded up (two for three cards); after each round
the worse half of the actions (by mean paired difference to the anchor's)
is dropped, so that the last round's determinizations go to the moves
still in contention (`Node.finalists`).

Wide choices are narrowed to a few candidates, the playout policy's choice
among them: the seat's own discards (up to 1,820) to the policy's, a few
heuristic ones and random ones, cached per node; the calls of any card to
the three best cards lacked in each suit; "2 with a target" and point bids to
a few steps above the lowest allowed. At the root a wide choice compares at
most `ROOT_CANDIDATES` of them (`root_candidates`); the play compares every
card.

The move: the normal player's move (the anchor, always compared) unless a
finalist beats it on the same determinizations by `CONFIDENCE` standard
errors of the mean difference; then the finalist that beats it most. The
largest of several noisy means is biased upwards: taking the best mean as
it is played worse than the normal player in Briscola for two.

Rewards per seat: Briscola with two sides, +1 won, -1 lost, 0 drawn (the
award difference over the largest award with `game_points`), plus a tenth of
the card-point difference over 120; Briscola with 3 players, the seat's
award over 3 plus the same tenth; Chiamata and Calabresella, the seat's
score in the hand over a scale (4 and 8), the side's by construction.

Briscola for two: once at most the last draw is left, a playout stops and
the rest of the hand is searched exactly (`briscola_finish`: every card of
a determinization is known), and the seat itself plays the normal player's
move, which is such a search over the few ways the last face-down card can
lie.

`play(view, rng)` searches `DEFAULT_STEPS` steps of simulation (the
actions its iterations apply, and `SAMPLE_STEPS` for each determinization:
few iterations early in the hand, many in the last tricks, for about the
same CPU; `FAST_STEPS` where the playouts run on numbers), at most
`DEFAULT_ITERATIONS` iterations; a wall-clock cap of `DEFAULT_SECONDS` is
only a safety net. So its moves depend on the view and
the rng, not on the machine's load. `make_player(iterations=...,
seconds=..., steps=..., playout=...)` builds a player with another budget
or playout policy. The player keeps nothing between moves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import combinations
from math import ceil, comb, log, log2, sqrt
from random import Random
from typing import Final, Literal

from ..cards import ALL_CARDS, BRISCOLA_ORDER, TRESSETTE_ORDER, Card
from ..determinize import Determinizer, Inconsistent
from ..games.briscola import BriscolaState
from ..games.briscola import _two_side_awards as two_side_awards
from ..games.calabresella import STRENGTH as TRESSETTE
from ..games.calabresella import VALUE as THIRDS
from ..games.calabresella import CalabresellaState
from ..games.chiamata import POINTS as CHIAMATA_POINTS
from ..games.chiamata import STRENGTH as CHIAMATA_STRENGTH
from ..games.chiamata import ChiamataState
from ..state import CHANCE, PUBLIC, TERMINAL, Action, State, play_action
from . import briscola2, normal

DEFAULT_STEPS = 4000
"""The default budget, in steps of simulation a move (`search`): an early
move, whose playouts are long, gets few iterations, a late one many more for
the same CPU. A budget counted in steps, not seconds, makes a move the same
whatever the machine's load: about 80 ms of CPU a move on average
(docs/bots.md gives the figures per game, at most about 0.25 s), chosen so
that each arena of docs/bots.md fits in well under an hour on two cores."""
FAST_STEPS = 16000
"""... and where the playouts run on numbers (Briscola for two,
`engine/bots/briscola2.py`, a step about a quarter of the CPU): about the
same CPU a move, 90 ms on average and at most about 0.35 s, for four times
the determinizations (against normal: 61.7% of the decided hands instead
of 59.4% over the same 1000 deals, docs/bots.md)."""
DEFAULT: Final = "default"
"""`steps=DEFAULT`: `FAST_STEPS` where the playouts run on numbers, else
`DEFAULT_STEPS`."""
SAMPLE_STEPS = 10
"""What sampling one determinization costs, counted in steps."""
DEFAULT_ITERATIONS = 1000
"""At most this many iterations a move (the steps end the search first but
in the last tricks)."""
DEFAULT_SECONDS = 2.0
"""A safety net only (wall-clock seconds a move), far above what the
steps cost: it ends the search if a loaded machine makes them last."""
DEFAULT_ANCHOR = "normal"
"""The move kept unless the search is confident of a better one: the normal
player's."""
CONFIDENCE = 1.0
"""Standard errors by which the search's move must beat the anchor's on the
same determinizations (Briscola for two against normal, seed 11, without
halving: 2 won 57.9% of the decided hands over 300 deals, 1 won 59.9% and 0
won 52.3% over 200; docs/bots.md)."""
ROOT_CANDIDATES = 5
"""A wide choice (a bid, a call, a discard) compares at most this many
actions at the root; the play compares every card."""
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
DEFAULT_PLAYOUT = "normal"
"""The normal player plays the playouts: about ten times slower than this
module's heuristic, and stronger for the same time (Briscola for two, against
the normal player, bench/arena.py)."""
EXPLORATION = 0.7
"""UCB1 exploration constant (rewards are about -1..1)."""
EPSILON = 0.1
"""Share of random moves in the heuristic playout."""
WIDE = 16
"""Above this many legal actions a node is narrowed to candidates."""
DISCARD_CANDIDATES = 10
POINT_WEIGHT = 0.1
"""Weight of the card-point difference in the Briscola reward."""
SCORE_SCALE = {"chiamata": 4.0, "calabresella": 8.0}


# --- the player -----------------------------------------------------------------


def make_player(
    iterations: int | None = DEFAULT_ITERATIONS,
    seconds: float | None = DEFAULT_SECONDS,
    playout=DEFAULT_PLAYOUT,
    anchor=DEFAULT_ANCHOR,
    confidence: float = CONFIDENCE,
    exploration: float = EXPLORATION,
    steps: int | Literal["default"] | None = DEFAULT,
    expand_after: int | None = EXPAND_AFTER,
):
    """A hard player with this budget, ending at whichever limit comes first
    (None: no limit of that kind; one at least must be set):
    `iterations` a move, `seconds` of wall-clock time a move, `steps` of
    simulation a move (see `search`; `DEFAULT`: `DEFAULT_STEPS`, or
    `FAST_STEPS` where the playouts run on numbers).

    `playout`: "normal" (the normal player), "heuristic" (this module's,
    faster and weaker), "random" (`random_legal`) or a function `(full
    state, rng) -> Action`. `anchor`: a player `(view, rng) -> Action`
    whose move is kept unless the search finds another better by
    `confidence` standard errors ("normal", or None for the plain most
    visited move)."""
    if iterations is None and seconds is None and steps is None:
        raise ValueError("give a budget: iterations, seconds or steps")
    policy = playout_policy(playout)
    anchor_player = normal.play if anchor == "normal" else anchor

    def play(view, rng: Random) -> Action:
        """The action SO-ISMCTS finds best for `view.seat` within the budget."""
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to play now")
        if len(legal) == 1:
            return legal[0]
        prior = as_listed(anchor_player(view, rng), legal) if anchor_player is not None else None
        if prior is not None and anchor == "normal" and normal_is_exact(view):
            return prior
        try:
            determinizer = Determinizer(view)
        except Inconsistent:  # not a view the engine built: nothing to simulate
            return prior if prior is not None else rng.choice(legal)
        root = search(
            determinizer, view.seat, rng, policy, iterations, seconds, exploration, prior, steps, expand_after
        )
        return best_action(root, legal, confidence)

    play.__doc__ = (
        f"SO-ISMCTS, at most {iterations} iterations, {steps} steps and {seconds} s a move, {playout} playouts."
    )
    return play


def normal_is_exact(view) -> bool:
    """Briscola for two with at most the last draw left: the normal player
    searches the rest of the hand exactly (over each way the last face-down
    card can lie), so there is nothing for the search to add."""
    state = view.state
    return (
        state.game.name == "briscola"
        and state.n == 2
        and state.phase == "play"
        and state.pile_left() in (0, 2)
        and all(a.kind == "play" for a in view.legal)
    )


def as_listed(action: Action, legal) -> Action | None:
    """`action` as `legal` lists it (a discard or take in another card order)."""
    if action in legal:
        return action
    if action.cards:
        cards = set(action.cards)
        return next((a for a in legal if a.kind == action.kind and set(a.cards) == cards), None)
    return None


def playout_policy(playout):
    """The playout policy named `playout` (or `playout` itself if it is a function)."""
    if callable(playout):
        return playout
    if playout == "normal":
        return NORMAL_PLAYOUT
    if playout == "heuristic":
        return heuristic_action
    if playout == "random":
        return lambda state, rng: state.random_legal(rng)
    raise ValueError(f"unknown playout {playout!r} (normal, heuristic, random or a function)")


class FullView:
    """A full state as a `View` of the seat to act, for a player used in
    playouts (it sees the determinized cards: every hand is known)."""

    __slots__ = ("seat", "_state")

    def __init__(self, state: State):
        self.seat = state.current_player()
        self._state = state

    @property
    def state(self) -> State:
        state = self._state.clone()
        if isinstance(state, ChiamataState) and state.partner_known and not knows_partner(state, self.seat):
            state.partner_known = False  # every hand is known here, but who the partner is is not
        return state

    @property
    def legal(self):
        if self._state.phase == "discard":
            return LazyDiscards(self._state)
        return tuple(self._state.legal_actions())


def knows_partner(state: ChiamataState, seat: int) -> bool:
    """Chiamata: whether `seat` knows who the caller's partner is (or that
    there is none): once the called card is played, or as the partner, or as
    a caller who called a card of its own."""
    if seat == state.partner or (seat == state.caller and state.partner is None):
        return True
    return _called_played(state)


class LazyDiscards(Sequence):
    """The legal discards (up to 1,820) as a sequence built only if read."""

    def __init__(self, state: State):
        assert isinstance(state, CalabresellaState)  # the one game with discards
        self.seat, self.size = state.discarders[0]  # `size`: cards in each discard
        self.hand = sorted(state.hands[self.seat])
        self._all: list[Action] | None = None

    def __len__(self) -> int:
        return comb(len(self.hand), self.size)

    def __getitem__(self, i):
        if self._all is None:
            self._all = [Action(self.seat, "discard", cards=c) for c in combinations(self.hand, self.size)]
        return self._all[i]

    def __contains__(self, action) -> bool:
        cards = getattr(action, "cards", ())
        return (
            getattr(action, "kind", None) == "discard"
            and action.seat == self.seat
            and len(cards) == self.size
            and list(cards) == sorted(set(cards))
            and set(cards) <= set(self.hand)
        )


def as_policy(player):
    """A `play(view, rng)` player as a playout policy on full states."""
    return lambda state, rng: player(FullView(state), rng)


NORMAL_PLAYOUT = as_policy(normal.play)
"""The normal player's playouts: on Briscola for two `playout` plays them
on plain numbers (`engine/bots/briscola2.py`), the same moves faster."""


def best_action(root: Node, legal, confidence: float = CONFIDENCE) -> Action:
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

    def child(self, key, action: Action | None = None, player: int | None = None) -> Node:
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


def search(
    determinizer: Determinizer,
    seat: int,
    rng: Random,
    policy,
    iterations: int | None,
    seconds: float | None,
    exploration: float = EXPLORATION,
    prior: Action | None = None,
    steps: int | Literal["default"] | None = None,
    expand_after: int | None = EXPAND_AFTER,
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
    `FAST_STEPS` where the playouts run on numbers, else `DEFAULT_STEPS`)."""
    root = Node()
    root.prior = prior
    rewards = reward_function(determinizer.game)
    finish = finisher(determinizer.game)
    began = time.perf_counter()
    state = determinizer.sample(rng)
    if finish is not None or (expand_after is not None and plays_left(state) > TREE_PLAYS):
        expand_after = None  # Briscola for two: its last tricks are searched exactly (`finisher`)
    fast = policy is NORMAL_PLAYOUT and briscola2.supports(state)
    if steps == DEFAULT:
        steps = FAST_STEPS if fast else DEFAULT_STEPS
    budget = Budget(iterations, seconds, steps, began)
    solved: dict = {}
    alive = root_candidates(state, root, rng, policy)
    rounds = max(1, ceil(log2(len(alive))))
    for number in range(1, rounds + 1):
        done = 0
        while done < MIN_ROUND or not budget.used(number / rounds):
            if done or number > 1:
                state = determinizer.sample(rng)
            seed = rng.getrandbits(32)
            for action in alive:
                one = state.clone()
                start = len(one.history)
                child = root.child(action, action, seat)
                one.apply(action)
                play_rng = Random(seed)
                path = (
                    []
                    if expand_after is None
                    else descend(child, one, seat, play_rng, policy, exploration, expand_after)
                )
                if fast:
                    totals, steps_taken = briscola2.playout(one, solved)
                    reward = rewards(one, totals)
                    budget.steps += steps_taken
                else:
                    reward = rewards(one, playout(one, play_rng, policy, finish))
                backpropagate([child] + path, reward)
                child.samples[root.visits] = reward[seat]
                budget.steps += len(one.history) - start
            root.visits += 1
            budget.iterations += 1
            budget.steps += SAMPLE_STEPS
            done += 1
        if number < rounds:
            alive = halve(root, alive)
    root.finalists = alive
    return root


class Budget:
    """What a search has spent of its limits (None: no limit of that kind)."""

    def __init__(self, iterations: int | None, seconds: float | None, steps: int | None, start: float | None = None):
        self.limits = (iterations, seconds, steps)
        self.start = time.perf_counter() if start is None else start
        self.iterations = self.steps = 0

    def used(self, share: float) -> bool:
        """True once any limit is spent up to `share` of it."""
        iterations, seconds, steps = self.limits
        return (
            (iterations is not None and self.iterations >= share * iterations)
            or (seconds is not None and time.perf_counter() - self.start >= share * seconds)
            or (steps is not None and self.steps >= share * steps)
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
    node: Node, state: State, seat: int, rng: Random, policy, exploration: float, expand_after: int
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
            node = node.child(seen_by(action, state.need(), seat))
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


def plays_left(state: State) -> int:
    """The cards still to be played in the hand (those in hand and, in
    Briscola, the stock's)."""
    stock = state.pile_left() if isinstance(state, BriscolaState) else 0
    return stock + sum(state.hand_size(s) for s in range(state.n))


def playout(state: State, rng: Random, policy, finish=None) -> list[int] | None:
    """Finish the hand with `policy`, chance events from the deal; or, once
    `finish(state)` gives the final card points of each side (an exact
    search), stop there and return them."""
    while True:
        turn = state.current_player()
        if turn == TERMINAL:
            return None
        if turn != CHANCE and finish is not None:
            totals = finish(state)
            if totals is not None:
                return totals
        state.apply(state.chance_outcome() if turn == CHANCE else policy(state, rng))


def finisher(game):
    """`finish(full state) -> side points or None` for `playout`: Briscola for
    two only (None for the other games)."""
    if game.name == "briscola" and game.players == 2:
        return briscola_finish
    return None


def briscola_finish(state: BriscolaState) -> list[int] | None:
    """Briscola for two, every card known, at most the last draw left (the
    winner of the trick draws the face-down card, the other the face-up
    one): each seat's final card points with best play by both, by the
    exact search (`engine/bots/endgame.py`). None earlier, or while a trump
    exchange is still possible."""
    pile = state.pile_left()
    if pile not in (0, 2) or state.phase != "play":
        return None
    draw: tuple[int, ...] = ()
    if pile == 2:
        if state.exchange_card is not None and (state.can_exchange(0) or state.can_exchange(1)):
            return None
        top = state.stock[state.drawn]
        assert top is not None  # a full state: every card known
        draw = (top.index, state.faceup.index)
    hands = [[c.index for c in hand] for hand in state.hands]
    return briscola2.finish(hands, [c.index for c in state.trick], state.leader, state.captured, draw, state)


def backpropagate(path: list[Node], rewards: list[float]) -> None:
    for node in path:
        node.visits += 1
        if node.player is not None:
            reward = rewards[node.player]
            node.total += reward


def seen_by(action: Action, need, seat: int) -> Action:
    """A chance action as `seat` sees it: the cards it may not see as None."""
    if not action.cards:
        return action  # the Calabresella handover is made face up
    cards = tuple(c if need.audiences[i] in (seat, PUBLIC) else None for i, c in enumerate(action.cards))
    return Action(CHANCE, action.kind, cards=cards)


# --- available actions ----------------------------------------------------------


def available(state: State, node: Node, rng: Random, policy) -> list[Action]:
    """The actions searched at `node` in this determinization: the legal
    ones, or a few candidates (with the playout policy's choice) when there
    are many."""
    if state.phase == "discard":
        actions = own_discards(state, node, rng, policy)
    else:
        actions = state.legal_actions()
        if len(actions) > WIDE:
            actions = narrow(state, actions, rng, policy)
    if node.prior is not None and node.prior not in actions:
        actions = actions + [node.prior]
    return actions


def root_candidates(state: State, root: Node, rng: Random, policy) -> list[Action]:
    """The seat's actions compared at the root: every card it may play; of a
    wider choice at most `ROOT_CANDIDATES`, the anchor's first, then the
    pass and the bids next to the anchor's, the best call of each suit, or
    the first discard candidates."""
    actions = available(state, root, rng, policy)
    if len(actions) <= ROOT_CANDIDATES or all(a.kind == "play" for a in actions):
        return actions
    first = [root.prior] if root.prior in actions else []
    if any(a.kind == "call" for a in actions):
        suits = set()
        strength = _call_strength(state)
        for action in sorted(actions, key=lambda a: -strength[_called(a).index]):
            suit = _called(action).suit
            if suit not in suits:
                suits.add(suit)
                first.append(action)
    elif any(a.kind == "bid" for a in actions):
        at = actions.index(root.prior) if root.prior in actions else 0
        first += [a for a in actions if a.kind == "pass"]
        first += [a for _, a in sorted(enumerate(actions), key=lambda pair: abs(pair[0] - at))]
    chosen = list(dict.fromkeys(first + actions))
    return chosen[:ROOT_CANDIDATES]


def narrow(state: State, actions: list[Action], rng: Random, policy) -> list[Action]:
    """A few of many bids or calls, and the playout policy's choice."""
    kind = actions[-1].kind
    if kind == "bid":
        narrowed = thin_bids(actions)
    elif kind == "call":
        narrowed = thin_calls(state, actions)
    else:
        return actions
    suggested = policy(state, rng)
    if suggested not in narrowed:
        narrowed.append(suggested)
    return narrowed


def own_discards(state: State, node: Node, rng: Random, policy) -> list[Action]:
    """The searching seat's candidate discards at this node (its hand is the
    same in every determinization reaching it), computed once."""
    hand = state.hands[state.current_player()]
    if node.candidates is not None:
        fits = [a for a in node.candidates if all(c in hand for c in a.cards)]
        if fits:
            return fits
    node.candidates = discard_candidates(state, rng, policy)
    return node.candidates


def discard_candidates(state: State, rng: Random, policy=None) -> list[Action]:
    """A few discards, `DISCARD_CANDIDATES` at most: the playout policy's,
    this module's heuristic one, the lowest cards, each short suit thrown
    away, then random ones."""
    assert isinstance(state, CalabresellaState)  # the one game with discards
    seat, count = state.discarders[0]
    hand = sorted(state.hands[seat])
    options = [policy(state, rng).cards] if policy is not None else []
    options.append(tuple(heuristic_discard(hand, count)))
    options.append(tuple(sorted(hand, key=lambda c: (TRESSETTE[c.index], THIRDS[c.index]))[:count]))
    for suit in "DHSC":
        cards = [c for c in hand if c.suit == suit]
        if 0 < len(cards) <= count:
            rest = heuristic_discard([c for c in hand if c.suit != suit], count - len(cards))
            options.append(tuple(cards) + tuple(rest))
    limit = min(DISCARD_CANDIDATES, comb(len(hand), count))
    for _ in range(10 * DISCARD_CANDIDATES):
        if len(set(map(frozenset, options))) >= limit:
            break
        options.append(tuple(rng.sample(hand, count)))
    seen: set[frozenset[Card]] = set()
    out: list[Action] = []
    for cards in options:
        key = frozenset(cards)
        if key not in seen and len(out) < limit:
            seen.add(key)
            out.append(Action(seat, "discard", cards=tuple(sorted(cards))))
    return out


TARGET_STEPS = (0, 1, 2, 4, 6, 9, 14, 19, 29, 39, 59)
"""Bids kept above the lowest target allowed."""


def thin_bids(actions: list[Action]) -> list[Action]:
    """Keep the pass, every rank bid, and targets a few steps above the lowest."""
    targets = [a.target for a in actions if a.kind == "bid" and a.target is not None]
    low = min(targets, default=0)
    keep = {low + step for step in TARGET_STEPS} | {120}
    return [a for a in actions if a.kind != "bid" or a.target is None or a.target in keep]


def thin_calls(state: State, actions: list[Action]) -> list[Action]:
    """Calls of any card: per suit, the three best cards the caller lacks."""
    strength = _call_strength(state)
    hand = state.hands[state.current_player()]
    by_suit: dict[str, list[Action]] = {}
    for action in actions:
        if action.card not in hand:
            by_suit.setdefault(_called(action).suit, []).append(action)
    kept = []
    for calls in by_suit.values():
        calls.sort(key=lambda a: -strength[_called(a).index])
        kept += calls[:3]
    return kept or actions


def _called(action: Action) -> Card:
    """The card a call names (every call names one)."""
    assert action.card is not None
    return action.card


def _call_strength(state: State) -> tuple[int, ...]:
    return TRESSETTE if state.game.name == "calabresella" else CHIAMATA_STRENGTH


# --- rewards --------------------------------------------------------------------


def reward_function(game):
    """`rewards(final state, side points or None) -> [reward of each seat]`
    for this game (the side points: `playout`'s exact finish, the state then
    not being final)."""
    n = game.players
    if game.name == "briscola":
        sides = game.sides()
        side_of = [next(i for i, side in enumerate(sides) if s in side) for s in range(n)]
        if n == 3:

            def three_player_rewards(state, totals=None):
                out = state.outcome()
                return [out.score[s] / 3 + POINT_WEIGHT * (out.points[s] - 40) / 120 for s in range(n)]

            return three_player_rewards
        scoring = game.options["scoring"]
        top = 3 if scoring == "game_points" else 1

        def two_side_rewards(state, totals=None):
            if totals is None:
                out = state.outcome()
                totals = out.result["side_points"]
                awards = [out.score[side[0]] for side in sides]
            else:
                awards = two_side_awards(list(totals), scoring)[0]
            per_side = [
                (awards[i] - awards[1 - i]) / top + POINT_WEIGHT * (totals[i] - totals[1 - i]) / 120 for i in (0, 1)
            ]
            return [per_side[side_of[s]] for s in range(n)]

        return two_side_rewards
    scale = SCORE_SCALE[game.name]

    def score_rewards(state, totals=None):
        return [score / scale for score in state.outcome().score]

    return score_rewards


# --- the heuristic playout policy -----------------------------------------------
# Fast and simple, for playouts and the other seats' hidden discards: it reads
# the full state but only uses what the seat to act knows (its hand, the
# table, and its partner when the partner is known to it).


def heuristic_action(state: State, rng: Random) -> Action:
    """A plausible action of the seat to act on a full state (a few random ones)."""
    phase = state.phase
    if phase == "play":
        if rng.random() < EPSILON:
            return state.random_legal(rng)
        if state.game.name == "calabresella":
            return play_action(state.turn, tressette_card(state))
        return trump_game_play(state)
    chooser = PHASE_POLICIES.get((state.game.name, phase))
    if chooser is None:
        return state.random_legal(rng)
    return chooser(state, rng)


def trump_game_play(state: State) -> Action:
    """Briscola and Chiamata: win a trick worth it cheaply, load a partner's
    trick when last, otherwise throw the cheapest card."""
    assert isinstance(state, (BriscolaState, ChiamataState))  # the games with a trump
    seat = state.turn
    if isinstance(state, BriscolaState):
        if state.black_hand and state.can_declare(seat):
            return Action(seat, "declare")
        if state.exchange_card is not None and state.can_exchange(seat):
            return Action(seat, "exchange")
        strength, points = state.strength, state.points
    else:
        strength, points = CHIAMATA_STRENGTH, CHIAMATA_POINTS
    trump, hand, trick = state.trump, state.hands[seat], state.trick

    def cost(card):
        return (card.suit == trump, points[card.index], strength[card.index])

    if not trick:
        return play_action(seat, min(hand, key=cost))
    best, position = trick[0], 0
    for i in range(1, len(trick)):
        card = trick[i]
        if _beats(card, best, trump, strength):
            best, position = card, i
    winner = (state.leader + position) % state.n
    last = len(trick) == state.n - 1
    if friends(state, seat, winner):
        if last:
            loads = [c for c in hand if c.suit != trump]
            if loads:
                return play_action(seat, max(loads, key=lambda c: (points[c.index], -strength[c.index])))
        return play_action(seat, min(hand, key=cost))
    value = sum(points[c.index] for c in trick)
    winners = [c for c in hand if _beats(c, best, trump, strength)]
    if winners:
        card = min(winners, key=cost)
        if card.suit != trump or value >= 10 or (value >= 4 and points[card.index] == 0):
            return play_action(seat, card)
    return play_action(seat, min(hand, key=cost))


def _beats(card, best, trump, strength) -> bool:
    if card.suit == best.suit:
        return strength[card.index] > strength[best.index]
    return card.suit == trump


def friends(state: State, seat: int, other: int) -> bool:
    """True when `seat` knows `other` plays on its side."""
    if seat == other:
        return True
    if isinstance(state, BriscolaState):
        return state.n in (4, 6) and (seat - other) % 2 == 0
    if isinstance(state, CalabresellaState):
        return seat != state.soloist and other != state.soloist
    assert isinstance(state, ChiamataState)
    side = (state.caller, state.partner)
    if seat == state.partner:
        return other == state.caller
    if not _called_played(state):
        return False  # the caller and the defenders do not know the partner yet
    return (seat in side) == (other in side)


def _called_played(state: ChiamataState) -> bool:
    called = state.called
    return called in state.trick or any(called in t.cards for t in state.tricks)


def tressette_card(state: State):
    """Calabresella: follow with the lowest winning card when the trick is
    the other side's, load a partner's trick when last; lead a sure winner
    (the best card left of its suit), else a low card of the longest suit."""
    seat = state.turn
    hand, trick = state.hands[seat], state.trick
    if not trick:
        return _tressette_lead(state, hand)
    led = trick[0].suit
    follow = [c for c in hand if c.suit == led]
    cheapest = lambda c: (THIRDS[c.index], TRESSETTE[c.index])  # noqa: E731
    best, position = trick[0], 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card.suit == led and TRESSETTE[card.index] > TRESSETTE[best.index]:
            best, position = card, i
    winner = (state.leader + position) % 3
    last = len(trick) == 2
    cards = follow or hand
    if friends(state, seat, winner):
        if last:
            return max(cards, key=lambda c: (THIRDS[c.index], -TRESSETTE[c.index]))
        return min(cards, key=cheapest)
    winners = [c for c in follow if TRESSETTE[c.index] > TRESSETTE[best.index]]
    if winners:
        return min(winners, key=lambda c: TRESSETTE[c.index])
    return min(cards, key=cheapest)


def _tressette_lead(state: State, hand):
    gone = set(state.trick)
    for trick in state.tricks:
        gone.update(trick.cards)
    by_suit: dict[str, list] = {}
    for card in hand:
        by_suit.setdefault(card.suit, []).append(card)
    masters = []
    for suit, cards in by_suit.items():
        top = max(cards, key=lambda c: TRESSETTE[c.index])
        higher = TRESSETTE_ORDER[: TRESSETTE_ORDER.index(top.rank)]
        if all(Card(rank, suit) in gone or Card(rank, suit) in cards for rank in higher):
            masters.append((len(cards), top))
    if masters:
        return max(masters, key=lambda m: (m[0], TRESSETTE[m[1].index]))[1]
    longest = max(by_suit.values(), key=len)
    return min(longest, key=lambda c: TRESSETTE[c.index])


# --- the heuristic outside the play ---------------------------------------------


def hand_strength(hand, strength, points) -> tuple[int, str]:
    """(a rough value of `hand`, its best suit): card points plus length and
    high cards of the best suit."""
    per_suit: dict[str, int] = {}
    for card in hand:
        per_suit[card.suit] = per_suit.get(card.suit, 0) + 3 + points[card.index] + strength[card.index] // 3
    suit = max(per_suit, key=per_suit.__getitem__) if per_suit else "D"
    return sum(points[c.index] for c in hand) + per_suit.get(suit, 0), suit


def chiamata_auction(state: State, rng: Random) -> Action:
    """Bid the next rank (or target) while the hand is worth it, else pass."""
    seat = state.turn
    value, _ = hand_strength(state.hands[seat], CHIAMATA_STRENGTH, CHIAMATA_POINTS)
    value += rng.randrange(-6, 7)
    bids = [a for a in state.legal_actions() if a.kind == "bid"]
    if not bids:
        return Action(seat, "pass")
    if state.game.options["auction"] == "points":
        limit = 61 + (value - 45)
        bid = bids[0]
        assert bid.target is not None  # a points bid is a target
        return bid if bid.target <= limit else Action(seat, "pass")
    bid = bids[0]
    if bid.target is not None:
        return bid if bid.target <= 61 + (value - 70) else Action(seat, "pass")
    assert bid.rank is not None  # a rank bid without a target names its rank
    depth = BRISCOLA_ORDER.index(bid.rank)  # 0 for the ace, 9 for the 2
    return bid if value >= 40 + 5 * depth else Action(seat, "pass")


def chiamata_call(state: State, rng: Random) -> Action:
    """Call the best card lacked in the caller's best suit."""
    seat = state.turn
    hand = state.hands[seat]
    _, suit = hand_strength(hand, CHIAMATA_STRENGTH, CHIAMATA_POINTS)
    calls = state.legal_actions()
    lacked = [a for a in calls if a.card not in hand] or calls
    return max(lacked, key=lambda a: (_called(a).suit == suit, CHIAMATA_STRENGTH[_called(a).index]))


CONTRACT_VALUE = (("solissimo", 34), ("solo", 27), ("chiamo", 21))


def calabresella_auction(state: State, rng: Random) -> Action:
    """Bid the highest contract the hand is worth, if it beats the last bid."""
    seat = state.turn
    hand = state.hands[seat]
    value = sum(THIRDS[c.index] for c in hand) + rng.randrange(-2, 3)
    value += sum(2 if c.rank == "3" else 1 for c in hand if c.rank in "32A")
    bids = {a.contract: a for a in state.legal_actions() if a.kind == "bid"}
    for contract, needed in CONTRACT_VALUE:
        if value >= needed and contract in bids:
            return bids[contract]
    return Action(seat, "pass")


def calabresella_call(state: State, rng: Random) -> Action:
    """Call the best card lacked in the soloist's longest suit."""
    seat = state.turn
    hand = state.hands[seat]
    _, suit = hand_strength(hand, TRESSETTE, THIRDS)
    lacked = [c for c in ALL_CARDS if c not in hand]
    card = max(lacked, key=lambda c: (c.suit == suit, TRESSETTE[c.index]))
    return Action(seat, "call", card=card)


def calabresella_return(state: State, rng: Random) -> Action:
    seat = state.turn
    card = min(state.hands[seat], key=lambda c: (THIRDS[c.index], TRESSETTE[c.index]))
    return Action(seat, "return", card=card)


def calabresella_discard(state: State, rng: Random) -> Action:
    assert isinstance(state, CalabresellaState)  # PHASE_POLICIES: a Calabresella discard
    seat, count = state.discarders[0]
    return Action(seat, "discard", cards=tuple(sorted(heuristic_discard(state.hands[seat], count))))


def heuristic_discard(hand, count: int) -> list:
    """The `count` cards least worth keeping: low cards of short suits."""
    length: dict[str, int] = {}
    for card in hand:
        length[card.suit] = length.get(card.suit, 0) + 1
    keep = lambda c: TRESSETTE[c.index] + 2 * THIRDS[c.index] + 2 * length[c.suit]  # noqa: E731
    return sorted(hand, key=keep)[:count]


def calabresella_raise(state: State, rng: Random) -> Action:
    return Action(state.turn, "raise", choice="none")


PHASE_POLICIES = {
    ("chiamata", "auction"): chiamata_auction,
    ("chiamata", "call"): chiamata_call,
    ("calabresella", "auction"): calabresella_auction,
    ("calabresella", "call"): calabresella_call,
    ("calabresella", "return"): calabresella_return,
    ("calabresella", "discard"): calabresella_discard,
    ("calabresella", "raise"): calabresella_raise,
}
"""(game, phase) -> the heuristic's choice outside the play (else a random one)."""


play = make_player()
"""The hard player at the default budget."""
