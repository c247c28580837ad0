"""The translators' tool: find every word the program marks for translation and
keep each language's catalogue (`briscola_tui/locale/<code>/LC_MESSAGES/briscola.po`)
in step with the code.

    python -m briscola_tui.tools.catalogue update      # add new words, drop gone ones, in every catalogue
    python -m briscola_tui.tools.catalogue check       # exit 1 naming what is missing or wrong
    python -m briscola_tui.tools.catalogue new de      # start a catalogue for another language

The words are found in the source, not by running it, by Babel's extractor
(`babel.messages.extract.extract_python`): the calls `_("...")`, `N_("...")`,
`p_("context", "...")`, `n_("one", "several", n)` and `count(n, "noun"[, "nouns"])`
with literal strings (see `briscola_tui.language`); and the words argparse writes
itself ("usage: ", its errors). What Babel does not do stays ours: the calls in an
f-string's fields before Python 3.12, and `misuses` (words that cannot be looked up,
such as `_(f"...")`). Babel comes with the `test` extra: the game never runs this tool.
A new word gets an empty translation, which `check` reports and which shows in English
until it is filled in.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from babel.messages.extract import extract_python

from .. import po
from ..files.atomic import replace_file
from ..language import DOMAIN, LOCALE_DIR

PACKAGE = Path(__file__).resolve().parent.parent
ARGPARSE_WORDS = (
    "usage: ",
    "positional arguments",
    "options",
    "show this help message and exit",
    "show program's version number and exit",
    "the following arguments are required: %s",
    "unrecognized arguments: %s",
    "argument %(argument_name)s: %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)",
    "invalid %(type)s value: %(value)r",
    "expected one argument",
    "expected at most one argument",
    "expected at least one argument",
    "ambiguous option: %(option)s could match %(matches)s",
    "not allowed with argument %s",
    "one of the arguments %s is required",
    "ignored explicit argument %r",
    "%(prog)s: error: %(message)s\n",
)
"""The words of argparse a user meets (its help and its errors); argparse looks them up in
our catalogue (`language.choose`)."""
ARGPARSE_PLURALS = (("expected %s argument", "expected %s arguments"),)
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}|%\([a-z_]+\)[rsd]|%[rsd]")


@dataclass
class Message:
    msgid: str
    plural: str | None
    files: list[str]
    context: str | None = None  # p_("key", "move"): the same English with another meaning
    singular_use: bool = False  # marked as a word somewhere (`_`, `N_`, `p_`)
    plural_use: bool = False  # marked as a plural somewhere (`n_`, `count`)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid

    def named(self) -> str:
        return repr(self.msgid) if self.context is None else f"{self.msgid!r} ({self.context})"


KEYWORDS = ("_", "N_", "p_", "NP_", "n_", "count")
"""The markers (`briscola_tui.language`, `wording.count`) Babel's extractor looks for."""


Found = tuple[str | None, str, str | None, int]
"""A marked word: (context or None, msgid, plural or None, line)."""


def messages_in(source: str, filename: str) -> list[Found]:
    """The marked words of one source file, by line: what Babel's extractor finds (it reads the
    tokens: the calls whose words are literal strings), and before Python 3.12, whose tokenizer
    gives an f-string as one token, what it finds in each field of an f-string (`f"{_('win'):>6}"`)."""
    found = _extracted(source, 0)
    if sys.version_info < (3, 12):
        for node in ast.walk(ast.parse(source, filename)):
            if isinstance(node, ast.FormattedValue) and (field := ast.get_source_segment(source, node.value)):
                found += _extracted(field, node.value.lineno - 1)
    return sorted(found, key=lambda item: item[3])


