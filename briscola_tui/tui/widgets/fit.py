"""A line of items that never wraps nor is cut: each item has forms, longest first, and the
line takes the longest forms that fit its width (the header, the seats panel's lines). And a
text too long for one line wrapped at its words under its own indent (`hanging`), not back
to column 0 as the terminal would."""

from __future__ import annotations

from rich.cells import cell_len


def fit(items: list[tuple[str, ...]], width: int, sep: str = "  ") -> str:
    """The items joined by `sep`, each in its longest form (its first) for which the line
    fits `width` cells: every item takes its next shorter form together, step by step; the
    last forms cut with an ellipsis if even they do not fit."""
    steps = max((len(forms) for forms in items), default=1)
    line = ""
    for step in range(steps):
        line = sep.join(forms[min(step, len(forms) - 1)] for forms in items)
        if cell_len(line) <= width:
            return line
    while line and cell_len(line) > width:
        line = line[:-2] + "…"
    return line


def hanging(text: str, width: int, first: str = " ", rest: str = "   ") -> list[str]:
    """`text` in lines of at most `width` cells: the first after `first`, the others after
    `rest`. A text too long for one line breaks after each "; " first (a clause a line), then
    between words where a clause is still too long (a word longer than a line stays whole)."""
    if cell_len(first + text) <= width:
        return [first + text]
    clauses = text.split("; ")
    lines: list[str] = []
    for i, clause in enumerate(clauses):
        lines += _words(clause + (";" if i < len(clauses) - 1 else ""), width, rest if lines else first, rest)
    return lines


def _words(text: str, width: int, first: str, rest: str) -> list[str]:
    lines: list[str] = []
    line = first
    for word in text.split(" "):
        if line.strip() and cell_len(f"{line} {word}") > width:
            lines.append(line)
            line = rest + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    lines.append(line)
    if len(lines) > 1 and " " not in lines[-1].strip() and lines[-2].strip().count(" ") > 1:
        before, moved = lines[-2].rsplit(" ", 1)  # not one word alone on the last line
        if cell_len(f"{rest}{moved} {lines[-1].strip()}") <= width:
            lines[-2:] = [before, f"{rest}{moved} {lines[-1].strip()}"]
    return lines
