"""The ledger as CSV or JSON: the ratings (one row per person and game family) and every
rated hand (one row per hand: who sat where, the sides' places and the ratings' moves).

Names come from transcripts: the CSV writer quotes them, and a name starting with a
spreadsheet formula sign gets a leading apostrophe so that no spreadsheet runs it.
"""

from __future__ import annotations

import csv
import io
import json
import time

from .book import Book

RATING_FIELDS = ("person", "fingerprint", "names", "level", "game", "rating", "sigma", "hands")
HAND_FIELDS = ("table", "hand", "date", "game", "players", "seats", "names", "sides", "ranks", "score", "moves")


def rating_rows(book: Book) -> list[dict]:
    rows = []
    for (key, family), rating in sorted(book.ratings.now.items(), key=lambda item: -item[1].mu):
        person = book.persons[key]
        rows.append(
            {
                "person": key,
                "fingerprint": person.fingerprint,
                "names": list(person.names),
                "level": person.level,
                "game": family,
                "rating": round(rating.mu, 1),
                "sigma": round(rating.sigma, 1),
                "hands": book.ratings.hands[(key, family)],
            }
        )
    return rows


def hand_rows(book: Book) -> list[dict]:
    rows = []
    for table, hand, moves in book.ratings.changes:
        rows.append(
            {
                "table": table.table_id,
                "hand": hand.number + 1,
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(table.time)),
                "game": table.game,
                "players": table.players,
                "seats": [s.person for s in hand.seats],
                "names": [s.name for s in hand.seats],
                "sides": [list(side) for side in hand.sides],
                "ranks": list(hand.ranks),
                "score": list(hand.score),
                "moves": {p: [round(a, 1), round(b, 1)] for p, (a, b) in moves.items()},
            }
        )
    return rows


def as_json(rows: list[dict]) -> str:
    return json.dumps(rows, indent=1, ensure_ascii=False) + "\n"


def as_csv(rows: list[dict], names: tuple[str, ...]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        writer.writerow([_cell(row[name]) for name in names])
    return out.getvalue()


def _cell(value: object) -> str:
    if isinstance(value, list | dict):
        value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(text) else text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def export(book: Book, what: str, form: str) -> str:
    """`what` ("ratings" or "hands") as `form` ("csv" or "json")."""
    rows = rating_rows(book) if what == "ratings" else hand_rows(book)
    if form == "json":
        return as_json(rows)
    return as_csv(rows, RATING_FIELDS if what == "ratings" else HAND_FIELDS)
