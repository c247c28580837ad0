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
from typing import ClassVar, Protocol, Self

from .actions import (
    CHANCE,
    MAX_SEATS,
    PLAYS,
    PUBLIC,
    TERMINAL,
    VIEWERS,
    Action,
    ActionKind,
    Claim,
    IllegalAction,
    Need,
    NeedKind,
    Outcome,
    Phase,
    Refusal,
    Trick,
    play_action,
    play_actions,
)
from .cards import ALL_CARDS, Card
from .cloning import clone_function
from .deal import Deal, DealPlan
from .facts import NO_PLACED, NO_RESULT, Observation, Placed, Result, Role, Roles
from .rng import Rng

__all__ = [
    "Action",
    "ActionKind",
    "CHANCE",
    "Claim",
    "IllegalAction",
    "MAX_SEATS",
    "Need",
    "NeedKind",
    "Outcome",
    "PLAYS",
    "PUBLIC",
    "Phase",
    "Refusal",
    "Rules",
    "State",
    "TERMINAL",
    "Trick",
    "VIEWERS",
    "play_action",
    "play_actions",
]
"""The data types of engine/actions.py are named here too: most modules import them with the state."""


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

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._DISPATCH = {
            (phase, kind): getattr(cls, cls.HANDLERS[kind])
            for phase, kinds in cls.PHASE_KINDS.items()
            for kind in kinds
        }
        cls._PLAY = cls._DISPATCH.get(("play", "play"))
        if "clone" not in vars(cls):
            cls.clone = clone_function(cls, State.clone.__doc__)  # type: ignore[method-assign, assignment]

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
            text = f"out of turn: {who} acted, it is seat {turn}'s turn"
            raise IllegalAction(text, Refusal("out_of_turn", text, seat=turn))
        handler = self._DISPATCH.get((self.phase, action.kind))
        if handler is None:
            text = f"'{action.kind}' is not allowed now (phase: {self.phase})"
            raise IllegalAction(text, Refusal("not_now", text, kind=action.kind))
        handler(self, action)
        self.history.append(action)

    def child(self, action: Action) -> State:
        """A copy of this state with `action` applied."""
        state = self.clone()
        state.apply(action)
        return state

    def clone(self) -> State:
        """A copy of this state (each game's class has its own, `engine.cloning.clone_function`)."""
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

    def random_legal(self, rng: Rng) -> Action:
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

    SECRET_PARTNER = False
    """True when a call makes a partner only the holder of the called card knows, until
    that card is played (Chiamata); False where there is no call, or the holder shows
    the card (Calabresella hands it over face up)."""

    def hidden_claim(self, action: Action) -> Claim | None:
        """What `action`, a decision taken in this state, says about its sender's hidden
        cards, or None. Here: where a seat must follow suit, a play off the suit led says
        it holds none of that suit."""
        if action.kind == "play" and self.MUST_FOLLOW and self.trick and action.card is not None:
            led = self.trick[0].suit
            if action.card.suit != led:
                return Claim("void", lacks=tuple(c for c in ALL_CARDS if c.suit == led))
        return None

    def rule_facts(self, action: Action) -> list[tuple[str, int, Card]]:
        """What `action`, taken in this state, proves about the hidden hands by a rule of the
        game other than following suit: ("lacks" or "holds", seat, card) facts. None here."""
        return []

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

    def peeks(self, plan: DealPlan) -> list[int]:
        """Deck positions every seat sees, though they stay where they are, once
        the chance event this state waits for is dealt (Briscola open hands)."""
        return []

    def see_peeked(self, plan: DealPlan, public_card: Callable[[int], Card | None]) -> None:
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

    def placed(self) -> Placed:
        """The cards off the hands this state places by deck position (a stock, a monte), the
        face-up card, and the game's own fields two states at one point agree on: what
        determinization reads (engine/determinize.py). None of them by default."""
        return NO_PLACED

    def roles(self) -> Roles:
        """Each seat's public roles in the hand: the dealer; a game adds its own (a caller, a
        soloist once the auction is over; a partner once the called card is played)."""
        return {self.dealer: (Role.DEALER,)}

    def observe(self) -> Observation:
        """What this state's viewer (`viewer`: a seat, a spectator, or None for full knowledge)
        may know of the hand now: its game's own `Observation` type (OpenSpiel's observer). A
        seat's view (`deal.redact(seat)`, then what the seat saw) holds no other seat's hidden
        card, so its observation shows none, nor a secret the seat cannot know."""
        return Observation(self.roles())

    # --- hooks for the games ------------------------------------------------

    def _clone_extra(self, state: Self) -> None:
        """Copy the mutable fields a game adds."""

    def _points(self) -> list[int]:
        return list(self.captured)

    def _result_so_far(self) -> Result:
        return NO_RESULT

    def _finish(self) -> tuple[Result, list[int]]:  # pragma: no cover - abstract
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
        text = f"cannot {why} {card}: seat {seat} does not hold it"
        raise IllegalAction(text, Refusal("not_held", text, seat=seat, card=card))

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

    def _close_trick(self, strength: tuple[int, ...], trump: str | None, points: tuple[int, ...]) -> int:
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
