"""The languages: gettext catalogues as .po text (briscola_tui/po.py), the language chosen
from the setting or the environment (briscola_tui/language.py), and the catalogue in step
with the code (briscola_tui/tools/catalogue.py): every word marked is translated."""

from __future__ import annotations

import gettext
import io

import pytest

from briscola_tui import language, po
from briscola_tui.tools import catalogue
from briscola_tui.wording import count

SAMPLE = r"""# a note for the translator
msgid ""
msgstr ""
"Language: it\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: briscola_tui/render.py
msgid "{name} takes the trick"
msgstr "{name} prende la presa"

msgid "hand"
msgid_plural "hands"
msgstr[0] "mano"
msgstr[1] "mani"

msgid "a \"quoted\"\tword\n"
"on two lines"
msgstr "una parola \"tra virgolette\"\tsu\n"
"due righe"

#, fuzzy
msgid "not sure"
msgstr "non so"

msgid "left empty"
msgstr ""
"""


def test_a_po_text_reads_back_as_it_was_written():
    entries = po.parse(SAMPLE)
    assert [e.msgid for e in entries] == [
        "",
        "{name} takes the trick",
        "hand",
        'a "quoted"\tword\non two lines',
        "not sure",
        "left empty",
    ]
    assert entries[2].plural == "hands" and entries[2].msgstr == ["mano", "mani"]
    assert entries[4].fuzzy and not entries[4].translated and not entries[5].translated
    assert po.parse(po.write(entries)) == entries


def test_the_mo_bytes_translate_through_the_standard_library():
    translation = gettext.GNUTranslations(io.BytesIO(po.mo_bytes(po.parse(SAMPLE))))
    assert translation.gettext("{name} takes the trick") == "{name} prende la presa"
    assert translation.ngettext("hand", "hands", 1) == "mano"
    assert translation.ngettext("hand", "hands", 3) == "mani"
    assert translation.gettext('a "quoted"\tword\non two lines') == 'una parola "tra virgolette"\tsu\ndue righe'
    assert translation.gettext("not sure") == "not sure"  # fuzzy: the English shows
    assert translation.gettext("left empty") == "left empty"


@pytest.mark.parametrize(
    "text", ['msgid "x"\nmsgstr "y', 'msgstr "no msgid"', '"a string"\n', 'msgid "x"\nmsgwhat "y"', 'msgid "x"']
)
def test_a_text_that_is_not_a_catalogue_is_refused_with_its_line(text):
    with pytest.raises(po.PoError):
        po.parse(text)


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LC_MESSAGES": "it_CH.UTF-8", "LANG": "en_US.UTF-8"}, "it"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "it_IT.UTF-8"}, "en"),
        ({"LANGUAGE": "de:it", "LANG": "en_US.UTF-8"}, "it"),  # the first there are words for
        ({"LANGUAGE": "en", "LANG": "it_IT.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_environment_chooses_the_language_as_gettext_reads_it(environ, expected):
    assert language.from_environment(environ) == expected


def test_the_setting_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "it")
    try:
        assert language.choose("auto") == "it" and count(3, "hand") == "3 mani"
        assert language.choose("en") == "en" and count(3, "hand") == "3 hands"
        monkeypatch.setenv("LANGUAGE", "en")
        assert language.choose("it") == "it" and count(1, "hand") == "1 mano"
    finally:
        language.choose("en")


def test_a_broken_catalogue_means_english_not_a_crash(tmp_path, monkeypatch):
    folder = tmp_path / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "briscola.po").write_text('msgid "hand"\nmsgstr "mano', encoding="utf-8")
    monkeypatch.setattr(language, "LOCALE_DIR", tmp_path)
    try:
        assert language.choose("it") == "en"
        assert count(2, "hand") == "2 hands"
    finally:
        monkeypatch.undo()
        language.choose("en")


def test_argparse_speaks_the_language_chosen(italian, capsys):
    from briscola_tui.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["--no-such-flag"])
    err = capsys.readouterr().err
    assert "argomenti non riconosciuti" in err and "uso:" in err


@pytest.mark.slow
def test_every_word_the_program_marks_is_translated_in_every_catalogue():
    """What `python -m briscola_tui.tools.catalogue check` says: nothing missing, nothing
    untranslated, nothing left over, the placeholders of each translation the original's."""
    messages = catalogue.extract()
    assert len(messages) > 300
    for path in catalogue.catalogues():
        entries = po.parse(path.read_text(encoding="utf-8"))
        assert catalogue.problems(entries, messages) == []
        assert po.write(catalogue.updated(entries, messages, path.parent.parent.name)[0]) == path.read_text(
            encoding="utf-8"
        ), "run: python -m briscola_tui.tools.catalogue update"
    assert catalogue.misuses() == []


def test_the_words_are_found_as_written_in_fields_of_f_strings_and_across_lines():
    """What the extraction (Babel's, and ours in f-strings' fields) finds: every marker, its
    context and plural, in the order written, each line where it is."""
    source = '''x = f"  {_('choice'):<22}{count(n, 'hand')}" + f"""{f'{_("deep")}'}"""
y = (_("first") if a else _("second").format(), p_("key", "move"), NP_("verb", "move"))
z = n_(
    "one card",
    "{n} cards",
    n,
)
w = _("joined " "across"), count(k, "ox", "oxen"), _(name), n_(one, "x", 2), text.count("a")
'''
    assert catalogue.messages_in(source, "a.py") == [
        (None, "choice", None, 1),
        (None, "hand", "hands", 1),
        (None, "deep", None, 1),
        (None, "first", None, 2),
        (None, "second", None, 2),
        ("key", "move", None, 2),
        ("verb", "move", None, 2),
        (None, "one card", "{n} cards", 4),  # (the line of its first word)
        (None, "joined across", None, 8),
        (None, "ox", "oxen", 8),
    ]


def test_the_check_catches_what_it_should(tmp_path):
    source = tmp_path / "briscola_tui"
    source.mkdir()
    (source / "a.py").write_text(
        'print(_("hello {name}").format(name=x), _(f"bad {x}"), n_("one", "many", k), count(k, "card"))\n',
        encoding="utf-8",
    )
    messages = catalogue.extract(source)
    ids = {m.msgid: m.plural for m in messages}
    assert ids["hello {name}"] is None and ids["one"] == "many" and ids["card"] == "cards"
    assert catalogue.misuses(source) == ["briscola_tui/a.py:1: _() of words that are not one literal string"]
    entries = [
        po.Entry("hello {name}", ["ciao {nome}"]),
        po.Entry("one", ["uno", ""], plural="many"),
        po.Entry("gone", ["andato"]),
    ]
    found = catalogue.problems(entries, messages)
    assert "placeholders differ: 'hello {name}' -> 'ciao {nome}'" in found
    assert "not translated: 'one' (briscola_tui/a.py)" in found
    assert "missing: 'card' (briscola_tui/a.py)" in found
    assert "no longer used: 'gone'" in found
