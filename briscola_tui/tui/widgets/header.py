"""The table's header, two lines. The first: the game, the hand (of how many), the
score (both sides in a game of two, mine otherwise, every seat's to a spectator). The
second: the hand as it stands: in the auction the bid to beat and who holds it; then the
contract and who plays it (the Chiamata caller, the Calabresella soloist), the card called
and my partner (once known), trump, the face-up card, the stock and the target.

Drawn from its `view` and `hands` at its own width, and never cut: when a line is too
wide, its items shorten in steps (trump loses its suit's name, then names are cut to
10 and to 6 characters) until it fits. Names (from the wire) are literal."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.facts import LEADING_ROLES, Role
from engine.view import SeatView

from ...games import presentation
from ...language import _
from ...render import bid_words
from ...wording import TITLES
from .cards import Style
from .fit import fit
from .literal import literal
from .seats import seat_name

MIN_WIDTH = 40
"""The width the lines are laid out for before the first layout gives its size."""
NAME_CUTS = (10, 6)
"""The lengths a name is cut to, in turn, when a line is too wide."""


def around(template: str, **fields: str) -> tuple[str, str]:
    """The words of `template` (translated, with a `{name}` field) before and after the name, the
    other `fields` filled in: the name goes between in each of its forms (whole, then cut)."""
    before, _name, after = template.format(name="\0", **fields).partition("\0")
    return before, after


class TableHeader(Widget):
    DEFAULT_CSS = "TableHeader { height: 2; }"

    view: reactive[SeatView | None] = reactive(None, always_update=True)
    """The seat view shown (None: nothing yet)."""
    hands = reactive(0)
    """Hands the table was asked for (0: no limit)."""

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.style_ = style

    def render(self) -> Content:
        return Content.from_rich_text(self.header_text(), console=self.app.console)

    def header_text(self) -> Text:
        """Both lines, as they show at the widget's width."""
        v = self.view
        if v is None:
            return Text()
        width = max(self.size.width, MIN_WIDTH) - 1  # one space before each line
        title, first = TITLES.get(v.game, v.game), fit(self._first(), width, " ")
        text = Text(" ")
        text.append(title, "bold")
        text.append(literal(first[len(title) :]))
        text.append("\n ")
        text.append(literal(fit(self._second(), width)))
        return text

    def _first(self) -> list[tuple[str, ...]]:
        """The game, the hand, the score."""
        v, s = self.view, self.style_
        if v is None:
            return []
        items: list[tuple[str, ...]] = [(TITLES.get(v.game, v.game),)]
        if v.hand_number is not None or v.hands_played:
            number = (v.hand_number + 1) if v.hand_number is not None else v.hands_played
            if self.hands:  # of the hands the table was started for: a redeal is the same hand again
                number = min(v.hands_scored + 1, self.hands) if v.hand_number is not None else v.hands_scored
            hand = _("hand {n} of {hands}") if self.hands else _("hand {n}")
            items.append((f"{s.dot} " + hand.format(n=number, hands=self.hands),))
        if v.scores:
            if v.players == 2:
                items.append(self._both(v))
            elif v.seat is not None:
                items.append((f"{s.dot} " + _("your score {n}").format(n=v.scores[v.seat]),))
            else:  # a spectator: every seat's
                items.append(self._everyone(v))
        return items

    def _both(self, v: SeatView) -> tuple[str, ...]:
        """The score of a game of two, the names on either side, in their forms."""
        s = self.style_
        left, right = forms(v, 0), forms(v, 1)
        steps = max(len(left), len(right))
        return tuple(
            f"{s.dot} {left[min(i, len(left) - 1)]} {v.scores[0]} {s.dash} {v.scores[1]} {right[min(i, len(right) - 1)]}"
            for i in range(steps)
        )

    def _everyone(self, v: SeatView) -> tuple[str, ...]:
        """Every seat's score (a spectator's header), in its forms: with the names whole, then
        cut, then the scores alone in seat order (a
        space between, as a score may be negative)."""
        s = self.style_
        each_forms = [forms(v, seat) for seat in range(v.players)]
        steps = max(len(each) for each in each_forms)
        label = f"{s.dot} " + _("scores") + " "
        named = tuple(
            label
            + ", ".join(
                f"{each[min(i, len(each) - 1)]} {score}" for each, score in zip(each_forms, v.scores, strict=False)
            )
            for i in range(steps)
        )
        return (*named, label + " ".join(str(score) for score in v.scores))

    def _second(self) -> list[tuple[str, ...]]:
        """The hand as it stands: the bid to beat, or the contract, called card, partner, trump,
        face-up card, stock, target."""
        v, s = self.view, self.style_
        if v is None:
            return []
        game = presentation(v.game)
        items = self._auction(v)
        leader = next((seat for seat, roles in v.roles.items() if set(roles) & set(LEADING_ROLES)), None)
        if v.contract and v.phase != "auction":  # in the auction the bid to beat says it
            items.append((v.contract,))
        if leader is not None and v.phase != "auction":
            role = _("caller {name}") if Role.CALLER in v.roles[leader] else _("soloist {name}")
            items.append(named(v, leader, role))
        if v.called is not None:
            items.append((_("called {card}").format(card=s.card(v.called)),))
        partner = game.partner_item(v, lambda seat, template: named(v, seat, template))
        if partner is not None:
            items.append(partner)
        if v.trump is not None:
            trump = _("trump {suit}")
            items.append((trump.format(suit=s.suit(v.trump)), trump.format(suit=s.suit(v.trump).split()[0])))
        if v.faceup is not None:
            items.append((_("face up {card}").format(card=s.card(v.faceup)),))
        if v.stock is not None:
            items.append((_("stock {n}").format(n=v.stock),))
        target = game.target_item(v)
        if target is not None:
            items.append(target)
        return items

    def _auction(self, v: SeatView) -> list[tuple[str, ...]]:
        """In the auction: the bid to beat and who holds it, or that there is none yet."""
        if v.phase != "auction":
            return []
        bids = [a for a in v.auction if a.kind == "bid"]
        if bids:
            return [named(v, bids[-1].seat, _("to beat: {bid} ({name})"), bid=bid_words(bids[-1], self.style_))]
        if v.auction or v.turn is not None:
            return [(_("no bid yet"),)]
        return []


def forms(view: SeatView, seat: int | None) -> list[str]:
    """A seat's name in its forms: whole, then cut."""
    name = seat_name(view, seat)
    return [name, *(name[:cut] for cut in NAME_CUTS if len(name) > cut)]


def named(view: SeatView, seat: int | None, template: str, **fields: str) -> tuple[str, ...]:
    """`template` (with a `{name}` field, the other `fields` filled in) with the seat's name in
    each of its forms: whole, then cut."""
    before, after = around(template, **fields)
    return tuple(f"{before}{form}{after}" for form in forms(view, seat))
