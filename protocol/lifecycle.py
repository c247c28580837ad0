"""A table's life around its hands: joining, the first-dealer coin, taking a
seat again, the host's own entries (evidence, time-outs, closing), and the
end of each hand's audit.

A part of `TableSession`, over the state `SessionState` sets (sessionstate.py); each
handler runs only once the message has passed every check, and raises,
changing nothing, when the rules refuse it.
"""

from __future__ import annotations

from engine.game import OptionError
from engine.games import make
from engine.series import Series
from engine.text import name_problem

from . import coin, events
from .audit import ABSENT, Culprit, Verdict, audit_hand
from .certificate import Certificate, check_certificate
from .errors import CheatDetected, LocalProtocolError, RemoteProtocolError
from .handstate import HandState
from .messages import Close, CoinCommit, CoinReveal, Evidence, Join, Table, Timeout
from .records import HandRecord
from .sessionstate import SessionState
from .transcript import open_signed


class TableLifecycle(SessionState):
    """Table-level handlers of `TableSession`."""

    # --- joining and taking a seat again ------------------------------------------------

    def _on_table(self, sender: int, table: Table, index: int) -> None:
        try:
            game = make(table.game, table.players, dict(table.options))
        except OptionError as error:
            raise RemoteProtocolError(f"table: {error}", culprit="host", entry=index) from None
        if self.seat is not None and not 0 <= self.seat < table.players:
            raise LocalProtocolError(f"seat {self.seat} does not exist at a {table.players}-player table")
        self.table, self.game = table, game
        self.rules = dict(table.rules)
        self.machine.advance("opened")
        self._emit(events.TableOpened(table.game, table.players))

    def _on_join(self, sender: int, join: Join, index: int) -> None:
        problem = name_problem(join.name)
        if problem is not None:  # every node refuses it: no host can seat a name that breaks the rule
            raise RemoteProtocolError(f"join name: {problem}", culprit=sender, entry=index)
        if join.key in self.banned:  # every node refuses it: no host can seat a key evicted for cheating
            raise RemoteProtocolError("that key was evicted from this table for cheating", culprit=sender, entry=index)
        if any(key == join.key for seat, key in self.keys.items() if seat != sender):
            raise RemoteProtocolError("that key already holds a seat", culprit=sender, entry=index)
        mine = self.identity.public_bytes if self.identity is not None else None
        if sender == self.seat and join.key != mine and not self.replacing:
            if self.phase == "join":
                raise RemoteProtocolError(
                    f"the host seated another key in seat {sender}, this node's seat", culprit="host", entry=index
                )
            self.evicted = True  # timed out, and the seat went to another key
        retake = self.rules.get("retake") or self.keys.get(sender) in self.banned  # an evicted seat: a new key
        if self.phase == "seating" and not retake and join.key != self.keys[sender]:
            raise RemoteProtocolError(
                f"this table lets only seat {sender}'s own key take it back", culprit=sender, entry=index
            )
        returning = self.phase == "seating" and join.key == self.keys.get(sender)
        self._certified(sender, join, index)
        self.keys[sender] = join.key
        self.names[sender] = join.name
        arrival: events.Arrival = "back" if returning else ("takes" if self.phase == "seating" else "joins")
        self._emit(events.Seated(sender, join.name, arrival))
        if self.phase == "join":
            if len(self.keys) == self.players + 1:
                self.machine.advance("all joined")
            return
        self.absent.discard(sender)
        if sender == self.seat and join.key == mine:
            self.evicted = False
        if not self.absent:
            self._start_hand(self._next_number)

    def _certified(self, sender: int, join: Join, index: int) -> None:
        """Check and keep the join's identity certificate, if it has one."""
        if not join.certificate:
            return
        assert self.transcript is not None  # (the table message came first)
        certificate = Certificate(*join.certificate)
        try:
            check_certificate(certificate, self.transcript.table_id, join.key)
        except RemoteProtocolError as error:
            raise RemoteProtocolError(error.reason, culprit=sender, entry=index) from None
        self.certified[join.key] = certificate.identity
        if certificate.level:
            self.runs[join.key] = certificate.level

    # --- the first dealer -------------------------------------------------------------

    def _on_coin_commit(self, sender: int, msg: CoinCommit, index: int) -> None:
        self.toss.commitments[sender] = msg.commitment
        self._coin_moves_on()

    def _on_coin_reveal(self, sender: int, msg: CoinReveal, index: int) -> None:
        if not coin.check_coin(msg.value, self._coin_context(sender), self.toss.commitments[sender]):
            raise CheatDetected("coin reveal does not match its commitment", culprit=sender, entry=index)
        self.toss.values[sender] = msg.value
        self._coin_moves_on()

    def _coin_moves_on(self) -> None:
        """Reveal once every seat present has committed; toss once each has revealed.

        A seat timed out during the coin is left out: the first dealer comes
        from the values the others revealed. A last revealer that withholds
        can so choose between two results at most (with its value or
        without), once, and is named for it; the coin is never tossed again.
        """
        present = set(range(self.players)) - self.absent
        if self.phase == "coin_commit" and present <= set(self.toss.commitments):
            self.machine.advance("coins committed")
        if self.phase == "coin_reveal" and present & set(self.toss.commitments) <= set(self.toss.values):
            values = [self.toss.values[s] for s in sorted(self.toss.values) if s in present]
            assert self.game is not None  # named by the table message
            self.series = Series(self.game, coin.coin_result(values, self.players))
            self._emit(events.FirstDealer(self.series.dealer))
            self._start_hand(0)

    # --- hands begin and end ---------------------------------------------------------

    def _start_hand(self, number: int) -> None:
        if self.absent:
            self._next_number = number
            self.machine.advance("seat empty")
            return
        assert self.series is not None and self.game is not None  # the coin chose the first dealer
        dealer = self.series.dealer
        self.current = HandState(HandRecord(number, dealer), self.game.plan(dealer))
        self.machine.advance("hand starts")  # the "hand" event comes with the first commitment (`_on_commit`)

    def _end_hand(self) -> None:
        """The hand is audited and the table goes on (it was scored, or void): what this
        seat held for it goes, its secrets and its complaint. Nothing of the hand is owed
        any more, so between hands (seating) a seat sends its join, whatever stopped the
        hand. The cards and the view stay, for the UI, until the next hand is dealt."""
        self.current.end()

    def _stop_hand(self, index: int) -> None:
        """Evidence or a time-out ends the hand here: the seats present reveal."""
        self._interrupted_at = index
        self.machine.advance("stopped")
        self._finish_if_revealed()

    def _finish_if_revealed(self) -> None:
        hand = self.hand
        assert hand is not None  # a hand's reveals
        if not set(hand.commits) - self.absent <= set(hand.reveals):
            return
        verdict = self._audit(hand)
        self.verdicts.append(verdict)
        if self.seat is not None:
            self.store.forget_hand(hand.number)
        self._emit_verdict(verdict)
        if verdict.cheats and not self._evict(verdict):
            # The table ends here: nothing more is sent, what the hand held stays to be seen.
            self.machine.advance("cheat")
            return
        self._end_hand()
        if verdict.outcome is None or verdict.cheats:
            self._start_hand(hand.number + 1)  # void: not scored, same dealer (seating first, if a seat is empty)
        else:
            assert self.series is not None  # a hand was played
            self.series.record(verdict.outcome)
            if self.series.is_over():
                self.machine.advance("series over")
                self._emit(events.SeriesOver(tuple(self.series.scores), tuple(self.series.winners())))
            else:
                self._start_hand(hand.number + 1)

    def _evict(self, verdict: Verdict) -> bool:
        """Table rule `replace_cheats`: each seat the verdict names a cheat is evicted. Its
        seat is empty (taken before the next hand, by a new key only: the cheat's key is
        banned from the table), the hand is void, and the table goes on. Every node does
        this at the same entry, from the same verdict and the rule in the table message.
        False (the table ends) without the rule, or if the verdict names anyone but a seat."""
        named = {c.seat for c in verdict.cheats}
        seats = sorted(s for s in named if isinstance(s, int) and 0 <= s < self.players)
        if not self.rules.get("replace_cheats") or len(seats) != len(named):
            return False
        for seat in seats:
            self.banned.add(self.keys[seat])
            self.absent.add(seat)
            self._emit(events.Evicted(seat))
        mine = self.identity.public_bytes if self.identity is not None else None
        if mine in self.banned:
            self.evicted = True  # this node's key is out: it sends nothing more (a replacement's key is not)
        return True

    def _audit(self, hand: HandRecord) -> Verdict:
        """The hand's verdict (nodes sharing a process audit each hand once: `shared`)."""
        assert self.transcript is not None  # the table message came first
        key = (self.transcript.table_id, hand.number, self.transcript.head)
        if self.shared is not None and key in self.shared.verdicts:
            return self.shared.verdicts[key]
        verdict = audit_hand(self.game, self.transcript.table_id, hand, self.plan)
        if self.shared is not None:
            self.shared.verdicts[key] = verdict
        return verdict

    # --- the host's own entries ------------------------------------------------------------

    def _on_evidence(self, sender: int, msg: Evidence, index: int) -> None:
        """A seat's message the host refused: check for ourselves that the rules
        refuse it and that it is the seat's own next message, then stop the hand."""
        assert self.transcript is not None  # the table message came first
        try:
            opened = open_signed(msg.message, self.keys, self.transcript.table_id)
        except RemoteProtocolError as error:
            raise RemoteProtocolError(
                f"evidence that does not verify: {error.reason}", culprit="host", entry=index
            ) from None
        inner = opened.header
        log = self.transcript
        if (
            not 0 <= inner.sender < self.players
            or inner.kind == "join"
            or log.has_message(msg.message)
            or inner.seq != log.next_seq(inner.sender)
            or log.echoed_index(inner.head) is None
        ):
            raise RemoteProtocolError("evidence that is not the seat's next message", culprit="host", entry=index)
        try:
            self._judge(inner, opened.body, index)
        except RemoteProtocolError as error:
            if error.culprit != inner.sender:
                raise RemoteProtocolError(
                    f"evidence that does not prove its seat wrong: {error.reason}", culprit="host", entry=index
                ) from None
            proven = Culprit(inner.sender, error.reason, index)
        else:
            self.machine.advance("host refused falsely")  # we applied a valid message: the host refused it falsely
            raise RemoteProtocolError(
                f"the host refused a valid message of seat {inner.sender}", culprit="host", entry=index
            )
        log.spend(opened)
        self._note_own(inner)
        self._emit(events.Refused(inner.sender, proven.reason))
        if self.machine.in_hand:
            assert self.hand is not None  # a hand's phases
            self.hand.findings.append(proven)
            self._stop_hand(index)
        else:
            self.culprits.append(proven)
            self.machine.advance("cheat")

    def _on_timeout(self, sender: int, msg: Timeout, index: int) -> None:
        kinds, senders = self.expected()
        if msg.seat not in senders or msg.owed not in kinds:
            raise RemoteProtocolError(
                f"timed out seat {msg.seat}, which owed no {msg.owed}", culprit="host", entry=index
            )
        self.absent.add(msg.seat)
        finding = Culprit(msg.seat, f"left or withheld its {msg.owed} past the time limit", index, ABSENT)
        self._emit(events.TimedOut(msg.seat, msg.owed))
        if self.machine.in_hand:
            assert self.hand is not None  # a hand's phases
            self.hand.findings.append(finding)
            self._stop_hand(index)
            return
        self.culprits.append(finding)  # the coin goes on without it; the seat is taken before the deal
        self._interrupted_at = index
        self._coin_moves_on()

    def _on_close(self, sender: int, msg: Close, index: int) -> None:
        self.closed = msg.reason
        self.machine.advance("closed")
        self._emit(events.TableClosed(msg.reason))
