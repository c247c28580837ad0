"""The hard player's playouts of Briscola Chiamata's play, on card indices.

`playout(state)` finishes a determinized hand in play (the auction and the
call made) as the engine playout of the normal player does (`rollout.playout`
with `playout.NORMAL_PLAYOUT`): every seat plays `normal.best_card` (here
`fast_trumps.choose`, the same card) with the sides as that seat knows them
at the table (`playout.FullView`): the partner and a caller alone know
them, and everyone once the called card is played; until then the caller
takes each other seat for its partner with chance 1/4 and a defender each
other defender for a fellow defender with chance 2/3 (`Table.same_side`).
It returns the hand's score and each seat's card points, as
`state.outcome()` would give them, and the count of actions the engine
would have applied (the step budget); tests/test_hard.py checks all three
against the engine on random deals. The auction and the call stay on the
engine (`rollout.playout` runs them, then hands the play over here).
"""

from __future__ import annotations

from ..cards import SUITS
from ..games.chiamata import POINTS, STRENGTH, ChiamataState, unit
from ..state import State
from .endgame import answers
from .fast_trumps import best_of, choose, indices


def supports(state: State) -> bool:
    """True for Briscola Chiamata in play (the call made)."""
    return isinstance(state, ChiamataState) and state.phase == "play"


def playout(state: ChiamataState, solved: dict | None = None) -> tuple[tuple[list[int], list[int]], int]:
    """Finish the hand of full `state` with the normal player: ((each seat's
    score, each seat's card points), actions applied). `state` is left as
    it was; `solved` is not used (the signature of `briscola2.playout`)."""
    n = 5
    hands = [indices(h) for h in state.hands]
    trick = indices(state.trick)
    trump = SUITS.index(state.trump)
    beats = answers(trump, STRENGTH)
    captured = list(state.captured)
    won = list(state.won)
    leader, turn = state.leader, state.turn
    caller, partner = state.caller, state.partner
    assert caller is not None and state.called is not None  # (in play: the call made)
    called = state.called.index
    played = called in trick or any(state.called in t.cards for t in state.tricks)
    known, unknown = SIDES.get((caller, partner)) or SIDES.setdefault(
        (caller, partner), (known_sides(caller, partner), unknown_sides(caller))
    )
    in_hands = sum(len(h) for h in hands)
    steps = 0
    while True:
        seat = turn
        if played or seat == partner or (seat == caller and partner is None):
            friend = known[seat]
        else:
            friend = unknown[seat]
        tricks_left = (in_hands + len(trick) + n - 1) // n
        card = choose(seat, hands, trick, leader, trump, STRENGTH, POINTS, beats, friend, tricks_left, None)
        hands[seat].remove(card)
        in_hands -= 1
        steps += 1
        if card == called:
            played = True
        trick.append(card)
        if len(trick) < n:
            turn = (seat + 1) % n
            continue
        winner = (leader + best_of(trick, beats)[1]) % n
        captured[winner] += sum(POINTS[c] for c in trick)
        won[winner] += 1
        trick = []
        leader = turn = winner
        if not hands[winner]:
            return (score(state, captured, won), captured), steps


SIDES: dict = {}
"""(caller, partner) -> (`known_sides`, `unknown_sides`), made once."""


def known_sides(caller: int, partner: int | None) -> list[list[float]]:
    """`friend[me][s]` once `me` knows the sides (`Table.same_side`)."""
    member = [1.0 if s == caller or s == partner else 0.0 for s in range(5)]
    return [
        [1.0 if me == s else member[s] if member[me] == 1.0 else 1.0 - member[s] for s in range(5)] for me in range(5)
    ]


def unknown_sides(caller: int) -> list[list[float]]:
    """`friend[me][s]` before `me` knows who the partner is: the caller's
    partner is any other seat, a defender's fellow defenders any of the
    other three non-callers (`Table._side_membership` on a full state)."""
    rows = []
    for me in range(5):
        candidates = [s for s in range(5) if s not in (caller, me)]
        member = [0.0] * 5
        member[caller] = 1.0
        for s in candidates:
            member[s] = 1 / len(candidates)
        row = []
        for s in range(5):
            ma, mb = member[me], member[s]
            if me == s:
                row.append(1.0)
            elif ma in (0.0, 1.0):
                row.append(mb if ma == 1.0 else 1.0 - mb)
            elif mb in (0.0, 1.0):
                row.append(ma if mb == 1.0 else 1.0 - ma)
            else:
                row.append(1.0 - ma - mb)
        rows.append(row)
    return rows


def score(state: ChiamataState, captured: list[int], won: list[int]) -> list[int]:
    """The hand's score per seat (`ChiamataState._finish`)."""
    caller, partner = state.caller, state.partner
    assert caller is not None  # (in play: the call made)
    side = [caller] + ([partner] if partner is not None else [])
    side_points = sum(captured[s] for s in side)
    side_tricks = sum(won[s] for s in side)
    success = side_points >= state.target
    options = state.game.options
    doubled = side_points in (0, 120) if options["cappotto"] == "points" else side_tricks in (0, 8)
    multiplier = 2 if doubled else 1
    u = 1 if options["scoring"] == "flat" else unit(state.target)
    u *= multiplier if success else -multiplier
    out = [-u] * 5
    if partner is None:
        out[caller] = 4 * u
    else:
        out[caller] = 2 * u
        out[partner] = u
    return out
