"""Faults a real table meets: a seat that stops answering, messages that
cross in flight, a seat or the host that crashes and is rebuilt from its
store and the transcript.

Principle: a fault ends, at worst, in a void hand with the right seat
named; never in a stalled table, a crashed node, or an honest seat blamed.
"""

from __future__ import annotations

import copy
import random

import pytest
from helpers.cheaters import random_choosers, snapshot

from briscola_tui.files.storage import TranscriptFile
from protocol.audit import ABSENT
from protocol.codec import frame
from protocol.host import Host
from protocol.identity import Identity
from protocol.local import LocalTable, replacement_seat
from protocol.messages import Reveal, from_body
from protocol.session import TableSession
from protocol.transcript import Entry, Signed, parse_header

TABLES = [("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)]


def hand_of(signed: bytes) -> int | None:
    header, body = parse_header(Signed.decode(signed).payload)
    return getattr(from_body(header.kind, body), "hand", None)


def sender_seq(signed: bytes) -> tuple[int, int, str]:
    header = parse_header(Signed.decode(signed).payload)[0]
    return header.sender, header.seq, header.kind


def agree(table):
    """Every node still at the table holds the host's transcript and scores."""
    host = table.host.session
    assert not table.failures, table.failures
    for node in table.nodes:
        assert node.transcript.head == host.transcript.head, node
        assert node.phase == host.phase, node
        assert [str(v) for v in node.verdicts] == [str(v) for v in host.verdicts], node
        assert (node.series.scores if node.series else None) == (host.series.scores if host.series else None)


# --- time-outs ---------------------------------------------------------------------------------


def quitter(phase: str):
    """A seat that stops answering the first time the table waits on it in `phase`."""

    class Quitter(TableSession):
        gone = False

        def outgoing(self):
            if self.phase == phase and self.seat in self.expected()[1]:
                self.gone = True
            return [] if self.gone else super().outgoing()

        def my_turn(self):
            if phase == "play" and super().my_turn():
                self.gone = True
            return False if self.gone else super().my_turn()

    return Quitter


@pytest.mark.parametrize(
    "phase, owed",
    [
        ("coin_commit", "coin_commit"),
        ("coin_reveal", "coin_reveal"),
        ("commit", "commit"),
        ("shuffle", "shuffle"),
        ("deal", "shares"),
        ("play", "act"),
        ("reveal", "reveal"),
    ],
)
@pytest.mark.slow
def test_a_seat_that_stops_answering_is_named_and_retaken(phase, owed):
    seat = 1
    gone = quitter(phase)(seat, Identity.generate(), "leaver")
    table = LocalTable(
        "briscola", 2, {"match": 3}, choosers=random_choosers(2, 7), sessions={seat: gone}, rules={"retake": True}
    )
    table.replacement = replacement_seat
    table.run(max_hands=2)
    host = table.host.session
    assert table.timed_out == [seat]
    named = [c for v in host.verdicts for c in v.culprits] + host.culprits
    assert [(c.seat, c.kind) for c in named] == [(seat, ABSENT)]
    assert owed in named[0].reason
    if phase.startswith("coin"):
        assert len(host.verdicts) == 2 and all(v.ok for v in host.verdicts)  # the coin went on without it
    else:
        void, played = host.verdicts
        assert void.outcome is None and void.hand == 0  # void: not scored
        assert played.ok and played.hand == 1
        assert sum(host.series.scores) == sum(played.outcome.score)
    # The seat is held by a new key, said in the transcript (its join), and the table played on.
    assert host.keys[seat] != gone.identity.public_bytes
    assert table.seats[seat] is not gone and table.seats[seat].holds_seat()
    joins = [i for i, data in enumerate(table.entries) if sender_seq(Entry.decode(data).message)[::2] == (seat, "join")]
    timeout = next(i for i, data in enumerate(table.entries) if sender_seq(Entry.decode(data).message)[2] == "timeout")
    assert len(joins) == 2 and joins[1] > timeout
    assert host.names[seat] == "seat 1 (computer)"
    agree(table)


def test_the_host_cannot_time_out_a_seat_that_owes_nothing():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2))
    table.start()
    seat = next(s for s in table.seats if not s.my_turn())
    from protocol.errors import LocalProtocolError

    with pytest.raises(LocalProtocolError):
        table.host.time_out(seat.seat)


def test_a_forged_time_out_names_the_host():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2))
    table.start()
    idle = next(s for s in table.seats if not s.my_turn())
    from protocol.messages import Timeout, to_body
    from protocol.transcript import VERSION, Header, make_payload

    host = table.host
    header = Header(VERSION, host.table_id, "timeout", -1, host._seq, host.transcript.head)
    signed = Signed.sign(host.identity, make_payload(header, to_body(Timeout(idle.seat, "act")))).encode()
    for node in table.nodes:
        before = snapshot(node)
        entry = Entry(len(node.transcript.entries), node.transcript.head, signed).signed_by(
            host.identity, host.table_id
        )
        with pytest.raises(Exception) as caught:
            node.receive(entry.encode())
        assert caught.value.culprit == "host"
        assert snapshot(node) == before


