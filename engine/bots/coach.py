"""The coach (issue 24): what the hard player would do at a decision, and
what each legal choice is worth, for the table's `h` and the review of a
hand (`briscola review`, the summary's `r`).

`advise(view, rng)` asks the hard player (`engine.bots.hard`) for its move,
then estimates every legal choice on the *same* determinizations (common
random numbers, as hard compares its root moves): for each sample of the
seat's view (`engine.determinize.Determinizer`), every choice is applied to
its own copy of the sampled state and the hand is finished by the normal
player (`playout.NORMAL_PLAYOUT`, on card indices where hard's playouts run
on them, with Briscola for two's exact finish of the last tricks). `hint`
is `advise` for the table's `h`, hard's search cut to answer within a
second. Read per choice: the seat's side's card points (thirds in
Calabresella), the share of playouts the side wins the hand, and the score.
A choice's difference to hard's choice is paired deal by deal, so its
standard error leaves out most of the luck of the deal.

`review(decisions, ...)` keeps a seat's decisions of a hand where hard's
choice beat the player's by a clear margin (more than `MARGIN_SE` standard
errors and `MARGIN` points or thirds): what `advise` at each decision would
find, with hard asked only where some choice beats the player's by that
margin on the samples. A decision where the player chose what hard chooses
is never listed. `seat_decisions` rebuilds a seat's decisions from a fully known
deal and the hand's actions (the audited deal of a transcript).

Reads only the seat's view; no briscola_tui import (engine layer).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from random import Random

from ..deal import Deal
from ..determinize import Determinizer, Inconsistent, state_of
from ..games.briscola import BriscolaState
from ..games.calabresella import CalabresellaState
from ..games.chiamata import ChiamataState
from ..state import CHANCE, TERMINAL, Action, Rules, State
from ..view import as_seen
from . import StateView, hard
from .narrowing import WIDE, discard_candidates, thin_bids, thin_calls
from .playout import NORMAL_PLAYOUT
from .rewards import Final
from .rollout import fast_module, fast_playout, finisher, playout
from .stateview import Player, View, seat_of

SAMPLES = 48
"""At most this many determinizations per advice (each choice is played on every one)."""
PLAY_BUDGET = 12000
"""At most this many simulated plays per advice, over all choices and samples (the
samples are cut to fit: a wide choice early in a long hand gets fewer)."""
MIN_SAMPLES = 8
"""Never fewer samples than this."""
MARGIN_SE = 2.0
"""A review lists a decision whose cost is more than this many standard errors..."""
MARGIN = {"point": 4.0, "third": 1.5}
"""...and more than this many points (thirds in Calabresella)."""
HARD = hard.make_player(seconds=None)
"""The hard player at its default budget, without the wall-clock safety net: the same
rng gives the same move however loaded the machine (the review is reproducible)."""
HINT_SECONDS = 0.6
"""The hint's hard player ends its search after this long (wall clock) if its budget has
not ended it before: only the dearest decisions come near (a Chiamata bid, whose
playouts bid on the engine), and the choices are then estimated within the second a
player waits for a hint at most."""
HINT = hard.make_player(seconds=HINT_SECONDS)
HINT_TRIALS_SECONDS = 0.3
"""... and the hint's estimates stop sampling after this long (wall clock), `MIN_SAMPLES`
at least: again only the dearest decisions come near (the bids of Chiamata, each
played out through the rest of the auction on the engine)."""


@dataclass(frozen=True)
class Estimate:
    """One legal choice, over the advice's samples."""

    action: Action
    points: float  # the seat's side's card points at the end of the hand (thirds: Calabresella)
    win: float  # the share of playouts the side wins the hand (0..1)
    score: float  # the seat's mean score change for the hand
    diff: float  # points minus hard's choice's points, paired sample by sample
    se: float  # the standard error of `diff` (0 for hard's own choice)


@dataclass(frozen=True)
class Advice:
    choice: Action  # what hard plays
    estimates: tuple[Estimate, ...]  # every choice compared, best points first (hard's among them)
    samples: int
    unit: str  # "point" or "third"

    def of(self, action: Action) -> Estimate | None:
        return next((e for e in self.estimates if _same(e.action, action)), None)


