"""What the network client tells the app's network table (`network.NetTable`): a
`net.listener.Listener` that hands each thing said, event, note and change of the
connection to the table, which publishes it for the UI."""

from __future__ import annotations

import time
from typing import Protocol

from protocol.events import Event

from ..language import _
from ..net.listener import Listener
from ..notes import Note

ELLIPSIS = "..."


class ListeningTable(Protocol):
    """The table a `TableListener` tells (`network.NetTable`)."""

    entry_at: float
    """When the last entry arrived (`time.monotonic()`)."""

    def client_said(self, line: str, retrying: bool = False) -> None: ...

    def client_told(self, event: Event) -> None: ...

    def client_noted(self, note: Note) -> None: ...

    def link(self, trouble: str | None) -> None: ...

    def publish(self) -> None: ...


class TableListener(Listener):
    """What the client tells the app's network table: the log keeps the words, the screen the
    events and notes; every change is published for the UI (`NetTable.publish`)."""

    def __init__(self, net: ListeningTable) -> None:
        super().__init__(net.client_said)
        self.net = net
        self._told = False  # a try was said in the log since the connection was up

    def event(self, event: Event) -> None:
        self.net.client_told(event)

    def note(self, note: Note) -> None:
        self.net.client_noted(note)

    def connected(self) -> None:
        self._told = False
        self.net.link(None)

    def lost(self, what: str, error: BaseException) -> None:
        self.net.link(_("{what}: trying again{ellipsis}").format(what=what, ellipsis=ELLIPSIS))

    def retrying(self, text: str, paced: bool = False) -> None:
        """Each try shows above the seats (what is waited for, how long is left); the log keeps
        the first since the connection was up."""
        self.net.link(text)
        if not self._told:
            self._told = True
            self.net.client_said(text, retrying=True)

    def changed(self) -> None:
        self.net.publish()

    def took_entry(self) -> None:
        self.net.entry_at = time.monotonic()  # the host's clock restarts with every entry it appends
        self.net.publish()
