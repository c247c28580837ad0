"""Who hears a network client and who answers for its seat.

A client (`client.Client`) tells a `Listener` what happens (its own lines, the
table's events, its notes, the connection coming and going, the table
changing) and asks a `Person` for a person's moves. The headless commands use
`Listener` itself (lines on standard output) and the `Keyboard` (labels typed
on standard input, read by `stdin_lines`); the app's network table gives its
own (`tables.network`).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from engine.state import Action
from protocol.events import Event

from ..language import _
from ..notes import Note
from ..render import HEADLESS, render
from .typed import read_typed, typed_label

RETRY_LINE_SECONDS = 4.5
"""The least time between two lines saying a try (each says how long is left)."""


class Listener:
    """What a client tells whoever runs it. This one writes lines (`say`), as the headless
    commands print them; the app's network table hears the same through its own. Every
    method is called on the client's event loop, and must not block it."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.names: tuple[str, ...] = ()  # the seats' names, once known (`named`)
        self._retry_said: float | None = None  # when a try was last said (None: none since connected)

    def named(self, names: tuple[str, ...]) -> None:
        """The seats' names as the table knows them now (seat order; "seat N" for one not named)."""
        self.names = names

    def line(self, text: str) -> None:
        """Something the client says in its own words (retrying, refused, not a move)."""
        self.say(text)

    def retrying(self, text: str, paced: bool = False) -> None:
        """The client says it tries again (the connection lost, the host busy), with what it waits
        for and how long is left: a `line` here, the first since the connection was up and then
        one every `RETRY_LINE_SECONDS` at most (the first tries come a fraction of a second apart);
        each one when `paced` (the host said how long to wait: a second or more)."""
        now = time.monotonic()
        if paced or self._retry_said is None or now - self._retry_said >= RETRY_LINE_SECONDS:
            self._retry_said = now
            self.line(text)

    def event(self, event: Event) -> None:
        """An event of the table, from an entry the client took in."""
        self.say(render(event, HEADLESS, self.names))

    def note(self, note: Note) -> None:
        """A note of the client's own: who sits where, who went or came back, why it stops."""
        self.say(render(note, HEADLESS, self.names))

    def connected(self) -> None:
        """The handshake is done: the connection is up."""
        self._retry_said = None

    def lost(self, what: str, error: BaseException) -> None:
        """The connection dropped, or was never made (`what` says which): it is tried again."""

    def changed(self) -> None:
        """What the seat sees may have changed (caught up, acted, someone went away)."""

    def took_entry(self) -> None:
        """An entry arrived from the host (and was taken in, or refused)."""
        self.changed()


class Person(Protocol):
    """Who answers for a person's seat: the keyboard, or the app's screen."""

    def prompt(self, offered: list[str]) -> None:
        """It is the person's turn, and this is what they may do (the action labels)."""

    async def answer(self) -> str | Action | None:
        """The person's next answer: a label (or an `Action`), or None when there will be
        none (the input is closed)."""
        ...


class Keyboard:
    """A person typing one action label per line (`lines`, an async iterator; None: nobody).
    Once it `listen`s, every line is read as it comes: the answer when one is wanted (the
    person's turn), else told at once why not (`not_now(line)`) and dropped, never kept for a
    later turn."""

    def __init__(self, lines: AsyncIterator[str] | None, say: Callable[[str], None]) -> None:
        self.lines, self.say = lines, say
        self.not_now: Callable[[str], str] = lambda line: _("not your turn")
        self._wanted: asyncio.Future[str | None] | None = None  # the answer wanted now
        self._reading: asyncio.Task | None = None
        self._closed = False  # the input has ended

    def listen(self, not_now: Callable[[str], str] | None = None) -> None:
        """Read the lines from now on (on the running loop); `not_now(line)`: what a line typed
        while no answer is wanted is told."""
        if not_now is not None:
            self.not_now = not_now
        if self.lines is not None and self._reading is None:
            self._reading = asyncio.ensure_future(self._read(self.lines))

    def prompt(self, offered: list[str]) -> None:
        """The moves, as the player types them in their language ("gioca 3S"; English too)."""
        self.say(_("your turn: {choices}").format(choices=" | ".join(typed_label(label) for label in offered)))

    async def answer(self) -> str | None:
        """The next line, a move typed in the player's language or in English, as the labels
        write it ("gioca 3S" is "play 3S"); None when the input has ended."""
        self.listen()
        if self._reading is None or self._closed:
            return None
        wanted = self._wanted = asyncio.get_running_loop().create_future()
        try:
            return await wanted
        finally:
            if self._wanted is wanted:
                self._wanted = None

    async def _read(self, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            wanted = self._wanted
            if wanted is not None and not wanted.done():
                wanted.set_result(read_typed(line))
            else:
                self.say(self.not_now(line))
        self._closed = True
        if self._wanted is not None and not self._wanted.done():
            self._wanted.set_result(None)


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on standard input, without blocking the event loop. A daemon thread
    reads them, so a client that ends while a line is awaited exits at once."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue = asyncio.Queue()

    def read() -> None:
        try:
            for line in sys.stdin:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            loop.call_soon_threadsafe(lines.put_nowait, None)
        except RuntimeError:  # the client has ended (its loop is closed)
            return

    threading.Thread(target=read, name="stdin", daemon=True).start()
    while (line := await lines.get()) is not None:
        if line.strip():
            yield line.strip()