# --- messages that cross in flight --------------------------------------------------------------


def test_an_action_crossing_an_early_reveal_is_a_no_op_and_nobody_else_is_blamed():
    """Seat B stops the hand (an early reveal) while seat A's move is on its way.
    The host orders B's reveal first; A's move arrives out of phase, echoing a
    head from before the reveal: it is accepted as a no-op (its sequence
    number spent), A then reveals, and only B is named."""
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 3))
    table.start()
    a = next(s for s in table.seats if s.my_turn())
    b = next(s for s in table.seats if s is not a)
    move = a.act(table.choose(a)).messages  # signed, in flight
    stop = [b.sign(Reveal(b.hand.number, b.secrets.seed))]  # in flight at the same time
    table.send(b.seat, stop)
    table.send(a.seat, move)
    table.pump()
    host = table.host.session
    assert len(host.stale) == 1  # A's move, ordered after the reveal: a no-op
    assert not table.dropped and not table.refused
    verdict = host.verdicts[-1]
    assert [c.seat for c in verdict.culprits] == [b.seat]
    assert "stopped the hand without cause" in verdict.culprits[0].reason
    assert a.seat in host.hand.reveals  # A was not stuck: its reveal went in
    agree(table)


def test_an_action_crossing_its_own_time_out_is_a_no_op():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 5), rules={"retake": True})
    table.replacement = replacement_seat
    table.start()
    a = next(s for s in table.seats if s.my_turn())
    move = a.act(table.choose(a)).messages
    table.broadcast(table.host.time_out(a.seat))  # the clock ran out just before the move arrived
    table.send(a.seat, move)
    table.pump()
    host = table.host.session
    assert len(host.stale) == 1
    assert [(c.seat, c.kind) for c in host.verdicts[-1].culprits] == [(a.seat, ABSENT)]
    assert not table.refused and not table.dropped


# --- resume after a crash -------------------------------------------------------------------------


