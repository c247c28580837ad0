"""The seats panel: one line a seat, mine last, with its name, the cards it
holds, its roles (and "team" for my fixed team mates), its card on the table
(or its last bid, in the auction), its points in the play, and what it is doing
(its turn, thinking, away, what the deal awaits of it) with its clock; under
them the table's status line and the last trick. Drawn from reactive data at
its own width: the roles column narrows so that a line never wraps. With room
(`ring`, from the table's layout) the seats sit around the trick instead, their
cards as boxes (`widgets.ring`), when they fit the panel. Names and the status
(from the wire) are literal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.cards import Card
from engine.facts import Role
from engine.games import GAMES
from engine.state import Trick
from engine.view import SeatView, sides_of

from ...games import presentation
from ...language import N_, _, n_
from ...render import bid_words, shown_name, side_words, worth
from .cards import Style
from .faces import Face
from .fit import fit, hanging
from .literal import literal
from .ring import Spot, ring_lines

SEATS_WIDTH = 52
"""The panel at 80 columns (before the first layout gives its size)."""
ROLES_WIDTH = 13
"""The roles column, unless a seat's roles are longer and the line has room."""
CARD_WIDTH = 6
"""The column of a seat's card on the table ("[ K♠ ]"), or its last bid, if longer ("2 target 120")."""
NAME_CUTS = (20, 10, 6)
"""The lengths names are cut to, in turn, in the lines under the seats."""
COMPACT_CUTS = (6, 3)
"""Then the sides' line joins names with "+" alone and cuts them shorter (teams of three)."""
ROLE_WORDS = {
    Role.DEALER: N_("dealer"),
    Role.CALLER: N_("caller"),
    Role.SOLOIST: N_("soloist"),
    Role.PARTNER: N_("partner"),
    Role.ALONE: N_("alone"),
    Role.TEAM: N_("team"),
}
"""The roles a seat shows (from the view: `engine.view.roles_of`), marked here, translated where shown."""
UNIT_LABELS = {"point": N_("points:"), "third": N_("thirds:")}
"""The label of the sides' totals, by the unit of the game's points."""


def cards_held(v: SeatView, seat: int) -> int:
    """The cards `seat` holds, as its line and its place in the ring show them."""
    return v.hand_sizes[seat] if seat < len(v.hand_sizes) else 0


def seat_name(view: SeatView | None, seat: int | None) -> str:
    """The seat's player by name ("you" for mine, in the current language), or "seat N"."""
    names = view.names if view is not None else ()
    if seat is None or not 0 <= seat < len(names):
        return _("seat {n}").format(n=seat)
    return shown_name(names[seat])


def is_you(view: SeatView | None, seat: int | None) -> bool:
    """Whether the seat is the one named "you" (mine, at a table against the computer)."""
    names = view.names if view is not None else ()
    return seat is not None and 0 <= seat < len(names) and names[seat] == "you"


def trick_by_seat(view: SeatView) -> dict[int, Card]:
    """The cards on the table, by the seat that played each."""
    if not view.trick or view.trick_leader is None:
        return {}
    return {(view.trick_leader + i) % view.players: card for i, card in enumerate(view.trick)}


def trick_by_seat_of(view: SeatView, trick: Trick) -> dict[int, Card]:
    """A trick taken (an `engine.state.Trick`): its cards by the seat that played each."""
    return {(trick.leader + i) % view.players: card for i, card in enumerate(trick.cards)}


