"""Hypothesis fuzzing of the decoder, the framing and the table session.

Whatever arrives — random bytes, truncated or oversized frames, entries of
the wrong shape, unknown kinds, bodies of the wrong types, real signed
messages replayed or delivered out of phase — `TableSession.receive` and
`Host.submit` raise a ProtocolError and nothing else, never hang, and leave
the node exactly as it was. Afterwards the tables still play on correctly.
"""

from __future__ import annotations

import os
import signal
from contextlib import contextmanager

import pytest
from helpers.cheaters import RecordingTable, entry_for, random_choosers, sign_as, snapshot
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from protocol.codec import MAX_FRAME, FrameReader, decode, encode, frame
from protocol.errors import ProtocolError
from protocol.host import Host
from protocol.messages import KINDS, Evidence, to_body
from protocol.session import TableSession
from protocol.transcript import VERSION, Entry, Header, Signed, make_payload, parse_header

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "250"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@contextmanager
def no_hang(seconds: float = 5.0):
    def alarm(signum, frame):  # pragma: no cover - only on a hang
        raise AssertionError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# --- tables to fuzz: one paused mid-hand, and a recorded whole hand ----------------------------

_CACHE: dict = {}


def paused_table(game: str) -> RecordingTable:
    """A table stopped at its first decision (Briscola: a card to play; Calabresella: the auction)."""
    if game not in _CACHE:
        players = {"briscola": 2, "calabresella": 3}[game]
        table = RecordingTable(game, players, {}, choosers=random_choosers(players, 9), spectators=1)
        table.start()
        _CACHE[game] = table
    return _CACHE[game]


def recorded_hand() -> RecordingTable:
    """A whole Briscola hand with every accepted message kept, in order."""
    if "recorded" not in _CACHE:
        table = RecordingTable("briscola", 2, {}, choosers=random_choosers(2, 4))
        table.run(max_hands=1)
        _CACHE["recorded"] = table
    return _CACHE["recorded"]


class Checkpoint:
    """A host and a spectator replayed to just before message `k` of the recorded hand."""

    def __init__(self, k: int):
        source = recorded_hand()
        host = source.host
        self.host = Host(host.identity, "briscola", 2, {}, "local table")
        self.spectator = TableSession(None)
        self.spectator.receive(self.host.open())
        for signed in source.messages[:k]:
            self.spectator.receive(self.host.submit(signed).entry)
        assert self.host.transcript.head == Entry.decode(source.entries[k + 1]).prev


def checkpoint(k: int) -> Checkpoint:
    key = ("checkpoint", k)
    if key not in _CACHE:
        _CACHE[key] = Checkpoint(k)
    return _CACHE[key]


def node_state(node: TableSession) -> tuple:
    return snapshot(node)


def host_refuses(host: Host, signed: bytes) -> None:
    """What `Host.submit` does short of keeping evidence: screen, then judge (raises if refused)."""
    host.screen(signed)
    host.judge(signed)


def only_protocol_errors(call, node: TableSession, *, may_accept: bool = False) -> bool:
    """Run `call`; it must raise a ProtocolError and leave `node` unchanged. True if it was accepted."""
    before = node_state(node)
    with no_hang():
        try:
            call()
        except ProtocolError:
            assert node_state(node) == before
            return False
    assert may_accept, "garbage was accepted"
    return True


# --- strategies ---------------------------------------------------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.binary(max_size=40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=6),
    max_leaves=20,
)
kinds = st.sampled_from(sorted(KINDS)) | st.text(max_size=8)


def mutate(data: bytes, draw) -> bytes:
    how = draw(st.sampled_from(["flip", "truncate", "extend", "splice"]))
    if how == "flip" and data:
        i = draw(st.integers(0, len(data) - 1))
        return data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1 :]
    if how == "truncate" and data:
        return data[: draw(st.integers(0, len(data) - 1))]
    if how == "extend":
        return data + draw(st.binary(min_size=1, max_size=8))
    i = draw(st.integers(0, len(data)))
    return data[:i] + draw(st.binary(max_size=8)) + data[i:]


