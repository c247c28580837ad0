"""A move as a player types it at a headless seat (`briscola join --headless`): in the
current language or in English. `engine.labels` reads and writes the English labels
(`play 3S`, `pass`, `bid 2 target 75`); here a label is shown as the player types it
(`typed_label`: "gioca 3S"), a typed line is read back to the label (`read_typed`), and why a
line is no move is said in the player's words (`move_error`)."""

from __future__ import annotations

import dataclasses

from ..engine_words import ERRORS, error_words
from ..language import _, p_
from ..render import refusal

ENGLISH = ("play", "call", "return", "pass", "exchange", "declare", "bid", "raise", "discard", "take", "none", "target")
"""The words of a typed move in English (`engine.labels`), always accepted."""


def _typed() -> dict[str, str]:
    """The words of a typed move (`play 3S`, `discard none`, `bid 2 target 75`) as a player types
    them in the current language: each translation lists the forms it accepts, split by "|",
    the first shown ("gioca|gioco")."""
    return {
        "play": p_("typed", "play"),
        "call": p_("typed", "call"),
        "return": p_("typed", "return"),
        "pass": p_("typed", "pass"),
        "exchange": p_("typed", "exchange"),
        "declare": p_("typed", "declare"),
        "bid": p_("typed", "bid"),
        "raise": p_("typed", "raise"),
        "discard": p_("typed", "discard"),
        "take": p_("typed", "take"),
        "none": p_("typed", "none"),
        "target": p_("typed", "target"),
    }


def _forms(word: str) -> list[str]:
    return [form.strip().lower() for form in _typed()[word].split("|") if form.strip()] or [word]


def typed_label(label: str) -> str:
    """A move's label (`engine.labels.label`: "play 3S") as a player types it in the current
    language ("gioca 3S"): its verb, and `none` and `target`, in the first form `TYPED` gives."""
    return " ".join(_forms(word)[0] if word in ENGLISH else word for word in label.split())


def read_typed(text: str) -> str:
    """A move typed in the current language or in English, as `engine.labels.parse` reads it
    ("gioca 3S" is "play 3S"). A lone "chiamo" stays: it is a contract (`bid chiamo`)."""
    words = text.split()
    if words == ["chiamo"] or not words:
        return text
    out = []
    for position, word in enumerate(words):
        found = next((k for k in ENGLISH if word.lower() in _forms(k) and word.lower() not in ENGLISH), None)
        if found is not None and (position == 0) == (found not in ("none", "target")):
            word = found
        out.append(word)
    return " ".join(out)


def move_error(error: Exception) -> str:
    """Why a typed move is none (`engine.labels.LabelError`) in the player's words: the moves
    it names as the player types them (`typed_label`), the rule an illegal one
    breaks by `refusal`."""
    fields, template = getattr(error, "fields", None), getattr(error, "template", None)
    if not isinstance(fields, dict) or not isinstance(template, str) or template not in ERRORS:
        return error_words(error)
    fields = dict(fields)
    for name in ("kind", "label", "hint"):
        if name in fields:
            fields[name] = typed_label(str(fields[name]))
    if "legal" in fields:
        fields["legal"] = ", ".join(typed_label(label) for label in str(fields["legal"]).split(", "))
    if "kinds" in fields:
        fields["kinds"] = ", ".join(typed_label(kind) for kind in str(fields["kinds"]).split(", "))
    found = getattr(error, "refusal", None)
    if found is not None and "why" in fields:
        if found.kind is not None:  # the kind as the player types it
            found = dataclasses.replace(found, kind=typed_label(found.kind))
        fields["why"] = refusal(found)
    return _(template).format(**fields)
