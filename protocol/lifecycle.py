"""A table's life around its hands: joining, the first-dealer coin, taking a
seat again, the host's own entries (evidence, time-outs, closing), and the
end of each hand's audit.

Functions over one node's state (`SessionState`, sessionstate.py): the
handlers `TableSession` applies (`HANDLERS`, session.py; evidence is judged
by the session itself, which then calls `refused`). Each handler runs only
once the message has passed every check, and raises, changing nothing, when
the rules refuse it; the phase moves by `s.machine.advance` only (machine.py).
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
from .messages import Close, CoinCommit, CoinReveal, Join, Table, Timeout
from .records import HandRecord
from .sessionstate import SessionState

# --- joining and taking a seat again ------------------------------------------------


def on_table(s: SessionState, sender: int, table: Table, index: int) -> None:
    try:
        game = make(table.game, table.players, dict(table.options))
    except OptionError as error:
        raise RemoteProtocolError(f"table: {error}", culprit="host", entry=index) from None
    if s.seat is not None and not 0 <= s.seat < table.players:
        raise LocalProtocolError(f"seat {s.seat} does not exist at a {table.players}-player table")
    s.table, s.game = table, game
    s.rules = dict(table.rules)
    s.machine.advance("opened")
    s._emit(events.TableOpened(table.game, table.players))


def on_join(s: SessionState, sender: int, join: Join, index: int) -> None:
    problem = name_problem(join.name)
    if problem is not None:  # every node refuses it: no host can seat a name that breaks the rule
        raise RemoteProtocolError(f"join name: {problem}", culprit=sender, entry=index)
    if join.key in s.banned:  # every node refuses it: no host can seat a key evicted for cheating
        raise RemoteProtocolError("that key was evicted from this table for cheating", culprit=sender, entry=index)
    if any(key == join.key for seat, key in s.keys.items() if seat != sender):
        raise RemoteProtocolError("that key already holds a seat", culprit=sender, entry=index)
    mine = s.identity.public_bytes if s.identity is not None else None
    if sender == s.seat and join.key != mine and not s.replacing:
        if s.phase == "join":
            raise RemoteProtocolError(
                f"the host seated another key in seat {sender}, this node's seat", culprit="host", entry=index
            )
        s.evicted = True  # timed out, and the seat went to another key
    retake = s.rules.get("retake") or s.keys.get(sender) in s.banned  # an evicted seat: a new key
    if s.phase == "seating" and not retake and join.key != s.keys[sender]:
        raise RemoteProtocolError(
            f"this table lets only seat {sender}'s own key take it back", culprit=sender, entry=index
        )
    returning = s.phase == "seating" and join.key == s.keys.get(sender)
    certified(s, sender, join, index)
    s.keys[sender] = join.key
    s.names[sender] = join.name
    arrival: events.Arrival = "back" if returning else ("takes" if s.phase == "seating" else "joins")
    s._emit(events.Seated(sender, join.name, arrival))
    if s.phase == "join":
        if len(s.keys) == s.players + 1:
            s.machine.advance("all joined")
        return
    s.absent.discard(sender)
    if sender == s.seat and join.key == mine:
        s.evicted = False
    if not s.absent:
        start_hand(s, s._next_number)


def certified(s: SessionState, sender: int, join: Join, index: int) -> None:
    """Check and keep the join's identity certificate, if it has one."""
    if not join.certificate:
        return
    assert s.transcript is not None  # (the table message came first)
    certificate = Certificate(*join.certificate)
    try:
        check_certificate(certificate, s.transcript.table_id, join.key)
    except RemoteProtocolError as error:
        raise RemoteProtocolError(error.reason, culprit=sender, entry=index) from None
    s.certified[join.key] = certificate.identity
    if certificate.level:
        s.runs[join.key] = certificate.level


# --- the first dealer -------------------------------------------------------------


def on_coin_commit(s: SessionState, sender: int, msg: CoinCommit, index: int) -> None:
    s.toss.commitments[sender] = msg.commitment
    coin_moves_on(s)


def on_coin_reveal(s: SessionState, sender: int, msg: CoinReveal, index: int) -> None:
    if not coin.check_coin(msg.value, s._coin_context(sender), s.toss.commitments[sender]):
        raise CheatDetected("coin reveal does not match its commitment", culprit=sender, entry=index)
    s.toss.values[sender] = msg.value
    coin_moves_on(s)


def coin_moves_on(s: SessionState) -> None:
    """Reveal once every seat present has committed; toss once each has revealed.

    A seat timed out during the coin is left out: the first dealer comes
    from the values the others revealed. A last revealer that withholds
    can so choose between two results at most (with its value or
    without), once, and is named for it; the coin is never tossed again.
    """
    present = set(range(s.players)) - s.absent
    if s.phase == "coin_commit" and present <= set(s.toss.commitments):
        s.machine.advance("coins committed")
    if s.phase == "coin_reveal" and present & set(s.toss.commitments) <= set(s.toss.values):
        values = [s.toss.values[seat] for seat in sorted(s.toss.values) if seat in present]
        assert s.game is not None  # named by the table message
        s.series = Series(s.game, coin.coin_result(values, s.players))
        s._emit(events.FirstDealer(s.series.dealer))
        start_hand(s, 0)


