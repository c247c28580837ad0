"""Events in words: the one place that writes what happened at the table.

`protocol.events.Event` is data (a kind and its fields); `render(event, style,
names)` is the line a headless client prints, `briscola selfplay` and the
replay steps write, and the app shows in its log and notices. `style` writes
cards and suits (`LETTERS`: `3S`, `trump H`; `HEADLESS`: `trump H (hearts)`;
the app's `widgets.cards.Style`: glyphs, french or italian suit names);
`names` names the seats (none: `seat 2`), and a seat named "you" gets the
verb in the second person ("you take the trick"). A `Note` (what a client
says beside the events) is data too, and `render` writes it; `render_hand`
writes an audited hand (`engine.view.HandSummary`). All the wording of events is
here, in the current language (`language._`): a seat named "you" is said "tu" in Italian,
with its verbs in the second person.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.cards import Card
from engine.state import Action, Refusal
from engine.view import HandSummary, Named, Side
from protocol.events import (
    Acted,
    Complained,
    Dealt,
    DealtSizes,
    Drawn,
    Event,
    Evicted,
    FaceUp,
    FirstDealer,
    HandBegins,
    HandedOver,
    HandScored,
    HandVoid,
    MonteDivided,
    MonteShown,
    Refused,
    RoleShown,
    Seated,
    SecretRole,
    SeriesOver,
    StoppedEarly,
    TableClosed,
    TableOpened,
    TimedOut,
    TrickTaken,
)

from . import engine_words
from .card_styles import CARD_TEXTS, HEADLESS, LETTERS, CardStyle
from .language import N_, _, n_
from .notes import AtTable, Away, Back, HostBack, Note, Resumed, Said, SoFar, Stopping, TableOver, TableStopped
from .phrases import ARRIVALS, CARD_FACTS, FACT_NAMES, NONE_FACTS, ROLES, SEAT_FACTS, SECRETS, YES_NO
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
    "shown_name",
    "side_words",
    "worth",
]


YOU = "you"
"""The name of the local seat (tables/offline.py names it so): its verbs are in the second
person, and the name itself is said in the current language ("tu")."""


def render(event: Event | Note, style: CardStyle = LETTERS, names: Sequence[str] = ()) -> str:
    """`event` (or a note) as one line: cards and suits as `style` writes them, seats by `names`."""
    words = _Words(style, names)
    return words.note(event) if isinstance(event, Note) else words.line(event)


def shown_name(name: str) -> str:
    """A seat's name as a screen shows it: the person's own seat at a table against the
    computer ("you") in the current language ("tu"), any other name as it is."""
    return _("you") if name == YOU else name


def seat_names(names: Mapping[int, str], players: int) -> tuple[str, ...]:
    """`render`'s `names` from the names a session knows (seat -> name): "seat N" for a seat
    not named yet."""
    return tuple(names.get(seat) or _("seat {n}").format(n=seat) for seat in range(players))


def render_hand(last: HandSummary, style: CardStyle = LETTERS, names: Sequence[str] = ()) -> str:
    """What an audited hand gave, in one line: the result, card points and score change,
    or who was named and why (`briscola selfplay`'s and `verify`'s verdict lines, the
    summary and verdict screens)."""
    words = _Words(style, names)
    if not last.ok or last.points is None:
        return words.culprits(last.culprits) or _("void")
    return words.facts(tuple(last.result.json().items()), last.redeal, last.points, last.score)


def refusal(reason: Refusal, style: CardStyle = LETTERS, names: Sequence[str] = ()) -> str:
    """Why the rules refuse an action (`engine.refusal.why_illegal`) in a player's words:
    cards and suits as `style` writes them, seats by `names`; a rule this does not know, in
    the engine's own words."""
    words = _Words(style, names)
    card = style.card(reason.card) if reason.card is not None else ""
    suit = style.suit(reason.suit) if reason.suit is not None else ""
    rule, seat = reason.rule, reason.seat
    if rule == "follow_suit":
        if words.you(seat):  # the rule a player meets most: said the way a player says it
            return _("{suit} were led and you hold one: follow suit").format(suit=suit)
        return _("{name} holds a card of the suit led ({suit}): must follow suit").format(
            name=words.who(seat), suit=suit
        )
    if rule == "hand_over":
        return words.said(
            seat,
            N_("{name} holds {card} and must hand it over"),
            N_("you hold {card} and must hand it over"),
            card=card,
        )
    if rule == "defenders_hand_over":
        return _("only a defender hands over the called card, not {name}").format(name=words.who(seat))
    if rule == "call_rank":
        if reason.at_least:
            text = _("the called card must be of the bid rank or higher ({rank}), not {card}")
        else:
            text = _("the called card must be of the last rank bid ({rank}), not {card}")
        return text.format(rank=reason.rank, card=card)
    if rule == "two_rule_two":
        return _("{card} may be called only by a caller holding {two} (the two rule)").format(
            card=card, two=style.card(reason.cards[0])
        )
    if rule == "two_rule_held":
        return words.said(
            seat,
            N_("the two rule calls a trump the caller does not hold; {name} holds {card}"),
            N_("the two rule calls a trump the caller does not hold; you hold {card}"),
            card=card,
        )
    if rule == "two_rule_lowest":
        return _("the two rule calls the lowest trump not held, which is below {card}").format(card=card)
    if rule == "out_of_turn":
        return words.said(seat, N_("it is {name}'s turn"), N_("it is your turn"))
    if rule == "not_now":
        return _("'{kind}' is not allowed at this point of the hand").format(kind=reason.kind)
    if rule == "not_held":
        return words.said(seat, N_("{name} does not hold {card}"), N_("you do not hold {card}"), card=card)
    return reason.text


