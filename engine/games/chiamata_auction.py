"""A Briscola Chiamata hand until the play: the auction (ranks, or targets with
`auction: points`) and the call of the partner's card, with the two rule and what a
call says about the caller's hidden cards.

`AuctionState` holds the fields these phases share and their handlers; the game's
state, `ChiamataState` (chiamata.py), adds the play, what a seat may know and the
result (as calabresella_contract.py's `ContractState` does for Calabresella).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from ..cards import ALL_CARDS, BRISCOLA_ORDER, RANKS, SUITS, Card
from ..deal import Deal
from ..state import TERMINAL, Action, Claim, IllegalAction, Refusal, Rules, State

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


class AuctionState(State):
    """A Chiamata hand's auction and call: who bid what, who called which card, and (as far
    as this state knows) who the partner is."""

    SECRET_PARTNER = True
    """Only the holder of the called card knows it is the caller's partner, until the card is played."""

    FIELDS = ("passed", "bidder", "rank", "target", "caller", "called", "trump", "partner", "partner_known", "redeal")

    def __init__(self, game: Rules, dealer: int, deal: Deal, viewer: int | None = None):
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

    def _clone_extra(self, state: AuctionState) -> None:
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
