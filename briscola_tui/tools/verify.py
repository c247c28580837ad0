"""`briscola verify FILE`: check a stored transcript offline and tell its story.

Every entry goes, in order, through a spectator `TableSession`, which checks
it completely (link, host signature, message signature, sequence, phase,
proofs, rules) before the next: a changed entry is named as itself. Nothing
is chain-checked ahead of that replay, and nothing is read ahead of it either:
the file is read a frame at a time (`TranscriptReader`), so a file bad from
some entry on is refused there, in a moment and in little memory, however
long it is.

What is printed on standard output, in this order:

- the table: its id, name, game, number of players, options, table rules
  and the host's key fingerprint; then, once every seat has joined, each
  seat's key fingerprint and name, and the fingerprint of the identity key
  that certified it in its join when that is another key (a seat taken
  again later gets a line where it happens);
- one line per audited hand (`ok   hand N: ...` or `FAIL hand N: ...`),
  and a `FAIL` line for a seat named outside any hand (the coin);
- `FAIL entry K: <reason> [<who>]` when entry K itself is refused, after
  which nothing can be checked;
- a summary line, then how the table ended: the series is over, the host
  closed it (and why), a cheat stopped it, or `incomplete: stops after
  entry K: <who owes what>`;
- when anyone is named, the last line: `culprits: seat 1, seat 3, host`.

Exit status: 0 a complete table, every hand passed, nobody named; 3 a cheat,
a tampered entry or a seat timed out (the culprits line names them); 4 the
transcript stops before the table ended; 1 the file cannot be read or is
not a transcript (one line on standard error). A torn last frame (a crash
mid-write) is dropped with a warning on standard error.

Names and other text from the transcript are untrusted: control and
line-breaking characters are removed from everything printed.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from protocol.audit import Culprit
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.identity import fingerprint
from protocol.phases import HAND_PHASES
from protocol.session import TableSession
from protocol.tableid import derived
from protocol.transcript import DAMAGED, HOST, Entry
from protocol.transcript_file import NotATranscript, OldTranscript, TranscriptReader
from protocol.view import summary

from ..engine_words import protocol_error_words, reason_words
from ..files.storage import torn_warning
from ..language import N_, _
from ..os_errors import os_error_words
from ..render import render_hand
from ..wording import count, option

OK, UNREADABLE, CHEAT, INCOMPLETE = 0, 1, 3, 4
PROG = "briscola verify"

# kind owed -> (one seat's, several seats') name of it
OWED = {
    "coin_commit": (N_("coin commitment"), N_("coin commitments")),
    "coin_reveal": (N_("coin reveal"), N_("coin reveals")),
    "commit": (N_("commitment"), N_("commitments")),
    "shuffle": (N_("shuffle"), N_("shuffles")),
    "shares": (N_("key shares"), N_("key shares")),
    "act": (N_("move"), N_("moves")),
    "handover": (N_("handover"), N_("handovers")),
    "reveal": (N_("reveal"), N_("reveals")),
}

_UNSAFE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean(text: str) -> str:
    """`text` without control, format or line-breaking characters (safe to print)."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in _UNSAFE)


def verify(path: str | os.PathLike, out: TextIO, err: TextIO) -> int:
    """Check the transcript at `path`, print its story to `out`; the exit status.

    The file is read a frame at a time and each entry checked before the next is read:
    a file bad from its first entry on is refused there, however long it is."""
    try:
        with open(path, "rb") as stream:
            return _verify_stream(path, stream, out, err)
    except OSError as error:
        return _cannot_read(err, path, error)


def _verify_stream(path: str | os.PathLike, stream: BinaryIO, out: TextIO, err: TextIO) -> int:
    try:
        reader = TranscriptReader(stream)
    except OldTranscript as error:
        return _refuse(err, _("{path} is {reason}").format(path=path, reason=protocol_error_words(error)))
    except NotATranscript:  # (why its bytes do not read as one: nothing a person can act on)
        return _refuse(err, _("{path} is not a briscola transcript").format(path=path))
    except (OSError, ValueError) as error:
        return _cannot_read(err, path, error)
    status = _Story(out).tell(reader)
    if reader.torn:
        warning = torn_warning(reader.torn)
        print(clean(_("{prog}: warning: {path}: {warning}").format(prog=PROG, path=path, warning=warning)), file=err)
    return status