@dataclass(frozen=True)
class Finding:
    """A decision where hard's choice was clearly better."""

    decision: int  # the seat's decision of the hand, from 1
    trick: int  # the trick it was in, from 1 (0: before the play, an auction or a discard)
    phase: str
    played: Estimate
    best: Estimate  # hard's choice
    cost: float  # points (or thirds) hard's choice is worth more
    se: float


@dataclass(frozen=True)
class Review:
    seat: int
    decisions: int  # the seat's decisions looked at (a choice of one is not one)
    findings: tuple[Finding, ...]
    unit: str


def unit_of(state: State) -> str:
    return "third" if isinstance(state, CalabresellaState) else "point"


def candidates(view: View, extra: Iterable[Action] = ()) -> list[Action]:
    """The choices the advice compares: every legal one, unless there are more than
    `WIDE` (a bid with targets, a call of any card, a discard): then hard's narrowing
    (`thinned`), with `extra` (the player's) added; hard's choice is added once known."""
    legal = view.legal
    state = state_of(view)
    if state.phase == "discard":
        listed = discard_candidates(state, Random(0))
    elif len(legal) <= WIDE:
        listed = list(legal)
    elif state.phase == "call":
        listed = thin_calls(state, list(legal))
    else:
        listed = thin_bids(list(legal))
    out: list[Action] = []
    for action in (*extra, *listed):
        if not any(_same(action, a) for a in out):
            out.append(action)
    return out


def thinned(view: View) -> bool:
    """Whether `candidates` leaves some legal choices out."""
    return state_of(view).phase == "discard" or len(view.legal) > WIDE


def advise(
    view: View,
    rng: Random,
    samples: int = SAMPLES,
    budget: int = PLAY_BUDGET,
    player: Player = HARD,
    extra: Iterable[Action] = (),
    seconds: float | None = None,
) -> Advice:
    """Hard's move at `view` (its seat to act) and an estimate of every choice (`seconds`:
    the estimates stop sampling after this long, `MIN_SAMPLES` done)."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to decide now")
    trials = Trials(view, sampling_seed(rng), samples, budget, extra, seconds)
    choice = player(view, rng) if len(legal) > 1 else legal[0]
    return trials.advice(choice)


def hint(view: View, rng: Random) -> Advice:
    """The table's `h`: `advise` with `HINT`, within a second."""
    return advise(view, rng, player=HINT, seconds=HINT_TRIALS_SECONDS)


def sampling_seed(rng: Random) -> int:
    """The seed of an advice's determinizations, drawn from a copy of `rng`: hard's move
    takes `rng` as it was given (a hand played by hard with these seeds reviews to
    nothing), and the choices are estimated on other samples than hard chose on."""
    copy = Random()
    copy.setstate(rng.getstate())
    return copy.getrandbits(64)


