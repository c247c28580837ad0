"""The state API every game implements, and the machinery they share.

One API for all games, in the manner of OpenSpiel: a state says whose turn it
is (`current_player`), what may be done (`legal_actions`) and moves on with
`apply`. States are mutable for speed (bots play thousands of hands per
move): `apply` changes the state in place, `child` returns a changed copy and
`clone` copies.

Chance is outside the engine. Whenever cards must enter the hand (a draw from
the Briscola stock, the Calabresella monte turned up, the called card handed
over), the state stops at a chance node: `current_player()` is `CHANCE`,
`need()` says what is needed, and the caller applies a chance action. On a
fully known state `chance_outcome()` builds that action from the deal; on a
seat's view the unknown cards in it are `None` and whoever drives the view
(the table session) fills in what that seat may see.

Hidden cards: a hand is a list of known cards plus a count of unknown ones.
The full-knowledge state has no unknown cards; a seat's view has its own hand
known and the others' mostly unknown. The same `apply` runs on both: on a
view it checks everything that can be checked from what the seat knows, and
the end-of-hand audit (which replays with every card known) checks the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import ClassVar, Literal, Protocol, Self

from .cards import ALL_CARDS, Card
from .deal import Deal, DealPlan

CHANCE = -1
"""`current_player()` while the state waits for cards to be dealt or shown."""
TERMINAL = -2
"""`current_player()` once the hand is over."""
PUBLIC = -3
"""Audience of a card every seat (and every spectator) sees; as a viewer, a spectator."""

Phase = Literal[
    "play", "draw", "auction", "call", "handover", "monte", "return", "discard", "raise", "dividete", "take", "done"
]
"""A hand's phase (`State.phase`): each game uses some of these (`PHASE_KINDS`), and "done" once it is over."""

NeedKind = Literal["draw", "handover", "monte", "dividete"]
"""The chance events (`Need.kind`): what a chance node waits for."""

ActionKind = Literal[
    "play", "exchange", "declare", "bid", "pass", "call", "return", "discard", "raise", "take", NeedKind
]
"""Every kind of action: a seat's decisions, and the chance events (`seat == CHANCE`)."""

VIEWERS = """Whose knowledge a state (or a redacted deal) holds, `viewer`:
None, the full state (every card known: the audit, a replay); PUBLIC, a
spectator (only what is shown to all); a seat number, that seat (its own
cards too)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse an action, as data: the rule broken (`rule`, a short name) and
    the seat, cards, suit and rank it names, for a reader to put in its own words; `text`
    is the engine's (the message of the `IllegalAction`, as logs and the audit quote it).

    Rules: `follow_suit` (seat holds a card of `suit`, led), `hand_over` (seat holds the
    called `card` and must hand it over), `defenders_hand_over` (seat is no defender),
    `call_rank` (`card` is not of the bid `rank`; `at_least`: or higher), `two_rule_two`
    (`card` needs the caller to hold `cards[0]`, the 2), `two_rule_held` (the caller holds
    `card`), `two_rule_lowest` (a lower trump than `card` is not held); `rule`: any other."""

    rule: str
    text: str
    seat: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    suit: str | None = None
    rank: str | None = None
    at_least: bool = False


