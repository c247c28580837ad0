"""A stored transcript as steps for the replay viewer: trick by trick, as a
spectator saw the table. Each entry goes through a spectator `TableSession`
(which checks it as `briscola verify` does), so a step shows only public
cards; the hands as dealt appear at the hand's end, once the audit has
opened every card. No textual here: the screen reads the steps."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..language import _
from ..os_errors import os_error_words

if TYPE_CHECKING:
    from engine.view import SeatView
    from protocol.events import Event

STEP_ACTIONS = ("call", "raise")
"""Decisions after which the viewer stops: a call, the monte raised."""


class ReplayError(Exception):
    """A file the viewer cannot open: one line for the player."""


@dataclass
class Step:
    view: SeatView  # the spectator's, after this step
    lines: list[str] = field(default_factory=list)  # the events of this step, as text
    trick: tuple = ()  # (leader, cards, winner, points) of the trick this step took, if one
    failure: str = ""  # the entry refused here, if the transcript breaks
    audited: bool = False  # a hand's audit ended here: every card of it is known
    events: list = field(default_factory=list)  # the events of this step (`lines` is them in letters)


def is_step(event: Event) -> bool:
    """The viewer stops after this event: a trick taken, a hand audited, a call, the monte shown..."""
    from protocol.events import (
        Acted,
        HandScored,
        HandVoid,
        MonteShown,
        SeriesOver,
        StoppedEarly,
        TableClosed,
        TrickTaken,
    )

    if isinstance(event, Acted):
        return event.action.kind in STEP_ACTIONS
    return isinstance(event, TrickTaken | HandScored | HandVoid | MonteShown | StoppedEarly | TableClosed | SeriesOver)


def steps_of(path: str | os.PathLike) -> list[Step]:
    """Every step of the transcript at `path`. ReplayError for a file that is not one."""
    from protocol.errors import ProtocolError
    from protocol.events import HandScored, HandVoid, TrickTaken
    from protocol.session import TableSession
    from protocol.transcript_file import NotATranscript

    from ..files.storage import read_transcript_file
    from ..render import render
    from .verify import clean

    try:
        entries = read_transcript_file(path).entries
    except NotATranscript as error:
        raise ReplayError(
            _("{path} is not a briscola transcript: {reason}").format(path=path, reason=error.reason)
        ) from None
    except ProtocolError as error:
        raise ReplayError(_("{path}: a damaged entry: {error}").format(path=path, error=error)) from None
    except (OSError, ValueError) as error:
        why = os_error_words(error)
        raise ReplayError(_("cannot read {path}: {why}").format(path=path, why=why)) from None
    session = TableSession(None)
    steps: list[Step] = []
    lines: list[str] = []
    events: list = []
    for entry in entries:
        try:
            update = session.receive(entry.encode())
        except ProtocolError as error:
            steps.append(
                Step(
                    session.seat_view(),
                    lines,
                    events=events,
                    failure=clean(_("entry {n} refused: {error}").format(n=entry.index, error=error)),
                )
            )
            return steps
        lines += [clean(render(event)) for event in update.events]
        events += update.events
        if any(map(is_step, update.events)):
            view = session.seat_view()
            trick: tuple[object, ...] = ()
            if any(isinstance(event, TrickTaken) for event in update.events) and view.tricks:
                t = view.tricks[-1]
                trick = (t.leader, t.cards, t.winner, t.points)
            audited = any(isinstance(event, HandScored | HandVoid) for event in update.events)
            steps.append(Step(view, lines, trick, audited=audited, events=events))
            lines, events = [], []
    if lines or not steps:
        steps.append(Step(session.seat_view(), lines, events=events))
    return steps


DESCRIBE_BYTES = 64 * 1024
"""What `describe` reads of a transcript: its first entries (the table, the joins) are a few KiB,
and a long series is megabytes that the list need not read."""


def describe(path: Path) -> str:
    """One line for the list of stored transcripts: the game, when it was last written, whose
    copy it is and the players' names, seat by seat (read from the file's first entries, not
    checked: opening it checks everything). The file name alone when it is not a transcript."""
    from datetime import datetime

    from protocol.errors import ProtocolError
    from protocol.messages import from_body
    from protocol.transcript import parse_signed
    from protocol.transcript_file import load_transcript_prefix

    from ..wording import SHORT_NAMES

    try:
        with path.open("rb") as handle:
            _table, _meta, entries, _torn = load_transcript_prefix(
                handle.read(DESCRIBE_BYTES)
            )  # a frame cut short is dropped
        opened = [parse_signed(entry.message) for entry in entries[:13]]  # the table, then the joins
        table = from_body("table", opened[0].body)
        names = {o.header.sender: from_body("join", o.body).name for o in opened if o.header.kind == "join"}
        when = datetime.fromtimestamp(path.stat().st_mtime)
    except (ProtocolError, OSError, IndexError, ValueError):
        return _("{name} (not a transcript this version reads)").format(name=path.name)
    players = ", ".join(names.get(seat) or _("seat {n}").format(n=seat) for seat in range(table.players))
    whose = whose_copy(path.stem)
    return "  ".join(
        part for part in (SHORT_NAMES.get(table.game, table.game), f"{when:%d %b %Y %H:%M}", whose, players) if part
    )


def whose_copy(stem: str) -> str:
    """What a stored transcript's file name says of it: played against the computer, hosted,
    played at a seat or watched (as the app names them)."""
    if stem.startswith("offline-"):
        return _("against the computer")
    suffix = stem.rsplit("-", 1)[-1]
    if suffix.startswith("seat") and suffix[4:].isdigit():
        return _("played at seat {n}").format(n=suffix[4:])
    if suffix == "host":
        return _("hosted")
    return _("watched") if suffix == "watch" else ""


def transcripts_folder() -> Path:
    """Where the stored transcripts are: the data folder's `transcripts` (games against the
    computer, and the copies host, join and watch keep)."""
    from ..files.folders import data_dir

    return data_dir() / "transcripts"


def stored_transcripts() -> list[Path]:
    """Every transcript in the data folder, newest first."""
    found = []
    try:
        for p in transcripts_folder().iterdir():
            try:
                if p.is_file() and p.suffix == ".bin":
                    found.append((p.stat().st_mtime, p.name, p))
            except OSError:  # gone meanwhile
                continue
    except OSError:
        return []
    return [p for _, _, p in sorted(found, reverse=True)]
