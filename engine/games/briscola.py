"""Classic Briscola for 2, 3, 4 and 6 players, with every option of the rule book."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import (
    ALL_CARDS,
    BRISCOLA_ORDER,
    BRISCOLA_POINTS,
    SEVEN_SECOND_ORDER,
    SEVEN_SECOND_POINTS,
    Card,
    points_table,
    strength_table,
)
from ..deal import Deal, DealPlan, packets
from ..facts import Placed, Result
from ..game import Game
from ..rng import Rng
from ..state import CHANCE, PLAYS, PUBLIC, TERMINAL, Action, IllegalAction, Need, State, play_actions
from . import GAMES
from .briscola_facts import BriscolaObservation, BriscolaResult, result_from_json
from .briscola_score import three_player_awards, two_side_awards

STRENGTH = strength_table(BRISCOLA_ORDER)
POINTS = points_table(BRISCOLA_POINTS)
STRENGTH_7 = strength_table(SEVEN_SECOND_ORDER)
POINTS_7 = points_table(SEVEN_SECOND_POINTS)
DECKS = {
    3: tuple(c for c in ALL_CARDS if str(c) != "2D"),
    6: tuple(c for c in ALL_CARDS if c.rank != "2"),
}
"""The smaller decks by player count; the others play all 40 cards."""
DRAWS_2: dict[tuple[Card | None, ...], Action] = {}
"""Two players' draw actions by their cards, each built once (at most 41 x 41 of them:
a card or None, twice): the shared, immutable action `chance_outcome` returns."""


class Briscola(Game):
    name = GAMES["briscola"].name
    PLAYERS = GAMES["briscola"].players
    OPTIONS = {
        "trump_exchange": ("none", "2", "7"),
        "seven_second": (False, True),
        "open_hands": (False, True),
        "black_hand": (False, True),
        "scoring": ("hands", "game_points"),
    }
    INT_OPTIONS = {"match": (2, 1, 5)}
    """`match`: hands to win the match with the default scoring."""
    ACTIONS = {"play": ("card",), "exchange": (), "declare": ()}
    DEAL_KEYS = {"stock": "stock", "briscola": "faceup"}
    RESULT_KEYS = ("winner", "trump", "side_points")
    """`winner` is a side (a team index, or a seat), None for a draw; a
    declared black hand adds `black_hand` (the declarer)."""
    SHARES_ONLY_CAUSE = True
    """No rule of Briscola turns on a card only one seat sees (see `Game`)."""

    def result_from_json(self, data: dict) -> Result:
        return result_from_json(data)

    def __init__(self, players: int, options: dict | None = None):
        super().__init__(players, options)
        self._sides = tuple(tuple(side) for side in self.sides())
        """`sides()`, built once for the states' results."""
        self._side_of = tuple(next(i for i, side in enumerate(self._sides) if seat in side) for seat in range(players))
        """Seat -> its side's index in `sides()`."""
        self._rounds = tuple(tuple((first + i) % players for i in range(players)) for first in range(players))
        """`_rounds[seat]`: every seat in playing order from `seat` on (a draw's order)."""

    def deck(self) -> list[Card]:
        """40 cards; 39 for 3 players (the 2 of diamonds removed); 36 for 6 (all 2s removed)."""
        return list(DECKS.get(self.players, ALL_CARDS))

    def plan(self, dealer: int) -> DealPlan:
        """3 cards each one at a time, then the face-up card, then the stock."""
        plan = self._plans.get(dealer)
        if plan is None:
            size = len(self.deck())
            hands = packets(self.players, dealer, [1, 1, 1])
            faceup = 3 * self.players
            plan = DealPlan(size, tuple(map(tuple, hands)), tuple(range(faceup + 1, size)), faceup)
            self._plans[dealer] = plan
        return plan

    def new_hand(self, dealer: int, deal: Deal, viewer: int | None = None) -> BriscolaState:
        return BriscolaState(self, dealer, deal, viewer)

    def teams(self) -> list[list[int]] | None:
        if self.players in GAMES["briscola"].teams:
            return [list(range(0, self.players, 2)), list(range(1, self.players, 2))]
        return None

    def match_target(self) -> int:
        """Series score that wins the match."""
        if self.players == 3 or self.options["scoring"] == "game_points":
            return 12
        return self.options["match"]

    def series_over(self, scores: list[int], hands_scored: int) -> bool:
        """A match: the first side to `match_target()` wins; when several reach
        it in the same hand the higher total wins, an exact tie at the top
        plays another hand."""
        totals = [scores[side[0]] for side in self.sides()]
        best = max(totals)
        return best >= self.match_target() and totals.count(best) == 1

    def deal_audiences(self, plan: DealPlan) -> list[tuple[int, object, int | None]]:
        """Open hands: every hand is dealt face up, and the top of the stock shows."""
        placed = super().deal_audiences(plan)
        if not self.options["open_hands"]:
            return placed
        top = plan.stock[0] if plan.stock else None
        return [
            (p, holder, PUBLIC if isinstance(holder, int) or p == top else audience) for p, holder, audience in placed
        ]


