"""The seats around the trick, for a terminal with room (`screens.table_layout`): my seat at
the bottom, the others around the table in the order of play (counter-clockwise: the next
seat on my right), each with its name and what it is doing, its cards, roles and points, and
its card on the table (or its bids, the last lowest, in the auction) towards the middle. A pure function of
the spots it is given and the room (`ring_lines`); None when even SMALL cards do not fit (the
seats panel then writes its one line a seat). No textual here."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style as RichStyle
from rich.text import Text

from engine.cards import Card

from .cards import Style
from .faces import FACES, Face, face_lines

LABEL_ROWS = 3
"""A seat's label: its name and status; its cards; its roles and points."""
SIDE_LABEL = 24
"""The widest label of a seat at the left or the right."""
PLACES = {
    1: ("top",),
    2: ("top-right", "top-left"),
    3: ("right", "top", "left"),
    4: ("right", "top-right", "top-left", "left"),
    5: ("right", "top-right", "top", "top-left", "left"),
}
"""Where the other seats sit, by how many there are, from the seat after mine."""
ACROSS = {3: {"top-left": 0.25, "top": 0.5, "top-right": 0.75}, 2: {"top-left": 0.3, "top-right": 0.7}, 1: {"top": 0.5}}
"""Where a seat across the table sits, as a share of the width, by how many sit across."""


@dataclass(frozen=True)
class Spot:
    """A seat as the ring shows it."""

    label: tuple[Text, ...]  # name and status; cards; roles and points
    card: Card | None = None  # its card on the table
    look: str = ""  # the card's look ("dim": of the trick just taken, not the winner's)
    bid: str = ""  # its last bid (the auction), where its card would be
    bids: tuple[str, ...] = ()  # its bids before the last, shown above it (dim) as the room allows


class Canvas:
    """Rows of cells, written with Text at a place; a wide character takes two cells."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[tuple[str, RichStyle] | None]] = [
            [(" ", RichStyle.null())] * width for _ in range(height)
        ]

    def put(self, x: int, y: int, text: Text) -> None:
        if not 0 <= y < self.height:
            return
        styles = [RichStyle.parse(str(text.style)) if text.style else RichStyle.null()] * len(text.plain)
        for span in text.spans:
            add = span.style if isinstance(span.style, RichStyle) else RichStyle.parse(span.style)
            for i in range(span.start, min(span.end, len(styles))):
                styles[i] = styles[i] + add
        for char, style in zip(text.plain, styles, strict=True):
            size = cell_len(char)
            if x >= 0 and x + size <= self.width:
                self.cells[y][x] = (char, style)
                if size == 2:
                    self.cells[y][x + 1] = None
            x += size

    def lines(self) -> list[Text]:
        out = []
        for row in self.cells:
            line, run, run_style = Text(), "", RichStyle.null()
            for cell in row:
                if cell is None:
                    continue
                if cell[1] != run_style:
                    line.append(run, run_style)
                    run, run_style = "", cell[1]
                run += cell[0]
            line.append(run, run_style)
            out.append(line)
        return out


def places(count: int) -> tuple[str, ...]:
    """The places of `count` seats, mine (the last) at the bottom."""
    return (*PLACES.get(count - 1, ()), "bottom") if count > 1 else ("bottom",)


def room_needed(face: Face, count: int) -> tuple[int, int]:
    """The least (width, height) for `count` seats with cards of `face`."""
    sides = any(place in ("left", "right") for place in places(count))
    height = 2 * LABEL_ROWS + (3 if sides else 2) * face.height + (2 if sides else 1)
    width = 2 * (12 + 2) + 3 * face.width + 4 if sides else 3 * (face.width + 6)
    return width, height


def ring_face(width: int, height: int, count: int, most: Face) -> Face | None:
    """The largest face up to `most` with which the ring of `count` seats fits the room."""
    for face in reversed(FACES[: FACES.index(most) + 1]):
        need = room_needed(face, count)
        if need[0] <= width and need[1] <= height:
            return face
    return None


def ring_lines(spots: list[Spot], width: int, height: int, most: Face, style: Style) -> list[Text] | None:
    """The seats around the trick in `width` x `height` cells (None: it does not fit)."""
    face = ring_face(width, height, len(spots), most)
    if face is None:
        return None
    used = min(height, room_needed(face, len(spots))[1] + 2 * face.height // 3)  # not stretched
    canvas = Canvas(width, used)
    height = used
    side_label = min(SIDE_LABEL, (width - 3 * face.width - 4) // 2 - 2)
    across = ACROSS[max(1, sum(place.startswith("top") for place in places(len(spots))))]
    shares = sorted(across.values())
    across_label = int(width * min([0.5, *(b - a for a, b in zip(shares, shares[1:], strict=False))])) - 1
    middle, step = (height - face.height) // 2, 2 * (face.width + 2)
    for spot, place in zip(spots, places(len(spots)), strict=True):
        if place in ("left", "right"):
            label_y, card_y = middle + (face.height - LABEL_ROWS) // 2, middle
            labels = [cut(line, side_label) for line in spot.label]
            if place == "left":
                label_xs = [0] * len(labels)
                card_x = max(side_label + 2, width // 2 - face.width // 2 - step)
            else:
                label_xs = [width - line.cell_len for line in labels]
                card_x = min(width - side_label - 2 - face.width, width // 2 - face.width // 2 + step)
        else:
            centre = int(width * across.get(place, 0.5))
            labels = [cut(line, across_label) for line in spot.label]
            label_xs = [max(0, min(width - line.cell_len, centre - line.cell_len // 2)) for line in labels]
            card_x = centre - face.width // 2
            if place == "bottom":
                label_y, card_y = height - LABEL_ROWS, height - LABEL_ROWS - face.height
            else:
                label_y, card_y = 0, LABEL_ROWS
        for row, (line, x) in enumerate(zip(labels, label_xs, strict=True)):
            canvas.put(x, label_y + row, line)
        draw_card(canvas, spot, card_x, card_y, face, style)
    return canvas.lines()


def draw_card(canvas: Canvas, spot: Spot, x: int, y: int, face: Face, style: Style) -> None:
    """The seat's card on the table in its place, or its bids in words there: the last in the
    card's middle row, those before it above (dim), as many as the card's rows hold."""
    if spot.card is not None:
        for row, line in enumerate(face_lines(spot.card, face, style, spot.look)):
            canvas.put(x, y + row, line)
    elif spot.bid:
        middle = face.height // 2
        said = [*spot.bids[max(0, len(spot.bids) - middle) :], spot.bid]
        for row, words in enumerate(said):
            bid = cut(Text(words, "italic" if row == len(said) - 1 else "dim italic"), face.width + 6)
            canvas.put(x + face.width // 2 - bid.cell_len // 2, y + middle + 1 - len(said) + row, bid)


def cut(line: Text, width: int) -> Text:
    """`line` cut to `width` cells (an ellipsis at the end of a cut)."""
    if line.cell_len <= width:
        return line
    line = line.copy()
    line.truncate(max(1, width), overflow="ellipsis")
    return line
