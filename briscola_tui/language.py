"""The language of the words: English (the words written in the code) or a
language with a catalogue in `briscola_tui/locale/<code>/LC_MESSAGES/briscola.po`
(Italian today).

Which one: the `language` setting, or with it on "auto" the environment as
gettext reads it (LANGUAGE, then LC_ALL, LC_MESSAGES, LANG; "C" and "POSIX" are
English). `choose` sets it for the whole process; the words are looked up when
they are written, so a change shows on what is drawn next.

The code marks its words for translation with
- `_("words")`: translated where they are written;
- `n_("1 hand", "{n} hands", n)`: by number (Italian has two forms, some
  languages more);
- `N_("words")`: marked where they are defined (a table of labels at module
  level), translated with `_` where they are shown;
- `wording.count(n, "hand")`: a number and its noun.
`python -m briscola_tui.tools.catalogue` finds them all, writes the template
(`locale/briscola.pot`) and updates each catalogue; tests/test_language.py
fails when a word is not in a catalogue. Placeholders are `{name}` fields,
so a translation can put them in its own order.
"""

from __future__ import annotations

import argparse
import functools
import gettext
import io
import os
from pathlib import Path

from . import po

__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "NP_", "N_", "_", "available", "choose", "current", "n_", "p_"]

DOMAIN = "briscola"
LOCALE_DIR = Path(__file__).parent / "locale"
ENGLISH = "en"
LANGUAGE_NAMES = {"en": "English", "it": "italiano"}
"""Each language's name in itself, as the settings screen offers it."""

_translation: gettext.NullTranslations = gettext.NullTranslations()
_current = ENGLISH


def available() -> tuple[str, ...]:
    """The languages there are words for: English and each language with a catalogue."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (ENGLISH, *found)


LANGUAGES = ("auto", ENGLISH, "it")
"""The values of the `language` setting: auto (from the environment), then each language."""


def from_environment(environ: os._Environ | dict[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first of LANGUAGE (a
    list: `it:en`), LC_ALL, LC_MESSAGES and LANG that is set, and in it the first language
    there are words for (`it_IT.UTF-8` is `it`). English when none is."""
    environ = os.environ if environ is None else environ
    known = available()
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0]
            if code in ("C", "POSIX"):
                return ENGLISH
            for candidate in (code, code.split("_")[0]):
                if candidate in known:
                    return candidate
        if variable != "LANGUAGE":  # LANGUAGE names choices; the others one locale
            return ENGLISH
    return ENGLISH


def _catalogue(code: str) -> gettext.NullTranslations:
    if code == ENGLISH:
        return gettext.NullTranslations()
    return _read(LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po")


@functools.cache  # once a process: the command line and the app both choose (about 17 ms a reading)
def _read(path: Path) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(po.mo_of(path.read_text(encoding="utf-8"))))


def choose(setting: str = "auto") -> str:
    """Speak `setting` (a language code, or "auto": as the environment says) from now on, in
    this process; return the code chosen. A language without words, or a catalogue that cannot
    be read, is English (a broken catalogue must not stop the game)."""
    global _translation, _current
    code = from_environment() if setting == "auto" else setting
    try:
        translation = _catalogue(code) if code in available() else gettext.NullTranslations()
    except (OSError, UnicodeDecodeError, po.PoError):
        translation, code = gettext.NullTranslations(), ENGLISH
    _translation, _current = translation, code if code in available() else ENGLISH
    # argparse writes its own words ("usage:", "options:", its errors) through gettext's
    # module-level functions, which read only the environment: give it ours.
    vars(argparse).update(_=_translation.gettext, ngettext=_translation.ngettext)
    return _current


def current() -> str:
    """The language the words are in now ("en", "it")."""
    return _current


def _(message: str) -> str:
    """`message` in the current language."""
    return _translation.gettext(message)


def n_(one: str, several: str, n: int) -> str:
    """`one` or `several` in the current language, as `n` asks (with `{n}` still to fill)."""
    return _translation.ngettext(one, several, n)


def N_(message: str) -> str:
    """`message` as it is: marks it for the catalogue, to be translated with `_` where shown."""
    return message


def p_(context: str, message: str) -> str:
    """`message` in the current language, in the sense `context` names: the same English word
    with two meanings (`p_("key", "move")`, the arrows' verb, beside "move", a noun)."""
    return _translation.pgettext(context, message)


def NP_(context: str, message: str) -> str:
    """`message` as it is, marked with its `context` for the catalogue (see `N_` and `p_`)."""
    return message
