"""Briscola Chiamata: five players, an auction, a secret called partner. The auction and
the call are chiamata_auction.py's; here the game, the play and the result."""

from __future__ import annotations

from typing import NoReturn

from ..cards import ALL_CARDS, BRISCOLA_ORDER, BRISCOLA_POINTS, Card, points_table, strength_table
from ..deal import Deal, DealPlan, packets
from ..facts import NO_RESULT, REDEAL, Placed, PlayView, Result, Role, Roles, Side
from ..game import Game
from ..rng import Rng
from ..state import PLAYS, TERMINAL, Action, IllegalAction, play_actions
from ..tricks import played_by
from . import GAMES
from .chiamata_auction import CALLS, AuctionState
from .chiamata_facts import ChiamataObservation, ChiamataResult, ChiamataSoFar, play_sides, result_from_json

STRENGTH = strength_table(BRISCOLA_ORDER)
POINTS = points_table(BRISCOLA_POINTS)


def unit(target: int) -> int:
    """Scoring unit by target: 61-70 -> 1, 71-80 -> 2, 81-90 -> 3, 91-100 -> 4, 101-120 -> 5."""
    return min(5, max(1, (target - 51) // 10))


class Chiamata(Game):
    name = GAMES["chiamata"].name
    PLAYERS = GAMES["chiamata"].players
    OPTIONS = {
        "auction": ("rank", "points"),
        "call": ("exact", "at_least"),
        "scoring": ("units", "flat"),
        "cappotto": ("tricks", "points"),
    }
    INT_OPTIONS = {"series_hands": (10, 1, 100), "series_target": (0, 0, 1000)}
    """A series is `series_hands` scored hands, or, when `series_target` is
    above 0, lasts until someone reaches that score."""
    ACTIONS = {"pass": (), "bid": ("rank", "target"), "call": ("card",), "play": ("card",)}
    RESULT_KEYS = ("caller", "partner", "trump", "called", "target", "side_points", "success", "multiplier")
    REDEAL_KEEPS_DEALER = True
    """All passed: the same dealer deals again."""

    def result_from_json(self, data: dict) -> Result:
        return result_from_json(data)

    @classmethod
    def sides_in_play(cls, view: PlayView) -> tuple[Side, ...]:
        return play_sides(view)

    def deck(self) -> list[Card]:
        return list(ALL_CARDS)

    def plan(self, dealer: int) -> DealPlan:
        """4 cards at a time, twice round: 8 each, nothing left."""
        plan = self._plans.get(dealer)
        if plan is None:
            plan = self._plans[dealer] = DealPlan(40, tuple(map(tuple, packets(5, dealer, [4, 4]))))
        return plan

    def new_hand(self, dealer: int, deal: Deal, viewer: int | None = None) -> ChiamataState:
        return ChiamataState(self, dealer, deal, viewer)

    def series_over(self, scores: list[int], hands_scored: int) -> bool:
        """`series_hands` scored hands, or until someone reaches `series_target`."""
        target = self.options["series_target"]
        if target:
            return max(scores) >= target
        return hands_scored >= self.options["series_hands"]


class ChiamataState(AuctionState):
    """A Chiamata hand: the auction and the call (`AuctionState`), then the play."""

    game: Chiamata
    HANDLERS = {"bid": "_bid", "pass": "_pass", "call": "_call", "play": "_play"}
    PHASE_KINDS = {"auction": ("bid", "pass"), "call": ("call",), "play": ("play",)}

    # --- play ---------------------------------------------------------------

    def _play(self, action: Action) -> None:
        seat, card = action.seat, action.card
        if card is None:
            raise IllegalAction("play needs a card")
        try:
            self.hands[seat].remove(card)  # `_take_card`, its usual case inline
        except ValueError:
            self._take_card(seat, card)
        if card is self.called:
            self.partner = None if seat == self.caller else seat
            self.partner_known = True
        trick = self.trick
        trick.append(card)
        if len(trick) < 5:  # the trick goes on
            self.turn = seat + 1 if seat < 4 else 0
            return
        winner = self._close_trick(STRENGTH, self.trump, POINTS)
        if not self.hands[winner] and not self.unknown[winner]:
            self.phase = "done"
            self.turn = TERMINAL
        else:
            self.turn = winner

    def legal_actions(self) -> list[Action]:
        seat = self.turn
        if seat == TERMINAL:
            return []
        if self.phase == "auction":
            return list(self._speak())
        if self.phase == "call":
            calls = CALLS[seat]
            return [calls[c.index] for c in self._callable() if self._call_ok(c) is None]
        return play_actions(seat, self.hands[seat])

    def random_legal(self, rng: Rng) -> Action:
        """As `State.random_legal`; in play a card is drawn straight from the hand,
        in the auction a choice from the table of them."""
        seat = self.turn
        phase = self.phase
        if phase == "play":
            hand = self.hands[seat]
            if hand:
                return PLAYS[seat][rng.choice(hand).index]
        elif phase == "auction" and seat >= 0:
            return rng.choice(self._speak())
        return super().random_legal(rng)

    def need(self) -> NoReturn:
        raise IllegalAction("Briscola Chiamata deals every card at the start")

    def chance_outcome(self) -> Action:
        return self.need()

    # --- what a seat may know -----------------------------------------------

    def roles(self) -> Roles:
        """The dealer; the caller once the auction is over; the called card's holder once it is
        played (the partner, or the caller alone: a secret until then)."""
        roles = dict(super().roles())
        caller = self.caller
        if caller is not None and self.phase != "auction":
            roles[caller] = (*roles.get(caller, ()), Role.CALLER)
        holder = played_by(self.tricks, self.trick, self.leader, 5, self.called)
        if holder is not None and caller is not None:
            role = Role.ALONE if holder == caller else Role.PARTNER
            roles[holder] = (*roles.get(holder, ()), role)
        return roles

    def placed(self) -> Placed:
        return Placed(fields=(self.trump, self.called, self.caller))

    def observe(self) -> ChiamataObservation:
        """Trump and the card called; the caller's partner only once this view can tell it."""
        known = self.partner_known
        caller = self.caller if self.phase != "auction" else None
        partner = self.partner if known else None
        alone = known and self.called is not None and partner is None
        return ChiamataObservation(
            self.roles(), self.trump, called=self.called, caller=caller, partner=partner, alone=alone
        )

    # --- result -------------------------------------------------------------

    def side(self) -> list[int]:
        assert self.caller is not None  # the auction had a caller
        return [self.caller] + ([self.partner] if self.partner is not None else [])

    def _result_so_far(self) -> Result:
        if self.called is None:
            return NO_RESULT
        assert self.caller is not None and self.trump is not None  # a card is called
        return ChiamataSoFar(self.caller, self.partner, self.partner_known, self.trump, self.called, self.target)

    def _finish(self) -> tuple[Result, list[int]]:
        if self.redeal:
            return REDEAL, [0] * 5
        assert self.caller is not None  # not redealt: the auction had a caller
        side = self.side()
        side_points = sum(self.captured[s] for s in side)
        side_tricks = sum(self.won[s] for s in side)
        success = side_points >= self.target
        if self.game.options["cappotto"] == "points":
            doubled = side_points in (0, 120)
        else:
            doubled = side_tricks in (0, 8)
        multiplier = 2 if doubled else 1
        u = 1 if self.game.options["scoring"] == "flat" else unit(self.target)
        u *= multiplier if success else -multiplier
        score = [-u] * 5
        if self.partner is None:
            score[self.caller] = 4 * u
        else:
            score[self.caller] = 2 * u
            score[self.partner] = u
        assert self.trump is not None and self.called is not None  # played out: a card was called
        result = ChiamataResult(
            self.caller, self.partner, self.trump, self.called, self.target, side_points, success, multiplier
        )
        return result, score