def bid_words(action: Action, style: CardStyle = LETTERS) -> str:
    """A bid or a pass in full, as a seat's column and the header show it: "pass", "K",
    "2 target 70", "target 75" (the points auction), "solo"."""
    if action.kind == "bid":
        return engine_words.bid_bare(action, style.names)
    return engine_words.action_words(action, style.card, deck=style.names)


def worth(points: int, unit: str = "point") -> str:
    """What a trick or a side is worth: "28 points", "1 third" (the units, literal for the catalogue)."""
    return count(points, "third") if unit == "third" else count(points, "point")


def side_words(side: Side, names: Sequence[str], width: int = 0, joiner: str = " + ") -> str:
    """A side and its points so far: "you + Carlo: 34", "Dora + ?: ?" (the partner still
    secret), "Dora alone: 40", "the others: ?"; names cut to `width` characters (0: whole),
    joined by `joiner` ("+": "you+Carlo+Elio: 34", for a team of three at 80 columns)."""
    words = _Words(LETTERS, names)

    def who(seat: int) -> str:
        name = words.who(seat)
        return name[:width] if width else name

    points = "?" if side.points is None else str(side.points)
    if not side.seats:
        return _("the others: {points}").format(points=points)
    who_ = joiner.join(map(who, side.seats))
    if not side.partner_known:
        who_ += joiner + "?"
    elif side.alone:
        return _("{names} alone: {points}").format(names=who_, points=points)
    return f"{who_}: {points}"


def _hand(number: int | None) -> int:
    return (number or 0) + 1


