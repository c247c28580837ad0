"""A refused action's reason is data (`engine.state.Refusal`), written for a player by
`render.refusal`: cards and suits in the table's style, seats by name, and never read back
out of the engine's words."""

from __future__ import annotations

from briscola_tui.render import refusal
from briscola_tui.tui.widgets.cards import Style
from engine.cards import Card
from engine.state import Refusal

GLYPHS = Style(ascii=False, colour=False)
NAMES = ("you", "Bea", "Carlo")


def test_follow_suit_said_to_me_and_of_another():
    mine = Refusal("follow_suit", "engine words", seat=0, card=Card("6", "S"), suit="H")
    assert refusal(mine, GLYPHS, NAMES) == "♥ hearts were led and you hold one: follow suit"
    theirs = Refusal("follow_suit", "engine words", seat=1, card=Card("6", "S"), suit="H")
    assert refusal(theirs, GLYPHS, NAMES) == "Bea holds a card of the suit led (♥ hearts): must follow suit"


def test_the_call_rules_name_the_cards_in_the_tables_style():
    rank = Refusal("call_rank", "engine words", card=Card("7", "S"), rank="J", at_least=True)
    assert refusal(rank, GLYPHS, NAMES) == "the called card must be of the bid rank or higher (J), not 7♠"
    two = Refusal("two_rule_two", "engine words", seat=0, card=Card("4", "H"), cards=(Card("2", "H"),))
    assert refusal(two, GLYPHS, NAMES) == "4♥ may be called only by a caller holding 2♥ (the two rule)"
    held = Refusal("two_rule_held", "engine words", seat=0, card=Card("4", "H"))
    assert refusal(held, GLYPHS, NAMES).endswith("; you hold 4♥")


def test_the_handover_names_the_seat():
    must = Refusal("hand_over", "engine words", seat=2, card=Card("A", "D"))
    assert refusal(must, GLYPHS, NAMES) == "Carlo holds A♦ and must hand it over"


def test_a_rule_without_data_keeps_the_engines_words():
    assert refusal(Refusal("rule", "the hand is over"), GLYPHS, NAMES) == "the hand is over"


def test_the_engine_gives_its_refusal_as_data():
    """An off-suit card while holding the suit led, in a Calabresella hand: why_illegal gives
    the follow-suit rule with its seat and suit, not a sentence to read back."""
    import random

    from helpers.determinize import walk

    from engine.games import make
    from engine.refusal import why_illegal
    from engine.state import Action

    for seed in range(50):
        for full, _ in walk(make("calabresella", 3, {}), 0, random.Random(seed)):
            if full.phase != "play" or not full.trick or full.is_over():
                continue
            seat, led = full.current_player(), full.trick[0].suit
            hand = full.hands[seat]
            off = [c for c in hand if c.suit != led]
            if off and any(c.suit == led for c in hand):
                reason = why_illegal(full, Action(seat, "play", card=off[0]))
                assert reason is not None and reason.rule == "follow_suit"
                assert (reason.seat, reason.suit, reason.card) == (seat, led, off[0])
                assert why_illegal(full, Action(seat, "play", card=next(c for c in hand if c.suit == led))) is None
                return
    raise AssertionError("no hand in 50 seeds had an off-suit card to refuse")
