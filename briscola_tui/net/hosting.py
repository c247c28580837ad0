"""A table set up to be served (`Hosting`), and which table a `briscola host` command serves:
the one its --transcript names, else the unfinished table the same command hosted before
(`files.hosted`), else a new one (`--new`: always a new one)."""

from __future__ import annotations

import errno
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..files import hosted
from ..files.folders import InUse, hold_lock, subfolder
from ..files.hosted import HostedTable
from ..files.storage import TranscriptFile
from ..language import N_, _
from ..options import HostOptions
from ..os_errors import os_error_words
from .reaching import Whole
from .server import TableServer

PORT_TAKEN = {
    "command": N_("something else listens there: choose another with --port N, or --port 0 for any free port"),
    "app": N_(
        "something else listens there: choose another port (Port in the host form, --port on the "
        "command line), or 0 for any free one"
    ),
}
"""What to do when the port asked for is taken, as the command line and the app say it."""


def cannot_listen(port: int, error: BaseException, where: str) -> str:
    """Why a table cannot be served on `port`, the port named, and for a port in use what to
    do (`where`: "command" or "app", of `PORT_TAKEN`); a club that cannot be reached (no port
    is listened on through it), as its error says it."""
    if isinstance(error, Whole):
        return str(error)
    line = _("cannot listen on port {port}: {why}").format(port=port, why=os_error_words(error))
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        line += "; " + _(PORT_TAKEN[where])
    return line


class SetupError(ValueError):
    """A command line that cannot make a table (said before anything starts, in one line): a
    table this command hosted that cannot be taken up says what would do."""


@dataclass
class Hosting:
    """A table set up to be served: the server, its transcript file and how to reach it."""

    server: TableServer
    log: TranscriptFile
    code: str | None
    bind: str
    port: int  # the port to listen on (0: any free one)
    resumed: bool
    level: str  # of the computer players this process runs
    port_file: str | None = None  # where to write the port once listening (for scripts and tests)
    again: tuple[str, ...] = ()  # the options, beside --port, that take the table up again
    listened: int = 0  # the port it listens on, once it does
    record: HostedTable | None = None  # kept for the same command to take the table up again
    fallback: bool = False  # `port` is the one it listened on before: another if that is taken now

    def resume_command(self, port: int) -> str:
        """The `briscola host` command that takes this table up again, listening on `port`."""
        words = ["briscola", "host", "--transcript", str(self.log.path), "--port", str(port), *self.again]
        return shlex.join(words)

    @property
    def table_id(self) -> bytes:
        return self.server.host.table_id

    def listening_on(self, port: int) -> None:
        """The server listens on `port`: write it to the port file, if one was asked for, and
        to the table's record."""
        self.listened = port
        if self.record is not None:  # (first: a script that reads the port file finds the record so)
            self.record = self.record.listening(port, self.resume_command(port))
        if self.port_file:
            Path(self.port_file).write_text(str(port))

    def close(self) -> None:
        """The table stops being served here: its file closed and, once it is over, its record
        gone (the same command then hosts a new table)."""
        self.log.close()
        if self.server.session.phase in ("over", "aborted"):
            hosted.forget(self.table_id)


def hold_table(table: str) -> None:
    """This process serves table `table` (hex): SetupError if another one of this data folder does."""
    subfolder("hosted")  # (made private if new: a --transcript table keeps no record there)
    try:
        hold_lock(f"hosted/{table}")
    except InUse:
        raise SetupError(
            _(
                "table {table} is being hosted by another briscola process of this data folder; "
                "add --new to host another table"
            ).format(table=table)
        ) from None


def kept_table(
    options: HostOptions, saved_code: Callable[[bytes], str | None], say: Callable[[str], None]
) -> HostedTable | None:
    """The unfinished table this command hosted (None: host a new one). One whose transcript is
    gone is forgotten; one kept with another join code than --code gives is left as it is, and
    the command that takes it up said."""
    if options.transcript is not None or options.new:
        return None
    record = hosted.kept(options)
    if record is None:
        _say_others(options, say)
        return None
    if not Path(record.transcript).exists():
        hosted.forget(bytes.fromhex(record.table))
        return None
    if options.code and saved_code(bytes.fromhex(record.table)) != options.code:
        line = _("the unfinished table {table} has another join code; to take it up again run: {command}")
        say(line.format(table=record.table, command=record.again))
        return None
    hold_table(record.table)
    return record


def _say_others(options: HostOptions, say: Callable[[str], None]) -> None:
    """The unfinished tables other commands hosted: each is kept, and said with its command."""
    for record in hosted.others(options):
        if record.again:
            line = _("the unfinished table {table} ({game}, {n} players) is kept; to take it up again run: {command}")
            say(line.format(table=record.table, game=record.game, n=record.players, command=record.again))


def new_record(options: HostOptions, table: bytes, log: TranscriptFile, players: int) -> HostedTable | None:
    """The record of a new table (None with --transcript: that file is how it is taken up)."""
    if options.transcript is not None:
        return None
    hold_table(table.hex())
    record = HostedTable(hosted.command_key(options), table.hex(), str(log.path), 0, options.game, players, "")
    record.save()
    return record
