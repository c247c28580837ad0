"""What one seat (or a spectator) may see of a table: the object a UI and a
computer player read, and nothing else.

A `SeatView` is plain, read-only data: it holds no key, no seed and no
other seat's hidden card. `state` gives a fresh copy of the seat's engine
view (the same hidden-card state the rules run on), for a computer player
that wants to simulate; changing that copy changes nothing at the table.
The table session builds one with `TableSession.seat_view()`.

`as_seen(action, need, seat)` is an action as one seat receives it: what keeps a
seat's engine view in step with the table (the computer players' simulations, the
determinization's replay).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .cards import Card
from .deal import Deal
from .facts import Result, Roles, Side
from .games import GAMES
from .state import CHANCE, PUBLIC, Action, Need, State, Trick


class Named(Protocol):
    """Who an audit named, as the engine reads it (the audit's `protocol.audit.Culprit`
    is one; the engine never imports the protocol)."""

    @property
    def seat(self) -> int | str: ...  # a seat number, or "host"
    @property
    def reason(self) -> str: ...
    @property
    def entry(self) -> int | None: ...  # the transcript entry that shows it
    @property
    def kind(self) -> str: ...  # a cheat, or absent


@dataclass(frozen=True)
class HandSummary:
    """A hand once audited: the verdict, and every card as dealt (when the audit saw them all).
    Data, never a sentence: `briscola_tui.render.render_hand` writes it in words."""

    number: int  # from 0
    ok: bool
    culprits: tuple[Named, ...]  # who was named (seat, reason, transcript entry, cheat or absent)
    deal: Deal | None
    points: tuple[int, ...] | None  # card points; None: no outcome (a void hand)
    score: tuple[int, ...] | None  # the score change
    result: Result  # the outcome's result: the game's own type (engine/games/*_facts.py)
    redeal: bool = False  # everybody passed
    tricks: tuple[Trick, ...] = ()  # every trick of the hand, in order, as the audit replayed it (none: no outcome)


@dataclass(frozen=True)
class SeatView:
    game: str
    players: int
    options: dict
    seat: int | None  # None: a spectator
    names: tuple[str, ...]
    table_phase: str  # join, coin_commit, ..., play, reveal, seating, over, aborted
    awaited: dict[int, str]  # seat -> the message it owes now
    scores: tuple[int, ...]
    hands_played: int  # hands finished, a redeal (everybody passed) included
    series_over: bool
    winners: tuple[int, ...]
    dealer: int | None = None
    hand_number: int | None = None
    hands_scored: int = 0  # hands finished and scored (not a redeal): what `--hands N` counts
    phase: str | None = None  # the game's phase: auction, call, play, ...
    turn: int | None = None  # the seat to act, or None
    roles: Roles = field(default_factory=dict)  # seat -> its public roles (engine.facts.Role), in order
    hand: tuple[Card, ...] = ()  # this seat's cards, sorted
    hand_sizes: tuple[int, ...] = ()
    known_hands: tuple[tuple[Card, ...], ...] = ()  # cards known in each hand (open hands, the monte taken...)
    trick: tuple[Card, ...] = ()
    trick_leader: int | None = None
    tricks: tuple[Trick, ...] = ()
    trump: str | None = None
    faceup: Card | None = None
    stock: int | None = None  # face-down cards left to draw (Briscola)
    auction: tuple[Action, ...] = ()  # bids and passes, in order
    called: Card | None = None
    contract: str | None = None
    captured: tuple[int, ...] = ()  # card points taken so far (every trick is public), in `unit`s
    unit: str = "point"  # what a trick's worth is counted in: "point", or "third" (Calabresella)
    legal: tuple[Action, ...] = ()  # this seat's choices, when it is to act
    history: tuple[Action, ...] = ()  # every action of the hand as this seat saw it
    last_hand: HandSummary | None = None
    hand_scores: tuple[tuple[int, tuple[int, ...] | None], ...] = ()
    """Every audited hand's number and score change (None: a void hand), from the transcript: a
    node started again (a host restarted, a seat taken back) has the whole series too."""
    _state: State | None = field(default=None, repr=False, compare=False)

    @property
    def state(self) -> State | None:
        """A fresh copy of this seat's engine view of the hand (None between hands)."""
        return None if self._state is None else self._state.clone()

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)


def as_seen(action: Action, need: Need | None, seat: int | None) -> Action:
    """`action` as `seat` receives it: chance cards only where `need.audiences`
    names it or PUBLIC, other seats' discards face down (docs/rules.md)."""
    if action.seat == CHANCE:
        if not action.cards:
            return action
        assert need is not None  # a chance event with cards is seen as its need says
        cards = tuple(c if need.audiences[i] in (seat, PUBLIC) else None for i, c in enumerate(action.cards))
        return Action(CHANCE, action.kind, cards=cards)
    if action.kind == "discard" and action.seat != seat:
        return Action(action.seat, "discard", cards=(None,) * len(action.cards))
    return action


def hand_fields(state: State, seat: int | None) -> dict:
    """The SeatView fields that come from the hand's engine state, as `seat` knows it: its
    game's observer (`State.observe`) gives what the game shows beside the cards."""
    n = state.n
    auction = tuple(a for a in state.history if a.kind in ("bid", "pass"))
    turn = state.current_player()
    seen = state.observe()
    return {
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": turn if turn >= 0 else None,
        "roles": dict(seen.roles),
        "hand": tuple(sorted(state.hands[seat])) if seat is not None and seat >= 0 else (),
        "hand_sizes": tuple(state.hand_size(s) for s in range(n)),
        "known_hands": tuple(tuple(sorted(state.hands[s])) for s in range(n)),
        "trick": tuple(state.trick),
        "trick_leader": state.leader if state.trick else None,
        "tricks": tuple(state.tricks),
        "trump": seen.trump,
        "faceup": seen.faceup,
        "stock": seen.stock,
        "auction": auction,
        "called": seen.called,
        "contract": seen.contract,
        "captured": tuple(state.captured),
        "unit": state.POINT_UNIT,
        "history": tuple(state.history),
    }


def sides_of(view: SeatView, teams: tuple[int, ...] = ()) -> tuple[Side, ...]:
    """The sides of the hand in the play, and their points so far: the two fixed teams of
    alternate seats at a table size in `teams` (Briscola for 4 or 6); else as the game tells
    them from the view (`Game.sides_in_play`: the Chiamata caller and partner against the
    others, the Calabresella soloist against the defenders). None outside the play, or when
    every seat plays for itself."""
    if view.phase != "play" or len(view.captured) != view.players:
        return ()
    n, points = view.players, view.captured
    if n in teams:
        return tuple(Side("team", tuple(range(first, n, 2)), sum(points[first::2])) for first in (0, 1))
    info = GAMES.get(view.game)
    return () if info is None else info.load().sides_in_play(view)


def roles_of(state: State) -> Roles:
    """Each seat's public roles in the hand (`State.roles`): dealer, and caller, soloist or
    partner once known. The high bidder is no caller or soloist until the auction is over:
    another may still outbid it."""
    return state.roles()