class _Words:
    def __init__(self, style: CardStyle, names: Sequence[str]) -> None:
        self.style, self.names = style, names

    def name(self, seat: int | str | None) -> str:
        """The seat's name as given (or "seat N")."""
        if seat == "host":
            return _("the host")
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("seat {n}").format(n=seat)

    def who(self, seat: int | str | None) -> str:
        """The seat's name in words: "you" in the current language ("tu")."""
        return shown_name(self.name(seat))

    def you(self, seat: int | str | None) -> bool:
        return self.name(seat) == YOU

    def said(self, at: int | str | None, third: str, second: str, **fields: object) -> str:
        """A line of `seat` in the person its name asks: `third` (with `{name}`) or, for "you",
        `second`; both are marked words, translated here, and filled with `fields`."""
        if self.you(at):
            return _(second).format(**fields)
        return _(third).format(name=self.who(at), **fields)

    def cards(self, cards: Iterable[Card | None]) -> str:
        return " ".join(self.style.card(c) for c in cards)

    def line(self, e: Event) -> str:
        """An event as one line: the table's own events, a seat's decision, or what went wrong."""
        match e:
            case Acted(action=action):
                words = engine_words.action_words(action, self.style.card, deck=self.style.names)
                return f"{self.who(action.seat)}: {words}"
            case TableOpened(game=game, players=players):
                return _("{game}, {n} players").format(game=game, n=players)
            case Seated():
                return self.seated(e)
            case FirstDealer(seat=seat):
                return self.said(seat, N_("{name} deals first"), N_("you deal first"))
            case HandBegins(dealer=dealer, hand=hand):
                return self.said(dealer, N_("hand {n}: {name} deals"), N_("hand {n}: you deal"), n=_hand(hand))
            case Dealt(cards=cards):
                return _("you are dealt {cards}").format(cards=self.cards(cards))
            case DealtSizes(sizes=sizes):
                return _("cards dealt ({sizes} each)").format(sizes=", ".join(map(str, sizes)))
            case FaceUp(card=card, trump=trump):
                return _("the face-up card is {card}: trump {suit}").format(
                    card=self.style.card(card), suit=self.style.suit(trump)
                )
            case TrickTaken(seat=seat, cards=cards, points=points, unit=unit):
                return self.said(
                    seat,
                    N_("{name} takes the trick ({cards}) for {worth}"),
                    N_("you take the trick ({cards}) for {worth}"),
                    cards=self.cards(cards),
                    worth=worth(points, unit),
                )
            case RoleShown(seat=seat, role=role):
                third, second = ROLES[role]
                return self.said(seat, third, second)
            case SecretRole(role=role):
                return _(SECRETS[role])
            case Drawn(drawn=drawn):
                return "; ".join(self.draw(seat, card) for seat, card in drawn)
            case MonteShown(cards=cards):
                return _("the monte is shown: {cards}").format(cards=self.cards(cards) or _("face down"))
            case MonteDivided(cards=cards):
                return _("the monte is divided: {cards}").format(cards=self.cards(cards) or _("face down"))
            case HandedOver(seat=None, card=card):
                # In the monte or the soloist's own hand: which of the two, the monte shown next tells.
                return _("no defender holds {card}: it is in the monte or the soloist's hand").format(
                    card=self.style.card(card)
                )
            case HandedOver(seat=seat, card=card):
                return self.said(
                    seat, N_("{name} hands over {card}"), N_("you hand over {card}"), card=self.style.card(card)
                )
            case HandVoid() | HandScored():
                return self.verdict(e)
            case SeriesOver(scores=scores, winners=winners):
                return _("series over; scores {scores}; winners seats {winners}").format(
                    scores=list(scores), winners=list(winners)
                )
            case TableClosed(reason=reason):
                return _("table closed: {reason}").format(reason=engine_words.reason_words(reason))
            case _:
                return self.trouble(e)

    def seated(self, e: Seated) -> str:
        """A seat's arrival: "Ann joins (seat 0)", "you are back (seat 1)", "seat 2: Bo takes the seat"."""
        named, second, other = ARRIVALS[e.arrival]
        name = self.name(e.seat)
        # named already: "Ann joins (seat 0)", not "Ann: Ann joins"; a player named "seat 0"
        # (selfplay's) is the seat's own name in any language ("posto 0")
        default = e.name == f"seat {e.seat}" and name == _("seat {n}").format(n=e.seat)
        if name in (e.name, YOU) or default:
            return self.said(e.seat, named, second, seat=e.seat)
        return _(other).format(who=self.who(e.seat), name=e.name)

    def draw(self, seat: int, card: Card | None) -> str:
        """One seat's draw: the card, if this node saw it."""
        if card is None:
            return self.said(seat, N_("{name} draws a card"), N_("you draw a card"))
        return self.said(seat, N_("{name} draws {card}"), N_("you draw {card}"), card=self.style.card(card))

    def verdict(self, e: HandVoid | HandScored) -> str:
        """An audited hand: who was named (void), or what it gave."""
        if isinstance(e, HandScored):
            facts = self.facts(e.result, e.redeal, e.points, e.score)
            return _("hand {n}: {facts}").format(n=_hand(e.hand), facts=facts)
        if e.culprits:
            return _("hand {n} void: {culprits}").format(n=_hand(e.hand), culprits=self.culprits(e.culprits))
        return _("hand {n}: void").format(n=_hand(e.hand))

    def trouble(self, e: StoppedEarly | Refused | Complained | TimedOut | Evicted) -> str:
        """What went wrong at the table: a stop, a refusal, a complaint, a time-out, an eviction."""
        match e:
            case StoppedEarly(seat=seat):
                return self.said(
                    seat, N_("{name} stops the hand (an early reveal)"), N_("you stop the hand (an early reveal)")
                )
            case Evicted(seat=seat):
                return self.said(
                    seat,
                    N_("{name} is evicted for cheating: its key may not sit here again"),
                    N_("you are evicted for cheating: your key may not sit here again"),
                )
            case Refused(seat=seat, reason=reason):  # the reason: a peer's words, as they are
                return self.said(
                    seat, N_("{name}'s message refused: {reason}"), N_("your message refused: {reason}"), reason=reason
                )
            case Complained(seat=seat, reason=reason):  # a true complaint about a sealed share: the seat it names
                return self.said(
                    seat,
                    N_("{name} named by a complaint: {reason}"),
                    N_("you are named by a complaint: {reason}"),
                    reason=reason,
                )
            case TimedOut(seat=seat, owed=owed):  # what was owed: a message's kind, as the wire names it
                return self.said(
                    seat, N_("{name} timed out (owed its {owed})"), N_("you timed out (owed your {owed})"), owed=owed
                )

    def note(self, n: Note) -> str:
        """A note of the node's own in words."""
        match n:
            case AtTable(seat=None, table=table, game=game):
                return _("watching at table {table} ({game})").format(table=table, game=game or "?")
            case AtTable(seat=seat, table=table, game=game):
                return _("{name} at table {table} ({game})").format(name=self.who(seat), table=table, game=game or "?")
            case SoFar():
                return self.so_far(n)
            case Away(seat=seat, name=name):
                return _("{name} is away (no connection)").format(name=self.who_named(name) if name else self.who(seat))
            case Back(seat=seat, name=name):
                return _("{name} is back").format(name=self.who_named(name) if name else self.who(seat))
            case HostBack():
                return _("the host is back")
            case Stopping(reason=reason, culprit=culprit):
                line = _("stopping: {reason}").format(reason=reason)
                return line + ("" if culprit is None else f" [{self.who(culprit)}]")
            case TableStopped(culprits=culprits):
                return _("the table stopped: {culprits}").format(culprits=self.culprits(culprits))
            case TableOver(scores=scores, reason=reason):
                line = _("the table is over: scores {scores}").format(scores=list(scores))
                return line + (f" ({engine_words.reason_words(reason)})" if reason else "")
            case Resumed(hand=None, scored=scored):
                return _("Resumed after {hands}: the game goes on where it stopped.").format(
                    hands=count(scored, "hand")
                )
            case Resumed(hand=int() as hand):
                return _("Resumed in hand {n}: the game goes on where it stopped.").format(n=hand + 1)
            case Said(text=text):
                return text
        return ""  # (every note is matched above)

    def so_far(self, n: SoFar) -> str:
        """Who sits where, and the hands scored so far."""
        seats = n_("seat {seats}", "seats {seats}", len(n.seats)).format(seats=", ".join(map(str, n.seats)))
        scored = _("; {hands} scored so far").format(hands=count(n.scored, "hand")) if n.scored else ""
        return _("at the table: {names} ({seats}){scored}").format(
            names=", ".join(self.who_named(name) for name in n.names), seats=seats, scored=scored
        )

    @staticmethod
    def who_named(name: str) -> str:
        """A name in words: "you" in the current language."""
        return shown_name(name)

    def culprits(self, culprits: Iterable[Named]) -> str:
        """Who the audit named, why, and the transcript entry that shows it."""
        return "; ".join(
            f"{self.who(c.seat)}: {engine_words.culprit_reason(c.reason)}"
            + ("" if c.entry is None else _(" (transcript entry {n})").format(n=c.entry))
            for c in culprits
        )

    def facts(
        self, result: Iterable[tuple[str, object]], redeal: bool, points: Sequence[int], score: Sequence[int] | None
    ) -> str:
        """What an audited hand gave: the result, card points, score change."""
        if redeal:
            return _("everybody passed, redeal")
        facts = ", ".join(self.fact(k, v) for k, v in result if k != "side_points")
        return _("{facts}; points {points}; score {score}").format(
            facts=facts, points=list(points), score=None if score is None else list(score)
        )

    def fact(self, key: str, value: object) -> str:
        """One fact of a hand's result in words: "success", "caller Ann", "trump D"."""
        name = _(FACT_NAMES[key]) if key in FACT_NAMES else key
        if isinstance(value, bool):
            if key in YES_NO:
                yes, no = YES_NO[key]
                return _(yes) if value else _(no)
            return name if value else _("no {fact}").format(fact=name)
        if key in SEAT_FACTS and isinstance(value, int):
            return f"{name} {self.who(value)}"
        if key == "trump" and isinstance(value, str):
            return f"{name} {self.style.suit(value)}"
        if key in CARD_FACTS and isinstance(value, str) and value.upper() in CARD_TEXTS:
            return f"{name} {self.style.card(Card.parse(value))}"
        if value is None:
            return _(NONE_FACTS[key]) if key in NONE_FACTS else _("no {fact}").format(fact=name)
        return f"{name} {value}"
