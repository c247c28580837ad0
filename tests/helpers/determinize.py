"""Seeded hands of every game played with every seat's view kept as the table
keeps it, and the configurations they are played in (tests/test_determinize.py,
test_hard.py)."""

from __future__ import annotations

import random

from engine.games import make
from engine.state import CHANCE, Action

from .views import redact_action, views_of

# --- playing hands with every seat's view --------------------------------------


class Steer(random.Random):
    """A Random whose `choice` follows a script of preferences, in order.

    Each entry is a predicate on actions: at a choice where some actions
    match the first entry, one of those is taken and the entry is used up.
    With `others_pass`, any other auction choice is a pass.
    """

    def __init__(self, seed, script=(), others_pass=False):
        super().__init__(seed)
        self.script = list(script)
        self.others_pass = others_pass

    def choice(self, seq):
        if self.script:
            matching = [a for a in seq if isinstance(a, Action) and self.script[0](a)]
            if matching:
                self.script.pop(0)
                return super().choice(matching)
        if self.others_pass and seq and isinstance(seq[0], Action) and seq[0].kind == "pass":
            return seq[0]
        return super().choice(seq)


def walk(game, dealer: int, rng: random.Random):
    """Play one hand at random; yield (full, views) before every action and at the end."""
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(dealer).deal(deck)
    full = game.new_hand(dealer, deal)
    views = views_of(game, dealer, deal)
    while True:
        yield full, views
        if full.is_over():
            return
        if full.current_player() == CHANCE:
            action, need = full.chance_outcome(), full.need()
        else:
            action, need = rng.choice(full.legal_actions()), None
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact_action(action, need, seat))


# --- configurations -------------------------------------------------------------


def is_bid(contract):
    return lambda a: a.kind == "bid" and a.contract == contract


def is_raise(choice):
    return lambda a: a.kind == "raise" and a.choice == choice


class DeckSteer(Steer):
    """A Steer that remembers the deck it shuffled, for scripts about the deal."""

    deck: list = []

    def shuffle(self, x):
        super().shuffle(x)
        self.deck = list(x)


def calabresella_rng(seed, dealer, contract, raise_=None, call=None):
    """The first speaker bids `contract` (and raises), the others pass. `call`:
    "monte" calls a monte card, "own" one of the soloist's cards (nobody hands
    it over), None any card."""
    rng = DeckSteer(seed, [is_bid(contract)] + ([is_raise(raise_)] if raise_ else []), others_pass=True)
    if call:
        plan = make("calabresella", 3).plan(dealer)
        positions = plan.monte if call == "monte" else plan.hands[(dealer + 1) % 3]
        rng.script.append(lambda a: a.kind == "call" and a.card in [rng.deck[p] for p in positions])
    return rng


def chiamata_two_rule_rng(seed, dealer):
    """The first speaker bids the 2, the others pass; a two-rule call if there is one."""
    return Steer(
        seed,
        [lambda a: a.kind == "bid" and a.rank == "2", lambda a: a.kind == "call" and a.card.rank != "2"],
        others_pass=True,
    )


def plain(seed, dealer):
    return random.Random(seed)


CASES = [
    # (game, players, options, rng(seed, dealer), hands)
    ("briscola", 2, {}, plain, 10),
    ("briscola", 3, {}, plain, 5),
    ("briscola", 4, {"trump_exchange": "2", "seven_second": True}, plain, 5),
    ("briscola", 6, {"trump_exchange": "7", "black_hand": True}, plain, 3),
    ("briscola", 2, {"open_hands": True, "trump_exchange": "7"}, plain, 4),
    ("chiamata", 5, {}, chiamata_two_rule_rng, 8),
    ("chiamata", 5, {"call": "at_least"}, plain, 3),
    ("chiamata", 5, {"auction": "points"}, plain, 3),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "chiamo"), 6),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "chiamo", call="monte"), 3),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "chiamo", call="own"), 4),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "solo"), 6),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "solissimo", "none"), 4),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "solissimo", "dividete"), 6),
    ("calabresella", 3, {}, lambda s, d: calabresella_rng(s, d, "solissimo", "scegliete"), 6),
]


def hands_of(case):
    """(game, dealer, rng) of each hand a case plays."""
    name, players, options, make_rng, hands = case
    game = make(name, players, options)
    return [(game, hand % players, make_rng(1000 + hand, hand % players)) for hand in range(hands)]