class Trials:
    """Every choice the advice compares (`candidates`, before hard's move is known),
    played out on the same determinizations: a row per choice of (points, win, score)
    per sample. A choice not among them (hard's, where the choices are thinned) is
    played on the same samples when asked for (`row`)."""

    def __init__(
        self, view: View, seed: int, samples: int, budget: int, extra: Iterable[Action], seconds: float | None = None
    ) -> None:
        self.view, self.seed = view, seed
        self.solved: dict = {}  # the exact finishes searched, shared by the samples (as in hard)
        self.unit = unit_of(state_of(view))
        self.actions = candidates(view, extra)
        left = _plays_left(state_of(view))
        self.n = max(MIN_SAMPLES, min(samples, budget // max(1, left * len(self.actions))))
        self.rows = self._play(self.actions, seconds)

    def _play(self, actions: list[Action], seconds: float | None = None) -> list[list[tuple[float, float, float]]]:
        """Each of `actions` played out on the samples (`seconds`: fewer samples, `MIN_SAMPLES`
        at least, if they take longer; `n` then says how many were played)."""
        rows: list[list[tuple[float, float, float]]] = [[] for _ in actions]
        try:
            determinizer = Determinizer(self.view)
        except Inconsistent:  # not a view the engine built: nothing to simulate
            self.n = 0
            return rows
        rng = Random(self.seed)
        end = None if seconds is None else time.perf_counter() + seconds
        for k in range(self.n):
            if end is not None and k >= MIN_SAMPLES and time.perf_counter() > end:
                self.n = k
                break
            full = determinizer.sample(rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(actions):
                sim = full.clone()
                sim.apply(action)
                rows[i].append(self._finish(sim, Random(seed)))
        return rows

    def _finish(self, sim: State, rng: Random) -> tuple[float, float, float]:
        """The hand of `sim` finished by the normal player, read for the seat: on card
        indices where hard's playouts run on them (`fast_playout`), else on the engine."""
        seat, game = seat_of(self.view), sim.game
        module = fast_module(game, sim)
        if module is None:
            return _read(sim, seat, playout(sim, rng, NORMAL_PLAYOUT, finisher(game)))

        def read(
            state: State, totals: Sequence[int] | None = None, final: Final | None = None
        ) -> tuple[float, float, float]:
            return _read(state, seat, totals, final)

        return fast_playout(sim, rng, NORMAL_PLAYOUT, module, read, self.solved)[0]

    def row(self, action: Action) -> list[tuple[float, float, float]]:
        for listed, row in zip(self.actions, self.rows):
            if _same(listed, action):
                return row
        self.actions.append(action)
        self.rows.append(self._play([action])[0])
        return self.rows[-1]

    def beaten(self, played: Action) -> bool:
        """Whether some choice beats `played` by the review's margin, points and standard
        errors (if none does, hard's choice cannot: it is among them, or the choices were
        thinned and hard must be asked)."""
        mine = [r[0] for r in self.row(played)]
        if thinned(self.view):
            return True
        for row in self.rows:
            diffs = [r[0] - m for r, m in zip(row, mine)]
            cost = _mean(diffs)
            if cost > MARGIN[self.unit] and cost > MARGIN_SE * _se(diffs):
                return True
        return False

    def advice(self, choice: Action) -> Advice:
        """The estimates, each paired with hard's `choice`, best points first."""
        base = [r[0] for r in self.row(choice)]
        estimates = []
        for action, row in zip(self.actions, self.rows):
            points = [r[0] for r in row]
            diffs = [p - b for p, b in zip(points, base)]
            estimates.append(
                Estimate(
                    action,
                    _mean(points),
                    _mean([r[1] for r in row]),
                    _mean([r[2] for r in row]),
                    _mean(diffs),
                    _se(diffs),
                )
            )
        estimates.sort(key=lambda e: (-e.points, -e.win))
        return Advice(choice, tuple(estimates), self.n, self.unit)


def review(
    decisions: Iterable[tuple[View, Action]],
    seat: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    found: Callable[[Finding], None] | None = None,
    samples: int = SAMPLES,
    budget: int = PLAY_BUDGET,
    player: Player = HARD,
) -> Review:
    """The seat's decisions (view before, action taken) where hard's choice was
    clearly better. Decision i (from 0) is advised with `Random(decision_seed(seed, i))`,
    so a hand played with those moves lists nothing. `progress(i, n)` before each,
    `found(finding)` as soon as one is known.

    Every decision's choices are played out first (`Trials`); hard is asked only where a
    choice beats the player's by the margin on those samples (`Trials.beaten`): elsewhere
    its choice could not, so the review is the one every decision's full advice would
    give, at a fraction of the CPU. It is asked where the samples show a clear loss
    first, then where the choices were thinned (an auction, a discard), so that the
    first finding comes early; the findings are listed in the hand's order."""
    listed = [(v, a) for v, a in decisions if len(v.legal) > 1]
    unit = unit_of(state_of(listed[0][0])) if listed else "point"
    doubtful: list[tuple[int, Trials]] = []
    for i, (view, action) in enumerate(listed):
        if progress is not None:
            progress(i + 1, len(listed))
        trials = Trials(view, sampling_seed(Random(decision_seed(seed, i))), samples, budget, (action,))
        if trials.beaten(action):
            doubtful.append((i, trials))
    findings = []
    for i, trials in sorted(doubtful, key=lambda d: thinned(d[1].view)):
        view, action = listed[i]
        finding = finding_of(i, view, action, trials.advice(player(view, Random(decision_seed(seed, i)))))
        if finding is not None:
            findings.append(finding)
            if found is not None:
                found(finding)
    return Review(seat, len(listed), tuple(sorted(findings, key=lambda f: f.decision)), unit)


def finding_of(i: int, view: View, action: Action, advice: Advice) -> Finding | None:
    """Decision `i`'s finding, if hard's choice beat `action` clearly."""
    if _same(advice.choice, action):
        return None
    played, best = advice.of(action), advice.of(advice.choice)
    assert played is not None and best is not None  # both were compared
    cost, se = best.points - played.points, played.se
    if not (cost > MARGIN[advice.unit] and cost > MARGIN_SE * se):
        return None
    state = state_of(view)
    trick = len(state.tricks) + 1 if state.phase == "play" else 0
    return Finding(i + 1, trick, state.phase, played, best, cost, se)


def decision_seed(seed: int, index: int) -> int:
    """The seed of a review's decision `index` (from 0, among the choices of more than one)."""
    return seed * 1_000_003 + index


def seat_decisions(
    game: Rules, dealer: int, deal: Deal, actions: Iterable[Action], seat: int
) -> list[tuple[StateView, Action]]:
    """The seat's decisions of a hand played from a fully known `deal` with `actions`
    (the players' actions, in order; chance is dealt from the deal): each as (the
    seat's view just before, the action it took)."""
    full = game.new_hand(dealer, deal)
    public = bool(game.options.get("open_hands"))
    view = game.new_hand(dealer, deal.redact(seat, public_hands=public), viewer=seat)
    out: list[tuple[StateView, Action]] = []

    def step(action: Action) -> None:
        need = full.need() if action.seat == CHANCE else None
        full.apply(action)
        view.apply(as_seen(action, need, seat))

    for action in actions:
        while full.current_player() == CHANCE:
            step(full.chance_outcome())
        if action.seat == seat:
            out.append((StateView(view, seat), action))
        step(action)
    return out


# --- reading a playout ------------------------------------------------------------


def _read(
    state: State,
    seat: int,
    totals: Sequence[int] | None = None,
    final: tuple[list[int] | None, list[int]] | None = None,
) -> tuple[float, float, float]:
    """(the side's points, 1 if it won the hand else 0 (a draw 0.5), the seat's score), of
    a hand finished: `state` final, or `totals` (Briscola for two's side points, from the
    exact finish or a playout on numbers) or `final` ((each seat's score, each seat's
    points) of a playout on numbers, engine/bots/fast_*.py) given."""
    if totals is not None:
        mine, theirs = totals[seat], totals[1 - seat]
        won = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        return float(mine), won, (1.0 if won == 1.0 else -1.0 if won == 0.0 else 0.0)
    if final is None:
        assert state.current_player() == TERMINAL
        out = state.outcome()
        final = (out.score, out.points)
    scores, seat_points = final
    side = _side(state, seat)
    points = float(sum(seat_points[s] for s in side))
    score = float(scores[seat]) if scores else 0.0
    if isinstance(state, BriscolaState):
        others = [s for s in range(state.n) if s not in side]
        theirs = max(sum(seat_points[s] for s in group) for group in _groups(state, others))
        won = 1.0 if points > theirs else 0.5 if points == theirs else 0.0
    else:
        won = 1.0 if score > 0 else 0.0
    return points, won, score


def _side(state: State, seat: int) -> list[int]:
    if isinstance(state, ChiamataState) and state.caller is not None:
        side = list(state.side())
        return side if seat in side else [s for s in range(state.n) if s not in side]
    if isinstance(state, CalabresellaState) and state.soloist is not None:
        if seat == state.soloist:
            return [seat]
        return [s for s in range(state.n) if s != state.soloist]
    for group in state.game.sides():
        if seat in group:
            return list(group)
    return [seat]


def _groups(state: State, seats: list[int]) -> list[list[int]]:
    """The sides among `seats` (Briscola for three: each alone)."""
    groups = [[s for s in g if s in seats] for g in state.game.sides()]
    return [g for g in groups if g]


def _plays_left(state: State) -> int:
    stock = state.pile_left() if isinstance(state, BriscolaState) else 0
    return max(1, stock + sum(state.hand_size(s) for s in range(state.n)))


def _same(a: Action, b: Action) -> bool:
    return hard.as_listed(a, (b,)) is not None


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _se(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