class ShadowTable(LocalTable):
    """A table where one seat crashes at entry `crash_at` and is rebuilt from a
    copy of its store (what was on disk) and the transcript, while the
    original session, the shadow, goes on receiving every entry: it says
    what the seat would have sent had it not crashed."""

    def __init__(self, *args, victim: int, crash_at: int, lose_in_flight: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.victim, self.crash_at, self.lose = victim, crash_at, lose_in_flight
        self.shadow: TableSession | None = None
        self.would_send: dict[int, bytes] = {}
        self.sent_after: list[bytes] = []

    def broadcast(self, entry: bytes) -> None:
        super().broadcast(entry)
        if self.shadow is not None:
            self._expect(self.shadow.receive(entry).messages)
        elif len(self.entries) == self.crash_at:
            self.crash()

    def _expect(self, messages):
        for m in messages:
            self.would_send[sender_seq(m)[1]] = m

    def crash(self) -> None:
        original = self.seats[self.victim]
        self.shadow = original
        if self.lose:
            self.queue = type(self.queue)((c, m) for c, m in self.queue if c != self.victim)
        on_disk = copy.deepcopy(original.store)
        # A secret drawn after the crash (a later hand's seed) is one draw, whichever of
        # the two draws it first: the shadow stands for the same seat, not another one.
        on_disk.seeds, on_disk.coins = original.store.seeds, original.store.coins
        rebuilt, owed = TableSession.resume(
            self.victim, original.identity, on_disk, list(self.entries), name=original.name
        )
        self.seats[self.victim] = rebuilt
        self.send(self.victim, owed)

    def send(self, connection, messages):
        if connection == self.victim and self.shadow is not None:
            self.sent_after += messages
        super().send(connection, messages)

    def decide(self) -> bool:
        moved = False
        for seat in self.seats:
            if seat.my_turn():
                action = self.choose(seat)
                out = seat.act(action).messages
                if seat.seat == self.victim and self.shadow is not None:
                    self._expect(self.shadow.act(action).messages)
                self.send(seat.seat, out)
                moved = True
        return moved


def first_hand_length(game, players, seed) -> int:
    table = LocalTable(game, players, {}, choosers=random_choosers(players, seed))
    table.run(max_hands=1)
    return len(table.entries)


@pytest.mark.slow
@pytest.mark.parametrize("game, players", TABLES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_rebuilt_after_a_crash_finishes_the_hand_with_the_same_bytes(game, players, seed):
    rng = random.Random(f"{game}{players}{seed}")
    length = first_hand_length(game, players, seed)
    table = ShadowTable(
        game,
        players,
        {},
        choosers=random_choosers(players, seed),
        victim=rng.randrange(players),
        crash_at=rng.randrange(2, length - 1),
        lose_in_flight=rng.random() < 0.5,
    )
    table.run(max_hands=1)
    host = table.host.session
    assert table.shadow is not None, "the crash never happened"
    assert host.verdicts and all(v.ok for v in host.verdicts), [str(v) for v in host.verdicts]
    assert not table.refused and not table.failures
    agree(table)
    # Every message the rebuilt seat sent is, byte for byte, what it would have sent.
    sent = [m for m in table.sent_after if m and hand_of(m) in (None, 0)]  # the next hand has fresh seeds
    assert sent or table.crash_at >= length - 2
    for m in sent:
        sender, seq, kind = sender_seq(m)
        assert sender == table.victim
        assert table.would_send.get(seq, m) == m or table.shadow.store.sent.get(seq) == m, (seq, kind)
    # And the transcript never holds two different messages of the seat at one number.
    by_seq: dict[int, bytes] = {}
    for data in table.entries:
        message = Entry.decode(data).message
        sender, seq, _ = sender_seq(message)
        if sender == table.victim:
            assert by_seq.setdefault(seq, message) == message
    for seq, message in table.would_send.items():
        if seq in by_seq:
            assert by_seq[seq] == message


@pytest.mark.slow
@pytest.mark.parametrize("game, players", TABLES)
def test_the_host_rebuilt_from_its_transcript_signs_the_same_entries(game, players, tmp_path):
    seed = 11
    length = first_hand_length(game, players, seed)
    crash_at = random.Random(game).randrange(2, length - 1)
    table = LocalTable(game, players, {}, choosers=random_choosers(players, seed))
    path = tmp_path / "host.bin"
    log = TranscriptFile.create(path, table.host.table_id)
    table.on_entry = log.append
    table.broadcast(table.host.open())
    for seat in table.seats:
        table.send(seat.seat, seat.start().messages)
    while len(table.entries) < crash_at:
        if table.queue:
            table.order(*table.queue.popleft())
        else:
            table.decide()
    log.close()
    # The crash tore the frame it was writing: the file ends mid-frame.
    with open(path, "ab") as handle:
        whole = frame(table.entries[-1])  # the shape of an entry frame, cut halfway
        handle.write(whole[: len(whole) // 2])
    reopened = TranscriptFile.open(path)
    assert reopened.warnings and "torn" in reopened.warnings[0]
    assert [e.encode() for e in reopened.entries] == table.entries
    old = table.host
    table.host = Host.resume(old.identity, [e.encode() for e in reopened.entries])
    table.on_entry = reopened.append

    def order_both(connection, signed, order=table.order):
        expected = old.submit(signed, connection).entry
        before = len(table.entries)
        order(connection, signed)
        assert table.entries[before] == expected  # the same entry, byte for byte

    table.order = order_both
    table.stop_after = 1
    while not table.host.session.verdicts:
        if not table.decide() and not table.queue:
            pytest.fail("stuck")
        table.pump()
    reopened.close()
    assert all(v.ok for v in table.host.session.verdicts)
    agree(table)
    again = TranscriptFile.open(path)
    assert [e.encode() for e in again.entries] == table.entries


def test_the_host_refuses_a_transcript_hosted_with_another_key():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2))
    table.run(max_hands=1)
    from protocol.errors import LocalProtocolError

    with pytest.raises(LocalProtocolError):
        Host.resume(Identity.generate(), table.entries)


def test_a_seat_store_survives_a_round_trip_through_bytes():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2))
    table.start()
    store = table.seats[0].store
    from protocol.store import SeatStore

    copy_ = SeatStore()
    copy_.load_bytes(store.to_bytes())
    assert (copy_.seeds, copy_.coins, copy_.sent) == (store.seeds, store.coins, store.sent)
    assert store.seeds  # the hand's seed was stored before the commit left
    assert store.seeds[0].hex() not in repr(store)  # a secret never shows in a repr


def test_a_message_stored_before_a_crash_is_sent_again_not_re_signed():
    """The seat signed its move and crashed before it reached the host: the
    rebuilt seat sends those very bytes, and is not asked to choose again."""
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 9))
    table.start()
    seat = next(s for s in table.seats if s.my_turn())
    lost = seat.act(table.choose(seat)).messages[0]  # stored, never delivered
    rebuilt, owed = TableSession.resume(seat.seat, seat.identity, copy.deepcopy(seat.store), table.entries)
    assert owed == [lost]
    assert not rebuilt.my_turn()
    table.seats[seat.seat] = rebuilt
    table.send(seat.seat, owed)
    table.play(max_hands=1)
    assert table.host.session.verdicts[0].ok
