"""Reading a seat's view for determinization (engine/determinize.py): one pass
over the view's history on a probe state where every hand is hidden says,
per seat, which hidden deal positions entered its hand, the cards it showed
from them, its face-down discards and the known cards they hid again, the
suits it showed it lacks, and the facts a game's rules add (the Chiamata two
rule, the Calabresella denial of the called card); `restrictions` turns
them into the places each unseen card may be in now.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .cards import Card
from .deal import Deal, DealPlan
from .state import CHANCE, Action, IllegalAction, State


class Inconsistent(ValueError):
    """No full deal agrees with this view (a seat broke a rule the view could
    not check yet, or the view was not built by the engine)."""


"""Per-seat events: a hidden deal position enters the hand; a known card is
hidden again by a face-down discard; a card leaves hidden cards (shown);
the face-down discard itself."""


ENTER, REHIDE, OUT, DISCARD = "enter", "rehide", "out", "discard"
"""Per-seat events: a hidden deal position enters the hand; a known card is
hidden again by a face-down discard; a card leaves hidden cards (shown);
the face-down discard itself."""


@dataclass
class Reading:
    """What one pass over a view's history says about where the cards were."""

    probe: State
    known: dict[int, Card] = field(default_factory=dict)
    """Deck position -> the card the view saw there."""
    resolved: set[int] = field(default_factory=set)
    """Stock and monte positions already dealt out by a chance event."""
    events: list[list[tuple]] = field(default_factory=list)
    voids: list[set[str]] = field(default_factory=list)
    rehidden: list[set[Card]] = field(default_factory=list)
    facts: list[tuple[str, int, Card]] = field(default_factory=list)
    """("holds" | "lacks", seat, card) at some moment, from a game's rule."""
    hidden_discards: dict[int, int] = field(default_factory=dict)
    """History index of a face-down discard the view did not see -> its seat."""


def hidden_deal(plan: DealPlan, faceup: Card | None) -> Deal:
    return Deal(
        hands=[[None] * len(h) for h in plan.hands],
        stock=[None] * len(plan.stock),
        faceup=faceup,
        monte=[None] * len(plan.monte),
    )


def read(state: State, plan: DealPlan, faceup: Card | None) -> Reading:
    """Replay the view's history on a probe where every hand is hidden."""
    game = state.game
    probe = game.new_hand(state.dealer, hidden_deal(plan, faceup), viewer=state.viewer)
    n = state.n
    reading = Reading(
        probe,
        events=[[(ENTER, p) for p in plan.hands[s]] for s in range(n)],
        voids=[set() for _ in range(n)],
        rehidden=[set() for _ in range(n)],
    )
    if faceup is not None:
        assert plan.faceup is not None  # a hand with a face-up card deals it from a position
        reading.known[plan.faceup] = faceup

    for t, action in enumerate(state.history):
        if action.seat == CHANCE:
            read_chance(reading, plan, action)
        else:
            read_move(reading, t, action)
        reading.facts.extend(probe.rule_facts(action))
        try:
            probe.apply(action)
        except IllegalAction as error:
            raise Inconsistent(f"action {t} ({action}): {error}") from None
    return reading


def read_chance(reading: Reading, plan: DealPlan, action: Action) -> None:
    probe = reading.probe
    if action.kind == "handover":
        if action.holder is not None:
            shows(reading, action.holder, (action.card,))
        return
    need = probe.need()
    if len(action.cards) != len(need.slots):
        raise Inconsistent(f"{action} does not give the {len(need.slots)} cards needed")
    for card, slot, audience in zip(action.cards, need.slots, need.audiences):
        if slot[0] == "faceup":
            continue  # the face-up card is known to everyone
        position = deck_position(plan, slot)
        reading.resolved.add(position)
        if card is not None:
            reading.known[position] = card
        elif 0 <= audience < probe.n:
            reading.events[audience].append((ENTER, position))
        else:
            raise Inconsistent(f"{action}: a card everyone sees arrived face down")


def deck_position(plan: DealPlan, slot: tuple) -> int:
    """The deck position of a chance slot as `Need.slots` names it."""
    if slot[0] == "stock":
        return plan.stock[slot[1]]
    if slot[0] == "monte":
        return plan.monte[slot[1]]
    raise Inconsistent(f"a chance event deals from {slot!r}, which this reader does not know")


def read_move(reading: Reading, t: int, action: Action) -> None:
    probe, seat = reading.probe, action.seat
    if action.kind == "discard":
        if action.cards and all(c is None for c in action.cards):
            hand = probe.hands[seat]
            reading.events[seat].extend((REHIDE, c) for c in hand)
            reading.rehidden[seat].update(hand)
            reading.events[seat].append((DISCARD, t))
            reading.hidden_discards[t] = seat
        elif any(c is None for c in action.cards):
            raise Inconsistent(f"action {t}: a discard partly face down")
        else:
            shows(reading, seat, action.cards)
        return
    card = action.card
    if probe.MUST_FOLLOW and action.kind == "play" and probe.trick and card is not None:
        led = probe.trick[0].suit
        if card.suit != led:
            reading.voids[seat].add(led)
    shows(reading, seat, probe.shown_cards(action))


def shows(reading: Reading, seat: int, cards: Iterable[Card | None]) -> None:
    """`seat` shows `cards` from its hand: those the probe did not know leave hidden cards."""
    hand = reading.probe.hands[seat]
    for card in cards:
        if card is not None and card not in hand:
            reading.events[seat].append((OUT, card))


# --- facts the games' rules add ----------------------------------------------


def restrictions(reading: Reading, places: list, unseen: list[Card], index: dict) -> dict:
    """Per unseen card with a constraint, the places it may be in (indices).

    Exact for these games: a void (follow suit is compulsory) and a "lacks"
    fact concern a seat that receives no hidden card afterwards, so they
    hold for its hidden cards now; a "holds" fact or a known card hidden
    again by a face-down discard puts the card in that seat's hand or
    discard (or it was shown since, and is not unseen).
    """
    everywhere = frozenset(range(len(places)))
    unseen_set = set(unseen)
    allowed: dict[Card, frozenset] = {}

    def seat_places(seat: int) -> set[int]:
        keys = [("hand", seat)] + [("discard", t) for t, s in reading.hidden_discards.items() if s == seat]
        return {index[k] for k in keys if k in index}

    def limit(card: Card, keep: set[int] | None = None, drop: set[int] | None = None) -> None:
        if card not in unseen_set:
            return
        now = allowed.get(card, everywhere)
        if keep is not None:
            now = now & keep
        if drop is not None:
            now = now - drop
        allowed[card] = frozenset(now)

    for seat, suits in enumerate(reading.voids):
        hand = index.get(("hand", seat))
        if hand is not None and suits:
            for card in unseen:
                if card.suit in suits:
                    limit(card, drop={hand})
    for seat, cards in enumerate(reading.rehidden):
        for card in cards:
            limit(card, keep=seat_places(seat))
    for kind, seat, card in reading.facts:
        if kind == "holds":
            limit(card, keep=seat_places(seat))
        else:
            limit(card, drop=seat_places(seat))
    return {card: tuple(sorted(places_)) for card, places_ in allowed.items()}
