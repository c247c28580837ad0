"""What the rule-based players (`easy`, `normal`) read from a seat's view.

Everything here works on the seat's engine view (`view.state`): its own
hand, the cards shown, the other hands as counts of hidden cards. Nothing
samples or simulates: a `Table` is read once per decision and answers small
questions in microseconds:

- where the cards may be: `unseen` (every card this seat cannot place: the
  other hands' hidden cards, the Briscola stock, a face-down monte), and the
  suits a Calabresella seat has shown it lacks (`voids`);
- who plays with whom: `same_side(a, b)`, a probability, since a Chiamata
  partner is secret until the called card is played;
- how likely a seat still to play holds a card that beats a given one
  (`p_holds`: hypergeometric over its hidden cards);
- `p_my_side_wins`: the chance this seat's side takes the trick once a
  card is added to it, counting the seats still to play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import BRISCOLA_ORDER, BRISCOLA_POINTS, THIRDS, TRESSETTE_ORDER, Card, points_table, strength_table
from ..determinize import located_cards
from ..games.briscola import BriscolaState
from ..games.calabresella import CalabresellaState
from ..games.chiamata import ChiamataState
from ..state import State
from ..tricks import trick_winner

BRISCOLA_STRENGTH = strength_table(BRISCOLA_ORDER)
BRISCOLA_VALUE = points_table(BRISCOLA_POINTS)
TRESSETTE_STRENGTH = strength_table(TRESSETTE_ORDER)
THIRDS_VALUE = points_table(THIRDS)


def beats(card: Card, best: Card, trump: str | None, strength: Sequence[int]) -> bool:
    """True when `card`, played after `best` (the card winning the trick), wins it."""
    if card.suit == best.suit:
        return strength[card.index] > strength[best.index]
    return card.suit == trump


class Table:
    """One seat's reading of its view, for one decision."""

    def __init__(self, state: State, seat: int):
        self.state = state
        self.me = seat
        self.n = state.n
        self.game = state.game.name
        self.hand: list[Card] = list(state.hands[seat])
        self.trick: list[Card] = list(state.trick)
        self.leader: int = state.leader
        self.trump: str | None
        if isinstance(state, CalabresellaState):
            self.trump = None
            self.strength, self.value = TRESSETTE_STRENGTH, THIRDS_VALUE
        elif isinstance(state, BriscolaState):
            self.trump = state.trump
            self.strength, self.value = state.strength, state.points
        else:
            assert isinstance(state, ChiamataState)
            self.trump = state.trump
            self.strength, self.value = BRISCOLA_STRENGTH, BRISCOLA_VALUE
        located = located_cards(state)
        self.unseen: list[Card] = [c for c in state.game.deck() if c not in located]
        self.unseen_set = set(self.unseen)
        self.known = [set(h) for h in state.hands]
        self.hidden = list(state.unknown)
        self.voids = self._voids() if state.MUST_FOLLOW else [set() for _ in range(self.n)]
        self._side = self._side_membership()

    # --- cards ----------------------------------------------------------------

    def _voids(self) -> list[set[str]]:
        """Suits each seat has shown it lacks (it did not follow when it had to)."""
        voids: list[set[str]] = [set() for _ in range(self.n)]
        tricks = [(t.leader, t.cards) for t in self.state.tricks]
        if self.trick:
            tricks.append((self.leader, tuple(self.trick)))
        for leader, cards in tricks:
            led = cards[0].suit
            for i, card in enumerate(cards[1:], 1):
                if card.suit != led:
                    voids[(leader + i) % self.n].add(led)
        return voids

    def higher_unseen(self, card: Card) -> list[Card]:
        """Unseen cards of `card`'s suit that rank above it."""
        s = self.strength
        return [c for c in self.unseen if c.suit == card.suit and s[c.index] > s[card.index]]

    def is_master(self, card: Card) -> bool:
        """No card this seat cannot see ranks above `card` in its suit (nor in
        another seat's known hand)."""
        s = self.strength
        for seat in range(self.n):
            if seat != self.me and any(c.suit == card.suit and s[c.index] > s[card.index] for c in self.known[seat]):
                return False
        return not self.higher_unseen(card)

    # --- who holds what, who plays with whom -----------------------------------

    def p_holds(self, seat: int, cards: Iterable[Card]) -> float:
        """Probability that `seat` holds at least one of `cards` now."""
        if seat == self.me:
            return 1.0 if any(c in self.known[seat] for c in cards) else 0.0
        voids = self.voids[seat]
        wanted = 0
        for card in cards:
            if card in self.known[seat]:
                return 1.0
            if card in self.unseen_set and card.suit not in voids:
                wanted += 1
        h = self.hidden[seat]
        if not wanted or not h:
            return 0.0
        pool = sum(1 for c in self.unseen if c.suit not in voids) if voids else len(self.unseen)
        pool = max(pool, h, wanted)
        none = 1.0
        for i in range(h):
            left = pool - i
            if left - wanted <= 0:
                return 1.0
            none *= (left - wanted) / left
        return 1.0 - none

    def _side_membership(self) -> list[float] | None:
        """Per seat, the probability it plays on the same side as a reference:
        the caller's or soloist's side (Chiamata, Calabresella); None when the
        sides are fixed teams or every seat plays alone (Briscola)."""
        state = self.state
        if isinstance(state, CalabresellaState):
            solo = state.soloist
            if solo is None:
                return None
            return [1.0 if s == solo else 0.0 for s in range(self.n)]
        if isinstance(state, ChiamataState):
            caller, called = state.caller, state.called
            if caller is None or called is None:
                return None
            member = [0.0] * self.n
            member[caller] = 1.0
            if state.partner_known:
                if state.partner is not None:
                    member[state.partner] = 1.0
                return member
            # The partner holds the called card: one of the seats that may hide it.
            candidates = [s for s in range(self.n) if s not in (caller, self.me) and self.hidden[s]]
            if not candidates:  # no hidden card (a playout's full state): any other seat but the caller
                candidates = [s for s in range(self.n) if s not in (caller, self.me)]
            total = sum(self.hidden[s] for s in candidates) or len(candidates)
            for s in candidates:
                member[s] = (self.hidden[s] or 1) / total
            return member
        return None

    def same_side(self, a: int, b: int) -> float:
        """Probability that seats `a` and `b` score together in this hand."""
        if a == b:
            return 1.0
        member = self._side
        if member is None:
            teams = self.state.game.teams()
            if teams is None:
                return 0.0
            return 1.0 if (a % 2) == (b % 2) else 0.0
        ma, mb = member[a], member[b]
        if ma in (0.0, 1.0):
            return mb if ma == 1.0 else 1.0 - mb
        if mb in (0.0, 1.0):
            return ma if mb == 1.0 else 1.0 - ma
        return 1.0 - ma - mb  # two seats that may each be the one partner: both defenders

    def friendly(self, seat: int) -> float:
        return self.same_side(self.me, seat)

    # --- tricks -----------------------------------------------------------------

    def later_seats(self, played: int) -> list[int]:
        """The seats still to play once `played` cards are on the table."""
        return [(self.leader + i) % self.n for i in range(played, self.n)]

    def p_my_side_wins(self, cards: list[Card]) -> float:
        """Probability that this seat's side takes the trick once `cards` are
        on the table and the remaining seats have played.

        Seat by seat: a seat hostile to the side winning now takes the trick
        when it holds a card beating the best card so far; a friendly seat
        takes it back (less surely: it needs a still higher card) likewise.
        """
        index = trick_winner(cards, self.trump, self.strength)
        best = cards[index]
        mine = self.friendly((self.leader + index) % self.n)
        for seat in self.later_seats(len(cards)):
            beaters = self.beaters(best, seat)
            if not beaters:
                continue
            b = self.p_holds(seat, beaters)
            f = self.friendly(seat)
            mine = mine - mine * (1.0 - f) * b + (1.0 - mine) * f * b * 0.5
        return mine

    def beaters(self, best: Card, seat: int) -> list[Card]:
        """Cards `seat` might hold that beat `best`, the card winning the trick
        (unseen ones, and those known in its hand)."""
        pool = self.unseen if not self.known[seat] else self.unseen + list(self.known[seat])
        if self.trump is None:  # no trumps: only a higher card of the suit
            s = self.strength
            return [c for c in pool if c.suit == best.suit and s[c.index] > s[best.index]]
        return [c for c in pool if beats(c, best, self.trump, self.strength)]

    def trick_points(self, cards: list[Card]) -> int:
        value = self.value
        return sum(value[c.index] for c in cards)

    def tricks_left(self) -> int:
        """Tricks still to be played, this one included."""
        total = sum(self.state.hand_size(s) for s in range(self.n)) + len(self.trick)
        pile = self.state.pile_left() if hasattr(self.state, "pile_left") else 0
        return (total + pile + self.n - 1) // self.n