# --- the decoder and the framing ---------------------------------------------------------------


@FUZZ
@given(st.binary(max_size=400))
def test_decode_random_bytes(data):
    with no_hang():
        try:
            value = decode(data)
        except ProtocolError:
            return
    assert encode(value) == data  # whatever decodes is canonical


@FUZZ
@given(st.lists(st.binary(min_size=1, max_size=300), max_size=6), st.data())
def test_frames_split_anywhere(payloads, data):
    stream = b"".join(frame(p) for p in payloads)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    reader, out, last = FrameReader(), [], 0
    for cut in [*cuts, len(stream)]:
        reader.feed(stream[last:cut])
        out += reader.frames()
        last = cut
    assert out == payloads and reader.pending == 0


@FUZZ
@given(st.lists(st.binary(min_size=1, max_size=100), max_size=3), st.integers(0, 2**32 - 1), st.binary(max_size=50))
def test_frames_oversized_or_truncated(payloads, size, tail):
    reader = FrameReader()
    reader.feed(b"".join(frame(p) for p in payloads))
    assert reader.frames() == payloads
    prefix = size.to_bytes(4, "big")
    if size == 0 or size > MAX_FRAME:
        with no_hang(), pytest.raises(ProtocolError):
            reader.feed(prefix + tail)
        with pytest.raises(ProtocolError):
            reader.next_frame()  # and it stays broken
        with pytest.raises(ProtocolError):
            reader.feed(frame(b"x"))
        return
    body = (tail * (size // max(len(tail), 1) + 1))[:size] if tail else bytes(size)
    cut = len(body) - 1
    reader.feed(prefix + body[:cut])  # truncated: nothing yet, nothing lost
    assert reader.frames() == [] and reader.pending == 4 + cut
    reader.feed(body[cut:])
    assert reader.frames() == [body] and reader.pending == 0


@pytest.mark.slow
@FUZZ
@given(values)
def test_entry_and_signed_decoders_only_raise_protocol_errors(value):
    try:
        data = encode(value)
    except ProtocolError:
        return
    for parse in (Entry.decode, Signed.decode, lambda d: parse_header(d)):
        try:
            parse(data)
        except ProtocolError:
            pass


# --- the session: garbage in, nothing changed --------------------------------------------------


@pytest.mark.slow
@FUZZ
@given(st.sampled_from(["briscola", "calabresella"]), st.binary(max_size=300), st.data())
def test_random_bytes_to_host_and_peers(game, data, draw):
    table = paused_table(game)
    only_protocol_errors(lambda: host_refuses(table.host, data), table.host.session)
    node = draw.draw(st.sampled_from([*table.seats, *table.spectators]))
    only_protocol_errors(lambda: node.receive(data), node)
    # Also wrapped as a well-linked entry.
    only_protocol_errors(lambda: node.receive(entry_for(node, data, table.host)), node)


@pytest.mark.slow
@FUZZ
@given(st.sampled_from(["briscola", "calabresella"]), kinds, st.lists(values, max_size=6), st.data())
def test_signed_garbage_bodies_and_kinds(game, kind, body, draw):
    """Correctly signed, correctly sequenced messages whose kind or body is wrong."""
    table = paused_table(game)
    seat = draw.draw(st.sampled_from(table.seats))
    try:
        signed = sign_as(seat, kind=kind, body=body)
    except ProtocolError:
        return
    only_protocol_errors(lambda: host_refuses(table.host, signed), table.host.session)
    node = draw.draw(st.sampled_from([s for s in (*table.seats, *table.spectators) if s is not seat]))
    only_protocol_errors(lambda: node.receive(entry_for(node, signed, table.host)), node)


@pytest.mark.slow
@FUZZ
@given(st.sampled_from(["briscola", "calabresella"]), st.data())
def test_real_messages_replayed_mutated_or_resigned_out_of_phase(game, draw):
    table = paused_table(game)
    recorded = table.messages
    signed = draw.draw(st.sampled_from(recorded))
    how = draw.draw(st.sampled_from(["replay", "mutate", "resign", "wrong field"]))
    if how == "mutate":
        signed = mutate(signed, draw.draw)
    elif how == "wrong field":
        # A real body with one field replaced by a value of any type, signed in turn by the seat to move.
        header, body = parse_header(Signed.decode(signed).payload)
        if body:
            i = draw.draw(st.integers(0, len(body) - 1))
            body = [*body[:i], draw.draw(values), *body[i + 1 :]]
        senders = [s for s in table.seats if s.seat in table.host.session.expected()[1]] or table.seats
        try:
            signed = sign_as(draw.draw(st.sampled_from(senders)), kind=header.kind, body=body)
        except ProtocolError:
            return
    elif how == "resign":
        # The same body, signed afresh by its sender with a valid seq and head: now out of phase.
        header, body = parse_header(Signed.decode(signed).payload)
        sender = draw.draw(st.sampled_from(table.seats))
        if header.kind == "reveal":
            body = [body[0] + 1, body[1]]  # a reveal for another hand (a real early reveal is allowed)
        signed = sign_as(sender, kind=header.kind, body=body)
    only_protocol_errors(lambda: host_refuses(table.host, signed), table.host.session)
    node = draw.draw(st.sampled_from([*table.seats, *table.spectators]))
    only_protocol_errors(lambda: node.receive(entry_for(node, signed, table.host)), node)
    bad_link = Entry(draw.draw(st.integers(0, 2**20)), draw.draw(st.binary(min_size=32, max_size=32)), signed)
    if bad_link.index != len(node.transcript.entries):
        only_protocol_errors(lambda: node.receive(bad_link.encode()), node)


@pytest.mark.slow
@FUZZ
@given(st.sampled_from(["briscola", "calabresella"]), st.data())
def test_host_evidence_of_anything_but_a_refused_message_names_the_host(game, draw):
    """The host's evidence entry holding garbage, a mutated, replayed or
    re-signed message, or one from a seat that owes nothing: every node
    refuses it naming the host, and nothing changes."""
    table = paused_table(game)
    host = table.host
    inner = draw.draw(st.sampled_from(table.messages))
    how = draw.draw(st.sampled_from(["replay", "mutate", "garbage"]))
    if how == "mutate":
        inner = mutate(inner, draw.draw)
    elif how == "garbage":
        inner = draw.draw(st.binary(min_size=1, max_size=200))
    header = Header(VERSION, host.table_id, "evidence", -1, host._seq, host.transcript.head)
    signed = Signed.sign(host.identity, make_payload(header, to_body(Evidence(inner, "made up")))).encode()
    node = draw.draw(st.sampled_from([*table.seats, *table.spectators]))
    before = node_state(node)
    with no_hang():
        with pytest.raises(ProtocolError) as caught:
            node.receive(entry_for(node, signed, host))
    assert caught.value.culprit == "host"
    assert node_state(node) == before


@pytest.mark.slow
@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.data())
def test_later_messages_delivered_early(draw):
    """Real messages of the same hand, submitted before their time (or again, after it)."""
    source = recorded_hand()
    total = len(source.messages)
    k = draw.draw(st.sampled_from([3, 6, 10, 14, 20, total // 2, total - 3]))
    point = checkpoint(k)
    j = draw.draw(st.integers(0, total - 1))
    assume(j != k)
    signed = source.messages[j]
    accepted = only_protocol_errors(lambda: host_refuses(point.host, signed), point.host.session, may_accept=True)
    if accepted:  # another seat's message of the same step may come first: it is legitimately next
        _CACHE.pop(("checkpoint", k))
        return
    spectator = point.spectator
    only_protocol_errors(lambda: spectator.receive(entry_for(spectator, signed, point.host)), spectator)


@pytest.mark.slow
def test_fuzzed_tables_still_play_correctly():
    """After all the garbage, the paused tables finish their hand with every node in agreement."""
    for game in ("briscola", "calabresella"):
        table = paused_table(game)
        host = table.host.session
        while not host.verdicts:
            table.decide()
            table.pump()
        assert host.verdicts[0].ok
        for node in (*table.seats, *table.spectators):
            assert node.transcript.head == host.transcript.head
            assert node.verdicts[0].ok
