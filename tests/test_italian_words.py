"""The words of events, refusals, cards and the engine in Italian (`render`, `wording`,
`engine_words`, `widgets.cards`): the local seat "you" is "tu" with its verbs in the second
person, card names follow the language and the suit names, and English stays as it was.
The engine's own tables (action kinds, games, suits, result keys, the audit's reasons, the
refusals' rules) are walked: a word there that is not listed for translation fails here."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from briscola_tui import engine_words
from briscola_tui.notes import SoFar
from briscola_tui.render import FACT_NAMES, HEADLESS, YES_NO, bid_words, refusal, render, seat_names, side_words
from briscola_tui.tui.widgets.cards import Style
from briscola_tui.wording import TITLES, listing
from engine.cards import SUIT_NAMES, Card
from engine.games import GAMES
from engine.labels import BARE_KINDS, CARD_KINDS, CARDS_KINDS, CHANCE_KINDS, KINDS, label
from engine.state import Action, Refusal
from engine.view import Side
from protocol.audit import Culprit
from protocol.events import Acted, HandBegins, HandVoid, RoleShown, Seated, TrickTaken

ROOT = Path(__file__).resolve().parent.parent
CARDS = (Card("4", "S"), Card("5", "S"))
NAMES = ("you", "Bea", "Carlo")
GLYPHS = Style(ascii=False, colour=False)


def test_the_local_seat_is_tu_with_second_person_verbs(italian):
    trick = TrickTaken(0, CARDS, 2)
    assert render(trick, names=NAMES) == "prendi la presa (4S 5S) per 2 punti"
    assert render(TrickTaken(1, CARDS, 1), names=NAMES) == "Bea prende la presa (4S 5S) per 1 punto"
    assert render(HandBegins(0, 2), names=NAMES) == "mano 3: dai tu le carte"
    assert render(RoleShown(0, "caller"), names=NAMES) == "vinci l'asta"
    assert render(Seated(0, "you", "joins"), names=NAMES) == "entri (posto 0)"
    assert render(TrickTaken(2, CARDS, 0)) == "posto 2 prende la presa (4S 5S) per 0 punti"
    assert seat_names({0: "Ann"}, 2) == ("Ann", "posto 1")
    assert render(Seated(1, "seat 1"), names=seat_names({}, 2)) == "posto 1 entra (posto 1)"
    assert side_words(Side("team", (0, 1), 34), NAMES) == "tu + Bea: 34"
    assert render(SoFar(NAMES, (0, 1, 2))) == "al tavolo: tu, Bea, Carlo (posti 0, 1, 2)"


def test_a_refusal_in_italian(italian):
    mine = Refusal("follow_suit", "engine words", seat=0, suit="H")
    assert refusal(mine, GLYPHS, NAMES) == "si è aperto a ♥ cuori e ne hai una: rispondi al seme"
    must = Refusal("hand_over", "engine words", seat=2, card=Card("A", "D"))
    assert refusal(must, GLYPHS, NAMES) == "Carlo ha A♦ e deve consegnarla"
    assert refusal(Refusal("rule", "the hand is over"), GLYPHS, NAMES) == "the hand is over"  # the engine's words


def test_actions_titles_and_lists_in_italian(italian):
    assert render(Acted(Action(1, "pass")), names=NAMES) == "Bea: passo"
    assert engine_words.action_words(Action(0, "call", card=Card("4", "S")), GLYPHS.card) == "chiamo 4♠"
    assert bid_words(Action(0, "bid", rank="2", target=75)) == "2 a 75"
    assert bid_words(Action(0, "pass")) == "passo"
    assert listing(["a", "b", "c"]) == "a, b e c"
    assert listing(["2", "3", "4"], "or") == "2, 3 o 4"
    assert TITLES["chiamata"] == "Briscola Chiamata"
    assert HEADLESS.suit("H") == "H (cuori)"


def test_card_names_follow_the_language_and_the_suit_names(italian):
    ace = Card("A", "S")
    assert Style(names="italian").card_name(ace) == "Asso di Spade"
    assert Style(names="french").card_name(ace) == "Asso di picche"
    assert Style(names="french").card_name(Card("Q", "H")) == "Donna di cuori"
    assert Style(names="italian").card_name(Card("Q", "H")) == "Cavallo di Coppe"
    assert Style(names="french").card_name(None) == "una carta coperta"
    assert Style(names="french", ascii=True).suit(None) == "nessuna"


def test_the_audits_reasons_in_italian_and_a_peers_words_as_they_are(italian):
    named = (Culprit(1, "sent a wrong key share", 4), Culprit(2, "some peer's own words", None))
    line = render(HandVoid(0, named), names=NAMES)
    assert (
        line
        == "mano 1 nulla: Bea: ha inviato una quota di chiave errata (voce 4 del registro); Carlo: some peer's own words"
    )
    late = engine_words.culprit_reason("left or withheld its reveal past the time limit")
    assert late == "è uscito o ha trattenuto il suo reveal oltre il tempo limite"


def test_english_is_unchanged():
    assert render(TrickTaken(0, CARDS, 2), names=NAMES) == "you take the trick (4S 5S) for 2 points"
    assert Style(names="french").card_name(Card("A", "S")) == "Ace of spades"
    assert Style(names="italian").card_name(Card("A", "S")) == "Asso di Spade"
    assert Style(names="french").card_name(None) == "a hidden card"
    assert listing(["2", "3", "4", "6"], "or") == "2, 3, 4 or 6"
    assert seat_names({}, 1) == ("seat 0",)


def _every_action():
    cards = (Card("A", "S"), Card("3", "D"), None)
    for seat in (0, 3):
        for kind in CARD_KINDS:
            yield from (Action(seat, kind, card=c) for c in cards[:2])
        yield from (Action(seat, kind) for kind in BARE_KINDS)
        yield from (Action(seat, "bid", rank=r) for r in "AK2")
        yield from (Action(seat, "bid", rank="2", target=t) for t in (61, 75))
        yield Action(seat, "bid", target=80)
        yield Action(seat, "bid")
        yield from (Action(seat, "bid", contract=c) for c in ("chiamo", "solo", "solissimo"))
        yield from (Action(seat, "raise", choice=c) for c in ("none", "dividete", "scegliete"))
        for kind in CARDS_KINDS:
            yield from (Action(seat, kind, cards=cs) for cs in ((), cards[:1], cards[:2]))
    for kind in ("draw", "monte", "dividete"):
        yield from (Action(-1, kind, cards=cs) for cs in ((), cards, cards[::-1]))
    yield from (Action(-1, "handover", card=cards[0], holder=h) for h in (None, 2))


@pytest.mark.parametrize("action", list(_every_action()), ids=str)
def test_every_action_in_english_is_the_engines_label(action):
    assert engine_words.action_words(action) == label(action)
    assert engine_words.action_words(action, GLYPHS.card) == label(action, GLYPHS.card)
    if action.kind in ("bid", "pass"):
        assert bid_words(action, GLYPHS) == label(action, GLYPHS.card).removeprefix("bid ")


# --- the engine's tables: every word there is listed for translation -------------------


def test_every_action_kind_has_its_words():
    assert set(KINDS) | set(CHANCE_KINDS) <= set(engine_words.ACTIONS)


def test_every_game_title_and_short_name_is_listed():
    for info in GAMES.values():
        assert info.title in engine_words.GAME_WORDS, info.title
        assert info.short in engine_words.GAME_WORDS, info.short


def test_every_french_suit_name_is_listed():
    assert {french for _, french in SUIT_NAMES.values()} == set(engine_words.SUIT_WORDS)


def test_every_result_key_has_its_words():
    for info in GAMES.values():
        for key in info.load().RESULT_KEYS:
            assert key == "side_points" or key in FACT_NAMES or key in YES_NO, (info.name, key)
    assert "black_hand" in FACT_NAMES  # briscola's optional fact


def _calls(folder: str, name: str):
    """Every call of `name(...)` in the sources under `folder`."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == name:
                yield path, node


