"""Calabresella's monte after the auction: shown to all, given to the soloist,
divided between the defenders (dividete) or chosen by them (scegliete), and the
discards that bring each hand back to its size.

The handlers of `CalabresellaState` for these actions (its `HANDLERS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Action, IllegalAction

if TYPE_CHECKING:
    from .calabresella import CalabresellaState


def show_monte(state: CalabresellaState, action: Action) -> None:
    """The monte shown face up: the soloist's (Solo, Chiamo), or the defenders' to choose from (scegliete)."""
    assert state.soloist is not None  # the auction had a soloist
    cards = _check_monte(state, action.cards)
    state.monte = list(cards)
    if state.contract == "solissimo":
        state._next("take", state.defenders()[0])
        return
    state.hands[state.soloist].extend(cards)
    state.monte = []
    if state.handed_from is not None:
        state._next("return", state.soloist)
    else:
        state.discarders = [(state.soloist, 4)]
        state._next("discard", state.soloist)


def _check_monte(state: CalabresellaState, cards: tuple) -> tuple:
    if len(cards) != 4:
        raise IllegalAction(f"the monte holds 4 cards, not {len(cards)}")
    out = []
    for known, shown in zip(state.monte, cards):
        if known is not None and shown is not None and shown is not known:
            raise IllegalAction(f"{shown} is not the monte card shown")
        out.append(known if known is not None else shown)
    if any(c is None for c in out):
        raise IllegalAction("the monte must be shown face up")
    return tuple(out)


def divide(state: CalabresellaState, action: Action) -> None:
    """Dividete: two cards of the monte to each defender, who then discard two each."""
    if len(action.cards) != 4:
        raise IllegalAction("dividete gives out the 4 monte cards")
    for known, given in zip(state.monte, action.cards):
        if known is not None and given is not None and given is not known:
            raise IllegalAction(f"{given} is not the monte card dealt there")
    cards = [k if k is not None else c for k, c in zip(state.monte, action.cards)]
    first, second = state.defenders()
    for seat, part in ((first, cards[:2]), (second, cards[2:])):
        for card in part:
            if card is None:
                state.unknown[seat] += 1
            else:
                state.hands[seat].append(card)
    state.monte = []
    state.discarders = [(first, 2), (second, 2)]
    state._next("discard", first)


def take(state: CalabresellaState, action: Action) -> None:
    """Scegliete: the first defender takes the cards it chose, the second the rest."""
    taken = action.cards
    if len(set(taken)) != len(taken) or any(c not in state.monte for c in taken):
        raise IllegalAction("take only cards of the monte, each once")
    first, second = state.defenders()
    rest = [c for c in state.monte if c not in taken]
    # The monte was shown face up (`_check_monte`): none of these is unknown.
    state.hands[first].extend(c for c in taken if c is not None)
    state.hands[second].extend(c for c in rest if c is not None)
    state.monte = []
    state.discarders = [(s, k) for s, k in ((first, len(taken)), (second, len(rest))) if k]
    state._next("discard", state.discarders[0][0])


def discard(state: CalabresellaState, action: Action) -> None:
    """The seat to discard lays its cards on the monte (face down: this view no longer knows its hand)."""
    seat, count = state.discarders[0]
    cards = action.cards
    if len(cards) != count:
        raise IllegalAction(f"seat {seat} must discard {count} cards, not {len(cards)}")
    known = [c for c in cards if c is not None]
    if len(set(known)) != len(known):
        raise IllegalAction("a card cannot be discarded twice")
    if len(known) == len(cards):
        missing = [c for c in known if state._holds(seat, c) is False]
        if missing:
            raise IllegalAction(f"cannot discard {missing[0]}: seat {seat} does not hold it")
        if sum(c not in state.hands[seat] for c in known) > state.unknown[seat]:
            raise IllegalAction(f"seat {seat} does not hold all of these cards")
        for card in known:
            state._take_card(seat, card, "discard")
    else:
        # Discarded face down: this view no longer knows which cards stay.
        if state.hand_size(seat) < count:
            raise IllegalAction(f"seat {seat} holds fewer than {count} cards")
        state.unknown[seat] = state.hand_size(seat) - count
        state.hands[seat] = []
    state.monte.extend(cards)
    state.discarders.pop(0)
    if state.discarders:
        state.turn = state.discarders[0][0]
    else:
        assert state.soloist is not None  # discards come after the auction
        lead = state.soloist if state.contract == "solissimo" else (state.dealer + 1) % 3
        state._start_play(lead)
