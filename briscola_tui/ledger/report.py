"""The ledger in words: the league table of a game family, and one person's statistics.

Plain lines for the command line (the Club screen shows the same rows, `league_rows`). Names
come from transcripts: the caller prints them cleaned (`tools.verify.clean` does it for the
command line; the screen shows them literally).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.identity import fingerprint

from ..language import _, n_
from ..wording import count
from .book import Book, Person
from .facts import played
from .stats import Stats, statistics

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float], width: int = 16) -> str:
    """The last `width` values as block characters, lowest to highest."""
    values = values[-width:]
    if not values:
        return ""
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return SPARKS[3] * len(values)
    return "".join(SPARKS[round((v - low) / (high - low) * (len(SPARKS) - 1))] for v in values)


@dataclass(frozen=True)
class Row:
    """One line of a league table."""

    place: int
    person: Person
    rating: int
    sigma: int
    hands: int
    win_rate: float | None
    trend: str


def league_statistics(book: Book, family: str) -> dict[str, Stats]:
    """The statistics the league shows: over the roster's hands of `family`."""
    return statistics([(t, h) for t, h in book.counted if played(t, family)])


def league_rows(book: Book, family: str) -> list[Row]:
    """Everyone rated in `family`, best first (the win rate over the roster's hands of it)."""
    stats = league_statistics(book, family)
    rated = [(key, r) for (key, fam), r in book.ratings.now.items() if fam == family]
    rated.sort(key=lambda item: (-item[1].mu, item[1].sigma, item[0]))
    rows = []
    for place, (key, rating) in enumerate(rated, 1):
        history = book.ratings.history[(key, family)]
        mine = stats.get(key)
        rows.append(
            Row(
                place,
                book.persons[key],
                rating.shown,
                round(rating.sigma),
                book.ratings.hands[(key, family)],
                mine.win_rate if mine else None,
                sparkline(history),
            )
        )
    return rows


def families(book: Book) -> list[str]:
    """The game families with rated hands, or hands left out of the ratings (said why)."""
    return sorted({fam for _key, fam in book.ratings.now} | {left.family for left in book.unrated})


def percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f}%"


def league_lines(book: Book, family: str) -> list[str]:
    lines = [
        _("{game}: {hands}").format(game=family, hands=count(_rated_hands(book, family), "rated hand")),
        *unrated_lines(book, family),
        _("  #  player                     key       rating     hands  won  trend"),
    ]
    for row in league_rows(book, family):
        label = row.person.label[:26]
        lines.append(
            f"{row.place:>3}  {label:<26} {row.person.fingerprint:<9} {row.rating:>5} ±{row.sigma:<3}"
            f" {row.hands:>6} {percent(row.win_rate):>4}  {row.trend}"
        )
    return lines


def _rated_hands(book: Book, family: str) -> int:
    return sum(1 for table, _hand, _moves in book.ratings.changes if played(table, family))


def unrated_lines(book: Book, family: str) -> list[str]:
    """The hands of `family` left out of the ratings, once per reason: "  3 hands not rated:
    someone at them is not in your roster"."""
    return [
        n_("  {n} hand not rated: {why}", "  {n} hands not rated: {why}", left.hands).format(
            n=left.hands, why=_(left.reason)
        )
        for left in book.unrated
        if left.family == family
    ]


def roster_lines(book: Book) -> list[str]:
    """The roster: each person in it, why, and the fingerprint to compare aloud."""
    roster = book.roster
    lines = []
    if not roster.me:
        lines.append(
            _(
                "no identity key in this data folder yet: your roster is only the people you trust (briscola ledger trust)"
            )
        )
    for key in roster.members:
        person = book.persons.get(key)
        label = person.label if person else "–"  # (who only ran a computer player: no name seen)
        lines.append(f"  {label[:26]:<26} {fingerprint(bytes.fromhex(key))}  {_(roster.why(key))}")
    return lines


def person_lines(book: Book, key: str, stats: dict[str, Stats]) -> list[str]:
    """One person's statistics: the ratings, the hands, the contracts, head to head."""
    person, mine = book.persons[key], stats.get(key, Stats())
    lines = [_("{label} (key {fingerprint})").format(label=person.label, fingerprint=person.fingerprint)]
    if len(person.names) > 1 and not person.level:  # (a computer player goes by its level)
        lines.append(_("  names: {names}").format(names=", ".join(person.names)))
    for family in families(book):
        if (key, family) in book.ratings.now:
            rating = book.ratings.now[(key, family)]
            trend = sparkline(book.ratings.history[(key, family)], 30)
            lines.append(
                _("  {game}: rating {rating} ±{sigma}  {trend}").format(
                    game=family, rating=rating.shown, sigma=round(rating.sigma), trend=trend
                )
            )
    lines.append(
        _("  {hands} at {tables}; won {won}, lost {lost}, tied {tied} ({rate})").format(
            hands=count(mine.hands, "hand"),
            tables=count(len(mine.tables), "different table"),
            won=mine.record.won,
            lost=mine.record.lost,
            tied=mine.record.tied,
            rate=percent(mine.win_rate),
        )
    )
    if mine.points_per_hand is not None:
        lines.append(_("  card points per hand: {points:.1f}").format(points=mine.points_per_hand))
    lines.append(_("  void hands: {void}; cheats named: {cheats}").format(void=mine.void, cheats=mine.cheats))
    lines += _contracts(mine)
    for other, record in sorted(mine.against.items(), key=lambda item: -item[1].decided):
        them = book.persons[other]
        lines.append(
            _("  against {label} ({fingerprint}): won {won}, lost {lost}, tied {tied}").format(
                label=them.label, fingerprint=them.fingerprint, won=record.won, lost=record.lost, tied=record.tied
            )
        )
    return lines


def _contracts(mine: Stats) -> list[str]:
    lines = []
    if mine.auctions:
        made = ", ".join(f"{bid}: {mine.auctions_made[bid]}/{n}" for bid, n in sorted(mine.auctions.items()))
        lines.append(_("  Chiamata auctions won (made/won, by bid): {made}").format(made=made))
    if mine.contracts:
        made = ", ".join(f"{kind}: {mine.contracts_made[kind]}/{n}" for kind, n in sorted(mine.contracts.items()))
        lines.append(_("  Calabresella contracts (made/played, by kind): {made}").format(made=made))
    return lines


def find_person(book: Book, who: str) -> list[str]:
    """The keys `who` names: a level, a fingerprint's start, a key's start, or a name (any case)."""
    who = who.strip().lower()
    found = [k for k, p in book.persons.items() if p.level.lower() == who]
    found = found or [k for k, p in book.persons.items() if p.fingerprint.startswith(who) or k.startswith(who)]
    return found or [k for k, p in book.persons.items() if who in (n.lower() for n in p.names)]