class IllegalAction(ValueError):
    """An action the rules forbid. The message names the rule it breaks; `refusal`, when
    the rule gives one, says it as data."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal

    @classmethod
    def of(cls, refusal: Refusal) -> IllegalAction:
        return cls(refusal.text, refusal)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a seat, or one chance event (`seat == CHANCE`).

    Only the fields a kind uses are set (see `docs/rules.md` for the list):
    `card` for play/call/return, `cards` for discard/take and chance events,
    `rank`/`target`/`contract` for bids, `choice` for the Solissimo raise,
    `holder` for the Calabresella handover chance event.
    """

    seat: int
    kind: ActionKind
    card: Card | None = None
    cards: tuple[Card | None, ...] = ()
    rank: str | None = None
    target: int | None = None
    contract: str | None = None
    choice: str | None = None
    holder: int | None = None

    def __init__(
        self,
        seat: int,
        kind: ActionKind,
        card: Card | None = None,
        cards: tuple[Card | None, ...] = (),
        rank: str | None = None,
        target: int | None = None,
        contract: str | None = None,
        choice: str | None = None,
        holder: int | None = None,
    ) -> None:
        # The generated frozen __init__ goes through object.__setattr__ per field;
        # setting the slots directly is the same, at half the cost (actions are
        # built in every playout).
        _ACTION_SET[0](self, seat)
        _ACTION_SET[1](self, kind)
        _ACTION_SET[2](self, card)
        _ACTION_SET[3](self, cards)
        _ACTION_SET[4](self, rank)
        _ACTION_SET[5](self, target)
        _ACTION_SET[6](self, contract)
        _ACTION_SET[7](self, choice)
        _ACTION_SET[8](self, holder)

    def __str__(self) -> str:
        parts = [f"seat {self.seat}" if self.seat >= 0 else "chance", self.kind]
        if self.card is not None:
            parts.append(str(self.card))
        if self.cards:
            parts.append(" ".join("??" if c is None else str(c) for c in self.cards))
        for name in ("rank", "target", "contract", "choice", "holder"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        return " ".join(parts)


_ACTION_SET = tuple(getattr(Action, f.name).__set__ for f in fields(Action))
"""The setters of `Action`'s slots, in field order (its `__init__`)."""


@dataclass(frozen=True, slots=True)
class Need:
    """What a chance node waits for: `kind`, and who may see each card.

    `audiences[i]` is the seat that privately receives the i-th card of the
    chance action, or `PUBLIC`. `slots` says where the cards come from:
    ("stock", k), ("faceup",), ("monte", k) or ("hand", seat).
    """

    kind: NeedKind
    audiences: tuple[int, ...] = ()
    slots: tuple = ()
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def __init__(self, leader: int, cards: tuple[Card, ...], winner: int, points: int) -> None:
        _TRICK_SET[0](self, leader)  # as Action: the slots set directly
        _TRICK_SET[1](self, cards)
        _TRICK_SET[2](self, winner)
        _TRICK_SET[3](self, points)


_TRICK_SET = tuple(getattr(Trick, f.name).__set__ for f in fields(Trick))


@dataclass
class Outcome:
    """The result of a hand, as the replay format reports it."""

    complete: bool
    tricks: list[Trick]
    points: list[int]
    result: dict = field(default_factory=dict)
    score: list[int] | None = None


class Rules(Protocol):
    """What a state, and whoever reads one, needs of the game it is a hand of
    (`State.game`): every `engine.game.Game` is one. Declared here so that the
    state module does not depend on the game module, which builds states."""

    name: str
    players: int
    options: dict

    def deck(self) -> list[Card]: ...
    def plan(self, dealer: int) -> DealPlan: ...
    def new_hand(self, dealer: int, deal: Deal, viewer: int | None = None) -> State: ...
    def teams(self) -> list[list[int]] | None: ...
    def sides(self) -> list[list[int]]: ...


class State:
    """Shared machinery: hands with hidden cards, tricks, turns, cloning.

    Subclasses (one per game) set `turn` and `phase`, and implement
    `legal_actions`, the action handlers named in `HANDLERS`, the phases
    each kind is allowed in (`PHASE_KINDS`), `need`, `chance_outcome` and
    `_finish`.
    """

    game: Rules
    HANDLERS: dict[ActionKind, str] = {}
    """Action kind -> name of the method that applies it."""
    PHASE_KINDS: dict[Phase, tuple[ActionKind, ...]] = {}
    """Phase -> the action kinds allowed in it."""

    @property
    def ended_early(self) -> bool:
        """True when the hand ended before every card was played (a Briscola black hand)."""
        return False

    _DISPATCH: dict[tuple[Phase, ActionKind], Callable[[State, Action], None]] = {}
    """(phase, kind) -> handler function, built from HANDLERS and PHASE_KINDS
    for each class (so a subclass's overridden handler is the one called)."""

    FIELDS: tuple[str, ...] = (
        *("game", "n", "dealer", "viewer", "turn", "phase", "leader"),
        *("hands", "unknown", "trick", "tricks", "captured", "won", "history"),
    )
    """The attributes this class adds to a state; each subclass names its own (its
    `__init__` sets them all): what `clone` copies."""

    _PLAY: ClassVar[Callable[[State, Action], None] | None] = None
    """The handler of a play in the play phase, the action of every trick: `apply` calls it
    straight away (the computer players' playouts apply little else)."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._DISPATCH = {
            (phase, kind): getattr(cls, cls.HANDLERS[kind])
            for phase, kinds in cls.PHASE_KINDS.items()
            for kind in kinds
        }
        cls._PLAY = cls._DISPATCH.get(("play", "play"))
        if "clone" not in vars(cls):
            cls.clone = _clone_function(cls)  # type: ignore[method-assign, assignment]

    def __init__(self, game: Rules, dealer: int, deal: Deal, viewer: int | None):
        n = game.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        if len(deal.hands) != n:
            raise ValueError(f"the deal has {len(deal.hands)} hands for {n} players")
        self.game = game
        self.n = n
        self.dealer = dealer
        self.viewer = viewer
        self.hands: list[list[Card]] = [[c for c in h if c is not None] for h in deal.hands]
        self.unknown: list[int] = [len(h) - len(known) for h, known in zip(deal.hands, self.hands)]
        self.turn = (dealer + 1) % n
        self.phase: Phase = "play"
        self.leader = self.turn
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.captured: list[int] = [0] * n
        self.won: list[int] = [0] * n
        self.history: list[Action] = []

    # --- the API ------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, `CHANCE` or `TERMINAL`."""
        return self.turn

    def is_over(self) -> bool:
        return self.turn == TERMINAL

    def legal_actions(self) -> list[Action]:  # pragma: no cover - abstract
        """Every action the player to act may take.

        On a seat's view this is complete only for that seat's own turns (the
        other hands are hidden).
        """
        raise NotImplementedError

    def apply(self, action: Action) -> None:
        """Apply one action in place; raise `IllegalAction` naming the rule broken.

        A rejected action leaves the state exactly as it was.
        """
        turn = self.turn
        play = type(self)._PLAY  # the plain function, as `_DISPATCH` holds it
        if play is not None and action.kind == "play" and action.seat == turn and self.phase == "play":
            play(self, action)  # the same checks as below: the seat to act, in the play
            self.history.append(action)
            return
        if action.seat != turn or turn == TERMINAL:
            if turn == TERMINAL:
                raise IllegalAction("the hand is over")
            if turn == CHANCE:
                raise IllegalAction(f"cards must be dealt first ({self.need().kind})")
            who = "chance" if action.seat == CHANCE else f"seat {action.seat}"
            raise IllegalAction(f"out of turn: {who} acted, it is seat {turn}'s turn")
        handler = self._DISPATCH.get((self.phase, action.kind))
        if handler is None:
            raise IllegalAction(f"'{action.kind}' is not allowed now (phase: {self.phase})")
        handler(self, action)
        self.history.append(action)

    def child(self, action: Action) -> State:
        """A copy of this state with `action` applied."""
        state = self.clone()
        state.apply(action)
        return state

    def clone(self) -> State:
        """A copy of this state (each game's class has its own, `_clone_function`)."""
        state = object.__new__(type(self))
        attrs = self.__dict__.copy()
        attrs["hands"] = [h[:] for h in self.hands]
        attrs["unknown"] = self.unknown[:]
        attrs["trick"] = self.trick[:]
        attrs["tricks"] = self.tricks[:]
        attrs["captured"] = self.captured[:]
        attrs["won"] = self.won[:]
        attrs["history"] = self.history[:]
        state.__dict__ = attrs
        self._clone_extra(state)
        return state

    def random_legal(self, rng) -> Action:
        """One action of `legal_actions()`, each equally likely, drawn with
        `rng` (a `random.Random`): what a bot's random playout calls.

        A game may build it without listing every legal action (a
        Calabresella discard is one of up to 1,820). At a chance node it is
        the chance action, as `legal_actions()` lists it. Raises
        `IllegalAction` when there is none: the hand is over, or on a seat's
        view another seat is to act and its hand is hidden.
        """
        actions = self.legal_actions()
        if not actions:
            if self.turn == TERMINAL:
                raise IllegalAction("the hand is over")
            raise IllegalAction(f"this view does not know what seat {self.turn} may do")
        return rng.choice(actions)

    def need(self) -> Need:  # pragma: no cover - abstract
        raise NotImplementedError

    MUST_FOLLOW = False
    """True when a seat must follow the suit led if it can (a failure is a renege)."""

    def shown_cards(self, action: Action) -> tuple:
        """The cards `action` shows, which its sender must prove it holds
        (nothing for a bid, a call, a discard, ...)."""
        if action.kind in ("play", "return"):
            return (action.card,)
        return ()

    # --- where cards go (the table follows face-down cards by deck position) --------
    # Holders: a seat number, or "stock", "faceup", "monte", "table". Sources:
    # ("card", card index) for a card the action shows, ("given", i) for the
    # i-th card it gives up face down, ("faceup",), or ("monte", i). See engine/flow.py.

    POINT_UNIT = "point"
    """What captured card values count in (Calabresella: thirds)."""

    def card_moves(self, action: Action) -> list[tuple[tuple, object]]:
        """(source, holder) for each card `action` moves (this state: before it)."""
        if action.kind == "play":
            assert action.card is not None  # `apply` refuses a play without one
            return [(("card", action.card.index), "table")]
        return []

    def chance_holders(self, need: Need) -> tuple:
        """Where each card of the chance event `need` went, slot by slot (this
        state: once the event is applied)."""
        return ()

    def handover_answerers(self) -> tuple[int, ...]:
        """The seats that must answer a handover (show the called card, or say they lack it)."""
        return ()

    def handover_holder(self) -> int | None:
        """Where the called card goes when it is handed over."""
        return None

    def peeks(self, plan) -> list[int]:
        """Deck positions every seat sees, though they stay where they are, once
        the chance event this state waits for is dealt (Briscola open hands)."""
        return []

    def see_peeked(self, plan, public_card) -> None:
        """Learn the peeked cards (`public_card(position)`: the card if open to all)."""

    def chance_outcome(self) -> Action:  # pragma: no cover - abstract
        """The chance action the deal determines (unknown cards as `None`)."""
        raise NotImplementedError

    def outcome(self) -> Outcome:
        """The hand so far, or its final result once `is_over()`."""
        complete = self.turn == TERMINAL
        result, score = self._finish() if complete else (self._result_so_far(), None)
        return Outcome(complete, list(self.tricks), self._points(), result, score)

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat]) + self.unknown[seat]

    # --- hooks for the games ------------------------------------------------

    def _clone_extra(self, state: Self) -> None:
        """Copy the mutable fields a game adds."""

    def _points(self) -> list[int]:
        return list(self.captured)

    def _result_so_far(self) -> dict:
        return {}

    def _finish(self) -> tuple[dict, list[int]]:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- cards moving -------------------------------------------------------

    def _take_card(self, seat: int, card: Card, why: str = "play") -> None:
        """Remove `card` from `seat`'s hand: known, or one of its hidden cards."""
        try:
            self.hands[seat].remove(card)  # cards are interned: removes that very card
            return
        except ValueError:
            pass
        if self.unknown[seat] and not self._located_elsewhere(card, seat):
            self.unknown[seat] -= 1
            return
        raise IllegalAction(f"cannot {why} {card}: seat {seat} does not hold it")

    def _show_card(self, seat: int, card: Card) -> None:
        """`seat` shows `card` and keeps it: it becomes a known card of that hand."""
        if card in self.hands[seat]:
            return
        if self.unknown[seat] and not self._located_elsewhere(card, seat):
            self.unknown[seat] -= 1
            self.hands[seat].append(card)
            return
        raise IllegalAction(f"seat {seat} does not hold {card}")

    def _located_elsewhere(self, card: Card, seat: int) -> bool:
        """True when this state knows `card` is somewhere other than `seat`'s hidden cards."""
        if card in self.trick:
            return True
        for t in self.tricks:
            if card in t.cards:
                return True
        for s, hand in enumerate(self.hands):
            if s != seat and card in hand:
                return True
        return card in self._known_elsewhere()

    def _known_elsewhere(self) -> list[Card]:
        """Known cards outside hands and tricks (face-up card, known stock or monte)."""
        return []

    def _holds(self, seat: int, card: Card) -> bool | None:
        """True/False when known, None when this view cannot tell."""
        if card in self.hands[seat]:
            return True
        if not self.unknown[seat] or self._located_elsewhere(card, seat):
            return False
        return None

    # --- tricks -------------------------------------------------------------

    def _close_trick(self, strength, trump, points) -> int:
        """Score the complete trick on the table and return its winner.

        `engine.tricks.trick_winner` and `trick_value` in one pass (this runs
        once a trick in every playout)."""
        trick = self.trick
        first = trick[0]
        suit = first.suit
        index = first.index
        top = strength[index]
        value = points[index]
        best = 0
        for i in range(1, len(trick)):
            card = trick[i]
            index = card.index
            value += points[index]
            if card.suit == suit:
                if strength[index] > top:
                    best, top = i, strength[index]
            elif card.suit == trump:
                best, suit, top = i, trump, strength[index]
        leader = self.leader
        winner = (leader + best) % self.n
        self.tricks.append(Trick(leader, tuple(trick), winner, value))
        self.captured[winner] += value
        self.won[winner] += 1
        self.trick = []
        self.leader = winner
        return winner

    def __repr__(self) -> str:
        who = {None: "full", PUBLIC: "spectator's view"}.get(self.viewer, f"view of seat {self.viewer}")
        return (
            f"<{type(self).__name__} {self.game.name}/{self.n} {who} phase={self.phase} "
            f"turn={self.turn} tricks={len(self.tricks)}>"
        )


