"""The app on a network table: `briscola host`, `join` and `watch` without
--headless open it on the lobby, and the home screen's forms open the same
lobby. The terminal going away (SIGHUP) ends the app cleanly (as every
`BriscolaApp`: `terminal_gone`); the seat's store and transcript are on
disk, so the same command takes the seat back."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from textual.message import Message

from engine.text import visible

from ..language import _
from ..net.carrier import Carrier
from ..options import HostOptions, JoinOptions, NetOptions
from ..tables.hosting_seat import hosting_table
from ..tables.network import NetTable
from .app import BriscolaApp
from .screens.lobby import open_lobby


class NetworkApp(BriscolaApp):
    """The app opened by `briscola host`, `join` or `watch`: the lobby first, and out at the end."""

    def __init__(self, table: NetTable, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.from_command = True

    def kept_note(self) -> str:
        if self.table.role == "host":
            return _("The table is kept: briscola prints, as it closes, the command that takes it up again.")
        return _("Your seat is kept: the same join command takes it back.")

    class Gone(Message):
        """The client stopped for good at the table (posted from the network thread)."""

    def on_mount(self) -> None:
        # Textual runs BriscolaApp.on_mount after this one (it pushes the home screen): the
        # lobby goes on top of it once that is done.
        self.table.watch(self._changed)
        self.call_later(open_lobby, self, self.table)

    def _changed(self) -> None:
        """On the network thread: a client that stopped for good (the host gone past --retry, or
        serving another table) closes the app at once; the farewell line says why."""
        if self.table.gone:
            self.table.unwatch(self._changed)
            self.post_message(self.Gone())

    def on_network_app_gone(self, _message: Gone) -> None:
        self.exit()


def run_app(kind: str, options: NetOptions, carrier: Carrier | None = None) -> int:
    """`briscola host|join|watch` without --headless (through `carrier`, a club, when there is
    one). Exit status as the headless command's; 0 when the person left before the end (the
    same command takes the seat back)."""
    table = _table(options, carrier)
    try:
        NetworkApp(table, ascii=True if options.ascii else None).run()
    finally:
        table.stop()
    with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
        print(visible(farewell(kind, table)), file=sys.stderr)  # (why the host refused, maybe)
    if table.exit_status is None:  # left before the end (0), or never got going (2)
        return 2 if table.lobby().failed else 0
    return table.exit_status


def _table(options: NetOptions, carrier: Carrier | None) -> NetTable:
    """The table the command's options describe: hosted here with a seat, joined, or watched."""
    from ..net.joining import join_options, player_identity, watch_options

    if isinstance(options, HostOptions):
        return hosting_table(options, player_identity(), carrier)
    if isinstance(options, JoinOptions):
        return NetTable(join_options(options, carrier), player_identity(), carrier=carrier, club=options.club or "")
    return NetTable(watch_options(options, carrier), carrier=carrier, club=options.club or "")


def farewell(kind: str, table: NetTable) -> str:
    """One line after the app closes: how it ended, or how to come back."""
    lobby = table.lobby()
    if lobby.failed:
        return f"briscola {kind}: {lobby.failed}"
    if table.over:
        return f"briscola {kind}: " + _("the table is over")
    if kind == "host" and table.hosting is not None:
        port = table.hosting.listened or table.hosting.port
        again = _("left the table; to take it up again run: {command}").format(
            command=table.hosting.resume_command(port)
        )
        return "briscola host: " + again
    return f"briscola {kind}: " + _("left the table; the same command takes your place again")
