"""The Club screen: the ledger's league table of one game family and the rating over time of
the person chosen in it, plotted in the terminal.

It reads this machine's transcripts into the ledger first (each verified once, in a worker
thread), then shows what the ledger holds. Left and right change the game; up and down choose
a person (the plot follows); Escape goes back. Names from transcripts are shown literally.
The league is the reader's roster (ledger/roster.py); the note says how many hands of the game
shown were left out of the ratings, and why, and any table of it on this machine not ended yet.
A row's hands are the person's line's: the hands of the game they sat at, of which some rated.
"""

from __future__ import annotations

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from ...language import N_, _, n_
from ...ledger.book import Added, Book, Ledger
from ...ledger.ratings import START
from ...ledger.report import Row, families, league_rows, league_statistics, percent, points_words, unrated_lines
from ...ledger.stats import Stats
from ...ledger.store import StoreError
from ...wording import TITLES, count
from ..shell import Shell
from ..widgets.literal import literal

KEYS = N_(" ← → game   ↑ ↓ player   Escape back")


class ClubScreen(Screen[None]):
    app = getters.app(Shell)
    CSS_PATH = "club.tcss"
    BINDINGS = [
        Binding("left", "family(-1)", show=False),
        Binding("right", "family(1)", show=False),
        Binding("escape,q", "back", show=False),
    ]

    def __init__(self, scan: bool = True) -> None:
        super().__init__()
        self.scan = scan
        self.book: Book | None = None
        self.family = 0
        self.rows: list[Row] = []
        self.stats: dict[str, Stats] = {}
        self.note = ""

    def compose(self) -> ComposeResult:
        yield Static(Text(" " + _("Club"), "bold"), id="club-title")
        yield Static(_("Reading this machine's transcripts…"), id="club-note")
        yield DataTable(id="club-league", cursor_type="row", zebra_stripes=True)
        yield Static(id="club-person")
        yield PlotextPlot(id="club-plot")
        yield Static(_(KEYS), id="club-keys")

    def on_mount(self) -> None:
        self._load()

    @work(thread=True, exclusive=True)
    def _load(self) -> None:
        """Verify what is new, then rebuild (off the event loop: a first reading takes a while)."""
        try:
            ledger = Ledger.open()
            added = ledger.add(ledger.local_files(), quiet=True) if self.scan else Added()
        except StoreError as error:
            self.app.call_from_thread(self._say, str(error))
            return
        book = ledger.book()
        self.app.call_from_thread(self._show, book, added, list(ledger.notices))

    def _say(self, text: str) -> None:
        self.query_one("#club-note", Static).update(literal(text))

    def _show(self, book: Book, added: Added, notices: list[str]) -> None:
        self.book = book
        tables = count(len(book.tables), "verified table", "verified tables")
        note = _("{tables} in the ledger").format(tables=tables)
        if added.refused:
            note += _("; {files} refused (briscola ledger says why)").format(files=count(len(added.refused), "file"))
        self.note = "; ".join([note, *notices])
        self._say(self.note)
        self._league()

    def _league(self) -> None:
        league = self.query_one("#club-league", DataTable)
        league.clear(columns=True)
        book = self.book
        if book is None:
            return
        names = families(book)
        if not names:
            self._say(_("No rated hands yet: play a table, or add the transcripts friends send."))
            self._plot()
            return
        self.family %= len(names)
        family = names[self.family]
        self.query_one("#club-title", Static).update(
            Text(" " + _("Club") + " · " + TITLES.get(family, family) + f"  ({self.family + 1}/{len(names)})", "bold")
        )
        self._say("; ".join([self.note, *(line.strip() for line in unrated_lines(book, family))]))
        league.add_columns("#", _("player"), _("key"), _("rating"), _("hands"), _("won"), _("trend"))
        self.rows = league_rows(book, family)
        self.stats = league_statistics(book, family)
        for row in self.rows:
            league.add_row(
                str(row.place),
                literal(row.person.label[:24]),
                row.person.fingerprint,
                f"{row.rating} ±{row.sigma}",
                str(row.hands),
                percent(row.win_rate),
                row.trend,
            )
        self._plot(0)

    @on(DataTable.RowHighlighted)
    def _chosen(self, event: DataTable.RowHighlighted) -> None:
        self._plot(event.cursor_row)

    def _plot(self, index: int | None = None) -> None:
        plot = self.query_one("#club-plot", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        if self.book is not None and index is not None and 0 <= index < len(self.rows):
            row = self.rows[index]
            family = families(self.book)[self.family]
            history = [START, *self.book.ratings.history[(row.person.key, family)]]
            hands = [float(k) for k in range(len(history))]
            plt.plot(hands, history, marker="braille")
            step = max(1, len(hands) // 6)
            plt.xticks(hands[::step], [str(int(k)) for k in hands[::step]])
            plt.title(_("{player}: rating after each hand").format(player=row.person.label[:30]))
            plt.xlabel(_("hands"))
            self.query_one("#club-person", Static).update(literal(self._person_line(row)))
        plot.refresh()

    def _person_line(self, row: Row) -> str:
        """The chosen person: who, the hands as the league counts them (and how many were
        rated), where, how well, card points per hand, and any cheat named (wrapped to the
        screen's width, never cut)."""
        mine = self.stats.get(row.person.key, Stats())
        return _("{player} {key} · {hands} ({rated} rated) · {tables} · won {won} · {points}/hand · {cheats}").format(
            player=row.person.label[:16],
            key=row.person.fingerprint,
            hands=count(row.hands, "hand"),
            rated=row.rated,
            tables=n_("{n} table", "{n} tables", len(mine.tables)).format(n=len(mine.tables)),
            won=percent(row.win_rate),
            points=points_words(mine, short=True) or "–",
            cheats=count(mine.cheats, "cheat"),
        )

    def action_family(self, step: int) -> None:
        self.family += step
        self._league()

    def action_back(self) -> None:
        self.app.pop_screen()
