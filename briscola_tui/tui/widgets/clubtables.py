"""The tables a club lists, as the join and watch forms show them when they go through the
club: a line saying what the list is (or, in its place, that the club is being asked, or why
it cannot be), then the tables as the LAN's list draws them (lantables.py: two lines each,
every name shown literally). The club is asked on the app's loop, in a worker (`ask`): one
network call (club/member.py `Member.tables`), its connection closed after; the answer is
posted as `Listed` (the tables) or `Failed` (the line saying why), so that the form may wait
for a fresh list before it joins. Picking a table posts `Picked` with the table's id."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static

from ...club import tables as listing
from ...club.choosing import club_of
from ...language import _
from ...net.hosting import SetupError
from ...net.reaching import Whole
from .lantables import fill, option_id
from .literal import literal


class ClubTables(Vertical):
    """The tables the club `club` listed when last asked (none until it answers)."""

    DEFAULT_CSS = """
    ClubTables { height: 1fr; min-height: 3; }
    ClubTables #club-status { height: auto; color: $text-muted; }
    ClubTables #club-status.-failed { color: $error; text-style: bold; }
    ClubTables #club-list { height: 1fr; border: none; padding: 0; background: $background; text-wrap: nowrap; text-overflow: ellipsis; }
    ClubTables #club-list.-empty { display: none; }
    """

    class Listed(Message):
        """The club `club` answered: the tables it lists now."""

        def __init__(self, club: str, tables: list[listing.Listed]) -> None:
            super().__init__()
            self.club, self.tables = club, tables

    class Failed(Message):
        """The club `club` could not be asked: the line that says why."""

        def __init__(self, club: str, line: str) -> None:
            super().__init__()
            self.club, self.line = club, line

    class Picked(Message):
        """A table picked: its id (`Announcement.table`)."""

        def __init__(self, table: str) -> None:
            super().__init__()
            self.table = table

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.club = ""
        self.tables: list[listing.Listed] = []

    def compose(self) -> ComposeResult:
        yield Static(id="club-status")
        yield OptionList(id="club-list", compact=True, markup=False)

    def ask(self, club: str) -> None:
        """Ask the club `club` for its tables (a question to another club, or before, is dropped)."""
        if club != self.club:
            self.tables = []
            self._draw()
        self.club = club
        self._say(_("asking the club {club} for its tables…").format(club=club))
        self.run_worker(self._asked(club), exclusive=True, group="club-tables")

    async def _asked(self, club: str) -> None:
        try:
            member = club_of(club)
        except SetupError as error:
            self.post_message(self.Failed(club, str(error)))
            return
        try:
            tables = await member.tables_once()
        except Whole as error:
            self.post_message(self.Failed(club, str(error)))
            return
        self.post_message(self.Listed(club, tables))

    def on_club_tables_listed(self, event: ClubTables.Listed) -> None:
        if event.club != self.club:
            event.stop()
            return
        self.tables = event.tables
        if self.tables:
            line = _("Tables at the club {club} (Tab to the list, Enter picks one; ctrl+r asks again)")
        else:
            line = _("the club {club} lists no table now (ctrl+r asks again)")
        self._say(line.format(club=self.club))
        self._draw()

    def on_club_tables_failed(self, event: ClubTables.Failed) -> None:
        if event.club != self.club:
            event.stop()
            return
        self._say(event.line + "; " + _("ctrl+r asks again"), failed=True)

    def _say(self, line: str, failed: bool = False) -> None:
        status = self.query_one("#club-status", Static)
        status.update(literal(line))
        status.set_class(failed, "-failed")

    def _draw(self) -> None:
        """The tables listed, the highlight kept on the table it was on."""
        if not self.is_mounted:
            return
        fill(
            self.query_one("#club-list", OptionList),
            {option_id(t.seen.announcement.table): t.seen for t in self.tables},
        )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        picked = next((t for t in self.tables if option_id(t.seen.announcement.table) == event.option.id), None)
        if picked is not None:
            self.post_message(self.Picked(picked.seen.announcement.table))
