"""The errors and reasons that come from the engine and the protocol are data, worded by the
product: each template the engine raises (`engine.coded.CodedError`) is listed for the
catalogue, each reason code (`protocol.reasons`) has its words, a reason goes on the wire as
a code and comes back the same, and a text that is no code is shown as the peer's words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from briscola_tui import engine_words
from engine import labels, text
from engine.game import OptionError
from engine.games import make
from protocol import reasons
from protocol.reasons import MAX_REASON, REASONS, SEPARATOR, Reason, fields_of

ROOT = Path(__file__).resolve().parents[1]
CODED = {"OptionError", "ReplayInputError", "LabelError", "CodedError", "ActionError"}


def _raised_templates() -> set[str]:
    """The first argument of every CodedError the engine builds: a string, a module constant,
    or a string with a tail added (`"..." + more`: both forms)."""
    found: set[str] = set()
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            t.id: n.value
            for n in tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant | ast.JoinedStr | ast.BinOp)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in CODED and node.args:
                first = node.args[0]
                if isinstance(first, ast.Name) and first.id in constants:
                    first = constants[first.id]
                found |= _strings(first)
    return found


def _strings(node) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.BinOp):  # "..." + more, more "" or a tail the test knows
        return {s + tail for s in _strings(node.left) for tail in ("", ", ... ({n} in all)")}
    return set()


def test_every_template_the_engine_raises_is_listed_for_the_catalogue():
    raised = _raised_templates()
    assert len(raised) > 30
    assert raised <= set(engine_words.ERRORS), raised - set(engine_words.ERRORS)


def test_every_reason_code_has_its_words_and_the_same_english():
    assert set(engine_words.REASONS) == set(REASONS)
    for code, english in REASONS.items():
        assert engine_words.REASONS[code] == english, code


def test_a_reason_goes_on_the_wire_as_a_code_and_comes_back():
    reason = Reason.of("seat-taken", seat=2)
    assert reason.wire() == "seat-taken\x1f2"
    assert reasons.read(reason.wire()) == reason
    assert str(reason) == "seat 2 is taken"
    assert reasons.read("no-free-seat") == Reason("no-free-seat")
    # A release from before the codes sent the English of a code without fields: read so.
    assert reasons.read("wrong join code") == Reason("wrong-code")
    # Anything else is no code: a peer's own words.
    assert reasons.read("seat 2 is taken") is None
    assert reasons.read("seat-taken") is None  # a field short
    assert reasons.read("seat-taken\x1f2\x1f3") is None  # a field too many
    # A field cannot break the form, and the whole is bounded.
    assert Reason.of("seat-taken", seat="a\x1fb").values == ("a b",)
    assert len(Reason.of("malformed", detail="x" * 5000).wire()) <= MAX_REASON
    assert all(SEPARATOR not in code for code in REASONS) and all(fields_of(code) is not None for code in REASONS)


def test_a_reason_in_english_and_a_peers_words_marked(italian):
    assert engine_words.reason_words("seat-taken\x1f4") == "il posto 4 è occupato"
    assert engine_words.reason_words("wrong join code") == "codice d'accesso errato"
    shown = engine_words.reason_words("\x1b[31mbye" + "x" * 400)
    assert shown.startswith("«\\x1b[31mbye") and shown.endswith("(parole dell'altro nodo, così come le ha scritte)")
    assert len(shown) < MAX_REASON + 80
    assert engine_words.reason_words("bad-name\x1f Ann") == "nome: un nome non può cominciare o finire con uno spazio"


def test_an_option_error_is_data_and_worded_in_the_language(italian):
    with pytest.raises(OptionError) as error:
        make("chiamata", 3)
    assert error.value.template == "{game} is played by {allowed} players, not {given}"
    assert error.value.fields == {"game": "chiamata", "allowed": "5", "given": "3"}
    assert str(error.value) == "chiamata is played by 5 players, not 3"  # the engine's English
    assert engine_words.error_words(error.value) == "chiamata si gioca in 5, non in 3"


def test_every_reason_a_name_is_refused_for_is_listed():
    source = (ROOT / "engine" / "text.py").read_text(encoding="utf-8")
    whats = {w for _, _, w in text._CONTROLS + text._NOT_IN_NAMES}
    assert whats <= set(engine_words.CHARACTERS), whats - set(engine_words.CHARACTERS)
    returned = {
        node.elts[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Tuple) and node.elts and isinstance(node.elts[0], ast.Constant)
        if isinstance(node.elts[0].value, str) and node.elts[0].value.startswith("a name")
    }
    assert returned and returned <= set(engine_words.NAME_FAULTS), returned - set(engine_words.NAME_FAULTS)
    assert labels.LabelError("the hand is over").template in engine_words.ERRORS
