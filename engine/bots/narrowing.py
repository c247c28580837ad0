"""Which moves the hard player's search compares: at the root
(`root_candidates`: every card, else at most `ROOT_CANDIDATES`) and below it
(`available`: the legal actions, or when there are many a few candidates
with the playout policy's choice: the seat's own discards, a few calls per
suit, bids a few steps above the lowest).
"""

from __future__ import annotations

from math import comb
from random import Random
from typing import Protocol

from ..cards import Card
from ..games.calabresella import STRENGTH as TRESSETTE
from ..games.calabresella import VALUE as THIRDS
from ..games.calabresella import CalabresellaState
from ..games.chiamata import STRENGTH as CHIAMATA_STRENGTH
from ..state import Action, State
from .playout import Policy, called_card, heuristic_discard

ROOT_CANDIDATES = 5
"""A wide choice (a bid, a call, a discard) compares at most this many
actions at the root; the play compares every card."""
WIDE = 16
"""Above this many legal actions a node is narrowed to candidates."""
DISCARD_CANDIDATES = 10


class SearchNode(Protocol):
    """What narrowing reads and writes of a search node (`engine.bots.search.Node`)."""

    prior: Action | None
    """At the root, the anchor's action: always among the actions compared."""
    candidates: list[Action] | None
    """The searching seat's narrowed discards at this node, once computed."""


def available(state: State, node: SearchNode, rng: Random, policy: Policy) -> list[Action]:
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


def root_candidates(state: State, root: SearchNode, rng: Random, policy: Policy) -> list[Action]:
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
        for action in sorted(actions, key=lambda a: -strength[called_card(a).index]):
            suit = called_card(action).suit
            if suit not in suits:
                suits.add(suit)
                first.append(action)
    elif any(a.kind == "bid" for a in actions):
        at = actions.index(root.prior) if root.prior in actions else 0
        first += [a for a in actions if a.kind == "pass"]
        first += [a for _, a in sorted(enumerate(actions), key=lambda pair: abs(pair[0] - at))]
    chosen = list(dict.fromkeys(first + actions))
    return chosen[:ROOT_CANDIDATES]


def narrow(state: State, actions: list[Action], rng: Random, policy: Policy) -> list[Action]:
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


def own_discards(state: State, node: SearchNode, rng: Random, policy: Policy) -> list[Action]:
    """The searching seat's candidate discards at this node (its hand is the
    same in every determinization reaching it), computed once."""
    hand = state.hands[state.current_player()]
    if node.candidates is not None:
        fits = [a for a in node.candidates if all(c in hand for c in a.cards)]
        if fits:
            return fits
    node.candidates = discard_candidates(state, rng, policy)
    return node.candidates


def discard_candidates(state: State, rng: Random, policy: Policy | None = None) -> list[Action]:
    """A few discards, `DISCARD_CANDIDATES` at most: the playout policy's,
    engine/bots/playout.py's heuristic one, the lowest cards, each short suit thrown
    away, then random ones."""
    assert isinstance(state, CalabresellaState)  # the one game with discards
    seat, count = state.discarders[0]
    hand = sorted(state.hands[seat])
    options: list[tuple[Card, ...]] = []
    if policy is not None:  # (a full state: the discard's cards are all known)
        options.append(tuple(c for c in policy(state, rng).cards if c is not None))
    options.append(tuple(heuristic_discard(hand, count)))
    options.append(tuple(sorted(hand, key=lambda c: (TRESSETTE[c.index], THIRDS[c.index]))[:count]))
    for suit in "DHSC":
        suited = [c for c in hand if c.suit == suit]
        if 0 < len(suited) <= count:
            rest = heuristic_discard([c for c in hand if c.suit != suit], count - len(suited))
            options.append(tuple(suited) + tuple(rest))
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
            by_suit.setdefault(called_card(action).suit, []).append(action)
    kept = []
    for calls in by_suit.values():
        calls.sort(key=lambda a: -strength[called_card(a).index])
        kept += calls[:3]
    return kept or actions


def _call_strength(state: State) -> tuple[int, ...]:
    return TRESSETTE if isinstance(state, CalabresellaState) else CHIAMATA_STRENGTH