# --- hands begin and end ---------------------------------------------------------


def start_hand(s: SessionState, number: int) -> None:
    if s.absent:
        s._next_number = number
        s.machine.advance("seat empty")
        return
    assert s.series is not None and s.game is not None  # the coin chose the first dealer
    dealer = s.series.dealer
    s.current = HandState(HandRecord(number, dealer), s.game.plan(dealer))
    s.machine.advance("hand starts")  # the "hand" event comes with the first commitment (`handflow.on_commit`)


def end_hand(s: SessionState) -> None:
    """The hand is audited and the table goes on (it was scored, or void): what this
    seat held for it goes, its secrets and its complaint. Nothing of the hand is owed
    any more, so between hands (seating) a seat sends its join, whatever stopped the
    hand. The cards and the view stay, for the UI, until the next hand is dealt."""
    s.current.end()


def stop_hand(s: SessionState, index: int) -> None:
    """Evidence or a time-out ends the hand here: the seats present reveal."""
    s._interrupted_at = index
    s.machine.advance("stopped")
    finish_if_revealed(s)


def finish_if_revealed(s: SessionState) -> None:
    hand = s.hand
    assert hand is not None  # a hand's reveals
    if not set(hand.commits) - s.absent <= set(hand.reveals):
        return
    verdict = audit(s, hand)
    s.verdicts.append(verdict)
    if s.seat is not None:
        s.store.forget_hand(hand.number)
    s._emit_verdict(verdict)
    if verdict.cheats and not evict(s, verdict):
        s.machine.advance("cheat")  # the table ends here: nothing more is sent, what the hand held stays to be seen
        return
    end_hand(s)
    if verdict.outcome is None or verdict.cheats:
        start_hand(s, hand.number + 1)  # void: not scored, same dealer (seating first, if a seat is empty)
    else:
        assert s.series is not None  # a hand was played
        s.series.record(verdict.outcome)
        if s.series.is_over():
            s.machine.advance("series over")
            s._emit(events.SeriesOver(tuple(s.series.scores), tuple(s.series.winners())))
        else:
            start_hand(s, hand.number + 1)


def evict(s: SessionState, verdict: Verdict) -> bool:
    """Table rule `replace_cheats`: each seat the verdict names a cheat is evicted. Its
    seat is empty (taken before the next hand, by a new key only: the cheat's key is
    banned from the table), the hand is void, and the table goes on. Every node does
    this at the same entry, from the same verdict and the rule in the table message.
    False (the table ends) without the rule, or if the verdict names anyone but a seat."""
    named = {c.seat for c in verdict.cheats}
    seats = sorted(seat for seat in named if isinstance(seat, int) and 0 <= seat < s.players)
    if not s.rules.get("replace_cheats") or len(seats) != len(named):
        return False
    for seat in seats:
        s.banned.add(s.keys[seat])
        s.absent.add(seat)
        s._emit(events.Evicted(seat))
    mine = s.identity.public_bytes if s.identity is not None else None
    if mine in s.banned:
        s.evicted = True  # this node's key is out: it sends nothing more (a replacement's key is not)
    return True


def audit(s: SessionState, hand: HandRecord) -> Verdict:
    """The hand's verdict (nodes sharing a process audit each hand once: `shared`)."""
    assert s.transcript is not None and s.game is not None  # the table message came first
    key = (s.transcript.table_id, hand.number, s.transcript.head)
    if s.shared is not None and key in s.shared.verdicts:
        return s.shared.verdicts[key]
    verdict = audit_hand(s.game, s.transcript.table_id, hand, s.plan)
    if s.shared is not None:
        s.shared.verdicts[key] = verdict
    return verdict


# --- the host's own entries ------------------------------------------------------------


def refused(s: SessionState, seat: int, proven: Culprit, index: int) -> None:
    """Evidence proved a seat wrong (`TableSession._on_evidence`): the hand stops,
    or, outside a hand, the table ends."""
    s._emit(events.Refused(seat, proven.reason))
    if s.machine.in_hand:
        assert s.hand is not None  # a hand's phases
        s.hand.findings.append(proven)
        stop_hand(s, index)
    else:
        s.culprits.append(proven)
        s.machine.advance("cheat")


def on_timeout(s: SessionState, sender: int, msg: Timeout, index: int) -> None:
    kinds, senders = s.expected()
    if msg.seat not in senders or msg.owed not in kinds:
        raise RemoteProtocolError(f"timed out seat {msg.seat}, which owed no {msg.owed}", culprit="host", entry=index)
    s.absent.add(msg.seat)
    finding = Culprit(msg.seat, f"left or withheld its {msg.owed} past the time limit", index, ABSENT)
    s._emit(events.TimedOut(msg.seat, msg.owed))
    if s.machine.in_hand:
        assert s.hand is not None  # a hand's phases
        s.hand.findings.append(finding)
        stop_hand(s, index)
        return
    s.culprits.append(finding)  # the coin goes on without it; the seat is taken before the deal
    s._interrupted_at = index
    coin_moves_on(s)


def on_close(s: SessionState, sender: int, msg: Close, index: int) -> None:
    s.closed = msg.reason
    s.machine.advance("closed")
    s._emit(events.TableClosed(msg.reason))