def _extracted(source: str, lines_before: int) -> list[Found]:
    """What Babel's `extract_python` finds in `source` (one file, or one field of an f-string
    `lines_before` lines into its file), each call read by what its marker means."""
    found: list[Found] = []
    calls = extract_python(io.BytesIO(source.encode("utf-8")), dict.fromkeys(KEYWORDS), (), {})
    for line, name, words, _comments in calls:
        if line is None:  # (an f-string with fields inside the call: a misuse, said by `misuses`)
            continue
        args = words if isinstance(words, tuple) else (words,)  # (a word that is no literal string: None)
        line += lines_before
        if name in ("_", "N_") and isinstance(text := args[0], str):
            found.append((None, text, None, line))
        elif name in ("p_", "NP_") and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
            found.append((args[0], args[1], None, line))
        elif name == "n_" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
            found.append((None, args[0], args[1], line))
        elif name == "count" and len(args) >= 2 and isinstance(one := args[1], str):
            several = args[2] if len(args) > 2 else one + "s"  # count(n, "card"): "cards"
            if isinstance(several, str):
                found.append((None, one, several, line))
    return found


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def misuses(package: Path = PACKAGE) -> list[str]:
    """Marks the catalogue cannot work with: `_(f"...")` or `_("a" + b)` (the words to look up
    would differ with every value; write `_("... {name} ...").format(name=...)`), and `n_` or
    `count` whose words are not literal strings."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), relative)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _called(node)
            words = {
                "_": node.args[:1],
                "N_": node.args[:1],
                "p_": node.args[:2],
                "NP_": node.args[:2],
                "n_": node.args[:2],
                "count": node.args[1:3],
            }.get(name or "")
            if name == "count" and not isinstance(node.func, ast.Name):
                continue  # list.count(x), str.count(x): not ours
            if name == "n_" and relative == "briscola_tui/wording.py":
                continue  # count() itself, which passes on the literal nouns of its callers
            for arg in words or ():
                if isinstance(arg, ast.JoinedStr | ast.BinOp) or (
                    name in ("n_", "count", "p_", "NP_") and _literal(arg) is None
                ):
                    found.append(f"{relative}:{node.lineno}: {name}() of words that are not one literal string")
    return found


def extract(package: Path = PACKAGE) -> list[Message]:
    """Every marked word of the program, in the order the files (by path) first use them."""
    by_key: dict[tuple[str | None, str], Message] = {}

    def add(context: str | None, msgid: str, plural: str | None, where: str) -> None:
        message = by_key.setdefault((context, msgid), Message(msgid, plural, [], context))
        if where not in message.files:
            message.files.append(where)
        if message.plural is None and plural is not None:
            message.plural = plural
        if plural is None:
            message.singular_use = True
        else:
            message.plural_use = True

    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).as_posix()
        for context, msgid, plural, _line in messages_in(path.read_text(encoding="utf-8"), relative):
            add(context, msgid, plural, relative)
    for msgid in ARGPARSE_WORDS:
        add(None, msgid, None, "argparse")
    for one, several in ARGPARSE_PLURALS:
        add(None, one, several, "argparse")
    return list(by_key.values())


def header(code: str) -> po.Entry:
    return po.Entry(
        msgid="",
        msgstr=[
            "Project-Id-Version: briscola-tui\n"
            f"Language: {code}\n"
            "MIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=UTF-8\n"
            "Content-Transfer-Encoding: 8bit\n"
            "Plural-Forms: nplurals=2; plural=(n != 1);\n"
        ],
        comments=[f"# The {code} words of briscola-tui. Update with: python -m briscola_tui.tools.catalogue update"],
    )


def updated(entries: list[po.Entry], messages: list[Message], code: str) -> tuple[list[po.Entry], list[str]]:
    """The catalogue `entries` in step with `messages`: each message with the translation it had,
    new ones empty, in the code's order; and the ids of the entries dropped (no longer used)."""
    old: dict[tuple[str | None, str], po.Entry] = {}
    for e in entries:  # a word twice (two catalogues merged): the translated one
        if e.key not in old or not old[e.key].translated:
            old[e.key] = e
    head = old.pop((None, ""), None) or header(code)
    nplurals = 2
    if match := re.search(r"nplurals=(\d+)", head.msgstr[0]):
        nplurals = int(match.group(1))
    result = [head]
    for message in messages:
        entry = old.pop(message.key, None)
        flags = [c for c in entry.comments if c.startswith("#,")] if entry else []
        notes = [c for c in entry.comments if c.startswith("# ") or c == "#"] if entry else []
        comments = [*notes, "#: " + " ".join(message.files), *flags]
        if message.plural is None:
            msgstr = [entry.msgstr[0]] if entry and entry.plural is None else [""]
        else:
            had = entry.msgstr if entry and entry.plural is not None else []
            msgstr = (had + [""] * nplurals)[:nplurals]
        result.append(po.Entry(message.msgid, msgstr, message.plural, message.context, comments))
    return result, sorted(msgid for _context, msgid in old)


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def problems(entries: list[po.Entry], messages: list[Message]) -> list[str]:
    """What is wrong with a catalogue: words missing or untranslated, words no longer used, a
    translation whose placeholders are not the original's."""
    found = []
    have = {e.key: e for e in entries if e.msgid}
    wanted = {m.key for m in messages}
    for message in messages:
        entry = have.get(message.key)
        if message.singular_use and message.plural_use:
            found.append(
                f"both a word and a plural: {message.named()} ({', '.join(message.files)}): a plural entry is "
                "not found by _(); write n_(one, several, 1) where one is meant"
            )
        if entry is None:
            found.append(f"missing: {message.named()} ({', '.join(message.files)})")
        elif not entry.translated:
            found.append(f"not translated: {message.named()} ({', '.join(message.files)})")
    for (_context, msgid), entry in have.items():
        if (entry.context, msgid) not in wanted:
            found.append(f"no longer used: {msgid!r}")
            continue
        originals = [entry.msgid] if entry.plural is None else [entry.msgid, entry.plural]
        expected = set(placeholders(originals[-1])) | set(placeholders(originals[0]))
        for text in entry.msgstr:
            if text and not set(placeholders(text)) <= expected | {"{n}"}:
                found.append(f"placeholders differ: {msgid!r} -> {text!r}")
            if text and entry.plural is None and set(placeholders(text)) != set(placeholders(msgid)):
                found.append(f"placeholders differ: {msgid!r} -> {text!r}")
    return sorted(set(found))


def catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m briscola_tui.tools.catalogue", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update", help="bring every catalogue in step with the code")
    sub.add_parser("check", help="exit 1 naming every word missing, untranslated or wrong")
    merge = sub.add_parser("merge", help="fill the words still untranslated from other .po files")
    merge.add_argument("code", help="the catalogue's language: it")
    merge.add_argument("files", nargs="+", type=Path, help="the .po files to take translations from")
    new = sub.add_parser("new", help="start the catalogue of another language")
    new.add_argument("code", help="the language code: de, fr, es...")
    args = parser.parse_args(argv)
    messages = extract()
    if args.command == "new":
        path = LOCALE_DIR / args.code / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            print(f"{path} exists already; run update", file=sys.stderr)
            return 1
        path.parent.mkdir(parents=True, exist_ok=True)
        entries, _ = updated([], messages, args.code)
        replace_file(path, po.write(entries).encode(), mode=0o644)  # read by everyone, as the code is
        print(f"{path}: {len(messages)} words to translate")
        return 0
    if args.command == "merge":
        path = LOCALE_DIR / args.code / "LC_MESSAGES" / f"{DOMAIN}.po"
        entries = po.parse(path.read_text(encoding="utf-8"))
        for extra in args.files:
            entries += [e for e in po.parse(extra.read_text(encoding="utf-8")) if e.msgid and e.translated]
        entries, dropped = updated(entries, messages, args.code)
        replace_file(path, po.write(entries).encode(), mode=0o644)  # read by everyone, as the code is
        todo = sum(1 for e in entries[1:] if not e.translated)
        print(f"{path}: {len(messages)} words, {todo} to translate, {len(dropped)} not used")
        return 0
    status = 0
    for path in catalogues():
        code = path.parent.parent.name
        entries = po.parse(path.read_text(encoding="utf-8"))
        if args.command == "update":
            entries, dropped = updated(entries, messages, code)
            replace_file(path, po.write(entries).encode(), mode=0o644)  # read by everyone, as the code is
            todo = sum(1 for e in entries[1:] if not e.translated)
            print(f"{path}: {len(messages)} words, {todo} to translate, {len(dropped)} dropped")
        else:
            found = problems(entries, messages) + misuses()
            in_step = po.write(updated(entries, messages, code)[0]) == path.read_text(encoding="utf-8")
            if not in_step:
                found.append("the file is not as update writes it: run update")
            for line in found:
                print(f"{path}: {line}")
            status = status or (1 if found else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
