"""Inference from what the other seats played: determinizations drawn in
proportion to how likely the others' recent card plays are under a model of
them (the normal player), not uniformly.

`Determinizer.sample` draws every deal consistent with the rules alike: a
seat that just ducked a rich trick is as likely to hold the master trump as
one that took it. `Inference.sample` draws a deal the same way, then replays
the hand with each other seat's own view of that deal and asks the model
what that seat would have played at each of its last `PLAYS` card plays.
A play the model makes too costs nothing; one it would not make keeps the
deal only with the chance `ratio(...)` (sequential rejection sampling). So a
deal is kept with a chance proportional to the likelihood of the observed
plays when the seat plays the model's card with probability `AGREEMENT`
(`LEAD_AGREEMENT` for a lead), and any other card uniformly: a soft model,
since real opponents are not the normal player. After `TRIES` rejected deals
the next one is kept as drawn.

Only the last plays are read: in Briscola the cards played long ago say
little about a hand renewed by the draws since, and every check costs a
call of the model. docs/bots.md gives what it costs and what it wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

from ..determinize import Determinizer, Sample, fingerprint
from ..state import CHANCE, Action, Need, State
from ..view import as_seen
from . import normal
from .stateview import Player, StateView

PLAYS = 3
"""The card plays of each other seat read, counting back from the present."""
AGREEMENT = 0.7
"""The modelled chance that a seat plays the model's card when it follows...
(the PPO agent of bench/ppo.py plays normal's card in 72% of its answers
with three cards in hand; docs/bots.md)"""
LEAD_AGREEMENT = 0.45
"""... and when it leads (the agent: 42% of its leads with three cards, not
much above the third of a random pick: a lead says little)."""
TRIES = 8
"""Deals that may be rejected before one is kept as drawn."""
WATCH_STEPS = 4
"""What one action of a checked replay costs, counted in the search's steps
(a step of the playouts on numbers): the action applied to the full state
and to the watched views, about four such steps of CPU in Briscola for two."""


class Rejected(Exception):
    """The deal being replayed is dropped (a private signal of `Inference`)."""


class Inference:
    """Samples full states from `determinizer`, weighted by the model's
    likelihood of the other seats' last card plays (module doc). `spent`
    counts the steps its checks cost, for the search's budget."""

    def __init__(
        self,
        determinizer: Determinizer,
        model: Player = normal.play,
        plays: int = PLAYS,
        agreement: float = AGREEMENT,
        lead_agreement: float = LEAD_AGREEMENT,
        tries: int = TRIES,
    ):
        self.determinizer = determinizer
        self.game = determinizer.game
        self.model = model
        self.tries = tries
        self.checks = checked_plays(determinizer.history, determinizer.seat, plays)
        self.last = max(self.checks, default=-1)
        self.watched = sorted({determinizer.history[t].seat for t in self.checks})
        self.agreement = agreement
        self.lead_agreement = lead_agreement
        self.spent = 0
        self.answers: dict = {}  # the model's play by the seat's view (a seat of many deals holds the same cards)

    def sample(self, rng: Random) -> State:
        """A full state at the view's point, the deal drawn as the module doc says."""
        return self.draw(rng)[1]

    def draw(self, rng: Random) -> tuple[Sample, State]:
        """(the deal kept, the full state it gives at the view's point)."""
        for _ in range(self.tries):
            deal = self.determinizer.sample_deal(rng)
            try:
                return deal, self.determinizer.replay(deal, watch=self._watcher(deal, rng))
            except Rejected:
                continue
        deal = self.determinizer.sample_deal(rng)
        return deal, self.determinizer.replay(deal)

    def _watcher(self, deal: Sample, rng: Random) -> Callable[[int, Action, Need | None], None] | None:
        """`Determinizer.replay`'s watch: the watched seats' views kept in step,
        each checked play compared with the model's, the deal rejected with
        the chance 1 - `ratio(n)` at each play the model would not make."""
        if not self.checks:
            return None
        game, dealer = self.game, self.determinizer.dealer
        public = bool(game.options.get("open_hands"))
        views = {s: game.new_hand(dealer, deal.deal.redact(s, public_hands=public), viewer=s) for s in self.watched}
        model_rng = Random(0)

        def watch(t: int, action: Action, need: Need | None) -> None:
            self.spent += WATCH_STEPS
            if t in self.checks:
                view = views[action.seat]
                key = (t, fingerprint(view))
                choice = self.answers.get(key)
                if choice is None:
                    choice = self.answers[key] = self.model(StateView(view, action.seat), model_rng)
                agreement = self.agreement if view.trick else self.lead_agreement
                if choice != action and rng.random() >= ratio(agreement, view.hand_size(action.seat)):
                    raise Rejected
            if t >= self.last:
                return  # nothing left to check: the views need not follow
            for seat, view in views.items():
                view.apply(as_seen(action, need, seat))

        return watch


def ratio(agreement: float, cards: int) -> float:
    """The likelihood of a play the model would not make over that of its
    own, a seat holding `cards` cards: (1 - a) / (cards - 1) over a."""
    if cards <= 1:
        return 1.0
    return (1.0 - agreement) / (cards - 1) / agreement


def checked_plays(history: Sequence[Action], seat: int | None, plays: int) -> set[int]:
    """The indices in `history` of the last `plays` card plays of each seat
    other than `seat`."""
    counts: dict[int, int] = {}
    checks: set[int] = set()
    for t in range(len(history) - 1, -1, -1):
        action = history[t]
        if action.seat in (seat, CHANCE) or action.kind != "play":
            continue
        if counts.get(action.seat, 0) < plays:
            counts[action.seat] = counts.get(action.seat, 0) + 1
            checks.add(t)
    return checks