def test_every_reason_the_audit_writes_is_translated(italian):
    found = 0
    for path, call in _calls("protocol", "Culprit"):
        if len(call.args) < 2:
            continue
        reason = call.args[1]
        if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
            sample = reason.value
        elif isinstance(reason, ast.JoinedStr):
            if not any(isinstance(v, ast.Constant) for v in reason.values):
                continue  # another message's words entirely
            sample = "".join(v.value if isinstance(v, ast.Constant) else "1" for v in reason.values)
        else:
            continue  # another error's words (data)
        found += 1
        assert engine_words.culprit_reason(sample) != sample, f"{path.name}: {sample!r} is not listed in engine_words"
    assert found >= 8


def test_every_rule_the_engine_refuses_by_is_written_in_words(italian):
    rules = {
        call.args[0].value
        for _, call in _calls("engine", "Refusal")
        if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value != "rule"
    }
    assert rules and rules <= set(engine_words.REFUSAL_RULES), rules - set(engine_words.REFUSAL_RULES)
    card, two = Card("4", "H"), Card("2", "H")
    for rule, seat in itertools.product(engine_words.REFUSAL_RULES, (0, 1)):
        reason = Refusal(rule, "ENGINE WORDS", seat=seat, card=card, cards=(two,), suit="H", rank="K")
        assert refusal(reason, GLYPHS, NAMES) != "ENGINE WORDS", rule
