"""Determinization: one full deal that agrees with everything a seat has seen.

A computer player that cannot see the other hands samples full states from
its view and plays them out. `determinize(view, rng)` returns one such
state: fully known (`viewer=None`, no unknown cards), at the same point of
the hand as the view, built by replaying the view's history from a sampled
full deal through the engine, so it is a legal continuation by construction.

How (see docs/rules.md, "Determinization"):

1. **Read the history** (`engine/reading.py`). The view's history is replayed on a *probe*: a
   state of the same hand in which every hand is hidden, the viewer's too.
   Before each action the probe says who holds what it knows, so the pass
   records, per seat, the hidden cards that entered its hand (deal
   positions: its dealt cards, a stock card drawn unseen, a monte card
   received unseen), the cards it showed from hidden cards (played,
   returned, exchanged, declared, handed over), its face-down discards and
   the known cards such a discard hid again; plus the suits it showed it
   lacks (games where following suit is compulsory), and the facts a game
   adds (the Chiamata two rule, the Calabresella denial of the called card).
2. **Sample the present.** The cards the view cannot locate are spread over
   the hidden places of the present: each seat's hidden cards, each
   face-down discard, the cards not dealt out yet (Briscola stock, an unused
   monte). Constraints restrict some cards to some places; `Assignment`
   (`engine/assignment.py`) draws uniformly among the assignments that
   respect them (exact counting).
3. **Rebuild the past** from the present: per seat, the cards it showed and
   holds now are put back into its hidden deal positions (a card shown at
   some moment only into a position it had received by then), uniformly.
4. **Replay** the history from the sampled deal, the hidden face-down
   discards filled in, chance events taken from the deal.

Every consistent deal (with its face-down discards) is equally likely: the
number of pasts behind each present is the same for all presents, so
uniform presents give uniform deals. Player strategy is not modelled (a bid
or a lead says nothing about a hand beyond the rules).

The engine may not import `random`: `rng` is any object with `randrange`
and `shuffle` (a `random.Random`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from typing import Any, Protocol

from .assignment import Assignment
from .cards import Card
from .deal import Deal
from .reading import DISCARD, ENTER, OUT, REHIDE, Inconsistent, Reading, read, restrictions
from .rng import Shuffler
from .state import CHANCE, Action, IllegalAction, Need, State
from .view import as_seen

__all__ = [
    "Determinizer",
    "Inconsistent",
    "Sample",
    "agrees",
    "determinize",
    "determinizer",
    "fingerprint",
    "located_cards",
    "state_of",
]


# --- the public API ---------------------------------------------------------


class HoldsState(Protocol):
    """A seat's view object as determinization reads it: its `state`, a fresh copy of
    the seat's engine view, or None between hands (`engine.view.SeatView`,
    `engine.bots.StateView`)."""

    @property
    def state(self) -> State | None: ...


def state_of(view: HoldsState | State) -> State:
    """The engine State of a view object (anything with `.state`) or a State."""
    state = view if isinstance(view, State) else view.state
    if state is None:
        raise ValueError("this view has no hand in progress")
    return state


def determinize(view: HoldsState | State, rng: Shuffler) -> State:
    """A full state consistent with `view`, sampled uniformly (see the module doc).

    `view` is a seat's view object (with `.state`) or an engine State view
    (a spectator's too). The knowledge read from the view is cached for the
    last few views, so a bot may call this thousands of times per move.
    """
    return determinizer(view).sample(rng)


_CACHE: dict[int, tuple[HoldsState | State, tuple | None, Determinizer]] = {}
_CACHE_SIZE = 16


def determinizer(view: HoldsState | State) -> Determinizer:
    """The `Determinizer` of a view, cached for the last few views.

    A view object (anything with `.state`) is taken as a snapshot and known
    by identity; an engine State, being mutable, also by a fingerprint of
    what it knows.
    """
    key = fingerprint(view) if isinstance(view, State) else None
    hit = _CACHE.get(id(view))
    if hit is not None and hit[0] is view and hit[1] == key:
        return hit[2]
    made = Determinizer(view)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[id(view)] = (view, key, made)  # the reference keeps id(view) unique
    return made


def fingerprint(state: State) -> tuple:
    """What the knowledge of a view depends on, cheap to compare."""
    history = state.history
    return (
        len(history),
        history[-1] if history else None,
        tuple(tuple(h) for h in state.hands),
        tuple(state.unknown),
        tuple(state.placed().stock),
    )


@dataclass
class Sample:
    """One sampled deal and the face-down discards it implies (history index -> cards)."""

    deal: Deal
    discards: dict[int, tuple[Card, ...]]


class Determinizer:
    """What one view knows, ready to sample full states from it many times."""

    def __init__(self, view: HoldsState | State):
        state = state_of(view)
        self.state = state
        self.game = state.game
        self.dealer = state.dealer
        self.seat = state.viewer
        self.history = list(state.history)
        self.plan = self.game.plan(state.dealer)
        errors = []
        for faceup in _faceup_candidates(state):
            try:
                self._build(state, faceup)
                self._check(state)
                return
            except Inconsistent as error:
                errors.append(error)
        raise errors[0]

    # --- sampling -----------------------------------------------------------

    def sample(self, rng: Shuffler) -> State:
        """A full state at the view's point of the hand."""
        return self.replay(self.sample_deal(rng))

    def sample_deal(self, rng: Shuffler, parts: list[list[Card]] | None = None) -> Sample:
        """A full deal consistent with the view, and the hidden discards
        (`parts`: the unseen cards per hidden place, drawn by another sampler)."""
        if parts is None:
            parts = self.assignment.sample(rng)
        deck = list(self.template)
        for events, remainder, hand in self.sampled_seats:
            hidden = parts[hand] if hand is not None else []
            _bind(events, parts, self.index, remainder + hidden, deck, rng)
        if self.undealt:
            cards = parts[self.index[("undealt",)]]
            rng.shuffle(cards)
            for position, card in zip(self.undealt, cards):
                deck[position] = card
        discards = {t: tuple(sorted(parts[self.index[("discard", t)]])) for t in self.hidden_discards}
        return Sample(self.plan.deal(deck), discards)

    def replay(
        self, sample: Sample, seen: State | None = None, watch: Callable[[int, Action, Need | None], None] | None = None
    ) -> State:
        """The view's history played on a sampled deal, hidden parts filled in.

        With `seen` (a view of the viewer's seat of that deal), the same
        actions reach it as the table would show them to the seat. With
        `watch`, `watch(t, action, need)` is called before each action is
        applied (the action as dealt or played in the sample; `need`, a
        chance event's, else None); it may raise to stop the replay.
        """
        state = self.game.new_hand(self.dealer, sample.deal)
        t = 0
        try:
            for t, action in enumerate(self.history):
                need = None
                if action.seat == CHANCE:
                    if seen is not None or watch is not None:
                        need = state.need()
                    dealt = state.chance_outcome()
                    if not _same_chance(action, dealt):
                        raise Inconsistent(f"action {t}: the sampled deal gives {dealt}, the view saw {action}")
                    action = dealt
                elif t in sample.discards:
                    action = Action(action.seat, "discard", cards=sample.discards[t])
                if watch is not None:
                    watch(t, action, need)
                state.apply(action)
                if seen is not None:
                    seen.apply(as_seen(action, need, self.seat))
        except IllegalAction as error:
            raise Inconsistent(f"action {t}: {error}") from None
        return state

    # --- reading the view ---------------------------------------------------

    def _build(self, state: State, faceup: Card | None) -> None:
        reading = read(state, self.plan, faceup)
        _check_same_point(reading.probe, state)
        self.hidden_discards = reading.hidden_discards
        known = dict(reading.known)
        stock_positions = self.plan.stock
        for d, card in enumerate(state.placed().stock):
            if card is not None and stock_positions[d] not in reading.resolved:
                known[stock_positions[d]] = card  # shown on the stock (open hands)
        self.undealt = [p for p in (*self.plan.stock, *self.plan.monte) if p not in reading.resolved and p not in known]
        places, caps = self._places(state, reading)
        self.index = {place: i for i, place in enumerate(places)}
        located = located_cards(state)
        unseen = [c for c in self.game.deck() if c not in located]
        if len(unseen) != sum(caps):
            raise Inconsistent(f"{len(unseen)} cards unseen for {sum(caps)} hidden places")
        allowed = restrictions(reading, places, unseen, self.index)
        self.assignment = Assignment(caps, [(c, allowed.get(c)) for c in unseen])
        self._plan_seats(state, reading, known, unseen)

    def _places(self, state: State, reading: Reading) -> tuple[list, list[int]]:
        """The hidden places of the present and how many cards each holds."""
        places: list[tuple] = []
        caps: list[int] = []
        for seat, count in enumerate(state.unknown):
            if count:
                places.append(("hand", seat))
                caps.append(count)
        for t in reading.hidden_discards:
            places.append(("discard", t))
            caps.append(len(self.history[t].cards))
        if self.undealt:
            places.append(("undealt",))
            caps.append(len(self.undealt))
        return places, caps

    def _plan_seats(self, state: State, reading: Reading, known: dict, unseen: list) -> None:
        """Fix what needs no sampling; keep per seat what must be redrawn each time."""
        template: list[Card | None] = [None] * self.plan.size
        for position, card in known.items():
            template[position] = card
        self.sampled_seats = []
        discarders = set(reading.hidden_discards.values())
        for seat in range(state.n):
            events = reading.events[seat]
            remainder = list((Counter(state.hands[seat]) - Counter(reading.probe.hands[seat])).elements())
            _check_balance(seat, events, remainder, state.unknown[seat], self.history)
            if state.unknown[seat] or seat in discarders:
                self.sampled_seats.append((events, remainder, self.index.get(("hand", seat))))
            else:
                _bind(events, [], self.index, remainder, template, _FirstChoice())
        placed = [c for c in template if c is not None]
        hidden_again = set().union(*reading.rehidden)  # dealt where seen, then hidden in a hand
        if len(set(placed)) != len(placed) or (set(placed) & set(unseen)) - hidden_again:
            raise Inconsistent("a known card would be dealt twice")
        self.template = template

    def _check(self, state: State) -> None:
        """Sample once (first choices) and make sure the seat would have seen
        exactly this view: the same cards known where it knows them."""
        sample = self.sample_deal(_FirstChoice())
        public = bool(self.game.options.get("open_hands"))
        seen = self.game.new_hand(self.dealer, sample.deal.redact(self.seat, public_hands=public), viewer=self.seat)
        full = self.replay(sample, seen)
        full_knowledge = state.viewer is None and not any(state.unknown)
        if not agrees(full, state) or not (full_knowledge or _knows_the_same(seen, state)):
            raise Inconsistent("the rebuilt hand does not end where the view is")


# --- checks -----------------------------------------------------------------


def located_cards(state: State) -> set[Card]:
    """Every card whose place `state` knows: hands, table, tricks, face-up, stock, monte."""
    cards = set(state.trick)
    for trick in state.tricks:
        cards.update(trick.cards)
    for hand in state.hands:
        cards.update(hand)
    placed = state.placed()
    for pile in (placed.stock, placed.monte):
        cards.update(c for c in pile if c is not None)
    faceup = placed.faceup
    if faceup is not None:
        cards.add(faceup)
    return cards


def agrees(full: State, view: State) -> bool:
    """True when `full` is at the view's point of the hand and holds every card
    the view knows where the view knows it."""
    if (full.turn, full.phase, full.trick, full.tricks) != (view.turn, view.phase, view.trick, view.tricks):
        return False
    if len(full.history) != len(view.history) or any(full.unknown):
        return False
    for seat in range(view.n):
        if full.hand_size(seat) != view.hand_size(seat):
            return False
        if Counter(view.hands[seat]) - Counter(full.hands[seat]):
            return False
    full_placed, view_placed = full.placed(), view.placed()
    if full_placed.fields != view_placed.fields:
        return False
    for mine, theirs in ((full_placed.stock, view_placed.stock), (full_placed.monte, view_placed.monte)):
        if len(mine) != len(theirs) or any(v is not None and v is not f for f, v in zip(mine, theirs)):
            return False
    return True


def _knows_the_same(a: State, b: State) -> bool:
    """Two views of one seat know the same cards in the same places."""
    if (a.turn, a.phase, a.trick, a.tricks, a.unknown) != (b.turn, b.phase, b.trick, b.tricks, b.unknown):
        return False
    return all(Counter(x) == Counter(y) for x, y in zip(a.hands, b.hands))


def _check_same_point(probe: State, state: State) -> None:
    """The probe replayed the history to where the view is."""
    if (probe.turn, probe.phase, probe.trick, probe.tricks) != (state.turn, state.phase, state.trick, state.tricks):
        raise Inconsistent("replaying the view's history does not reach the view")
    for seat in range(state.n):
        size, replayed = state.hand_size(seat), probe.hand_size(seat)
        if size != replayed:
            raise Inconsistent(f"seat {seat} holds {size} cards, the history gives it {replayed}")
        if Counter(probe.hands[seat]) - Counter(state.hands[seat]):
            raise Inconsistent(f"the view lost track of a card of seat {seat}")
    if probe.placed().faceup != state.placed().faceup:
        raise Inconsistent("the face-up card is not the view's")


def _check_balance(seat: int, events: list, remainder: list, hidden: int, history: list) -> None:
    """Cards into a seat's hidden cards equal the cards out of them."""
    into = sum(1 for kind, _ in events if kind in (ENTER, REHIDE))
    out = sum(1 for kind, _ in events if kind == OUT)
    out += sum(len(history[t].cards) for kind, t in events if kind == DISCARD)
    if into != out + len(remainder) + hidden:
        raise Inconsistent(f"seat {seat}: {into} hidden cards received, {out + len(remainder) + hidden} accounted for")


def _same_chance(seen: Action, dealt: Action) -> bool:
    """The sampled chance event shows the view what the view saw."""
    if seen.kind != dealt.kind:
        return False
    if seen.kind == "handover":
        return seen.card is dealt.card and seen.holder == dealt.holder
    if len(seen.cards) != len(dealt.cards):
        return False
    return all(s is None or s is d for s, d in zip(seen.cards, dealt.cards))


def _faceup_candidates(state: State) -> list[Card | None]:
    """The face-up card dealt. The state keeps only the present one: after a
    trump exchange, any trump may have been dealt face up; the caller keeps
    the first candidate whose rebuilt hand agrees with the view."""
    faceup = state.placed().faceup
    if faceup is None:
        return [None]
    if not any(a.kind == "exchange" for a in state.history):
        return [faceup]
    return [c for c in state.game.deck() if c.suit == faceup.suit and c is not faceup]


# --- rebuilding the past ----------------------------------------------------


def _bind(
    events: list[tuple],
    parts: list[list[Card]],
    index: dict[tuple, int],
    remainder: list[Card],
    deck: list[Card | None],
    rng: Shuffler,
) -> None:
    """Put a seat's cards into its hidden deal positions, in history order.

    A card shown at some moment goes to a position the seat had received by
    then, chosen uniformly; a card hidden again goes back to being itself;
    what the seat holds now (`remainder`) fills the rest.
    """
    free: list[int] = []
    again: set[Card] = set()

    def place(card: Card) -> None:
        if card in again:
            again.remove(card)
            return
        j = rng.randrange(len(free))
        deck[free[j]] = card
        free[j] = free[-1]
        free.pop()

    for kind, value in events:
        if kind == ENTER:
            free.append(value)
        elif kind == OUT:
            place(value)
        elif kind == REHIDE:
            again.add(value)
        else:
            for card in parts[index[("discard", value)]]:
                place(card)
    for card in remainder:
        place(card)
    if free or again:
        raise Inconsistent("a seat's hidden cards do not add up")


class _FirstChoice:
    """A random source that always takes the first option (the engine may not import random)."""

    def randrange(self, stop: int, /) -> int:

        return 0

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        return None