class BriscolaState(State):
    game: Briscola
    HANDLERS = {"play": "_play", "exchange": "_exchange", "declare": "_declare", "draw": "_draw"}
    PHASE_KINDS = {"play": ("play", "exchange", "declare"), "draw": ("draw",)}

    FIELDS = (
        "faceup",
        "trump",
        "stock",
        "drawn",
        "declared",
        "strength",
        "points",
        "exchange_card",
        "black_hand",
        "_plain",
    )

    def __init__(self, game: Briscola, dealer: int, deal: Deal, viewer: int | None = None):
        super().__init__(game, dealer, deal, viewer)
        if deal.faceup is None:
            raise ValueError("a briscola deal needs its face-up card")
        self.faceup: Card = deal.faceup
        self.trump: str = deal.faceup.suit
        self.stock: list[Card | None] = list(deal.stock)
        self.drawn = 0
        self.declared: int | None = None
        seven = game.options["seven_second"]
        self.strength = STRENGTH_7 if seven else STRENGTH
        self.points = POINTS_7 if seven else POINTS
        rank = game.options["trump_exchange"]
        self.exchange_card = None if rank == "none" else Card(rank, self.trump)
        self.black_hand = game.options["black_hand"]
        self._plain = self.exchange_card is None and not self.black_hand
        """No option adds an action to the plays: a random action is a random card (`random_legal`)."""

    @property
    def ended_early(self) -> bool:
        return self.declared is not None

    def _clone_extra(self, state: BriscolaState) -> None:
        state.stock = list(self.stock)

    # --- queries ------------------------------------------------------------

    def placed(self) -> Placed:
        return Placed(self.stock, (), self.faceup, (self.faceup, self.drawn, self.trump))

    def observe(self) -> BriscolaObservation:
        """Trump, the face-up card while it is under the stock, the cards left to draw."""
        stock, drawn = self.stock, self.drawn
        faceup = self.faceup if drawn <= len(stock) else None
        return BriscolaObservation(self.roles(), self.trump, faceup, max(0, len(stock) - drawn))

    def pile_left(self) -> int:
        """Cards still to draw: the face-down stock and the face-up card."""
        return len(self.stock) + 1 - self.drawn

    def can_exchange(self, seat: int) -> bool:
        """True when the exchange option allows `seat` to swap now (hand known)."""
        return (
            self.exchange_card is not None and self.drawn < len(self.stock) and self.exchange_card in self.hands[seat]
        )

    def can_declare(self, seat: int) -> bool:
        hand = self.hands[seat]
        return self.black_hand and all(Card(r, self.trump) in hand for r in "A3K")

    def legal_actions(self) -> list[Action]:
        seat = self.turn
        if seat == CHANCE:
            return [self.chance_outcome()]
        if seat == TERMINAL:
            return []
        actions = play_actions(seat, self.hands[seat])
        if self.exchange_card is not None and self.can_exchange(seat):
            actions.append(Action(seat, "exchange"))
        if self.black_hand and self.can_declare(seat):
            actions.append(Action(seat, "declare"))
        return actions

    def random_legal(self, rng: Rng) -> Action:
        """As `State.random_legal`; with neither option that adds an action
        (trump exchange, black hand) a card is drawn straight from the hand."""
        seat = self.turn
        if seat >= 0 and self._plain:
            hand = self.hands[seat]
            if hand:
                return PLAYS[seat][rng.choice(hand).index]
        return super().random_legal(rng)

    def need(self) -> Need:
        if self.turn != CHANCE:
            raise IllegalAction("no cards are to be dealt now")
        drawers = [(self.leader + i) % self.n for i in range(self.n)]
        slots: list[tuple] = []
        audiences: list[int] = []
        open_hands = self.game.options["open_hands"]
        for i, seat in enumerate(drawers):
            d = self.drawn + i
            if d < len(self.stock):
                slots.append(("stock", d))
                audiences.append(PUBLIC if open_hands else seat)
            else:
                slots.append(("faceup",))
                audiences.append(PUBLIC)
        return Need("draw", tuple(audiences), tuple(slots))

    def chance_outcome(self) -> Action:
        if self.turn != CHANCE:
            raise IllegalAction("no cards are to be dealt now")
        drawn, n, stock = self.drawn, self.n, self.stock  # the next draw: a card a seat, the face-up card last
        end = drawn + n
        cards = tuple(stock[drawn:end]) if end <= len(stock) else (*stock[drawn:], self.faceup)
        if n != 2:
            return Action(CHANCE, "draw", None, cards)
        action = DRAWS_2.get(cards)
        if action is None:
            action = DRAWS_2[cards] = Action(CHANCE, "draw", None, cards)
        return action

    def apply(self, action: Action) -> None:
        """As `State.apply` (which hands a play straight to its handler), with a draw, the
        other action of every trick, handed straight to its handler too (the same checks:
        the seat to act, in the draw)."""
        if action.kind == "draw" and action.seat == self.turn and self.phase == "draw":
            self._draw(action)
            self.history.append(action)
            return
        State.apply(self, action)

    def chance_holders(self, need: Need) -> tuple:
        """A draw: one card to each seat, from the trick winner on."""
        return tuple((self.leader + i) % self.n for i in range(len(need.slots)))

    def card_moves(self, action: Action) -> list[tuple[tuple, object]]:
        if action.kind == "exchange":  # the trump card in hand goes face up; the face-up card to the hand
            assert self.exchange_card is not None  # `apply` refuses an exchange with the option off
            return [(("card", self.exchange_card.index), "faceup"), (("faceup",), action.seat)]
        return super().card_moves(action)

    def peeks(self, plan: DealPlan) -> list[int]:
        """Open hands: after each draw, everyone sees the new top of the stock."""
        if not self.game.options["open_hands"] or self.turn != CHANCE:
            return []
        top = self.drawn + self.n
        return [plan.stock[top]] if top < len(plan.stock) else []

    def see_peeked(self, plan: DealPlan, public_card: Callable[[int], Card | None]) -> None:

        if not self.game.options["open_hands"]:
            return
        for slot in range(self.drawn, len(plan.stock)):
            card = public_card(plan.stock[slot])
            if card is not None:
                self.see_stock(slot, card)

    def see_stock(self, slot: int, card: Card) -> None:
        """Learn a face-down stock card (open hands shows the top of the stock)."""
        if self.stock[slot] is None:
            self.stock[slot] = card

    def _known_elsewhere(self) -> list[Card]:
        known = [c for c in self.stock[self.drawn :] if c is not None]
        if self.drawn <= len(self.stock):
            known.append(self.faceup)
        return known

    # --- actions ------------------------------------------------------------

    def _play(self, action: Action) -> None:
        seat, card = action.seat, action.card
        if card is None:
            raise IllegalAction("play needs a card")
        try:
            self.hands[seat].remove(card)  # `_take_card`, its usual case inline
        except ValueError:
            self._take_card(seat, card)
        trick = self.trick
        trick.append(card)
        n = self.n
        if len(trick) < n:  # the trick goes on
            self.turn = seat + 1 if seat + 1 < n else 0
            return
        winner = self._close_trick(self.strength, self.trump, self.points)
        if self.drawn <= len(self.stock):
            self.phase = "draw"
            self.turn = CHANCE
        elif not self.hands[winner] and not self.unknown[winner]:
            self._end()
        else:
            self.turn = winner

    def _exchange(self, action: Action) -> None:
        seat = action.seat
        if self.exchange_card is None:
            raise IllegalAction("the trump exchange option is off")
        if self.drawn >= len(self.stock):
            raise IllegalAction("no exchange once the stock has no face-down card left")
        old = self.faceup
        self._take_card(seat, self.exchange_card, "exchange")
        self.hands[seat].append(old)
        self.faceup = self.exchange_card

    def shown_cards(self, action: Action) -> tuple:
        """A trump exchange shows the card the option names; a black hand its ace, three and king."""
        if action.kind == "exchange":
            return (self.exchange_card,)
        if action.kind == "declare":
            return tuple(Card(r, self.trump) for r in "A3K")
        return super().shown_cards(action)

    def _declare(self, action: Action) -> None:
        if not self.black_hand:
            raise IllegalAction("the black hand option is off")
        seat = action.seat
        needed = [Card(r, self.trump) for r in "A3K"]
        for card in needed:
            if self._holds(seat, card) is False:
                raise IllegalAction(f"black hand needs A, 3 and K of trump; seat {seat} lacks {card}")
        for card in needed:
            self._show_card(seat, card)
        self.declared = seat
        self._end()

    def _draw(self, action: Action) -> None:
        drawn, n, stock = self.drawn, self.n, self.stock  # the next draw: a card a seat, the face-up card last
        end = drawn + n
        expected = tuple(stock[drawn:end]) if end <= len(stock) else (*stock[drawn:], self.faceup)
        cards: Sequence[Card | None] = action.cards
        if cards != expected:  # unknown cards on either side, or a wrong draw
            if len(cards) != len(expected):
                raise IllegalAction(f"a draw gives {len(expected)} cards, not {len(cards)}")
            merged: list[Card | None] = []
            for want, got in zip(expected, action.cards):
                if want is not None and got is not None and got is not want:
                    raise IllegalAction(f"drawn card {got} is not the next card of the stock")
                merged.append(want if want is not None else got)
            cards = merged
        hands = self.hands
        for seat, card in zip(self.game._rounds[self.leader], cards):
            if card is None:
                self.unknown[seat] += 1
            else:
                hands[seat].append(card)
        self.drawn += n
        self.phase = "play"
        self.turn = self.leader

    def _end(self) -> None:
        self.phase = "done"
        self.turn = TERMINAL

    # --- result -------------------------------------------------------------

    def side_points(self) -> list[int]:
        return self._side_points(self.game._sides)

    def _side_points(self, sides: tuple[tuple[int, ...], ...]) -> list[int]:
        captured = self.captured
        return [sum([captured[s] for s in side]) for side in sides]

    def _finish(self) -> tuple[Result, list[int]]:
        game: Briscola = self.game
        sides = game._sides
        totals = self._side_points(sides)
        winner: int | None
        if self.declared is not None:
            side = next(i for i, members in enumerate(sides) if self.declared in members)
            awards = [0] * len(sides)
            awards[side] = 3 if (self.n == 3 or game.options["scoring"] == "game_points") else 1
            winner = side
        elif self.n == 3:
            awards, winner = three_player_awards(totals)
        else:
            awards, winner = two_side_awards(totals, game.options["scoring"])
        score = [awards[side] for side in game._side_of]
        return BriscolaResult(winner, self.trump, tuple(totals), self.declared), score
