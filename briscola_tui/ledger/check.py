"""One transcript file checked as `briscola verify` checks it, and the facts the ledger keeps.

Every entry goes, in order, through a spectator `TableSession`, which checks it completely
(link, host signature, message signature, sequence, identity certificate, proofs, rules)
before the next; the end of each hand's audit gives that hand's verdict. A file is kept only
if every entry passes and the table has ended (the series over, the host closed it, or a
cheat stopped it): a file cut short, tampered, of another program or too large is refused
with the reason, and nothing of it is kept.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from engine.bots import PLAYERS
from protocol.audit import ABSENT, Verdict
from protocol.certificate import level_identity
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.session import TableSession
from protocol.transcript import HOST, entry_hash
from protocol.transcript_file import NotATranscript, OldTranscript, TranscriptReader

from ..engine_words import protocol_error_words
from ..language import _
from ..os_errors import os_error_words
from .facts import Contract, Hand, Seat, Table
from .regular import NotRegular, TooLarge, open_regular, read_regular

MAX_FILE = 64 * 1024 * 1024
"""The largest transcript the ledger reads (a 100-hand Chiamata series is about 12 MB)."""

LEVELS: dict[str, str] = {level_identity(name).public_bytes.hex(): name for name in PLAYERS}
"""The identity key of each computer player's level, by its hex: what older transcripts certified
a computer seat with (anyone holds it, so it says nothing of who ran the seat)."""


class Refused(ValueError):
    """A file the ledger does not take; the message says why, in the current language."""


class Unfinished(Refused):
    """A transcript that checks out so far but stops before its table ended (a table still
    being played, or an offline game kept to be resumed)."""


def read_bounded(path: Path) -> bytes:
    """The file's bytes; Refused at once if it is not a regular file (a FIFO is never waited
    on), cannot be read, or is larger than MAX_FILE (not read then)."""
    try:
        return read_regular(path, MAX_FILE)
    except NotRegular:
        raise Refused(_("not a regular file (a FIFO, a device or a folder)")) from None
    except TooLarge as error:
        raise Refused(
            _("too large for a transcript ({size} MB; at most {most} MB)").format(
                size=error.size // 2**20, most=MAX_FILE // 2**20
            )
        ) from None
    except OSError as error:
        raise Refused(_("cannot be read: {why}").format(why=os_error_words(error))) from None


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def game_of(path: Path) -> str:
    """The game of the table whose transcript is at `path`, as its first entry (checked) says;
    "" when that cannot be told. Only the first entry is read: for naming a table not ended."""
    try:
        with open_regular(path) as stream:
            first = next(TranscriptReader(stream).entries(), None)
            if first is None:
                return ""
            session = TableSession(None)
            session.receive(first.encode())
    except (OSError, ProtocolError, ValueError):
        return ""
    return session.table.game if session.table is not None else ""


def check(data: bytes, written: float) -> Table:
    """The facts of the transcript `data` (a copy written at `written`); Refused if it does not
    verify, or stops before the table ended."""
    try:
        reader = TranscriptReader(io.BytesIO(data))
    except OldTranscript as error:
        raise Refused(protocol_error_words(error)) from None
    except NotATranscript:
        raise Refused(_("not a briscola transcript")) from None
    session, facts = TableSession(None), _Facts()
    last = None
    try:
        for k, entry in enumerate(reader.entries()):
            try:
                session.receive(entry.encode())
            except ProtocolError as error:
                raise Refused(_("entry {k} does not verify: {reason}").format(k=k, reason=error.reason)) from None
            facts.note(session)
            last = entry
    except RemoteProtocolError as broken:
        raise Refused(_("entry {k} does not verify: {reason}").format(k=broken.entry, reason=broken.reason)) from None
    if reader.torn:
        raise Refused(_("cut short: its last entry is incomplete"))
    if last is None or session.phase not in ("over", "aborted"):
        raise Unfinished(_("the table had not ended when the transcript stops"))
    return facts.table(session, entry_hash(last).hex(), written)


class _Facts:
    """The hands' facts, taken as each verdict comes (who sat where then)."""

    def __init__(self) -> None:
        self.hands: list[Hand] = []
        self.seen = 0

    def note(self, session: TableSession) -> None:
        for verdict in session.verdicts[self.seen :]:
            self.hands.append(hand_facts(session, verdict))
        self.seen = len(session.verdicts)

    def table(self, session: TableSession, head: str, written: float) -> Table:
        assert session.table is not None and session.transcript is not None  # (it ended: it began)
        cheats = tuple(
            person_of(session, c.seat).person
            for c in session.culprits
            if c.kind != ABSENT and isinstance(c.seat, int) and c.seat in session.keys
        )
        table = session.table
        return Table(
            session.transcript.table_id.hex(),
            session.keys[HOST].hex(),
            head,
            table.game,
            table.players,
            table.name,
            written,
            tuple(self.hands),
            cheats,
        )


def person_of(session: TableSession, seat: int) -> Seat:
    """Who holds `seat` now: the identity its key's certificate names, else the key itself; a
    computer seat is its level, run by the identity that certified it (by nobody known when an
    older transcript certified it with the level's own key)."""
    key, name = session.keys[seat], session.names.get(seat, "")
    identity = session.certified.get(key, key).hex()
    level = session.runs.get(key, "")
    if level:
        return Seat(level_identity(level).public_bytes.hex(), name, level, runner=identity)
    return Seat(identity, name, LEVELS.get(identity, ""))


def hand_facts(session: TableSession, verdict: Verdict) -> Hand:
    """One verdict's facts: who sat, the score, and the sides and ranks it is rated by."""
    seats = tuple(person_of(session, s) for s in range(session.players))
    cheats = tuple(sorted({c.seat for c in verdict.cheats if isinstance(c.seat, int) and c.seat >= 0}))
    absent = tuple(sorted({c.seat for c in verdict.culprits if c.kind == ABSENT and isinstance(c.seat, int)}))
    outcome = verdict.outcome
    if not verdict.ok or outcome is None or outcome.score is None:
        return Hand(verdict.hand, seats, void=True, cheats=cheats, absent=absent)
    result, score = outcome.result, tuple(outcome.score)
    assert session.game is not None
    sides = session.game.rated_sides(result)
    persons = [{seats[s].person for s in side} for side in sides]
    mirrored = any(a & b for i, a in enumerate(persons) for b in persons[i + 1 :])
    ranks = () if not sides or mirrored else _ranks([score[side[0]] for side in sides])
    contract = Contract.of(result.json())
    return Hand(verdict.hand, seats, score, tuple(outcome.points), sides if ranks else (), ranks, contract=contract)


def _ranks(totals: list[int]) -> tuple[int, ...]:
    """Each side's place by its score, highest first (0), equal scores tied."""
    order = sorted(set(totals), reverse=True)
    return tuple(order.index(t) for t in totals)
