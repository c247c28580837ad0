"""A client's own copy of the table: the session rebuilt from the transcript and its
seat's store, its transcript file (what it checked, for `briscola verify`), and what
that copy holds. The client (`client.Client`) keeps them across its connections."""

from __future__ import annotations

from pathlib import Path

from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.events import Acted, Event, HandBegins, TrickTaken
from protocol.identity import Identity
from protocol.messages import from_body
from protocol.returning import MAX_TAGS
from protocol.session import TableSession
from protocol.transcript import Entry, Signed, entry_hash, parse_header
from protocol.transcript_file import TranscriptReader

from .. import notes
from ..files.folders import own_file, subfolder
from ..files.storage import FileSeatStore, TranscriptFile
from ..notes import Note, SoFar


def rebuild(
    entries: list[bytes],
    table_id: bytes,
    seat: int | None,
    identity: Identity | None,
    name: str,
    session_class: type[TableSession] = TableSession,
    person: Identity | None = None,
    bot_level: str = "",
    heard: list[Event] | None = None,
) -> tuple[TranscriptFile, TableSession, list[bytes]]:
    """This client's transcript file, a fresh session from the whole transcript and the seat's
    store (a restart resumes here), and what the seat owes the table. `seat` None: a spectator.
    `person`: the identity that vouches for the seat's key in its join (for `join --bot`, the
    account's, naming `bot_level`), None: the key is the person's own. `heard`: a list the
    transcript's events are added to, as this seat (or a spectator) sees them."""
    log = open_log(table_id, seat, entries)
    if seat is None:
        session = TableSession(None)
        for data in entries:
            events = session.receive(data).events
            if heard is not None:
                heard += events
        return log, session, []
    assert identity is not None  # (a player joins with its key)
    store = FileSeatStore.for_seat(table_id, seat)
    replacing = taken_over(entries, seat, identity.public_bytes)
    session, owed = session_class.resume(
        seat, identity, store, entries, name=name, replacing=replacing, person=person, bot_level=bot_level, heard=heard
    )
    return log, session, owed


def taken_over(entries: list[bytes], seat: int, key: bytes) -> bool:
    """The seat was first taken by another key: this one was given it later (table rule
    `retake`), and its session resumes as the seat's replacement."""
    for data in entries:
        header, body = parse_header(Signed.decode(Entry.decode(data).message).payload)
        if header.kind == "join" and header.sender == seat:
            return from_body("join", body).key != key
    return False


def open_log(table_id: bytes, seat: int | None, entries: list[bytes]) -> TranscriptFile:
    """This client's own copy of the transcript, brought up to `entries`; RemoteProtocolError
    if the host's transcript is not the one stored."""
    folder = subfolder("transcripts")
    who = "watch" if seat is None else f"seat{seat}"
    path = own_file(folder / f"{table_id.hex()}-{who}.bin")  # never appended to through a planted link
    log = TranscriptFile.open(path) if path.exists() else TranscriptFile.create(path, table_id)
    log.sync_each = False  # the host's file is the table's; this copy is synced at the end
    held = [e.encode() for e in log.entries]
    if held != entries[: len(held)]:
        raise RemoteProtocolError("the host's transcript is not the one this client stored")
    for data in entries[len(held) :]:
        log.append(data)
    return log


def recent_host_keys(limit: int = MAX_TAGS) -> list[bytes]:
    """The table keys of the tables this player's seat copies were written for most lately
    (`limit` at most): a process started again does not know which table an address serves
    before its hello, and marks its hello for each (returning.py)."""
    folder = subfolder("transcripts")
    copies = sorted(folder.glob("*-seat[0-9].bin"), key=_written, reverse=True)
    keys: list[bytes] = []
    for path in copies[: limit * 2]:  # (a few more than needed: a copy may be unreadable)
        key = _host_key_of(path)
        if key is not None and key not in keys:
            keys.append(key)
    return keys[:limit]


def _written(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _host_key_of(path: Path) -> bytes | None:
    """The host's key in a transcript copy's first entry (its table message), or None."""
    try:
        with open(own_file(path), "rb") as stream:
            first = next(TranscriptReader(stream).entries(), None)
        if first is None:
            return None
        header, body = parse_header(Signed.decode(first.message).payload)
        return from_body("table", body).key if header.kind == "table" else None
    except (OSError, ValueError, ProtocolError, StopIteration):
        return None


def held(session: TableSession | None) -> int:
    """The entries of the transcript this client holds."""
    return 0 if session is None or session.transcript is None else len(session.transcript.entries)


def holding(session: TableSession | None) -> tuple[int, bytes]:
    """How much of the transcript this client holds, and the hash of its last entry (to resume from there)."""
    if not held(session):
        return 0, bytes(32)
    assert session is not None and session.transcript is not None  # (it holds entries)
    entries = session.transcript.entries
    return len(entries), entry_hash(entries[-1])


def unconfirmed(session: TableSession) -> list[bytes]:
    """Messages this seat signed (and stored) that the transcript does not hold yet."""
    if session.seat is None or session.transcript is None:
        return []
    store = session.store
    return [store.sent[q] for q in sorted(store.sent) if not session.transcript.has_message(store.sent[q])]


def so_far(session: TableSession) -> SoFar | None:
    """What a client arriving late missed: who sits where, and the hands scored."""
    if not session.names:
        return None
    seats = tuple(sorted(session.names))
    names = tuple(session.names[s] for s in seats)
    return SoFar(names, seats, len(session.outcomes))


def this_hand(events: list[Event]) -> list[Event]:
    """What a client arriving mid-hand (or coming back) is told of the hand it finds, from the
    events of the transcript: those of the last hand begun (its deal, the trump, the auction,
    every trick taken, the draws, what is on the table now), not those of the hands before;
    the plays of a trick already taken are in that trick's line ("Bob takes the trick (7S 3S)
    for 10 points") and are left out, so the hand is said in a few lines."""
    begun = max((i for i, event in enumerate(events) if isinstance(event, HandBegins)), default=None)
    if begun is None:
        return []
    hand = events[begun:]
    taken = max((i for i, event in enumerate(hand) if isinstance(event, TrickTaken)), default=-1)
    return [e for i, e in enumerate(hand) if not (i < taken and isinstance(e, Acted) and e.action.kind == "play")]


def seated(session: TableSession, seat: int | None, table_id: bytes) -> Note:
    """Where this client sits ("seat 2 at table ..."; a spectator: watching)."""
    game = session.table.game if session.table else ""
    return notes.AtTable(seat, table_id.hex(), game)


def final(session: TableSession) -> Note:
    """How the table ended, for a client that holds its end: stopped by the cheats named, or over."""
    if session.phase == "aborted":
        named = {str(c): c for v in session.verdicts for c in v.cheats} | {str(c): c for c in session.culprits}
        return notes.TableStopped(tuple(named[k] for k in sorted(named)))
    scores = tuple(session.series.scores) if session.series else ()
    return notes.TableOver(scores, session.closed or None)