def _cannot_read(err: TextIO, path: str | os.PathLike, error: OSError | ValueError) -> int:
    why = os_error_words(error)
    return _refuse(err, _("cannot read {path}: {why}").format(path=path, why=why))


def _refuse(err: TextIO, message: str) -> int:
    print(clean(f"{PROG}: {message}"), file=err)
    return UNREADABLE


def party(culprit: object) -> int | str:
    """A seat number, or "host" (for the host's culprit: "host", or its sender number -1).
    An error naming nobody is no party's: `Stop.who` stays None (damaged or altered)."""
    if isinstance(culprit, int) and not isinstance(culprit, bool) and culprit >= 0:
        return culprit
    return "host"


def _label(who: int | str) -> str:
    return _("the host") if who == "host" else _("seat {n}").format(n=who)


def culprit_text(culprit: Culprit) -> str:
    """What `str(culprit)` says (protocol.audit), in the current language: `seat 1: <reason> (transcript
    entry 7)`. The reason is the protocol's own words."""
    where = "" if culprit.entry is None else _(" (transcript entry {entry})").format(entry=culprit.entry)
    return _("{who}: {reason}{where}").format(who=_label(party(culprit.seat)), reason=culprit.reason, where=where)


def culprits_line(culprits: list[Culprit]) -> str:
    """`culprits: seat 1, seat 3, host`: each named once, seats in order, the host last."""
    named = {party(c.seat) for c in culprits}
    seats = sorted(s for s in named if s != "host")
    names = [_("seat {n}").format(n=s) for s in seats] + ([_("host")] if "host" in named else [])
    return _("culprits: {names}").format(names=", ".join(names))


@dataclass(frozen=True)
class Stop:
    """Where the replay stopped: the entry, why, and who signed the proof of it (a seat, or
    "host"); None where nobody did (a signature that does not verify, a frame that does
    not decode, an entry missing: the copy is damaged or altered)."""

    entry: int | None
    reason: str
    who: int | str | None


