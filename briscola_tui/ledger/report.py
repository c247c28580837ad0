"""The ledger in words: the league table of a game family, and one person's statistics.

Plain lines for the command line (the Club screen shows the same rows, `league_rows`). Names
come from transcripts: the caller prints them cleaned (`tools.verify.clean` does it for the
command line; the screen shows them literally).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.games import GAMES
from protocol.identity import fingerprint

from ..language import N_, _, n_
from ..wording import count
from .book import Book, Person
from .facts import played
from .roster import BOTH_SIDES, DEALT_AGAIN, VOIDED
from .stats import Stats, statistics

SPARKS = "▁▂▃▄▅▆▇█"

NEITHER = {
    VOIDED: N_("{n} voided (a cheat or a time-out)"),
    DEALT_AGAIN: N_("{n} dealt again (everyone passed)"),
    BOTH_SIDES: N_("{n} with one player on both sides (a computer level in both teams)"),
}
"""A person's hands neither won nor lost, by why (`roster.not_rated`)."""


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
    hands: int  # the roster's hands of the game the person sat at (as the person's line counts them)
    rated: int  # of which rated (what the rating moved on)
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
                mine.hands if mine else 0,
                book.ratings.hands[(key, family)],
                mine.win_rate if mine else None,
                sparkline(history),
            )
        )
    return rows


def families(book: Book) -> list[str]:
    """The game families with rated hands, hands left out of the ratings (said why), or tables
    on this machine not ended yet (said so)."""
    return sorted({fam for _key, fam in book.ratings.now} | {left.family for left in book.unrated} | set(book.unended))


def percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f}%"


def league_lines(book: Book, family: str) -> list[str]:
    lines = [
        _("{game}: {hands}").format(game=family, hands=count(_rated_hands(book, family), "rated hand")),
        *unrated_lines(book, family),
    ]
    rows = league_rows(book, family)
    if rows:
        lines.append(_("  #  player                     key       rating     hands  won  trend"))
    for row in rows:
        label = row.person.label[:26]
        lines.append(
            f"{row.place:>3}  {label:<26} {row.person.fingerprint:<9} {row.rating:>5} ±{row.sigma:<3}"
            f" {row.hands:>6} {percent(row.win_rate):>4}  {row.trend}"
        )
    return lines


def _rated_hands(book: Book, family: str) -> int:
    return sum(1 for table, _hand, _moves in book.ratings.changes if played(table, family))


def unrated_lines(book: Book, family: str) -> list[str]:
    """The hands of `family` left out of the ratings, once per reason ("  3 hands not rated:
    someone at them is not in your roster"), and this machine's tables of it not ended yet."""
    lines = [
        n_("  {n} hand not rated: {why}", "  {n} hands not rated: {why}", left.hands).format(
            n=left.hands, why=_(left.reason)
        )
        for left in book.unrated
        if left.family == family
    ]
    unended = book.unended.get(family, 0)
    if unended:
        lines.append(
            n_(
                "  {n} {game} table on this machine has not ended: it joins the ledger when it ends "
                "(an offline game: briscola play --resume)",
                "  {n} {game} tables on this machine have not ended: each joins the ledger when it ends "
                "(an offline game: briscola play --resume)",
                unended,
            ).format(n=unended, game=game_title(family))
        )
    return lines


def game_title(game: str) -> str:
    """A game's full name ("Briscola Chiamata"); the name itself for a game this release lacks."""
    info = GAMES.get(game)
    return info.title if info else game


def points_words(mine: Stats, short: bool = False) -> str:
    """Card points per hand for each kind of table, never averaged across them: "Briscola,
    2 players: 61.3 points; Calabresella: 11.7 thirds" (`short`: "61.3 points", the kind
    named only when there are several)."""
    said = []
    for (game, players), average in mine.points_per_hand.items():
        info = GAMES.get(game)
        unit = n_("point", "points", 2) if not info or info.point_unit == "point" else n_("third", "thirds", 2)
        amount = f"{average:.1f} {unit}"
        if short and len(mine.points_per_hand) == 1:
            said.append(amount)
            continue
        if info and len(info.players) > 1:
            kind = _("{game}, {players} players").format(game=info.title, players=players)
        else:
            kind = game_title(game)
        said.append(_("{kind}: {amount}").format(kind=kind, amount=amount))
    return "; ".join(said)


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
    lines += _hand_lines(mine)
    if mine.points:
        lines.append(_("  card points per hand: {points}").format(points=points_words(mine)))
    lines.append(_("  cheats named: {cheats}").format(cheats=mine.cheats))
    lines += _contracts(mine)
    for other, record in sorted(mine.against.items(), key=lambda item: -item[1].decided):
        them = book.persons[other]
        lines.append(
            _("  against {label} ({fingerprint}): won {won}, lost {lost}, tied {tied}").format(
                label=them.label, fingerprint=them.fingerprint, won=record.won, lost=record.lost, tied=record.tied
            )
        )
    return lines


def _hand_lines(mine: Stats) -> list[str]:
    """The hands, won, lost, tied and neither (the four add up to the hands), and why neither."""
    neither = sum(mine.neither.values())
    lines = [
        _("  {hands} at {tables}: won {won}, lost {lost}, tied {tied} ({rate}), {neither} neither won nor lost").format(
            hands=count(mine.hands, "hand"),
            tables=count(len(mine.tables), "different table"),
            won=mine.record.won,
            lost=mine.record.lost,
            tied=mine.record.tied,
            rate=percent(mine.win_rate),
            neither=neither,
        )
    ]
    if neither:
        why = ", ".join(
            _(NEITHER.get(reason, "{n} {why}")).format(n=n, why=_(reason))
            for reason, n in sorted(mine.neither.items(), key=lambda item: -item[1])
        )
        lines.append(_("  neither won nor lost: {why}").format(why=why))
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
