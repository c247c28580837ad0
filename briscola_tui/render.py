"""Events in words: the one place that writes what happened at the table.

`protocol.events.Event` is data (a kind and its fields); `render(event, style,
names)` is the line a headless client prints, `briscola selfplay` and the
replay steps write, and the app shows in its log and notices. `style` writes
cards and suits (`LETTERS`: `3S`, `trump H`; `HEADLESS`: `trump H (hearts)`;
the app's `widgets.cards.Style`: glyphs, french or italian suit names);
`names` names the seats (none: `seat 2`), and a seat named "you" gets the
verb in the second person ("you take the trick"). A `Note` (what a client
says beside the events) is data too, and `render` writes it; `render_hand`
writes an audited hand (`engine.view.HandSummary`). All the English wording of
events is here, ready for a second language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from engine.cards import SUIT_NAMES, Card
from engine.labels import label
from engine.state import Refusal
from engine.view import HandSummary, Side
from protocol.audit import Culprit
from protocol.events import Event

from .wording import count

__all__ = [
    "HEADLESS",
    "LETTERS",
    "CardStyle",
    "Note",
    "bid_words",
    "refusal",
    "render",
    "render_hand",
    "seat_names",
    "side_words",
    "worth",
]


@dataclass(frozen=True)
class Note:
    """What a node says beside the table's events (a network client's word, a resumed game),
    as data like an `Event`: `render` writes it.

    Kinds: seated (`seat`, or None watching, at `table` of `game`), so_far (who sits where:
    `names` on `seats`, `scored` hands), away and back (`seat`, its `name` if known), stopping
    (`reason`, the `culprit` seat or "host" if named), stopped (the `culprits`), over
    (`scores`, the `reason` the host closed), resumed (in `hand`, or after `scored` hands), and
    said (`text`: words of the app's own or an error's, written as they are)."""

    kind: Literal["seated", "so_far", "away", "back", "stopping", "stopped", "over", "resumed", "said"]
    seat: int | None = None
    text: str = ""
    table: str = ""  # seated: the table id, in hex
    game: str = ""  # seated
    name: str | None = None  # away, back: the seat's name
    names: tuple[str, ...] = ()  # so_far: the names, in seat order
    seats: tuple[int, ...] = ()  # so_far
    scored: int = 0  # so_far, resumed: hands scored
    hand: int | None = None  # resumed: the hand going on (from 0)
    reason: str | None = None  # stopping: why; over: why the host closed
    culprit: int | str | None = None  # stopping: the seat (or "host") named
    culprits: tuple[Culprit, ...] = ()  # stopped
    scores: tuple[int, ...] = ()  # over
    cards: tuple = ()  # (none: a note moves no card)


class CardStyle(Protocol):
    def card(self, card: Card | None) -> str: ...

    def suit(self, suit: str) -> str: ...


class Letters:
    """Cards and suits by their letters: `3S`, `trump H`."""

    def card(self, card: Card | None) -> str:
        return "??" if card is None else str(card)

    def suit(self, suit: str) -> str:
        return suit


class Headless(Letters):
    """The headless host and clients: letters, the trump suit named after its letter."""

    def suit(self, suit: str) -> str:
        return f"{suit} ({SUIT_NAMES[suit][1]})"


LETTERS = Letters()
HEADLESS = Headless()

ROLES = {
    "partner": ("{} is the caller's partner", "you are the caller's partner"),
    "alone": ("{} called its own card: it plays alone", "you called your own card: you play alone"),
    "caller": ("{} wins the auction", "you win the auction"),
    "soloist": ("{} plays alone against the others", "you play alone against the others"),
}
SECRETS = {
    "alone": "you called your own card: you play alone",
    "partner": "you hold the called card: you are the caller's partner, and nobody else knows",
}
SEAT_FACTS = ("caller", "partner", "soloist", "black_hand")
"""Facts of a hand's result that are a seat (named as the seats are)."""
YES_NO = {"success": ("success", "failure")}
"""A yes-or-no fact of a hand's result, in words for yes and for no."""
NONE_FACTS = {"winner": "a draw", "partner": "no partner (the caller plays alone)"}
ARRIVALS = {"joins": ("joins", "join"), "back": ("is back", "are back"), "takes": ("takes the seat", "take the seat")}


def render(event: Event | Note, style: CardStyle = LETTERS, names: Sequence[str] = ()) -> str:
    """`event` (or a note) as one line: cards and suits as `style` writes them, seats by `names`."""
    words = _Words(style, names)
    return words.note(event) if isinstance(event, Note) else words.line(event)


def seat_names(names: Mapping[int, str], players: int) -> tuple[str, ...]:
    """`render`'s `names` from the names a session knows (seat -> name): "seat N" for a seat
    not named yet."""
    return tuple(names.get(seat) or f"seat {seat}" for seat in range(players))