class SeatsPanel(Widget):
    DEFAULT_CSS = "SeatsPanel { height: auto; }"

    view: reactive[SeatView | None] = reactive(None, always_update=True, layout=True)
    """The seat view shown (None: nothing yet)."""
    thinking: reactive[int | None] = reactive(None)
    """The seat shown thinking (None: none, or not for long enough to say)."""
    away: reactive[frozenset[int]] = reactive(frozenset())
    """Seats with no connection."""
    clock: reactive[tuple[int, int] | None] = reactive(None)
    """(seat, whole seconds left) of the seat on the clock, or None."""
    status = reactive("", layout=True)
    """The table's status line ("reconnecting"), or ""."""
    ring: reactive[Face | None] = reactive(None, layout=True)
    """The seats around the trick, with cards up to this face (`screens.table_layout`); None: one
    line a seat (the 80x24 table; also when the ring does not fit the panel)."""

    def __init__(self, style: Style, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.style_ = style

    def render(self) -> Content:
        return Content.from_rich_text(self._lines(), console=self.app.console)

    def _lines(self) -> Text:
        v, s = self.view, self.style_
        if v is None:
            return Text()
        trick, done = trick_by_seat(v), False
        if not trick and v.tricks and v.phase == "play":  # the trick just taken stays until the next card
            trick, done = trick_by_seat_of(v, v.tricks[-1]), True
        last_bid = {a.seat: bid_words(a, s) for a in v.auction} if v.phase != "play" else {}
        column = max((CARD_WIDTH, *(len(bid) for bid in last_bid.values())))
        order = [*range(v.seat + 1, v.players), *range(0, v.seat + 1)] if v.seat is not None else range(v.players)
        lines = Text()
        statuses = {seat: self._seat_status(v, seat) for seat in order}
        footer = self._footer(v)
        under = footer.plain.rstrip("\n").count("\n") + 1 if footer.plain else 0
        ring = self._ring(v, order, trick, done, last_bid, statuses, under)
        if ring is not None:  # in the middle of the panel's height
            footer.rstrip()
            above = [Text()] * max(0, (self.size.height - len(ring) - under) // 2)
            return Text("\n").join([*above, *ring, footer] if under else [*above, *ring])
        roles_width = self._roles_width(v, statuses, column)
        for seat in order:
            lines.append(self._seat_line(v, seat, trick, done, last_bid, roles_width, column, statuses[seat]))
            lines.append("\n")
        return lines + footer

    def _ring(
        self,
        v: SeatView,
        order: Iterable[int],
        trick: dict[int, Card],
        done: bool,
        last_bid: dict[int, str],
        statuses: dict[int, Text],
        footer: int,
    ) -> list[Text] | None:
        """The seats around the trick (`widgets.ring`), if the panel shows them and they fit above
        the `footer` lines."""
        if self.ring is None:
            return None
        spots = []
        for seat in order:
            size = cards_held(v, seat)
            name = literal(seat_name(v, seat), "bold")
            points = f"{v.captured[seat]}pt" if shows_points(v, seat) else ""
            more = f" {self.style_.dot} ".join(part for part in (self._roles(v, seat), points) if part)
            look = "dim" if done and seat != v.tricks[-1].winner else ""
            label = (name + statuses[seat], Text(f"{size} " + n_("card", "cards", size)), Text(more, "dim"))
            bids = [bid_words(a, self.style_) for a in v.auction if a.seat == seat] if last_bid else []
            spots.append(Spot(label, trick.get(seat), look, last_bid.get(seat, ""), tuple(bids[:-1])))
        return ring_lines(spots, self.size.width, self.size.height - footer, self.ring, self.style_)

    def _footer(self, v: SeatView) -> Text:
        """Under the seats: the table's status, the last trick, the sides' points."""
        lines = Text()
        width = (self.size.width or SEATS_WIDTH) - 1
        for line in hanging(self.status, width) if self.status else ():  # under its own indent
            lines.append(literal(line, "bold"))
            lines.append("\n")
        if v.tricks and v.phase == "play":
            lines.append(literal(" " + fit([self._last_trick(v, v.tricks[-1])], width), "dim"))
            lines.append("\n")
        sides = self._sides(v)
        if sides:
            lines.append(literal(" " + fit([sides], width), "bold"))
        return lines

    def _sides(self, v: SeatView) -> tuple[str, ...]:
        """The sides' points so far, in their forms (names whole, then cut); none outside the play."""
        sides = sides_of(v, GAMES[v.game].teams if v.game in GAMES else ())
        if not sides:
            return ()
        unit = UNIT_LABELS.get(v.unit)
        label = _(unit) if unit is not None else f"{v.unit}s:"
        return tuple(
            f"{label} " + f" {self.style_.dot} ".join(side_words(side, v.names, cut, joiner) for side in sides)
            for joiner, cuts in ((" + ", NAME_CUTS), ("+", COMPACT_CUTS))
            for cut in cuts
        )

    def _last_trick(self, v: SeatView, t: Trick) -> tuple[str, ...]:
        """The last trick taken, in its forms: its cards from the lead, who led, who took it for what."""
        s = self.style_
        winner = seat_name(v, t.winner)
        taker = _("you take {points}") if is_you(v, t.winner) else _("{name} takes {points}")
        points = worth(t.points, v.unit)
        cards = s.cards(t.cards)
        forms = []
        for cut in NAME_CUTS:
            took = taker.format(name=winner[:cut], points=points)
            if is_you(v, t.leader):
                forms.append(_("last: you led {cards}, {took}").format(cards=cards, took=took))
            else:
                led = _("last: {leader} led {cards}, {took}")
                forms.append(led.format(leader=seat_name(v, t.leader)[:cut], cards=cards, took=took))
        for cut in NAME_CUTS:
            took = taker.format(name=winner[:cut], points=points)
            forms.append(_("last: {cards}, {took}").format(cards=cards, took=took))
        return tuple(forms)

    def _seat_line(
        self,
        v: SeatView,
        seat: int,
        trick: dict[int, Card],
        done: bool,
        last_bid: dict[int, str],
        roles_width: int,
        column: int,
        status: Text,
    ) -> Text:
        """One seat: name, cards held, roles, its card on the table (`done`: of the trick just
        taken, dimmed but the winner's) or its last bid, points, and its status (turn, thinking,
        away, clock)."""
        s = self.style_
        size = cards_held(v, seat)
        cards = n_("card", "cards", size)
        line = literal(f" {seat_name(v, seat):<6.6} {size:>2} {cards:<5} ")
        roles = self._roles(v, seat)
        revealed = {Role.PARTNER, Role.ALONE} & set(v.roles.get(seat, ()))
        line.append(f"{roles:<{roles_width}.{roles_width}} ", "bold" if revealed else "")
        if seat in trick:
            card = trick[seat]
            dim = "dim " if done and seat != v.tricks[-1].winner else ""
            line.append("[", dim.strip())
            line.append(f"{s.card(card):^4}", f"{dim}bold {s.colour_of(card)}".strip())
            line.append("]", dim.strip())
            line.append(" " * (column - CARD_WIDTH))
        elif seat in last_bid:
            line.append(f"{last_bid[seat]:<{column}}")
        else:
            line.append(" " * column)
        if shows_points(v, seat):
            line.append(f" {v.captured[seat]:>3}pt", "dim")
        return line + status

    def _seat_status(self, v: SeatView, seat: int) -> Text:
        """What the seat is doing now, at the end of its line: thinking, its turn, what the table awaits
        of it; and its clock."""
        s = self.style_
        status = Text()
        if seat in self.away:
            status.append(f" {s.arrow} " + _("away"), "bold")
        elif seat == self.thinking:
            status.append(f" {s.arrow} " + _("thinking") + s.ellipsis, "italic")
        elif v.turn == seat and v.table_phase == "play":
            status.append(f" {s.arrow} " + _("to play"), "bold")  # a person's turn (a computer player: thinking)
        elif v.table_phase not in ("play", "over") and seat in v.awaited:
            status.append(f" {s.arrow} {v.awaited[seat]}", "dim")
        if self.clock is not None and self.clock[0] == seat:
            status.append(f" {self.clock[1]}s", "bold")
        return status

    def _roles(self, v: SeatView, seat: int) -> str:
        """The seat's roles in words ("dealer, caller"), and "team" for my fixed team mates."""
        roles = (*v.roles.get(seat, ()), *((Role.TEAM,) if seat in team_mates(v) else ()))
        return ", ".join(_(ROLE_WORDS[role]) if role in ROLE_WORDS else role for role in roles)

    def _roles_width(self, v: SeatView, statuses: dict[int, Text], column: int = CARD_WIDTH) -> int:
        """The roles column: 13 wide, or as wide as the longest roles ('dealer, soloist'), as far as
        the line has room beside each seat's status ('thinking...' and a clock): a line never wraps."""
        width = self.size.width or SEATS_WIDTH
        fixed = 17 + 1 + column + (6 if any(shows_points(v, seat) for seat in statuses) else 0)
        room = width - fixed - max(text.cell_len for text in statuses.values())
        roles = max(len(self._roles(v, seat)) for seat in statuses)
        return max(0, min(max(roles, ROLES_WIDTH), room))


def shows_points(v: SeatView, seat: int) -> bool:
    """Whether the seat's line shows its card points (in the play, where the game shows them)."""
    return presentation(v.game).shows_captured and seat < len(v.captured) and v.phase == "play"


def team_mates(v: SeatView) -> set[int]:
    """The other seats of my fixed team (Briscola for 4 or 6: `GameInfo.teams`), known from the start."""
    info = GAMES.get(v.game or "")
    if v.seat is None or info is None or v.players not in info.teams:
        return set()
    return set(range(v.seat % 2, v.players, 2)) - {v.seat}
