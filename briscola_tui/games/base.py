"""What every game shows alike, and the places where a game shows itself its own way: one
`Presentation` a game (briscola.py, chiamata.py, calabresella.py), looked up by the game's
name in `PRESENTATIONS` (this package's `__init__`). The screens and widgets ask it; none of
them names a game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.cards import BRISCOLA_ORDER, SEVEN_SECOND_ORDER, Card
from engine.facts import Result
from engine.games import make
from engine.games.briscola_facts import BriscolaResult
from engine.view import SeatView

from ..language import N_, _
from ..wording import count

if TYPE_CHECKING:
    from protocol.events import TrickTaken

SUIT_ORDER = "SHCD"
"""Suits in the hand, left to right: alternating colours."""

Named = Callable[[int, str], tuple[str, ...]]
"""A seat's name in its forms (whole, then cut), put into a template's `{name}`: the header's."""


class CardWriter(Protocol):
    """How a card is written (the TUI's `Style`): glyphs or letters."""

    ascii: bool

    def card(self, card: Card | None) -> str: ...

    def cards(self, cards: Iterable[Card]) -> str: ...


def sort_cards(cards: Iterable[Card], order: str) -> tuple[Card, ...]:
    """Cards by suit (SUIT_ORDER), then by rank in `order`, highest first."""
    return tuple(sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), order.index(c.rank))))


def scoring_sides(view: SeatView) -> list[list[int]]:
    """Who scores together: partners in Briscola for 4 or 6, else each seat."""
    return make(view.game, view.players, dict(view.options)).sides()


@dataclass(frozen=True)
class Scored:
    """A hand to say how it was scored: the seat view, the audited result, the seats' names as
    the summary writes them, the card style, and the hand's trick events (the winner `seat`,
    the `cards`, the `points`)."""

    view: SeatView
    result: Result
    names: Sequence[str]
    style: CardWriter
    played: Sequence[TrickTaken]


class Presentation:
    """A game as the product shows it. The defaults are the plain trick game's (Briscola's);
    a game's module overrides what it shows differently."""

    name: str = ""
    """The game's name, as `engine.games.GAMES` has it."""
    rules: str = ""
    """The rules in short, as lines of source (marked with `N_`, translated where shown)."""
    score_unit: str = N_("points")
    """The summary's column of each seat's take in the hand."""
    shows_captured: bool = False
    """Whether the seats panel shows each seat's card points in the play."""

    def rank_order(self, options: Mapping[str, object] | None = None) -> str:
        """The game's ranks, high to low (as the hand is sorted and the deck laid out)."""
        return SEVEN_SECOND_ORDER if (options or {}).get("seven_second") else BRISCOLA_ORDER

    def partner_item(self, view: SeatView, named: Named) -> tuple[str, ...] | None:
        """The header's word on the caller's partner (None: the game has no secret partner)."""
        return None

    def target_item(self, view: SeatView) -> tuple[str, ...] | None:
        """The header's target of the hand (None: the game has no target to show)."""
        return None

    def two_rule_calls(self, view: SeatView) -> tuple[Card, ...]:
        """The calls a special rule of the game offers now, marked among the options (none)."""
        return ()

    def own_call_words(self) -> str:
        """What calling a card of one's own hand means, said beside it ("": nothing special)."""
        return ""

    def breakdown(self, hand: Scored) -> list[str]:
        """How the hand was scored, in words: each side's card points and who won."""
        return side_points_lines(hand.view, hand.result, hand.names)


def side_points_lines(view: SeatView, result: Result, names: Sequence[str]) -> list[str]:
    """Each side's card points of 120, a black hand declared, and who won the hand."""
    if not isinstance(result, BriscolaResult):
        return []
    sides = scoring_sides(view)
    points = result.side_points
    lines = []
    for i, side in enumerate(sides):
        who = " + ".join(names[s] for s in side)
        if i < len(points):
            lines.append(_("{who}: {points} of 120").format(who=who, points=count(points[i], "card point")))
    winner = result.winner
    if result.black_hand is not None:
        lines.append(_("{name} declared a black hand (A, 3 and K of trump)").format(name=names[result.black_hand]))
    if winner is None:
        lines.append(_("Nobody passed 60: a draw."))
    else:
        lines.append(_("{who} won the hand.").format(who=" + ".join(names[s] for s in sides[winner])))
    return lines
