"""A seat's view of an action (tests/test_views.py and the tests that keep every
seat's view as the table keeps it)."""

from __future__ import annotations

from engine.state import CHANCE, PUBLIC, Action


def views_of(game, dealer, deal) -> list:
    """Every seat's view of a new hand dealt `deal` (open hands shown to all when the option says so)."""
    public = bool(game.options.get("open_hands"))
    return [game.new_hand(dealer, deal.redact(s, public_hands=public), viewer=s) for s in range(game.players)]


def redact_action(action: Action, need, seat: int) -> Action:
    """`action` as `seat` sees it (`need` is the full state's need() for chance actions)."""
    if action.seat == CHANCE:
        if not action.cards:
            return action  # the Calabresella handover is made face up
        cards = tuple(c if need.audiences[i] in (seat, PUBLIC) else None for i, c in enumerate(action.cards))
        return Action(CHANCE, action.kind, cards=cards)
    if action.kind == "discard" and action.seat != seat:
        return Action(action.seat, "discard", cards=(None,) * len(action.cards))
    return action