def render_hand(last: HandSummary, style: CardStyle = LETTERS, names: Sequence[str] = ()) -> str:
    """What an audited hand gave, in one line: the result, card points and score change,
    or who was named and why (`briscola selfplay`'s and `verify`'s verdict lines, the
    summary and verdict screens)."""
    words = _Words(style, names)
    if not last.ok or last.points is None:
        return words.culprits(last.culprits) or "void"
    return words.facts(tuple(last.result.items()), last.redeal, last.points, last.score)


def refusal(reason: Refusal, style: CardStyle = LETTERS, names: Sequence[str] = ()) -> str:
    """Why the rules refuse an action (`engine.refusal.why_illegal`) in a player's words:
    cards and suits as `style` writes them, seats by `names`; a rule this does not know, in
    the engine's own words."""
    words = _Words(style, names)
    card = style.card(reason.card) if reason.card is not None else ""
    suit = style.suit(reason.suit) if reason.suit is not None else ""
    rule = reason.rule
    if rule == "follow_suit":
        if words.you(reason.seat):  # the rule a player meets most: said the way a player says it
            return f"{suit} were led and you hold one: follow suit"
        return f"{words.who(reason.seat)} holds a card of the suit led ({suit}): must follow suit"
    if rule == "hand_over":
        return f"{words.said(reason.seat, 'holds', 'hold')} {card} and must hand it over"
    if rule == "defenders_hand_over":
        return f"only a defender hands over the called card, not {words.who(reason.seat)}"
    if rule == "call_rank":
        which = "the bid rank or higher" if reason.at_least else "the last rank bid"
        return f"the called card must be of {which} ({reason.rank}), not {card}"
    if rule == "two_rule_two":
        return f"{card} may be called only by a caller holding {style.card(reason.cards[0])} (the two rule)"
    if rule == "two_rule_held":
        return f"the two rule calls a trump the caller does not hold; {words.said(reason.seat, 'holds', 'hold')} {card}"
    if rule == "two_rule_lowest":
        return f"the two rule calls the lowest trump not held, which is below {card}"
    return reason.text


def bid_words(action, style: CardStyle = LETTERS) -> str:
    """A bid or a pass in full, as a seat's column and the header show it: "pass", "K",
    "2 target 70", "target 75" (the points auction), "solo"."""
    text = label(action, style.card)
    return text.removeprefix("bid ")


def worth(points: int, unit: str = "point") -> str:
    """What a trick or a side is worth: "28 points", "1 third"."""
    return count(points, unit)


def side_words(side: Side, names: Sequence[str], width: int = 0) -> str:
    """A side and its points so far: "you + Carlo: 34", "Dora + ?: ?" (the partner still
    secret), "Dora alone: 40", "the others: ?"; names cut to `width` characters (0: whole)."""
    words = _Words(LETTERS, names)

    def who(seat: int) -> str:
        name = words.who(seat)
        return name[:width] if width else name

    points = "?" if side.points is None else str(side.points)
    if not side.seats:
        return f"the others: {points}"
    who_ = " + ".join(map(who, side.seats))
    if not side.partner_known:
        who_ += " + ?"
    elif side.alone:
        who_ += " alone"
    return f"{who_}: {points}"


