"""Calabresella (Terziglio): three players, Tressette ranks, the monte, no trumps."""

from __future__ import annotations

from itertools import combinations

from ..cards import ALL_CARDS, THIRDS, TRESSETTE_ORDER, Card, points_table, strength_table
from ..deal import Deal, DealPlan, packets
from ..facts import NO_RESULT, REDEAL, PlayView, Result, Side
from ..game import Game
from ..rng import Rng
from ..state import CHANCE, PLAYS, PUBLIC, TERMINAL, Action, IllegalAction, Need, Refusal, play_actions
from . import GAMES
from .calabresella_contract import CONTRACTS as CONTRACTS
from .calabresella_contract import RAISES as RAISES
from .calabresella_contract import ContractState
from .calabresella_facts import CalabresellaSoFar, play_sides, result_from_json
from .calabresella_score import CARD_THIRDS as CARD_THIRDS
from .calabresella_score import LAST_TRICK as LAST_TRICK
from .calabresella_score import NEEDED as NEEDED
from .calabresella_score import PRICE as PRICE
from .calabresella_score import settle

STRENGTH = strength_table(TRESSETTE_ORDER)
VALUE = points_table(THIRDS)
# The seats' actions, built once (legal_actions is hot in bots' playouts).
SPEAK = tuple(
    tuple((Action(s, "pass"), *(Action(s, "bid", contract=c) for c in CONTRACTS[k:])) for k in range(4))
    for s in range(3)
)
"""`SPEAK[seat][k]`: a pass, then the bids above the k-th contract (0: none bid yet)."""
CALLS = tuple(tuple(Action(s, "call", card=c) for c in ALL_CARDS) for s in range(3))
RETURNS = tuple(tuple(Action(s, "return", card=c) for c in ALL_CARDS) for s in range(3))
RAISE_ACTIONS = tuple(tuple(Action(s, "raise", choice=r) for r in RAISES) for s in range(3))


class Calabresella(Game):
    name = GAMES["calabresella"].name
    PLAYERS = GAMES["calabresella"].players
    OPTIONS: dict[str, tuple] = {}
    INT_OPTIONS = {"series_hands": (9, 1, 100)}
    POINT_UNIT = GAMES["calabresella"].point_unit
    ACTIONS = {
        "pass": (),
        "bid": ("contract",),
        "call": ("card",),
        "return": ("card",),
        "discard": ("cards",),
        "raise": ("raise",),
        "take": ("cards",),
        "play": ("card",),
    }
    DEAL_KEYS = {"monte": "monte"}
    RESULT_KEYS = ("soloist", "contract", "raise", "soloist_thirds", "success", "multiplier")

    def result_from_json(self, data: dict) -> Result:
        return result_from_json(data)

    @classmethod
    def sides_in_play(cls, view: PlayView) -> tuple[Side, ...]:
        return play_sides(view)

    def deck(self) -> list[Card]:
        return list(ALL_CARDS)

    def plan(self, dealer: int) -> DealPlan:
        """Packets of 4, three times round: 12 each; the last 4 are the monte."""
        plan = self._plans.get(dealer)
        if plan is None:
            hands = packets(3, dealer, [4, 4, 4])
            plan = self._plans[dealer] = DealPlan(40, tuple(map(tuple, hands)), monte=(36, 37, 38, 39))
        return plan

    def new_hand(self, dealer: int, deal: Deal, viewer: int | None = None) -> CalabresellaState:
        return CalabresellaState(self, dealer, deal, viewer)

    def series_over(self, scores: list[int], hands_scored: int) -> bool:
        """`series_hands` scored hands (all passed: the next dealer deals, not counted)."""
        return hands_scored >= self.options["series_hands"]


