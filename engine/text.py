"""Text that comes from elsewhere (a peer, the host, a file), made safe to show, and the
rule for a seat's name.

`visible(text)` shows every control character as its escape (`\\x1b`, `\\n`,
`\\u202e`), so one line stays one line and no terminal sequence reaches the terminal.
`name_problem(name)` says why a name cannot sit at a table (None when it can): the
handshake checks a hello's name with it, and every node checks each join's name with it.

Pure and standard library only, so the protocol (which checks names) and the app (which
shows names and reasons) share it, and loading it costs the command line nothing. The
character tables are written out here rather than asked of `unicodedata` by category: a
join's name is in the transcript, and every node must judge it alike whatever Python
(and so whatever Unicode database) it runs. (Only the NFC check asks `unicodedata`; it
can differ between Unicode versions only for a character one of them does not know.)
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 20
"""Characters in a name at most (the lobby's name column at 80 columns)."""

_CONTROLS = (
    # (first, last, what): shown escaped by `visible`, refused in a name
    (0x00, 0x1F, "a control character"),  # C0: NUL ... tab, newline, CR, ESC
    (0x7F, 0x9F, "a control character"),  # DEL, C1 (CSI 0x9b, OSC 0x9d ...)
    (0xAD, 0xAD, "a formatting character"),  # soft hyphen
    (0x600, 0x605, "a formatting character"),
    (0x61C, 0x61C, "a bidi control"),  # Arabic letter mark
    (0x6DD, 0x6DD, "a formatting character"),
    (0x70F, 0x70F, "a formatting character"),
    (0x890, 0x891, "a formatting character"),
    (0x8E2, 0x8E2, "a formatting character"),
    (0x180E, 0x180E, "a formatting character"),
    (0x200B, 0x200D, "a zero-width character"),  # zero-width space, non-joiner, joiner
    (0x200E, 0x200F, "a bidi control"),  # LRM, RLM
    (0x2028, 0x2029, "a line break"),  # line and paragraph separators
    (0x202A, 0x202E, "a bidi control"),  # embeddings and overrides
    (0x2060, 0x2065, "a zero-width character"),  # word joiner, invisible operators
    (0x2066, 0x2069, "a bidi control"),  # isolates
    (0x206A, 0x206F, "a formatting character"),
    (0xD800, 0xDFFF, "a surrogate"),  # (a file name may give one; it cannot be printed)
    (0xFEFF, 0xFEFF, "a zero-width character"),  # BOM
    (0xFFF9, 0xFFFB, "a formatting character"),
    (0x110BD, 0x110BD, "a formatting character"),
    (0x110CD, 0x110CD, "a formatting character"),
    (0x13430, 0x1343F, "a formatting character"),
    (0x1BCA0, 0x1BCA3, "a formatting character"),
    (0x1D173, 0x1D17A, "a formatting character"),
    (0xE0000, 0xE007F, "a formatting character"),  # tags
)
_NOT_IN_NAMES = (
    # printable, but no part of a name: they hide it or make it look like another
    (0xA0, 0xA0, "a space other than the plain one"),
    (0x1680, 0x1680, "a space other than the plain one"),
    (0x2000, 0x200A, "a space other than the plain one"),
    (0x202F, 0x202F, "a space other than the plain one"),
    (0x205F, 0x205F, "a space other than the plain one"),
    (0x3000, 0x3000, "a space other than the plain one"),
    (0x115F, 0x1160, "a blank filler"),
    (0x2800, 0x2800, "a blank filler"),
    (0x3164, 0x3164, "a blank filler"),
    (0xFFA0, 0xFFA0, "a blank filler"),
    (0xE000, 0xF8FF, "a private-use character"),
    (0xF0000, 0x10FFFF, "a private-use character"),
    (0xFDD0, 0xFDEF, "a noncharacter"),
    *((plane + 0xFFFE, plane + 0xFFFF, "a noncharacter") for plane in range(0, 0xF0000, 0x10000)),
)


def _class(ranges: tuple[tuple[int, int, str], ...]) -> re.Pattern:

    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b, _ in ranges) + "]")


_CONTROL = _class(_CONTROLS)
_REFUSED = _class(_CONTROLS + _NOT_IN_NAMES)
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape(char: str) -> str:
    """One character as Python writes it in a string: `\\x1b`, `\\n`, `\\u202e`."""
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, keep: str = "") -> str:
    """`text` with every control character (C0 with tab, newline, CR and ESC; DEL; C1), bidi
    control, zero-width or other formatting character, line separator and surrogate shown as
    its escape; those in `keep` (e.g. "\\n" for a text of several lines) stay as they are."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: m.group() if m.group() in keep else escape(m.group()), text)


def normal_name(name: str) -> str:
    """A name as it is sent: in Unicode normal form C (what `name_problem` asks for)."""
    return unicodedata.normalize("NFC", name)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a seat's name, or None: 1 to MAX_NAME characters in Unicode
    normal form C, printable (no control, bidi, zero-width or other formatting character,
    no space but U+0020, no blank filler, no private-use character), not blank, and with
    no space at either end. In English; `name_fault` gives it as data."""
    fault = name_fault(name)
    return None if fault is None else fault[0].format(**fault[1])


def name_fault(name: str) -> tuple[str, dict[str, object]] | None:
    """`name_problem` as data: its English template and the template's fields (`what`, one
    of the kinds of character `_CONTROLS` and `_NOT_IN_NAMES` name), or None."""
    if not name:
        return "a name cannot be empty", {}
    bad = _REFUSED.search(name)
    if bad is not None:
        char = bad.group()
        code = ord(char)
        what = next(w for a, b, w in _CONTROLS + _NOT_IN_NAMES if a <= code <= b)
        return "a name cannot hold {what} (U+{code}, {char})", {
            "what": what,
            "code": f"{code:04X}",
            "char": escape(char),
        }
    if not name.strip(" "):
        return "a name cannot be blank", {}
    if name != name.strip(" "):
        return "a name cannot start or end with a space", {}
    if not unicodedata.is_normalized("NFC", name):
        return "a name must be in Unicode normal form C (NFC)", {}
    if len(name) > MAX_NAME:
        return "a name has at most {most} characters, not {given}", {"most": MAX_NAME, "given": len(name)}
    return None
