"""What follows a Calabresella auction until the play: the called card handed
over (Chiamo), the monte shown and given to the soloist, returned, divided
or chosen by the defenders (Solissimo), and the discards.

`ContractState` holds the fields these phases share and their handlers; the
game's state, `CalabresellaState` (calabresella.py), adds the auction, the
play and the result.
"""

from __future__ import annotations

from typing import Literal

from ..cards import Card
from ..deal import Deal
from ..facts import Placed, Role, Roles
from ..state import CHANCE, Action, IllegalAction, Phase, Refusal, Rules, State
from .calabresella_facts import CalabresellaObservation

Contract = Literal["chiamo", "solo", "solissimo"]
RaiseChoice = Literal["none", "dividete", "scegliete"]
"""After Solissimo: play as it is, or let the defenders divide or choose the monte."""
CONTRACTS: tuple[Contract, ...] = ("chiamo", "solo", "solissimo")
RAISES: tuple[RaiseChoice, ...] = ("none", "dividete", "scegliete")


class ContractState(State):
    """A Calabresella hand's contract: the soloist, what it bid, and the monte's way to the hands."""

    FIELDS: tuple[str, ...] = ("monte", "soloist", "contract", "raised", "called", "handed_from", "discarders")

    def __init__(self, game: Rules, dealer: int, deal: Deal, viewer: int | None = None):
        super().__init__(game, dealer, deal, viewer)
        if len(deal.monte) != 4:
            raise ValueError("a calabresella deal needs its 4 monte cards")
        self.monte: list[Card | None] = list(deal.monte)
        self.soloist: int | None = None
        self.contract: Contract | None = None
        self.raised: RaiseChoice = "none"
        self.called: Card | None = None
        self.handed_from: int | None = None
        self.discarders: list[tuple[int, int]] = []

    def _clone_extra(self, state: ContractState) -> None:
        state.monte = list(self.monte)
        state.discarders = list(self.discarders)

    def rule_facts(self, action: Action) -> list[tuple[str, int, Card]]:
        """A handover with no holder: neither defender holds the called card."""
        card = action.card
        if action.kind != "handover" or action.holder is not None or card is None:
            return []  # a fact about no card limits nothing
        return [("lacks", seat, card) for seat in self.defenders()]

    def roles(self) -> Roles:
        """The dealer, and the soloist once the auction is over."""
        roles = dict(super().roles())
        if self.soloist is not None and self.phase != "auction":
            roles[self.soloist] = (*roles.get(self.soloist, ()), Role.SOLOIST)
        return roles

    def placed(self) -> Placed:
        return Placed(monte=self.monte, fields=(self.called, self.soloist, self.contract))

    def observe(self) -> CalabresellaObservation:
        """The soloist, its contract, and the card a chiamo called."""
        soloist = self.soloist if self.phase != "auction" else None
        return CalabresellaObservation(self.roles(), called=self.called, contract=self.contract, soloist=soloist)

    def defenders(self) -> tuple[int, int]:
        """The two defenders in playing order after the soloist."""
        assert self.soloist is not None  # asked once the auction has a soloist
        return ((self.soloist + 1) % 3, (self.soloist + 2) % 3)

    def _known_elsewhere(self) -> list[Card]:
        return [c for c in self.monte if c is not None]

    def _next(self, phase: Phase, turn: int) -> None:
        self.phase = phase
        self.turn = turn

    # --- chiamo, solo, solissimo -------------------------------------------

    def _call(self, action: Action) -> None:
        if action.card is None:
            raise IllegalAction("call needs a card")
        self.called = action.card
        self._next("handover", CHANCE)

    def _holder_of_called(self) -> int | None:
        for seat in self.defenders():
            if self.called in self.hands[seat]:
                return seat
        return None

    def handover_rule(self, holder: int | None) -> Refusal | None:
        """The handover rule: None when `holder` may hand over the called card
        (`holder` None: nobody does, a denial), else the rule it breaks. A
        defender this state knows to hold the called card must hand it over;
        only a defender can. A rule check a subclass may relax."""
        known = self._holder_of_called()
        if holder is None:
            if known is not None:
                text = f"seat {known} holds {self.called} and must hand it over"
                return Refusal("hand_over", text, seat=known, card=self.called)
        elif holder not in self.defenders():
            text = f"only a defender hands over the called card, not seat {holder}"
            return Refusal("defenders_hand_over", text, seat=holder)
        return None

    def _handover(self, action: Action) -> None:
        assert self.called is not None and self.soloist is not None  # after the call
        holder = action.holder
        if action.card is not None and action.card is not self.called:
            raise IllegalAction(f"the called card is {self.called}, not {action.card}")
        reason = self.handover_rule(holder)
        if reason is not None:
            raise IllegalAction.of(reason)
        if holder is not None:
            self._take_card(holder, self.called, "hand over")
            self.hands[self.soloist].append(self.called)
        self.handed_from = holder
        self._next("monte", CHANCE)

    def _show_monte(self, action: Action) -> None:
        assert self.soloist is not None  # the auction had a soloist
        cards = self._check_monte(action.cards)
        self.monte = list(cards)
        if self.contract == "solissimo":
            self._next("take", self.defenders()[0])
            return
        self.hands[self.soloist].extend(cards)
        self.monte = []
        if self.handed_from is not None:
            self._next("return", self.soloist)
        else:
            self.discarders = [(self.soloist, 4)]
            self._next("discard", self.soloist)

    def _check_monte(self, cards: tuple) -> tuple:
        if len(cards) != 4:
            raise IllegalAction(f"the monte holds 4 cards, not {len(cards)}")
        out = []
        for known, shown in zip(self.monte, cards):
            if known is not None and shown is not None and shown is not known:
                raise IllegalAction(f"{shown} is not the monte card shown")
            out.append(known if known is not None else shown)
        if any(c is None for c in out):
            raise IllegalAction("the monte must be shown face up")
        return tuple(out)

    def _return(self, action: Action) -> None:
        card = action.card
        if card is None:
            raise IllegalAction("return needs a card")
        assert self.soloist is not None and self.handed_from is not None  # a card was handed over
        self._take_card(self.soloist, card, "return")
        self.hands[self.handed_from].append(card)
        self.discarders = [(self.soloist, 4)]
        self._next("discard", self.soloist)

    def _raise(self, action: Action) -> None:
        if action.choice not in RAISES:
            raise IllegalAction(f"after Solissimo: none, dividete or scegliete, not {action.choice!r}")
        assert self.soloist is not None  # the Solissimo bidder
        self.raised = action.choice
        if action.choice == "none":
            self._start_play(self.soloist)
        elif action.choice == "dividete":
            self._next("dividete", CHANCE)
        else:
            self._next("monte", CHANCE)

    def _divide(self, action: Action) -> None:
        if len(action.cards) != 4:
            raise IllegalAction("dividete gives out the 4 monte cards")
        for known, given in zip(self.monte, action.cards):
            if known is not None and given is not None and given is not known:
                raise IllegalAction(f"{given} is not the monte card dealt there")
        cards = [k if k is not None else c for k, c in zip(self.monte, action.cards)]
        first, second = self.defenders()
        for seat, part in ((first, cards[:2]), (second, cards[2:])):
            for card in part:
                if card is None:
                    self.unknown[seat] += 1
                else:
                    self.hands[seat].append(card)
        self.monte = []
        self.discarders = [(first, 2), (second, 2)]
        self._next("discard", first)

    def _take(self, action: Action) -> None:
        taken = action.cards
        if len(set(taken)) != len(taken) or any(c not in self.monte for c in taken):
            raise IllegalAction("take only cards of the monte, each once")
        first, second = self.defenders()
        rest = [c for c in self.monte if c not in taken]
        # The monte was shown face up (`_check_monte`): none of these is unknown.
        self.hands[first].extend(c for c in taken if c is not None)
        self.hands[second].extend(c for c in rest if c is not None)
        self.monte = []
        self.discarders = [(s, k) for s, k in ((first, len(taken)), (second, len(rest))) if k]
        self._next("discard", self.discarders[0][0])

    def _discard(self, action: Action) -> None:
        seat, count = self.discarders[0]
        cards = action.cards
        if len(cards) != count:
            raise IllegalAction(f"seat {seat} must discard {count} cards, not {len(cards)}")
        known = [c for c in cards if c is not None]
        if len(set(known)) != len(known):
            raise IllegalAction("a card cannot be discarded twice")
        if len(known) == len(cards):
            missing = [c for c in known if self._holds(seat, c) is False]
            if missing:
                raise IllegalAction(f"cannot discard {missing[0]}: seat {seat} does not hold it")
            if sum(c not in self.hands[seat] for c in known) > self.unknown[seat]:
                raise IllegalAction(f"seat {seat} does not hold all of these cards")
            for card in known:
                self._take_card(seat, card, "discard")
        else:
            # Discarded face down: this view no longer knows which cards stay.
            if self.hand_size(seat) < count:
                raise IllegalAction(f"seat {seat} holds fewer than {count} cards")
            self.unknown[seat] = self.hand_size(seat) - count
            self.hands[seat] = []
        self.monte.extend(cards)
        self.discarders.pop(0)
        if self.discarders:
            self.turn = self.discarders[0][0]
        else:
            assert self.soloist is not None  # discards come after the auction
            lead = self.soloist if self.contract == "solissimo" else (self.dealer + 1) % 3
            self._start_play(lead)

    def _start_play(self, leader: int) -> None:
        self.leader = leader
        self._next("play", leader)
