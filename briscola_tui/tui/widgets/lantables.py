"""The tables heard on the LAN (net/mdns.py's `Browser`), as the join and watch forms show
them: a line saying what the list is (or, in its place, why there is none), then the
tables, newest first, two lines each: the plate of the join code, the game and its size,
the host; who sits, the seats free, the spectators watching. Picking one (Enter, a click)
posts `LanTables.Picked` with the table's id. An option's id is a hash of the table's id,
never a record's words, and each table is listed once: two records naming one table (one id
under two service names, or a source that repeats itself) are one row, never a crash.

Every name in an announcement is the sender's word: shown literally (`engine.text.visible`,
a `rich.text.Text`, never markup) and cut at the width of the list; the browser bounds the
names (`engine.text.MAX_NAME`) and the tables it keeps (`mdns.MAX_TABLES`), the list scrolls."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.text import visible

from ...language import _
from ...net.finding import FIND_SECONDS
from ...net.mdns import Browser, MulticastRefused, Seen
from ...os_errors import os_error_words
from ...wording import seats_free, sitting, spectators, table_label


@dataclass(frozen=True)
class Listening:
    """What the list has to say besides its tables: `off`, why nothing can be heard here (None:
    the browser runs); `waited`, whether the first wait is over; `heard`, whether any table was
    ever heard; `looking`, the plate of a join code being looked for (None: none is)."""

    off: str | None = None
    waited: bool = False
    heard: bool = False
    looking: int | None = None


def entry(seen: Seen) -> Text:
    """One table, in two lines, every name as it came (the list's width cuts a line too long:
    the spectators first, then the names)."""
    a = seen.announcement
    plate = "--" if a.plate is None else str(a.plate)
    text = Text(end="")
    text.append(f"{plate:>3}  ", "bold")
    text.append(table_label(a.game, a.players), "bold")
    text.append("   " + _("host {host}").format(host=visible(a.host)))
    who = sitting(visible(name) for name in a.seated)
    watch = spectators(a.spectators, a.watching)
    text.append(f"\n     {who} · {seats_free(a.free)} · {watch}", "dim" if not a.free else "")
    return text


def status(listening: Listening, tables: int) -> str:
    """The line above the list (in its place when there are no tables)."""
    if listening.looking is not None:
        return _("looking for table {plate}…").format(plate=listening.looking)
    if listening.off is not None:
        return _("looking for tables on the LAN is off: {why}").format(why=listening.off)
    if tables:
        return _("Tables on the LAN, newest first (Tab to the list, Enter picks one)")
    if not listening.waited:
        return _("looking for tables on the LAN…")
    if listening.heard:
        return _("no table on the LAN now")
    return _(
        "no tables heard on this network, multicast may not reach here (WSL2, a guest Wi-Fi, "
        "an SSH tunnel): type the host's HOST:PORT"
    )


def option_id(table: str) -> str:
    """The list's id for the table `table`: a hash (a record's words are never an id)."""
    return "t" + hashlib.sha256(table.encode("utf-8", "replace")).hexdigest()[:24]


def once_each(tables: list[Seen]) -> dict[str, Seen]:
    """The tables by their option id, each once (the first, the newest, of those naming one table)."""
    kept: dict[str, Seen] = {}
    for seen in tables:
        kept.setdefault(option_id(seen.announcement.table), seen)
    return kept


def fill(options: OptionList, tables: dict[str, Seen]) -> None:
    """`options` made to list `tables` (by their option id), the highlight kept on the table it
    was on; hidden when there are none (the line above says so)."""
    before = options.highlighted_option.id if options.highlighted_option is not None else None
    options.set_options(Option(entry(seen), id=ident) for ident, seen in tables.items())
    ids = list(tables)
    if tables:
        options.highlighted = ids.index(before) if before in ids else 0
    options.set_class(not tables, "-empty")


class Source(Protocol):
    """Where the tables come from: `mdns.Browser`, or a test's."""

    async def start(self) -> None: ...

    def tables(self) -> list[Seen]: ...

    async def close(self) -> None: ...


