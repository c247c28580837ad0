"""Gettext catalogues as text: read a `.po` file into its entries, write one
back, and build the binary `.mo` form that the standard library's
`gettext.GNUTranslations` reads.

The program reads the `.po` files themselves (built into `.mo` bytes in
memory when a language is chosen), so a translator edits one text file and
sees the result at the next start, with no compile step and no binary file
in the repository. Poedit, Weblate and `msgfmt` read and write the same files.
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field

__all__ = ["Entry", "PoError", "mo_bytes", "parse", "write"]


class PoError(ValueError):
    """A `.po` text that is not a catalogue (the line number is in the message)."""


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


def _string(text: str, number: int) -> str:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError) as error:
        raise PoError(f"line {number}: not a quoted string: {text[:40]!r}") from error
    if not isinstance(value, str):
        raise PoError(f"line {number}: not a quoted string: {text[:40]!r}")
    return value


def _extend(entry: Entry, name: str, piece: str) -> None:
    """A continuation line's `piece` added to the entry's `name` field (context, msgid or plural)."""
    if name == "context":
        entry.context = (entry.context or "") + piece
    elif name == "plural":
        entry.plural = (entry.plural or "") + piece
    else:
        entry.msgid += piece


def _set(entry: Entry, keyword: str, value: str, number: int) -> tuple[str, int]:
    """The field `keyword` (on line `number`) names set to `value`; that field, which the
    continuation lines that follow extend."""
    if keyword == "msgctxt":
        entry.context = value
        return "context", 0
    if keyword == "msgid":
        entry.msgid = value
        return "msgid", 0
    if keyword == "msgid_plural":
        entry.plural = value
        return "plural", 0
    if keyword == "msgstr":
        entry.msgstr = [value]
        return "msgstr", 0
    if keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
        index = int(keyword[7:-1])
        if index != len(entry.msgstr):
            raise PoError(f"line {number}: {keyword} out of order")
        entry.msgstr.append(value)
        return "msgstr", index
    raise PoError(f"line {number}: unknown keyword {keyword!r}")


def parse(text: str) -> list[Entry]:
    """The entries of a `.po` text, the header (msgid "") first if it has one. Obsolete
    entries (`#~`) are dropped."""
    entries: list[Entry] = []
    comments: list[str] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None  # the field the next continuation line extends

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if current is not None and target is not None and target[0] != "comments":
                finish()
            comments.append(line)
            target = ("comments", 0)
            continue
        if line.startswith('"'):
            if current is None or target is None or target[0] == "comments":
                raise PoError(f"line {number}: a string continues nothing")
            piece = _string(line, number)
            name, index = target
            if name == "msgstr":
                current.msgstr[index] += piece
            else:
                _extend(current, name, piece)
            continue
        keyword, _, rest = line.partition(" ")
        value = _string(rest.strip(), number)
        if keyword == "msgctxt" or (
            keyword == "msgid" and (current is None or target is None or target[0] != "context")
        ):
            finish()
            current = Entry(msgid="", msgstr=[], comments=comments)
            comments = []
        if current is None:
            raise PoError(f"line {number}: {keyword} before msgid")
        target = _set(current, keyword, value, number)
    finish()
    for entry in entries:
        if not entry.msgstr:
            raise PoError(f"msgid {entry.msgid[:40]!r} has no msgstr")
    return entries


def _quoted(keyword: str, value: str) -> list[str]:
    def q(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n") + '"'

    if "\n" not in value.rstrip("\n"):
        return [f"{keyword} {q(value)}"]
    pieces = value.splitlines(keepends=True)
    return [f'{keyword} ""', *(q(p) for p in pieces)]


def write(entries: list[Entry]) -> str:
    """The `.po` text of `entries` (as `parse` reads it back)."""
    blocks = []
    for entry in entries:
        lines = list(entry.comments)
        if entry.context is not None:
            lines += _quoted("msgctxt", entry.context)
        lines += _quoted("msgid", entry.msgid)
        if entry.plural is not None:
            lines += _quoted("msgid_plural", entry.plural)
            for index, value in enumerate(entry.msgstr):
                lines += _quoted(f"msgstr[{index}]", value)
        else:
            lines += _quoted("msgstr", entry.msgstr[0])
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU `.mo` form of the translated entries (and the header), for
    `gettext.GNUTranslations`: the untranslated and fuzzy ones are left out, so
    their English shows."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.msgid and not entry.translated:
            continue
        key = entry.msgid if entry.plural is None else entry.msgid + "\0" + entry.plural
        if entry.context is not None:
            key = entry.context + "\x04" + key
        pairs[key.encode()] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    header_size = 7 * 4
    ids_at = header_size
    strs_at = ids_at + 8 * len(keys)
    data_at = strs_at + 8 * len(keys)
    ids, strs, data = [], [], b""
    for encoded in keys:
        ids.append((len(encoded), data_at + len(data)))
        data += encoded + b"\0"
    for encoded in keys:
        value = pairs[encoded]
        strs.append((len(value), data_at + len(data)))
        data += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), ids_at, strs_at, 0, data_at)
    out += b"".join(struct.pack("<2I", *pair) for pair in ids)
    out += b"".join(struct.pack("<2I", *pair) for pair in strs)
    return out + data
