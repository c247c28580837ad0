"""A card drawn as a box, in three sizes: SMALL, the 80x24 table's (`┌────┐ │ A♠ │ └────┘`),
MEDIUM and LARGE for a larger terminal (the rank and suit in two corners, the suit in the
middle). The suit is always written beside the rank (never colour alone); the colour, if any,
goes on top. No textual here: lines of rich Text."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from engine.cards import Card

from .cards import Style


@dataclass(frozen=True)
class Face:
    """A card's box: its size in cells."""

    name: str
    width: int
    height: int


SMALL = Face("small", 6, 3)
MEDIUM = Face("medium", 9, 5)
LARGE = Face("large", 11, 7)
FACES = (SMALL, MEDIUM, LARGE)
"""From the smallest up."""


def face_lines(card: Card, face: Face, style: Style, look: str = "") -> list[Text]:
    """`card` in a box of `face`'s size: `look` ("dim", "bold", "reverse"...) on the whole box,
    the card's colour on its rank and suit."""
    inner = face.width - 2
    name, colour = style.card(card), f"{look} {style.colour_of(card)}".strip()
    h, v = ("-", "|") if style.ascii else ("─", "│")
    corners = ("+", "+", "+", "+") if style.ascii else ("┌", "┐", "└", "┘")
    rows: list[list[tuple[str, str]]] = []
    if face is SMALL:
        rows.append([(f" {name:<2} ", colour)])
    else:
        mark = name[len(card.rank) :]
        middle = (inner - 1) // 2
        body = [[(" " * inner, look)] for _ in range(face.height - 2)]
        body[0] = [(" ", look), (name, colour), (" " * (inner - 1 - len(name)), look)]
        body[len(body) // 2] = [(" " * middle, look), (mark, colour), (" " * (inner - middle - len(mark)), look)]
        body[-1] = [(" " * (inner - 1 - len(name)), look), (name, colour), (" ", look)]
        rows = body
    lines = [Text(corners[0] + h * inner + corners[1], look)]
    for row in rows:
        line = Text(v, look)
        for text, each in row:
            line.append(text, each)
        line.append(v, look)
        lines.append(line)
    lines.append(Text(corners[2] + h * inner + corners[3], look))
    return lines


def blank_lines(face: Face) -> list[Text]:
    """A face's room with nothing in it."""
    return [Text(" " * face.width) for _ in range(face.height)]


def largest(width: int, height: int, count: int, most: Face, gap: int = 1) -> Face | None:
    """The largest face up to `most` of which `count` cards fit side by side in `width` (each
    with `gap` cells after it) and `height` rows (None: not even SMALL)."""
    for face in reversed(FACES[: FACES.index(most) + 1]):
        if count * (face.width + gap) <= width and face.height <= height:
            return face
    return None