Sources = Callable[[Callable[[], None]], Source]
"""Makes a `Source` that calls the function it is given whenever its tables change."""


class LanTables(Vertical):
    """The tables heard on the LAN while it is shown: a `Source` (by default `mdns.Browser`)
    runs from its mount to its unmount, on the app's loop, and the list is drawn again from
    `tables()` each time it says they changed. `wait` seconds after the start with no table
    heard, the list says so; `look_for(plate)` waits up to `wait` seconds for a table with
    that plate, then posts `Found` (one or more heard) or `NotHeard`."""

    DEFAULT_CSS = """
    LanTables { height: 1fr; min-height: 3; }
    LanTables #lan-status { height: auto; color: $text-muted; }
    LanTables #lan-list { height: 1fr; border: none; padding: 0; background: $background; text-wrap: nowrap; text-overflow: ellipsis; }
    LanTables #lan-list.-empty { display: none; }
    """

    class Picked(Message):
        """A table picked: its id (`Announcement.table`)."""

        def __init__(self, table: str) -> None:
            super().__init__()
            self.table = table

    class Found(Message):
        """A table with the plate looked for was heard."""

    class NotHeard(Message):
        """No table with the plate looked for was heard in time."""

        def __init__(self, plate: int, seconds: float) -> None:
            super().__init__()
            self.plate, self.seconds = plate, seconds

    def __init__(self, sources: Sources | None = None, wait: float = FIND_SECONDS, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sources = sources
        self.wait = wait
        self.source: Source | None = None
        self.listening = Listening()
        self.looking: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(status(self.listening, 0)), id="lan-status")
        yield OptionList(id="lan-list", compact=True, markup=False)

    async def on_mount(self) -> None:
        self.set_timer(self.wait, self._waited)
        source = (self.sources or Browser)(self.changed)
        try:
            await source.start()
        except OSError as error:
            why = str(error) if isinstance(error, MulticastRefused) else os_error_words(error)
            self._note(off=why)
            return
        self.source = source
        self.changed()

    async def on_unmount(self) -> None:
        source, self.source = self.source, None
        if source is not None:
            await source.close()

    def tables(self) -> list[Seen]:
        """The tables heard, newest first (none where nothing can be heard)."""
        return self.source.tables() if self.source is not None else []

    def changed(self) -> None:
        """The source's tables changed: draw them again (and post `Found` if one was looked for)."""
        tables = self.tables()
        if tables and not self.listening.heard:
            self.listening = replace(self.listening, heard=True)
        looked = self.listening.looking
        if looked is not None and any(s.announcement.plate == looked for s in tables):
            self.stop_looking()
            self.post_message(self.Found())
        self._draw()

    def look_for(self, plate: int) -> None:
        """Wait for a table with `plate` (the caller found none in `tables()`)."""
        self.stop_looking()
        self.looking = self.set_timer(self.wait, lambda: self._not_heard(plate))
        self._note(looking=plate)

    def _not_heard(self, plate: int) -> None:
        self.stop_looking()
        self.post_message(self.NotHeard(plate, self.wait))

    def stop_looking(self) -> None:
        if self.looking is not None:
            self.looking.stop()
        self.looking = None
        self._note(looking=None)

    def _waited(self) -> None:
        self._note(waited=True)

    def _note(self, **changes: Any) -> None:
        self.listening = replace(self.listening, **changes)
        self._draw()

    def _draw(self) -> None:
        """Draw the tables (newest first) and the line `listening` calls for, the highlight kept
        on the table it was on."""
        if not self.is_mounted:
            return
        tables = once_each(self.tables())
        self.query_one("#lan-status", Static).update(Text(status(self.listening, len(tables))))
        fill(self.query_one("#lan-list", OptionList), tables)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        seen = once_each(self.tables()).get(event.option.id or "")
        if seen is not None:  # (gone meanwhile: nothing picked)
            self.post_message(self.Picked(seen.announcement.table))