class CalabresellaState(ContractState):
    """A hand of Calabresella: the auction, the play and the result, over the contract's
    phases (`ContractState`, calabresella_contract.py)."""

    game: Calabresella
    HANDLERS = {
        "bid": "_bid",
        "pass": "_pass",
        "call": "_call",
        "return": "_return",
        "discard": "_discard",
        "raise": "_raise",
        "take": "_take",
        "play": "_play",
        "handover": "_handover",
        "monte": "_show_monte",
        "dividete": "_divide",
    }
    PHASE_KINDS = {
        "auction": ("bid", "pass"),
        "call": ("call",),
        "handover": ("handover",),
        "monte": ("monte",),
        "return": ("return",),
        "discard": ("discard",),
        "raise": ("raise",),
        "dividete": ("dividete",),
        "take": ("take",),
        "play": ("play",),
    }

    MUST_FOLLOW = True
    POINT_UNIT = GAMES["calabresella"].point_unit  # (the registry says it, for whoever reads no rules)

    FIELDS = ("spoken", "redeal")

    def __init__(self, game: Calabresella, dealer: int, deal: Deal, viewer: int | None = None):
        super().__init__(game, dealer, deal, viewer)
        self.phase = "auction"
        self.spoken = 0
        self.redeal = False

    # --- auction ------------------------------------------------------------

    def _bid(self, action: Action) -> None:
        contract = action.contract
        if contract not in CONTRACTS:
            raise IllegalAction(f"a bid is chiamo, solo or solissimo, not {contract!r}")
        if self.contract is not None and CONTRACTS.index(contract) <= CONTRACTS.index(self.contract):
            raise IllegalAction(f"a bid must be higher than {self.contract}")
        self.contract = contract
        self.soloist = action.seat
        self._spoke(ends=contract == "solissimo")

    def _pass(self, action: Action) -> None:
        self._spoke(ends=False)

    def _spoke(self, ends: bool) -> None:
        self.spoken += 1
        if not ends and self.spoken < 3:
            self.turn = (self.turn + 1) % 3
            return
        if self.soloist is None:
            self.redeal = True
            self._end()
        elif self.contract == "chiamo":
            self._next("call", self.soloist)
        elif self.contract == "solo":
            self._next("monte", CHANCE)
        else:
            self._next("raise", self.soloist)

    # --- play ---------------------------------------------------------------

    def follow_suit_rule(self, seat: int, card: Card) -> Refusal | None:
        """The follow-suit rule: None when `seat` may play `card` into the trick
        as this state knows its hand, else the rule it breaks (a card of the
        suit led is known to be in the hand). A rule check a subclass may relax."""
        if self.trick:
            led = self.trick[0].suit
            if card.suit != led:
                for held in self.hands[seat]:
                    if held.suit == led:
                        text = f"must follow suit: seat {seat} holds a card of the suit led ({led})"
                        return Refusal("follow_suit", text, seat=seat, card=card, suit=led)
        return None

    def _play(self, action: Action) -> None:
        seat, card = action.seat, action.card
        if card is None:
            raise IllegalAction("play needs a card")
        trick = self.trick
        if self._RULE_HOOKED or (trick and card.suit != trick[0].suit):  # the base rule passes a lead, a follow
            reason = self.follow_suit_rule(seat, card)
            if reason is not None:
                raise IllegalAction.of(reason)
        try:
            self.hands[seat].remove(card)  # `_take_card`, its usual case inline
        except ValueError:
            self._take_card(seat, card)
        trick.append(card)
        if len(trick) < 3:  # the trick goes on
            self.turn = seat + 1 if seat < 2 else 0
            return
        winner = self._close_trick(STRENGTH, None, VALUE)
        if not self.hands[winner] and not self.unknown[winner]:
            self._end()
        else:
            self.turn = winner

    _RULE_HOOKED = False
    """True in a subclass with its own `follow_suit_rule` (asked of every card, even a lead)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._RULE_HOOKED = cls.follow_suit_rule is not CalabresellaState.follow_suit_rule

    def _end(self) -> None:
        self.phase = "done"
        self.turn = TERMINAL

    # --- the API ------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        seat, phase = self.turn, self.phase
        if seat == TERMINAL:
            return []
        if seat == CHANCE:
            return [self.chance_outcome()]
        if phase == "auction":
            return list(self._speak())
        if phase == "call":
            return list(CALLS[seat])
        if phase == "return":
            returns = RETURNS[seat]
            return [returns[c.index] for c in self.hands[seat]]
        if phase == "raise":
            return list(RAISE_ACTIONS[seat])
        if phase == "take":
            return [Action(seat, "take", cards=cards) for k in range(5) for cards in combinations(self.monte, k)]
        if phase == "discard":
            count = self.discarders[0][1]
            return [Action(seat, "discard", cards=cards) for cards in combinations(sorted(self.hands[seat]), count)]
        return play_actions(seat, self._playable(seat))

    def _playable(self, seat: int) -> list[Card]:
        """The cards `seat` may play as this state knows its hand: those of the suit led, if any."""
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            led = trick[0].suit
            follow = [c for c in hand if c.suit == led]
            if follow:
                return follow
        return hand

    def _speak(self) -> tuple[Action, ...]:
        """The auction's choices of the seat to speak: a pass, then every higher bid."""
        contract = self.contract
        return SPEAK[self.turn][0 if contract is None else CONTRACTS.index(contract) + 1]

    def random_legal(self, rng: Rng) -> Action:
        """As `State.random_legal`; a play or a bid is drawn from the cards or the
        table of bids, and a discard directly, not picked among every combination
        `legal_actions()` lists."""
        phase = self.phase
        seat = self.turn
        if phase == "play":
            cards = self._playable(seat)
            if cards:
                return PLAYS[seat][rng.choice(cards).index]
        elif phase == "discard":
            seat, count = self.discarders[0]
            hand = self.hands[seat]
            if len(hand) >= count:
                return Action(seat, "discard", cards=tuple(sorted(rng.sample(hand, count))))
        elif phase == "auction" and seat >= 0:
            return rng.choice(self._speak())
        return super().random_legal(rng)

    def chance_holders(self, need: Need) -> tuple:
        """The monte shown goes to the soloist, unless the defenders now choose
        from it (scegliete); divided, two cards to each defender."""
        if need.kind == "monte":
            return tuple("monte" if self.phase == "take" else self.soloist for _ in need.slots)
        if need.kind == "dividete":
            return tuple(need.audiences)
        return ()

    def handover_answerers(self) -> tuple[int, ...]:
        return tuple(self.defenders())

    def handover_holder(self) -> int | None:
        return self.soloist

    def card_moves(self, action: Action) -> list[tuple[tuple, object]]:
        kind = action.kind
        if kind == "return":  # Chiamo: a card back to the defender who handed over
            assert action.card is not None  # `apply` refuses a return without one
            return [(("card", action.card.index), self.handed_from)]
        if kind == "discard":
            return [(("given", i), "monte") for i in range(len(action.cards))]
        if kind == "take":  # scegliete: the monte split between the defenders
            first, second = self.defenders()
            taken = set(action.cards)  # cards of the monte shown face up (cards are interned)
            return [(("monte", i), first if card in taken else second) for i, card in enumerate(self.monte)]
        return super().card_moves(action)

    def need(self) -> Need:
        monte = tuple(("monte", k) for k in range(4))
        if self.phase == "handover":
            return Need("handover", card=self.called)
        if self.phase == "monte":
            return Need("monte", (PUBLIC,) * 4, monte)
        if self.phase == "dividete":
            first, second = self.defenders()
            return Need("dividete", (first, first, second, second), monte)
        raise IllegalAction("no cards are to be dealt now")

    def chance_outcome(self) -> Action:
        need = self.need()
        if need.kind == "handover":
            return Action(CHANCE, "handover", card=self.called, holder=self._holder_of_called())
        return Action(CHANCE, need.kind, cards=tuple(self.monte))

    # --- result -------------------------------------------------------------

    def _points(self) -> list[int]:
        points = list(self.captured)
        if self.turn == TERMINAL and self.tricks:
            last = self.tricks[-1].winner
            # Every card not in a trick is in the monte. A seat's view may not
            # know which (face-down discards, an unused Solissimo monte), but
            # their value is whatever the tricks did not take.
            points[last] += LAST_TRICK + CARD_THIRDS - sum(self.captured)
        return points

    def _result_so_far(self) -> Result:
        if self.soloist is None:
            return NO_RESULT
        return CalabresellaSoFar(self.soloist, self.contract)

    def _finish(self) -> tuple[Result, list[int]]:
        if self.redeal:
            return REDEAL, [0, 0, 0]
        assert self.soloist is not None and self.contract is not None  # not redealt: the auction had a soloist
        return settle(self.soloist, self.contract, self.raised, self._points(), self.won, self.captured)
