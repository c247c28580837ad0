"""Briscola Chiamata: five players, an auction, a secret called partner."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import NoReturn

from ..cards import ALL_CARDS, BRISCOLA_ORDER, BRISCOLA_POINTS, RANKS, SUITS, Card, points_table, strength_table
from ..deal import Deal, DealPlan, packets
from ..facts import NO_RESULT, REDEAL, Placed, PlayView, Result, Role, Roles, Side
from ..game import Game
from ..rng import Rng
from ..state import PLAYS, TERMINAL, Action, Claim, IllegalAction, Refusal, State, play_actions
from ..tricks import played_by
from . import GAMES
from .chiamata_facts import ChiamataObservation, ChiamataResult, ChiamataSoFar, play_sides, result_from_json

STRENGTH = strength_table(BRISCOLA_ORDER)
POINTS = points_table(BRISCOLA_POINTS)
ORDER = {rank: i for i, rank in enumerate(BRISCOLA_ORDER)}
"""Rank -> its place in the order, high to low (`BRISCOLA_ORDER.index`)."""
LOW_TO_HIGH = BRISCOLA_ORDER[::-1]
"""Trump order for the two rule: 2 < 4 < 5 < 6 < 7 < J < Q < K < 3 < A."""
RISING = {rank: i for i, rank in enumerate(LOW_TO_HIGH)}
"""Rank -> its place in `LOW_TO_HIGH`."""
CARD = {suit: {rank: Card(rank, suit) for rank in RANKS} for suit in SUITS}
"""`CARD[suit][rank]`: the card (what `Card(rank, suit)` finds, without its string work)."""
BY_INDEX = attrgetter("index")


# Every bid action, built once (legal_actions is hot in bots' playouts).
RANK_BIDS = tuple(tuple(Action(seat, "bid", rank=r) for r in BRISCOLA_ORDER) for seat in range(5))
TWO_BIDS = tuple(tuple(Action(seat, "bid", rank="2", target=t) for t in range(62, 121)) for seat in range(5))
POINT_BIDS = tuple(tuple(Action(seat, "bid", target=t) for t in range(61, 121)) for seat in range(5))
PASSES = tuple(Action(seat, "pass") for seat in range(5))
CALLS = tuple(tuple(Action(seat, "call", card=c) for c in ALL_CARDS) for seat in range(5))
"""`CALLS[seat][card.index]`: the call of each card."""
RANK_SPEAK = tuple(tuple((PASSES[s], *RANK_BIDS[s][k:]) for k in range(len(BRISCOLA_ORDER) + 1)) for s in range(5))
TWO_SPEAK = tuple(tuple((PASSES[s], *TWO_BIDS[s][k:]) for k in range(len(TWO_BIDS[s]) + 1)) for s in range(5))
POINT_SPEAK = tuple(tuple((PASSES[s], *POINT_BIDS[s][k:]) for k in range(len(POINT_BIDS[s]) + 1)) for s in range(5))
"""A seat's every choice in the auction, a pass then the bids still open (the
bids' tables from the k-th on), as `legal_actions` lists them."""
OF_RANKS = {
    ranks: tuple(c for c in ALL_CARDS if c.rank in ranks)
    for ranks in (*BRISCOLA_ORDER, *(BRISCOLA_ORDER[: k + 1] for k in range(len(BRISCOLA_ORDER))))
}
"""The cards of one rank, or of a rank and every higher one (a prefix of the order), in card order."""


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