class _Story:
    """Feeds the entries to a spectator and prints what happens as it happens."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.session = TableSession(None)
        self.found: list[Culprit] = []
        self.table_shown = False
        self.seats: dict[int, tuple[bytes, str]] | None = None  # as last printed
        self.absent: set[int] = set()  # timed out, as of the last entry
        self.verdicts = 0
        self.table_culprits = 0

    def say(self, line: str) -> None:
        print(clean(line), file=self.out)

    def tell(self, reader: TranscriptReader) -> int:
        """Replay the entries `reader` reads, each checked before the next is read, until
        one is refused or a frame does not decode (named as that entry)."""
        failed = self._replay(reader)
        if not self.table_shown:
            self.say(_("table {id} (from the file header)").format(id=reader.table_id.hex()))
        if self.table_shown and self.seats is None:
            self._show_seats()  # it stopped before every seat joined: those that did
        return self._end(failed)

    def _replay(self, reader: TranscriptReader) -> Stop | None:
        """Feed the spectator each entry as it is read; the first one refused, if any."""
        try:
            for k, entry in enumerate(reader.entries()):
                failed = self._take(k, entry)
                if failed is not None:
                    return failed
        except RemoteProtocolError as broken:  # (a frame that does not decode: nobody signed it)
            return Stop(broken.entry, broken.reason, None)
        return None

    def _take(self, k: int, entry: Entry) -> Stop | None:
        """Entry `k` checked by the spectator: None, or why it stops there and who signed the proof."""
        try:
            self.session.receive(entry.encode())
        except ProtocolError as error:
            culprit = error.culprit if isinstance(error, RemoteProtocolError) else None
            return Stop(k, error.reason, None if culprit is None else party(culprit))
        self._news(k)
        return None

    # --- as each entry is accepted ----------------------------------------------

    def _news(self, k: int) -> None:
        session = self.session
        if not self.table_shown and session.table is not None:
            self._show_table()
        if self.seats is None:
            if session.phase not in ("table", "join"):
                self._show_seats()
        else:
            self._seat_changes(k)
        for verdict in session.verdicts[self.verdicts :]:
            self.found += verdict.culprits
            if verdict.ok:
                result = render_hand(summary(verdict))
                self.say(_("ok   hand {n}: all checks pass — {result}").format(n=verdict.hand + 1, result=result))
            else:
                culprits = "; ".join(culprit_text(c) for c in verdict.culprits)
                self.say(_("FAIL hand {n}: {culprits}").format(n=verdict.hand + 1, culprits=culprits))
        self.verdicts = len(session.verdicts)
        for culprit in session.culprits[self.table_culprits :]:
            self.found.append(culprit)
            self.say(_("FAIL {culprit}").format(culprit=culprit_text(culprit)))
        self.table_culprits = len(session.culprits)

    def _show_table(self) -> None:
        session, table = self.session, self.session.table
        assert table is not None and session.transcript is not None and session.game is not None  # (its message is in)
        self.table_shown = True
        self.say(_('table {id} "{name}"').format(id=session.transcript.table_id.hex(), name=table.name))
        options = ", ".join(option(k, v) for k, v in sorted(session.game.options.items())) or _("none")
        self.say(_("{game}, {n} players, options: {options}").format(game=table.game, n=table.players, options=options))
        if session.rules:
            rules = ", ".join(option(k, v) for k, v in sorted(session.rules.items()))
            self.say(_("table rules: {rules}").format(rules=rules))
        self.say(_("host key {key}").format(key=fingerprint(session.keys[HOST])))
        if derived(session.transcript.table_id, session.keys[HOST]):
            self.say(_("table id: the host key's fingerprint (no other key can sign for this table)"))
        else:
            self.say(
                _(
                    "table id: random, from before ids were made from the host key: the table is its id and host key together"
                )
            )

    def _seat_line(self, seat: int, tail: str = "") -> str:
        key, name = self.session.keys[seat], self.session.names.get(seat, "")
        line = _('seat {n} key {key} "{name}"').format(n=seat, key=fingerprint(key), name=name)
        identity, level = self.session.certified.get(key, key), self.session.runs.get(key, "")
        if level:  # a computer seat: the person who ran it vouched for its key, naming the level
            line += _(" computer {level} run by {key}").format(level=level, key=fingerprint(identity))
        elif identity != key:  # the person's long-term key vouched for the seat's in its join
            line += _(" identity {key}").format(key=fingerprint(identity))
        return line + tail

    def _show_seats(self) -> None:
        session = self.session
        for seat in range(session.players):
            if seat in session.keys:
                self.say(self._seat_line(seat))
        self.seats, self.absent = self._seating(), set(session.absent)

    def _seating(self) -> dict[int, tuple[bytes, str]]:
        session = self.session
        return {s: (session.keys[s], session.names.get(s, "")) for s in range(session.players) if s in session.keys}

    def _seat_changes(self, k: int) -> None:
        """A seat taken again after a time-out: by a new key, or by its own."""
        now, absent = self._seating(), set(self.session.absent)
        assert self.seats is not None  # (`_news` shows them first)
        for seat, (key, _name) in sorted(now.items()):
            before = self.seats.get(seat)
            if before is None or before[0] != key:
                self.say(self._seat_line(seat, _(" takes the seat with a new key at entry {k}").format(k=k)))
            elif seat in self.absent and seat not in absent:
                self.say(self._seat_line(seat, _(" is back with its own key at entry {k}").format(k=k)))
        self.seats, self.absent = now, absent

    # --- the end -------------------------------------------------------------------

    def _end(self, failed: Stop | None) -> int:
        session = self.session
        checked = len(session.transcript.entries) if session.transcript else 0
        if failed is not None:
            self._failed(failed)
        summary = _("{entries} checked, {hands} audited").format(
            entries=count(checked, "entry", "entries"), hands=count(len(session.verdicts), "hand")
        )
        if session.series is not None:
            summary += _("; scores {scores}").format(scores=session.series.scores)
        self.say(summary)
        if session.stale:
            stale = ", ".join(map(str, session.stale))
            self.say(_("no-ops (crossed an interruption in flight): entries {entries}").format(entries=stale))
        incomplete = False
        if failed is not None:
            self.say(_("stopped at entry {entry}: nothing after it can be checked").format(entry=failed.entry))
        elif session.phase == "over":
            if session.closed is not None:
                self.say(_("complete: the host closed the table: {reason}").format(reason=reason_words(session.closed)))
            else:
                winners = session.series.winners() if session.series is not None else []
                self.say(_("complete: the series is over; winners: seats {winners}").format(winners=winners))
        elif session.phase == "aborted":
            self.say(_("the table was stopped by the cheat named above"))
            if not self.found:  # pragma: no cover - the session names whoever stopped it
                self.found.append(Culprit("host", "the table stopped with nobody named", checked - 1))
        else:
            incomplete = True
            self.say(_("incomplete: {where}").format(where=self._where(checked)))
        if self.found:
            self.say(culprits_line(self.found))
            return CHEAT
        if failed is not None:
            return CHEAT  # (damaged or altered: refused as a cheat is, with nobody named)
        return INCOMPLETE if incomplete else OK

    def _failed(self, failed: Stop) -> None:
        """The line for the entry the replay stopped at, and who it names (perhaps nobody)."""
        if failed.who is None:
            line = _("FAIL entry {entry}: the copy is damaged or altered at entry {entry} ({reason}); nobody is named")
            self.say(line.format(entry=failed.entry, reason=failed.reason.removeprefix(DAMAGED)))
            return
        self.found.append(Culprit(failed.who, failed.reason, failed.entry))
        line = _("FAIL entry {entry}: {reason} [{who}]")
        self.say(line.format(entry=failed.entry, reason=failed.reason, who=_label(failed.who)))

    def _where(self, checked: int) -> str:
        """Where the transcript stops and who owes the next message."""
        session = self.session
        if checked == 0:
            where = _("stops before its first entry")
        else:
            where = _("stops after entry {entry}").format(entry=checked - 1)
        if session.phase == "commit" and session.hand is not None and not session.hand.commits:
            where += _(", before the first hand") if session.hand.number == 0 else _(", between hands")
        return _("{where}: {owed}").format(where=where, owed=owed(session))


def owed(session: TableSession) -> str:
    """Who owes what now, e.g. "seat 2 has not sent its reveal for hand 3"."""
    kinds, senders = session.expected()
    if HOST in senders or not senders:
        if "table" in kinds:
            return _("the host has not sent its table message")
        return _("the host has not sent the next entry")
    seats = sorted(senders)
    several = len(seats) > 1
    names = ", ".join(_("seat {n}").format(n=s) for s in seats)
    kind = kinds[0]
    again = session.phase == "seating"
    if kind == "join":
        if several:
            return (_("{names} have not joined again") if again else _("{names} have not joined")).format(names=names)
        return (_("{names} has not joined again") if again else _("{names} has not joined")).format(names=names)
    noun = _(OWED[kind][several]) if kind in OWED else kind
    if kind == "shuffle":
        assert session.hand is not None  # (a shuffle is owed within a hand)
        phase = 1 if len(session.hand.shuffles) < session.players else 2
        noun = _("phase-{k} {noun}").format(k=phase, noun=noun)
    hand = ""
    if session.phase in HAND_PHASES and session.hand:
        hand = _(" for hand {n}").format(n=session.hand.number + 1)
    if several:
        return _("{names} have not sent their {noun}{hand}").format(names=names, noun=noun, hand=hand)
    return _("{names} has not sent its {noun}{hand}").format(names=names, noun=noun, hand=hand)
