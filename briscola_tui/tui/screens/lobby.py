"""The lobby of a network table: the seats (names, key fingerprints, computer
players), the join code and the addresses to give friends (when hosting), who
the table waits for, and the connection. It turns into the table when the
first hand starts. Reads only the controller's `Lobby` (plain data), when the
controller says it changed: its network thread calls `changed_elsewhere`,
which posts the screen a `Changed` message (at most one waiting at a time, so
a busy table cannot fill the screen's queue)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ...files.settings import value_word
from ...language import _
from ...net.joincode import plate_of
from ...tables.controller import Lobby, LobbyController, TableController
from ...wording import TITLES
from ..shell import Shell
from ..widgets.cards import Style
from ..widgets.literal import literal

if TYPE_CHECKING:
    from ...tables.network import NetTable

LOG_SHOWN = 6


def friends_text(lobby: Lobby) -> Text:
    """What to give friends (hosting), or where this client is."""
    out = Text()
    if lobby.role != "host":
        where = ", ".join(lobby.addresses)
        what = _("Watching the table at {where}") if lobby.role == "spectator" else _("Playing at the table at {where}")
        out.append(" " + what.format(where=where))
        return out
    out.append(" " + _("Join code:") + " ", "bold")
    out.append(lobby.code or _("none (open table)"), "bold reverse" if lobby.code else "")
    out.append("\n " + _("Give friends one of:") + "\n")
    watch = _("(to watch)")
    if lobby.club:  # (the code, or the table's id for an open table, names the table there)
        through = f"{lobby.code or lobby.addresses[0]} --club {lobby.club}"
        out.append(f"   briscola join {through}\n   briscola watch {through}  {watch}")
        return out
    code = f" --code {lobby.code}" if lobby.code else ""
    if lobby.announced and plate_of(lobby.code or "") is not None:
        out.append(f"   briscola join {lobby.code}  " + _("(on this LAN)") + "\n")
    for address in lobby.addresses:
        out.append(f"   briscola join {address}{code}\n")
    out.append(f"   briscola watch {lobby.addresses[0]}{code}  {watch}" if lobby.addresses else "")
    return out


def seats_text(lobby: Lobby) -> Text:
    out = Text(" " + _("Seats") + "\n", "bold")
    if not lobby.seats:
        out.append("   " + _("(not known until the host welcomes us)") + "\n", "dim")
    for s in lobby.seats:
        # taken without a name: "seat 2"
        name = s.name or (_("seat {n}").format(n=s.seat) if s.fingerprint else _("(free)"))
        level = value_word("level", lobby.level) if lobby.level else ""
        computer = _("computer ({level})").format(level=level) if lobby.level else _("computer")
        what = ", ".join(w for w, on in ((_("you"), s.me), (computer, s.computer), (_("away"), s.away)) if on)
        line = literal(f"   {s.seat}  {name:<20.20} {what:<18.18} ")
        if s.fingerprint:
            line.append(_("key {fingerprint}").format(fingerprint=s.fingerprint), "dim")
        out.append_text(line)
        out.append("\n")
    hosted = sum(s.computer for s in lobby.seats)
    if lobby.role == "player" and hosted:  # what the host can know of our hand (docs/network.md)
        out.append(
            "   " + _("The host's computer plays {n} of {seats}:").format(n=hosted, seats=len(lobby.seats)) + " ",
            "bold",
        )
        out.append(_("it sees those hands, and deduces more.") + "\n")
    return out


def status_text(lobby: Lobby) -> Text:
    if lobby.failed:
        return literal(f" {lobby.failed}", "bold red").append("\n " + _("Escape: back"), "bold red")
    out = Text(f" {lobby.waiting or _('waiting for the table')}\n", "bold")
    if lobby.coach is not None:
        out.append(" " + (_("coach allowed (h at the table)") if lobby.coach else _("no coach at this table")) + "\n")
    out.append(literal(f" {lobby.status}", "bold reverse" if lobby.trouble else "dim"))
    return out


class LobbyTable(LobbyController, TableController, Protocol):
    """A network table: its lobby, then, once the first hand starts, the table itself."""


class LobbyScreen(Screen[None]):
    app = getters.app(Shell)
    CSS_PATH = "lobby.tcss"
    BINDINGS = [Binding("escape", "leave", show=False)]

    class Changed(Message):
        """The table's lobby changed (posted from the network thread)."""

    def __init__(
        self, controller: LobbyTable, style: Style, back: Callable[[], Screen[Any]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.back = back  # the form that opened the table, as it was filled (None: none did)
        self.style_ = style
        self.lobby: Lobby | None = None
        self.watching = False
        self.posted = threading.Event()  # a Changed message waits to be handled

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        yield Static(id="lobby-friends")
        yield Static(id="lobby-seats")
        yield Static(id="lobby-waiting")
        yield Static(id="lobby-log")
        yield Static(" " + _("Escape leave the table   ctrl+q quit"), id="lobby-keys")

    def on_mount(self) -> None:
        self.watching = True
        self.controller.watch(self.changed_elsewhere)
        self.look()

    def on_unmount(self) -> None:
        self.stop_watching()

    def changed_elsewhere(self) -> None:
        """On the network thread: ask the screen to look again, unless it has yet to."""
        if not self.posted.is_set():
            self.posted.set()
            self.post_message(self.Changed())

    def on_lobby_screen_changed(self, _: Changed) -> None:
        self.posted.clear()  # before the look: a change from now on posts again
        self.look()

    def stop_watching(self) -> None:
        if self.watching:
            self.watching = False
            self.controller.unwatch(self.changed_elsewhere)

    def look(self) -> None:
        lobby = self.controller.lobby()
        if lobby is self.lobby or not self.watching:
            return
        self.lobby = lobby
        if lobby.started and not lobby.failed:
            from .table import TableScreen

            self.stop_watching()  # once: the switch happens after this call, and a message may come before it
            self.app.switch_screen(TableScreen(self.controller, self.style_))
            return
        self.show(lobby)

    def show(self, lobby: Lobby) -> None:
        game = TITLES.get(lobby.game, lobby.game) or _("A table on the network")
        role = {"host": _("you host"), "player": _("you play"), "spectator": _("you watch")}[lobby.role]
        players = f" {self.style_.dot} " + _("{n} players").format(n=lobby.players) if lobby.players else ""
        self.query_one("#lobby-title", Static).update(Text(f" {game}{players} {self.style_.dot} {role}", "bold"))
        self.query_one("#lobby-friends", Static).update(friends_text(lobby))
        self.query_one("#lobby-seats", Static).update(seats_text(lobby))
        self.query_one("#lobby-waiting", Static).update(status_text(lobby))
        log = Text("\n").join(literal(f" {line}") for line in lobby.log[-LOG_SHOWN:])  # one line each
        self.query_one("#lobby-log", Static).update(log)

    def action_leave(self) -> None:
        """Back to the home screen (or out, when the command opened the lobby); after a
        failure (a wrong code, no answer, a port in use) back to the form that opened the
        table, its fields as they were, to mend one. The seat's store stays on disk, so the
        same table can be joined again."""
        self.app.run_worker(self.controller.stop, thread=True)
        if self.app.from_command:
            self.app.exit()
        elif self.back is not None and self.controller.lobby().failed:
            self.app.switch_screen(self.back())
        else:
            self.app.pop_screen()


def open_lobby(
    app: Shell, table: NetTable, *, replace: bool = False, back: Callable[[], Screen[Any]] | None = None
) -> None:
    """Start `table` (a NetTable) and show its lobby (in place of the current screen if
    `replace`); `back` makes the form to go back to when the table fails."""
    table.start()
    screen = LobbyScreen(table, app.style_, back)
    app.switch_screen(screen) if replace else app.push_screen(screen)