_LISTS = {
    "hands": "[h[:] for h in self.hands]",
    **{name: f"self.{name}[:]" for name in ("unknown", "trick", "tricks", "captured", "won", "history")},
}
"""The base's mutable fields, as `clone` copies them (a game copies its own in `_clone_extra`)."""


def _clone_function(cls: type[State]) -> Callable[[State], State]:
    """`cls.clone`: a new state, each field of `FIELDS` (every class's) set in turn.

    Not by copying `__dict__`: reading an object's `__dict__` turns its attributes
    into a plain dict, and every attribute read and write on it (a playout makes
    thousands) is slower after that; set one by one they stay as `__init__` made
    them. A field a class does not name in `FIELDS` would be lost: tests/test_clone.py
    checks every game's states have exactly the fields named."""
    names = list(dict.fromkeys(name for klass in reversed(cls.__mro__) for name in vars(klass).get("FIELDS", ())))
    lines = ["def clone(self):", "    state = new(cls)"]
    lines += [f"    state.{name} = {_LISTS.get(name, f'self.{name}')}" for name in names]
    lines += ["    self._clone_extra(state)", "    return state"]
    scope: dict = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102 - code built from the classes' own field names
    clone = scope["clone"]
    clone.__doc__ = State.clone.__doc__
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    return clone


MAX_SEATS = 6
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, "play", card) for card in ALL_CARDS) for seat in range(MAX_SEATS)
)
"""`PLAYS[seat][card.index]`: every play action, built once (legal_actions is hot)."""


def play_action(seat: int, card: Card) -> Action:
    """The (shared, immutable) action of `seat` playing `card`."""
    return PLAYS[seat][card.index]


def play_actions(seat: int, cards) -> list[Action]:
    """The (shared, immutable) actions of `seat` playing each of `cards`."""
    row = PLAYS[seat]
    return [row[c.index] for c in cards]
