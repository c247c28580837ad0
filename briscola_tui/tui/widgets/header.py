"""The table's header, two lines. The first: the game, the hand (of how many), the
score (both sides in a game of two, mine otherwise, every seat's to a spectator). The
second: the hand as it stands: in the auction the bid to beat and who holds it; then the
contract and who plays it (the Chiamata caller, the Calabresella soloist), the card called
and my partner (once known), trump, the face-up card, the stock and the target.

Drawn from its `view` and `hands` at its own width, and never cut: when a line is too
wide, its items shorten in steps (trump loses its suit's name, then names are cut to
10 and to 6 characters) until it fits. Names (from the wire) are literal."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.view import sides_of

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
DEFAULT_TARGET = 61
"""The Chiamata target when no "2 with a target" won the auction."""


def around(template: str, **fields) -> tuple[str, str]:
    """The words of `template` (translated, with a `{name}` field) before and after the name, the
    other `fields` filled in: the name goes between in each of its forms (whole, then cut)."""
    before, _name, after = template.format(name="\0", **fields).partition("\0")
    return before, after


class TableHeader(Widget):
    DEFAULT_CSS = "TableHeader { height: 2; }"

    view = reactive(None, always_update=True)
    """The seat view shown (None: nothing yet)."""
    hands = reactive(0)
    """Hands the table was asked for (0: no limit)."""

    def __init__(self, style: Style, **kwargs) -> None:
        super().__init__(**kwargs)
        self.style_ = style

    def render(self) -> Content:
        return Content.from_rich_text(self.header_text(), console=self.app.console)

    def header_text(self) -> Text:
        """Both lines, as they show at the widget's width."""
        if self.view is None:
            return Text()
        width = max(self.size.width, MIN_WIDTH) - 1  # one space before each line
        title, first = TITLES.get(self.view.game, self.view.game), fit(self._first(), width, " ")
        text = Text(" ")
        text.append(title, "bold")
        text.append(literal(first[len(title) :]))
        text.append("\n ")
        text.append(literal(fit(self._second(), width)))
        return text

    def _named(self, seat, prefix: str = "", suffix: str = "") -> tuple[str, ...]:
        """A seat's name in its forms, between `prefix` and `suffix`: whole, then cut."""
        return tuple(f"{prefix}{form}{suffix}" for form in self._forms(seat))

    def _forms(self, seat) -> list[str]:
        name = seat_name(self.view, seat)
        return [name, *(name[:cut] for cut in NAME_CUTS if len(name) > cut)]

    def _first(self) -> list[tuple[str, ...]]:
        """The game, the hand, the score."""
        v, s = self.view, self.style_
        items: list[tuple[str, ...]] = [(TITLES.get(v.game, v.game),)]
        if v.hand_number is not None or v.hands_played:
            number = (v.hand_number + 1) if v.hand_number is not None else v.hands_played
            if self.hands:  # of the hands the table was started for: a redeal is the same hand again
                number = min(v.hands_scored + 1, self.hands) if v.hand_number is not None else v.hands_scored
            hand = _("hand {n} of {hands}") if self.hands else _("hand {n}")
            items.append((f"{s.dot} " + hand.format(n=number, hands=self.hands),))
        if v.scores:
            if v.players == 2:
                left, right = self._forms(0), self._forms(1)
                steps = max(len(left), len(right))
                items.append(
                    tuple(
                        f"{s.dot} {left[min(i, len(left) - 1)]} {v.scores[0]} {s.dash} "
                        f"{v.scores[1]} {right[min(i, len(right) - 1)]}"
                        for i in range(steps)
                    )
                )
            elif v.seat is not None:
                items.append((f"{s.dot} " + _("your score {n}").format(n=v.scores[v.seat]),))
            else:  # a spectator: every seat's
                items.append(self._everyone())
        return items

    def _everyone(self) -> tuple[str, ...]:
        """Every seat's score (a spectator's header), in its forms: with the names whole, then
        cut, then the scores alone in seat order (a
        space between, as a score may be negative)."""
        v, s = self.view, self.style_
        forms = [self._forms(seat) for seat in range(v.players)]
        steps = max(len(each) for each in forms)
        label = f"{s.dot} " + _("scores") + " "
        named = tuple(
            label
            + ", ".join(f"{each[min(i, len(each) - 1)]} {score}" for each, score in zip(forms, v.scores, strict=False))
            for i in range(steps)
        )
        return (*named, label + " ".join(str(score) for score in v.scores))

    def _second(self) -> list[tuple[str, ...]]:
        """The hand as it stands: the bid to beat, or the contract, called card, partner, trump,
        face-up card, stock, target."""
        v, s = self.view, self.style_
        items: list[tuple[str, ...]] = []
        bids = [a for a in v.auction if a.kind == "bid"]
        if v.phase == "auction":
            if bids:
                beat = around(_("to beat: {bid} ({name})"), bid=bid_words(bids[-1], s))
                items.append(self._named(bids[-1].seat, *beat))
            elif v.auction or v.turn is not None:
                items.append((_("no bid yet"),))
        leader = next((seat for seat, roles in v.roles.items() if "caller" in roles or "soloist" in roles), None)
        if v.contract and v.phase != "auction":  # in the auction the bid to beat says it
            items.append((v.contract,))
        if leader is not None and v.phase != "auction":
            role = _("caller {name}") if "caller" in v.roles[leader] else _("soloist {name}")
            items.append(self._named(leader, *around(role)))
        if v.called is not None:
            items.append((_("called {card}").format(card=s.card(v.called)),))
        sides = sides_of(v)
        if v.game == "chiamata" and sides:
            caller = sides[0]
            if caller.alone:
                items.append((_("alone"),))
            elif caller.partner is not None:
                items.append(self._named(caller.partner, *around(_("partner {name}"))))
            else:
                items.append((_("partner {name}").format(name="?"),))
        if v.trump is not None:
            trump = _("trump {suit}")
            items.append((trump.format(suit=s.suit(v.trump)), trump.format(suit=s.suit(v.trump).split()[0])))
        if v.faceup is not None:
            items.append((_("face up {card}").format(card=s.card(v.faceup)),))
        if v.stock is not None:
            items.append((_("stock {n}").format(n=v.stock),))
        if v.game == "chiamata" and leader is not None and v.phase != "auction":
            targets = [a.target for a in bids if a.target is not None]
            items.append((_("target {n}").format(n=targets[-1] if targets else DEFAULT_TARGET),))
        return items
