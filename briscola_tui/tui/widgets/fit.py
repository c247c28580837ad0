"""A line of items that never wraps nor is cut: each item has forms, longest first, and the
line takes the longest forms that fit its width (the header, the seats panel's lines)."""

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