class ChiamataState(State):
    game: Chiamata
    HANDLERS = {"bid": "_bid", "pass": "_pass", "call": "_call", "play": "_play"}
    PHASE_KINDS = {"auction": ("bid", "pass"), "call": ("call",), "play": ("play",)}
    SECRET_PARTNER = True
    """Only the holder of the called card knows it is the caller's partner, until the card is played."""

    FIELDS = ("passed", "bidder", "rank", "target", "caller", "called", "trump", "partner", "partner_known", "redeal")

    def __init__(self, game: Chiamata, dealer: int, deal: Deal, viewer: int | None = None):
        super().__init__(game, dealer, deal, viewer)
        self.phase = "auction"
        self.passed = [False] * 5
        self.bidder: int | None = None
        self.rank: str | None = None  # last rank bid (rank auction)
        self.target = 61
        self.caller: int | None = None
        self.called: Card | None = None
        self.trump: str | None = None
        self.partner: int | None = None
        self.partner_known = False
        self.redeal = False

    def _clone_extra(self, state: ChiamataState) -> None:
        state.passed = list(self.passed)

    # --- what a call says about hidden cards ------------------------------------

    def hidden_claim(self, action: Action) -> Claim | None:
        """A call under the two rule: the caller holds the 2 of trump and every trump below
        the called card, and not that card."""
        if action.kind != "call":
            return super().hidden_claim(action)
        facts = self.rule_facts(action)
        if not facts:
            return None
        lacks = tuple(card for fact, _, card in facts if fact == "lacks")
        holds = tuple(card for fact, _, card in facts if fact == "holds")
        return Claim("two rule", lacks, holds)

    def rule_facts(self, action: Action) -> list[tuple[str, int, Card]]:
        """A call that relies on the two rule (`two_rule`): the caller holds the 2 of the
        called suit and every lower trump, and does not hold the called card."""
        options, card, bid = self.game.options, action.card, self.rank
        if action.kind != "call" or options["auction"] == "points" or card is None or bid is None or card.rank == bid:
            return []
        if options["call"] == "at_least" and RISING[card.rank] > RISING[bid]:
            return []
        if bid != "2":
            return []  # refused by the rules: the replay says so
        caller = action.seat
        lower = LOW_TO_HIGH[: RISING[card.rank]]
        return [("lacks", caller, card)] + [("holds", caller, Card(rank, card.suit)) for rank in lower]

    # --- auction ------------------------------------------------------------

    def _speak(self) -> tuple[Action, ...]:
        """The auction's choices of the seat to speak: a pass, then every bid still open."""
        seat = self.turn
        if self.game.options["auction"] == "points":
            low = 61 if self.bidder is None else self.target + 1
            return POINT_SPEAK[seat][min(low - 61, 60)]
        if self.rank is None:
            return RANK_SPEAK[seat][0]
        if self.rank != "2":
            return RANK_SPEAK[seat][ORDER[self.rank] + 1]
        return TWO_SPEAK[seat][min(self.target + 1 - 62, 59)]

    def _bid(self, action: Action) -> None:
        if self.game.options["auction"] == "points":
            self.target = self._check_points_bid(action)
        else:
            self._check_rank_bid(action)
            self.rank = action.rank
            if action.target is not None:
                self.target = action.target
        self.bidder = action.seat
        if self.target == 120:
            self.passed = [s != action.seat for s in range(5)]
        self._next_speaker()

    def _check_points_bid(self, action: Action) -> int:
        """The target bid, once it is a legal one."""
        t = action.target
        if action.rank is not None or not isinstance(t, int) or isinstance(t, bool):
            raise IllegalAction("in the points auction a bid is a target from 61 to 120")
        low = 61 if self.bidder is None else self.target + 1
        if not low <= t <= 120:
            raise IllegalAction(f"a bid must be a target from {low} to 120, not {t}")
        return t

    def _check_rank_bid(self, action: Action) -> None:
        rank, target = action.rank, action.target
        if not isinstance(rank, str) or len(rank) != 1 or rank not in BRISCOLA_ORDER:
            raise IllegalAction(f"a bid names a rank (A 3 K Q J 7 6 5 4 2), not {rank!r}")
        if target is not None:
            if rank != "2" or self.rank != "2":
                raise IllegalAction("a target may be bid only with the 2, once the 2 has been bid")
            if isinstance(target, bool) or not isinstance(target, int) or not self.target < target <= 120:
                raise IllegalAction(f"a target must be above {self.target} and at most 120, not {target!r}")
            return
        if self.rank is not None and ORDER[rank] <= ORDER[self.rank]:
            if self.rank == "2":
                raise IllegalAction("after the 2 only '2 with a target' (62 to 120) may be bid")
            raise IllegalAction(f"each bid must be lower than the last: {rank} is not below {self.rank}")

    def _pass(self, action: Action) -> None:
        self.passed[action.seat] = True
        self._next_speaker()

    def _next_speaker(self) -> None:
        passed = self.passed
        left = passed.count(False)  # the seats still in the auction
        if not left:
            self.redeal = True
            self.phase = "done"
            self.turn = TERMINAL
            return
        bidder = self.bidder
        if left == 1 and bidder is not None and not passed[bidder]:
            self.caller = bidder
            self.phase = "call"
            self.turn = bidder
            return
        seat = self.turn
        for _ in range(5):
            seat = seat + 1 if seat < 4 else 0
            if not passed[seat]:
                break
        self.turn = seat

    # --- call ---------------------------------------------------------------

    def _call_ok(self, card: Card) -> Refusal | None:
        """None when the caller may call `card`, else the reason it may not."""
        options = self.game.options
        if options["auction"] == "points":
            return None
        bid = self.rank
        assert bid is not None  # the rank auction had a bid, or nobody would call
        if card.rank == bid:
            return None
        if options["call"] == "at_least" and ORDER[card.rank] < ORDER[bid]:
            return None
        if bid == "2":
            return self.two_rule(card)
        at_least = options["call"] == "at_least"
        rule = "the bid rank or higher" if at_least else "the last rank bid"
        text = f"the called card must be of {rule} ({bid}), not {card}"
        return Refusal("call_rank", text, card=card, rank=bid, at_least=at_least)

    def _callable(self) -> list[Card]:
        """The cards `_call_ok` may accept, in card order: of the bid rank (or
        higher, `call: at_least`) and, after a 2, the cards the two rule can
        name; any card in the points auction."""
        options = self.game.options
        bid = self.rank
        if options["auction"] == "points":
            return list(ALL_CARDS)
        assert bid is not None and self.caller is not None  # the rank auction had a bid and a caller
        ranks = BRISCOLA_ORDER[: ORDER[bid] + 1] if options["call"] == "at_least" else bid
        cards = list(OF_RANKS[ranks])
        if bid == "2":
            # Per suit whose 2 the caller may hold: each card up the order
            # 4 5 6 ... A while every lower one may be held, if not surely held.
            seat = self.caller
            holds = self._holder(seat)
            for suit in SUITS:
                of_suit = CARD[suit]
                if holds(seat, of_suit["2"]) is False:
                    continue
                for rank in LOW_TO_HIGH[1:]:
                    card = of_suit[rank]
                    held = holds(seat, card)
                    if held is not True:
                        cards.append(card)
                    if held is False:
                        break
            cards = sorted(set(cards), key=BY_INDEX)
        return cards

    def _holder(self, seat: int) -> Callable[[int, Card], bool | None]:
        """`_holds` for `seat`'s cards; when this state knows all of them, a set's test
        (held or not, for sure: what `_holds` says then, at less cost)."""
        if self.unknown[seat]:
            return self._holds
        hand = frozenset(self.hands[seat])
        return lambda _seat, card: card in hand

    def two_rule(self, card: Card) -> Refusal | None:
        """The two rule: holding the 2 of trump, call the lowest trump not held.
        None when the caller may call `card` after a bid of 2 as this state
        knows its hand, else the rule it breaks. A rule check a subclass may relax."""
        seat = self.caller
        assert seat is not None  # only the caller calls
        of_suit = CARD[card.suit]
        two = of_suit["2"]
        holds = self._holder(seat)
        if holds(seat, two) is False:
            text = f"{card} may be called only by a caller holding {two} (the two rule)"
            return Refusal("two_rule_two", text, seat=seat, card=card, cards=(two,))
        if holds(seat, card) is True:
            text = f"the two rule calls a trump the caller does not hold; the caller holds {card}"
            return Refusal("two_rule_held", text, seat=seat, card=card)
        for rank in LOW_TO_HIGH[: RISING[card.rank]]:
            if holds(seat, of_suit[rank]) is False:
                text = f"the two rule calls the lowest trump not held, which is below {card}"
                return Refusal("two_rule_lowest", text, seat=seat, card=card)
        return None

    def _call(self, action: Action) -> None:
        card = action.card
        if card is None:
            raise IllegalAction("call needs a card")
        reason = self._call_ok(card)
        if reason:
            raise IllegalAction.of(reason)
        self.called = card
        self.trump = card.suit
        for seat in range(5):
            if card in self.hands[seat]:
                self.partner = None if seat == self.caller else seat
                self.partner_known = True
        self.phase = "play"
        self.turn = self.leader = (self.dealer + 1) % 5

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