class _Words:
    def __init__(self, style: CardStyle, names: Sequence[str]) -> None:
        self.style, self.names = style, names

    def who(self, seat) -> str:
        if seat == "host":
            return "the host"
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else f"seat {seat}"

    def you(self, seat) -> bool:
        return self.who(seat) == "you"

    def said(self, seat, third: str, second: str) -> str:
        """`seat` and its verb: "seat 2 takes", "you take"."""
        return f"you {second}" if self.you(seat) else f"{self.who(seat)} {third}"

    def cards(self, cards: Iterable[Card | None]) -> str:
        return " ".join(self.style.card(c) for c in cards)

    def line(self, e: Event) -> str:
        kind, seat = e.kind, e.seat
        if e.action is not None:
            return f"{self.who(seat)}: {label(e.action, self.style.card)}"
        if kind == "table":
            return f"{e.game}, {e.players} players"
        if kind == "seated":
            third, second = ARRIVALS[e.arrival or "joins"]
            if self.who(seat) in (e.name, "you"):  # named already: "Ann joins (seat 0)", not "Ann: Ann joins"
                return f"{self.said(seat, third, second)} (seat {seat})"
            return f"{self.who(seat)}: {e.name} {third}"
        if kind == "dealer":
            return self.said(seat, "deals first", "deal first")
        if kind == "hand":
            return f"hand {(e.hand or 0) + 1}: {self.said(seat, 'deals', 'deal')}"
        if kind == "dealt":
            if e.trump is not None:
                return f"the face-up card is {self.cards(e.cards)}: trump {self.style.suit(e.trump)}"
            if seat is not None:
                return f"you are dealt {self.cards(e.cards)}"
            return f"cards dealt ({', '.join(map(str, e.sizes))} each)"
        if kind == "trick":
            worth = count(e.points or 0, e.unit)
            return f"{self.said(seat, 'takes', 'take')} the trick ({self.cards(e.cards)}) for {worth}"

            return f"{self.said(seat, 'takes', 'take')} the trick ({self.cards(e.cards)}) for {worth(e.points or 0, e.unit)}"
        if kind == "role":
            third, second = ROLES[e.role or ""]
            return second if self.you(seat) else third.format(self.who(seat))
        if kind == "secret":
            return SECRETS[e.role or ""]
        if kind == "draw":
            return "; ".join(
                self.said(s, "draws", "draw") + (f" {self.style.card(c)}" if c is not None else " a card")
                for s, c in e.drawn
            )
        if kind in ("monte", "dividete"):
            verb = "the monte is shown" if kind == "monte" else "the monte is divided"
            return f"{verb}: {self.cards(e.cards) or 'face down'}"
        if kind == "handover":
            card = self.style.card(e.card)
            if seat is None:
                return f"nobody hands over {card}: the caller holds it"
            return f"{self.said(seat, 'hands', 'hand')} over {card}"
        if kind == "stopped":
            return f"{self.said(seat, 'stops', 'stop')} the hand (an early reveal)"
        if kind == "evicted":
            if self.you(seat):
                return "you are evicted for cheating: your key may not sit here again"
            return f"{self.who(seat)} is evicted for cheating: its key may not sit here again"
        if kind == "refused":
            whose = "your" if self.you(seat) else f"{self.who(seat)}'s"
            return f"{whose} message refused: {e.reason}"
        if kind == "timeout":
            return f"{self.who(seat)} timed out (owed {'your' if self.you(seat) else 'its'} {e.reason})"
        if kind == "verdict":
            if e.culprits:
                return f"hand {(e.hand or 0) + 1} void: {self.culprits(e.culprits)}"
            if not e.hand_points:
                return f"hand {(e.hand or 0) + 1}: void"
            return f"hand {(e.hand or 0) + 1}: {self.facts(e.result, e.redeal, e.hand_points, e.score)}"
        if kind == "series":
            return f"series over; scores {list(e.scores)}; winners seats {list(e.winners)}"
        if kind == "closed":
            return f"table closed: {e.reason}"
        return kind

    def note(self, n: Note) -> str:
        kind, seat = n.kind, n.seat
        if kind == "seated":
            return f"{'watching' if seat is None else self.who(seat)} at table {n.table} ({n.game or '?'})"
        if kind == "so_far":
            seats = f"{'seat' if len(n.seats) == 1 else 'seats'} {', '.join(map(str, n.seats))}"
            scored = f"; {count(n.scored, 'hand')} scored so far" if n.scored else ""
            return f"at the table: {', '.join(n.names)} ({seats}){scored}"
        if kind in ("away", "back"):
            return f"{n.name or self.who(seat)} {'is away (no connection)' if kind == 'away' else 'is back'}"
        if kind == "stopping":
            return f"stopping: {n.reason}" + ("" if n.culprit is None else f" [{self.who(n.culprit)}]")
        if kind == "stopped":
            return "the table stopped: " + self.culprits(n.culprits)
        if kind == "over":
            return f"the table is over: scores {list(n.scores)}" + (f" ({n.reason})" if n.reason else "")
        if kind == "resumed":
            where = f"in hand {n.hand + 1}" if n.hand is not None else f"after {count(n.scored, 'hand')}"
            return f"Resumed {where}: the game goes on where it stopped."
        return n.text

    def culprits(self, culprits: Iterable[Culprit]) -> str:
        """Who the audit named, why, and the transcript entry that shows it."""
        return "; ".join(
            f"{self.who(c.seat)}: {c.reason}" + ("" if c.entry is None else f" (transcript entry {c.entry})")
            for c in culprits
        )

    def facts(self, result: Iterable[tuple[str, object]], redeal: bool, points: Sequence[int], score) -> str:
        """What an audited hand gave: the result, card points, score change."""
        if redeal:
            return "everybody passed, redeal"
        facts = ", ".join(self.fact(k, v) for k, v in result if k != "side_points")
        return f"{facts}; points {list(points)}; score {None if score is None else list(score)}"

    def fact(self, key: str, value) -> str:
        """One fact of a hand's result in words: "success", "caller Ann", "trump D"."""
        if isinstance(value, bool):
            yes, no = YES_NO.get(key, (key, f"no {key}"))
            return yes if value else no
        if key in SEAT_FACTS and isinstance(value, int):
            return f"{key} {self.who(value)}"
        if key == "trump" and isinstance(value, str):
            return f"trump {self.style.suit(value)}"
        if value is None:
            return NONE_FACTS.get(key, f"no {key}")
        return f"{key} {value}"
