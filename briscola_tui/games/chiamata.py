"""Briscola Chiamata (5 players) as the product shows it: the caller's secret partner and
the target in the header, the calls the two rule offers, the summary's units by target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Card
from engine.facts import Role
from engine.games.chiamata import unit
from engine.games.chiamata_facts import ChiamataResult
from engine.view import SeatView, sides_of

from ..language import N_, _
from ..wording import count
from .base import CardWriter, Named, Presentation, Scored

DEFAULT_TARGET = 61
"""The target when no "2 with a target" won the auction."""


class Chiamata(Presentation):
    name = "chiamata"
    rules = N_("""\
Briscola Chiamata (5 players): 8 cards each, no stock. An auction on a
rank, each bid lower in A 3 K Q J 7 6 5 4 2; passing is final; after the 2
a player may bid "2 with a target" (62-120). The winner, the caller, calls
a card of the rank bid: its suit is trump and whoever holds it is the
secret partner, revealed when the card falls. Caller and partner need the
target (61 unless raised); the unit grows with the target (61-70 1, 71-80
2, ... 101-120 5): success with a partner caller +2u, partner +u, each
defender -u; alone +4u; failure the reverse. All 8 tricks: double.""")
    shows_captured = True

    def partner_item(self, view: SeatView, named: Named) -> tuple[str, ...] | None:
        """Alone, the partner by name once known, or "partner ?"."""
        sides = sides_of(view)
        if not sides:
            return None
        caller = sides[0]
        if caller.alone:
            return (_("alone"),)
        if caller.partner is not None:
            return named(caller.partner, _("partner {name}"))
        return (_("partner {name}").format(name="?"),)

    def target_item(self, view: SeatView) -> tuple[str, ...] | None:
        """The target once the auction is over: the last "2 with a target", or 61."""
        called = any(Role.CALLER in roles for roles in view.roles.values())
        if not called or view.phase == "auction":
            return None
        targets = [a.target for a in view.auction if a.kind == "bid" and a.target is not None]
        return (_("target {n}").format(n=targets[-1] if targets else DEFAULT_TARGET),)

    def two_rule_calls(self, view: SeatView) -> tuple[Card, ...]:
        """The calls the two rule offers: after a bid of 2, holding the 2 of a suit, the
        lowest card of that suit not held (docs/rules.md), the cards of another rank than the 2."""
        if view.phase != "call" or (view.options or {}).get("auction") == "points":
            return ()
        ranks = [a.rank for a in view.auction if a.kind == "bid" and a.rank is not None]
        if not ranks or ranks[-1] != "2":
            return ()
        return tuple(a.card for a in view.legal if a.kind == "call" and a.card is not None and a.card.rank != "2")

    def own_call_words(self) -> str:
        return _("yours: you play alone")

    def breakdown(self, hand: Scored) -> list[str]:
        if not isinstance(hand.result, ChiamataResult):
            return []
        return called_lines(hand.result, hand.names, hand.view.options, hand.style)


def called_lines(
    result: ChiamataResult, names: Sequence[str], options: Mapping[str, object], style: CardWriter
) -> list[str]:
    """The call, the target and its unit, the caller's side's points against it, and what each won."""
    caller, partner, target = result.caller, result.partner, result.target
    card = style.card(result.called)
    u = 1 if options.get("scoring") == "flat" else unit(target)
    side = names[caller] + ("" if partner is None else f" + {names[partner]}")
    success = result.success
    won, lost = ("+", "-") if success else ("-", "+")
    compare = (">=" if style.ascii else "≥") if success else "<"
    lines = [
        _("{caller} called {card}").format(caller=names[caller], card=card)
        + (_("; partner {name}").format(name=names[partner]) if partner is not None else _("; alone (own card)")),
        _("Target {target}: unit {unit}").format(target=target, unit=u)
        + (_(" (flat scoring)") if options.get("scoring") == "flat" else ""),
        _("{side}: {points} of 120 {compare} {target}: {outcome}").format(
            side=side,
            points=count(result.side_points, "card point"),
            compare=compare,
            target=target,
            outcome=_("success") if success else _("failure"),
        ),
    ]
    if result.multiplier > 1:
        lines.append(f"Cappotto: x{result.multiplier}")
    if partner is not None:
        lines.append(_("Caller {won}2u, partner {won}u, each defender {lost}u").format(won=won, lost=lost))
    else:
        lines.append(_("Caller alone {won}4u, each defender {lost}u").format(won=won, lost=lost))
    return lines


CHIAMATA = Chiamata()
