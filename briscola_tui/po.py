"""Gettext catalogues as text, through polib (docs/dependencies.md): read a `.po` file into
its entries, write one back, and build the binary `.mo` form that the standard library's
`gettext.GNUTranslations` reads.

The program reads the `.po` files themselves (built into `.mo` bytes in memory when a
language is chosen), so a translator edits one text file and sees the result at the next
start, with no compile step and no binary file in the repository. Poedit, Weblate and
`msgfmt` read and write the same files. An `Entry` is the plain data the translators' tool
(tools/catalogue.py) works on; polib parses, quotes and packs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polib

__all__ = ["Entry", "PoError", "mo_bytes", "mo_of", "parse", "write"]


class PoError(ValueError):
    """A `.po` text that is not a catalogue (polib's words say where)."""


@dataclass
class Entry:
    """One message: its id (and plural id), its translations, and the comments above it.
    `msgstr` holds one translation, or one per plural form (`msgstr[0]`, `msgstr[1]`...)."""

    msgid: str
    msgstr: list[str] = field(default_factory=lambda: [""])
    plural: str | None = None
    context: str | None = None
    comments: list[str] = field(default_factory=list)  # "#." for translators, "#:" where, "#," flags

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid

    @property
    def fuzzy(self) -> bool:
        return any(c.startswith("#,") and "fuzzy" in c for c in self.comments)

    @property
    def translated(self) -> bool:
        return not self.fuzzy and all(self.msgstr)


def mo_of(text: str) -> bytes:
    """The `.mo` form of a `.po` text, read straight by polib (what a language chosen loads,
    at start-up: no `Entry` made on the way); PoError as `parse`."""
    _check_lines(text)
    try:
        return polib.pofile(text, wrapwidth=0).to_binary()
    except (OSError, ValueError) as error:
        raise PoError(str(error)) from None


def parse(text: str) -> list[Entry]:
    """The entries of a `.po` text, the header (msgid "") first if it has one. Obsolete
    entries (`#~`) are dropped. polib forgives what `msgfmt` refuses (a string left open, a
    msgid with no msgstr: the translation typed would vanish in silence): those are PoError here."""
    _check_lines(text)
    try:
        catalogue = polib.pofile(text, wrapwidth=0)
    except (OSError, ValueError) as error:  # (polib raises OSError for a text it cannot parse)
        raise PoError(str(error)) from None
    entries = [_header(catalogue)] if catalogue.metadata or catalogue.header else []
    return entries + [_entry(e) for e in catalogue if not e.obsolete]


def _check_lines(text: str) -> None:
    """Every line that is not a comment ends its quoted string, and every msgid has its msgstr."""
    msgids = msgstrs = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not _closed(line):
            raise PoError(f"line {number}: a string not closed: {line[:40]!r}")
        msgids += line.startswith("msgid ")
        msgstrs += line.startswith(("msgstr ", "msgstr[0]"))
    if msgids != msgstrs:
        raise PoError(f"{msgids} msgid and {msgstrs} msgstr: a msgid without its msgstr")


def _closed(line: str) -> bool:
    """The line's quoted string ends on it: a last quote that no backslash escapes, after the first."""
    body = line[:-1]
    escapes = len(body) - len(body.rstrip("\\"))
    return line.endswith('"') and line.count('"') >= 2 and escapes % 2 == 0


def _header(catalogue: polib.POFile) -> Entry:
    comments = ["# " + line if line else "#" for line in catalogue.header.split("\n")] if catalogue.header else []
    if catalogue.metadata_is_fuzzy:
        comments.append("#, fuzzy")
    text = "".join(f"{key}: {value}\n" for key, value in catalogue.ordered_metadata())
    return Entry("", [text], comments=comments)


def _entry(e: polib.POEntry) -> Entry:
    comments = ["# " + line if line else "#" for line in e.tcomment.split("\n")] if e.tcomment else []
    comments += ["#. " + line for line in e.comment.split("\n")] if e.comment else []
    if e.occurrences:
        comments.append("#: " + " ".join(f"{where}:{line}" if line else where for where, line in e.occurrences))
    if e.flags:
        comments.append("#, " + ", ".join(e.flags))
    if e.msgid_plural:
        msgstr = [e.msgstr_plural[i] for i in sorted(e.msgstr_plural)]
        return Entry(e.msgid, msgstr, e.msgid_plural, e.msgctxt, comments)
    return Entry(e.msgid, [e.msgstr], None, e.msgctxt, comments)


def _catalogue(entries: list[Entry]) -> polib.POFile:
    catalogue = polib.POFile(wrapwidth=0)
    for entry in entries:
        tcomment = "\n".join(
            c[2:] if c.startswith("# ") else "" for c in entry.comments if c.startswith("# ") or c == "#"
        )
        flags = [f.strip() for c in entry.comments if c.startswith("#,") for f in c[2:].split(",") if f.strip()]
        if not entry.msgid and entry.context is None:
            catalogue.header = tcomment
            catalogue.metadata_is_fuzzy = "fuzzy" in flags
            for line in entry.msgstr[0].splitlines():
                key, _, value = line.partition(":")
                catalogue.metadata[key.strip()] = value.strip()
            continue
        catalogue.append(
            polib.POEntry(
                msgid=entry.msgid,
                msgctxt=entry.context,
                msgid_plural=entry.plural or "",
                msgstr="" if entry.plural is not None else entry.msgstr[0],
                msgstr_plural=dict(enumerate(entry.msgstr)) if entry.plural is not None else {},
                tcomment=tcomment,
                comment="\n".join(c[3:] for c in entry.comments if c.startswith("#.")),
                occurrences=[(w, "") for c in entry.comments if c.startswith("#:") for w in c[2:].split()],
                flags=flags,
            )
        )
    return catalogue


def write(entries: list[Entry]) -> str:
    """The `.po` text of `entries` (as `parse` reads it back)."""
    return str(_catalogue(entries))


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU `.mo` form of the translated entries (and the header), for
    `gettext.GNUTranslations`: the untranslated and fuzzy ones are left out, so their
    English shows."""
    return _catalogue(entries).to_binary()
