"""Calabresella (3 players) as the product shows it: the Tressette rank order, no card
points beside the seats, the soloist's thirds in the summary with the monte at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from engine.cards import THIRDS, TRESSETTE_ORDER
from engine.deal import Deal
from engine.games.calabresella import LAST_TRICK, PRICE
from engine.games.calabresella_facts import CalabresellaResult

from ..language import N_, _
from ..wording import count
from .base import CardWriter, Presentation, Scored, sort_cards

if TYPE_CHECKING:
    from protocol.events import TrickTaken


class Calabresella(Presentation):
    name = "calabresella"
    rules = N_("""\
Calabresella (3 players): 12 cards each and a monte of 4; no trumps, you
must follow suit. Rank 3 2 A K Q J 7 6 5 4; values in thirds: A 3, 3 2 K Q
J 1 each; the last trick adds 3: 35 thirds in all. Auction once round:
chiamo < solo < solissimo. Chiamo: call a card (its holder hands it over;
you return one), take the monte and discard 4. Solo: take the monte and
discard 4. Solissimo: play without the monte, or raise: dividete (the
defenders share it) or scegliete (they choose from it). The soloist needs
18 thirds (6 points). Price per defender 1, 2, 4, 8, 16; all or no tricks
x2, the losers under 3 thirds x3.""")
    score_unit = N_("thirds")

    def rank_order(self, options: Mapping[str, object] | None = None) -> str:
        return TRESSETTE_ORDER

    def breakdown(self, hand: Scored) -> list[str]:
        if not isinstance(hand.result, CalabresellaResult):
            return []
        last = hand.view.last_hand
        deal = last.deal if last is not None else None
        return soloist_lines(hand.result, hand.names, hand.style, hand.played, deal, hand.view.names)


def soloist_lines(
    result: CalabresellaResult,
    names: Sequence[str],
    style: CardWriter,
    played: Sequence[TrickTaken] = (),
    deal: Deal | None = None,
    raw_names: Sequence[str] = (),
) -> list[str]:
    """The contract and its price, where the soloist's thirds come from, whether they made 18,
    and a cappotto or stramazzo."""
    from ..render import YOU

    soloist, contract, raised = result.soloist, result.contract, result.raised
    thirds = result.soloist_thirds
    price = PRICE[raised if raised != "none" else contract]
    what = contract + (f", {raised}" if raised != "none" else "")
    mine = tuple(raw_names)[soloist : soloist + 1] == (YOU,)
    played_ = (
        _("you played {what}: price {price} per defender")
        if mine
        else _("{name} played {what}: price {price} per defender")
    )
    lines = [played_.format(name=names[soloist], what=what, price=price)]
    sum_ = thirds_sum(result, names, style, played, deal, raw_names)
    if sum_ is not None:
        lines.extend(sum_)
    took = (
        _("you took {thirds} of 35 ({points} of 11); 18 thirds (6 points) needed: {outcome}")
        if mine
        else _("{name} took {thirds} of 35 ({points} of 11); 18 thirds (6 points) needed: {outcome}")
    )
    lines.append(
        took.format(
            name=names[soloist],
            thirds=count(thirds, "third"),
            points=count(thirds // 3, "point"),
            outcome=_("success") if result.success else _("failure"),
        )
    )
    multiplier = result.multiplier
    if multiplier == 2:
        lines.append(_("Cappotto (all or no tricks): x2"))
    elif multiplier == 3:
        lines.append(_("Stramazzo (the losers took under 3 thirds in tricks): x3"))
    return lines


def thirds_sum(
    result: CalabresellaResult,
    names: Sequence[str],
    style: CardWriter,
    played: Sequence[TrickTaken],
    deal: Deal | None,
    raw_names: Sequence[str] = (),
) -> list[str] | None:
    """Where the soloist's thirds come from: the tricks, and with the last trick the monte at the
    end (the soloist's discards, the defenders', or the monte unused) and 3 more; None when the
    tricks or the deal are not all known, or do not add up to the result."""
    from ..render import YOU

    soloist, contract, raised = result.soloist, result.contract, result.raised
    if not played or deal is None:
        return None
    dealt = [c for hand in deal.hands for c in hand if c is not None] + [c for c in deal.monte if c is not None]
    in_tricks = {c for t in played for c in t.cards}
    monte = sort_cards([c for c in dealt if c not in in_tricks], TRESSETTE_ORDER)
    if len(dealt) != 40 or len(monte) != 4:
        return None
    monte_thirds = sum(THIRDS.get(c.rank, 0) for c in monte)
    last = played[-1].seat
    if last is None:
        return None
    whose = (
        (
            _("your discards")
            if tuple(raw_names)[soloist : soloist + 1] == (YOU,)
            else _("{name}'s discards").format(name=names[soloist])
        )
        if contract != "solissimo"
        else _("the monte, unused")
        if raised == "none"
        else _("the defenders' discards")
    )
    tricks = sum(t.points or 0 for t in played if t.seat == soloist)
    parts = [_("{n} in tricks").format(n=tricks)]
    if last == soloist:
        parts += [_("{n} the monte").format(n=monte_thirds), _("{n} the last trick").format(n=LAST_TRICK)]
    total = tricks + (monte_thirds + LAST_TRICK if last == soloist else 0)
    if total != result.soloist_thirds:
        return None
    return [
        _("The monte at the end ({whose}): {cards}, {n} thirds").format(
            whose=whose, cards=style.cards(monte), n=monte_thirds
        ),
        _("The last trick: {name}, who takes the monte and {n} thirds more").format(name=names[last], n=LAST_TRICK),
        _("{name}: {parts} = {n} thirds").format(name=names[soloist], parts=" + ".join(parts), n=total),
    ]


CALABRESELLA = Calabresella()
