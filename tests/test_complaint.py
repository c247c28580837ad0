"""A verifiable complaint about a wrong sealed share (protocol/complaint.py).

A seat sealed a wrong share publishes the pair's shared point Z with a proof;
every node (seats, spectators, host) opens the accused's blob itself and names
the accused at once, or names the complainer for a false or forged complaint.
Real sessions, built as the cheat tests build them.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers.app import last_line
from helpers.cheaters import (
    FalseComplainer,
    WrongShare,
    assert_named,
    entry_for,
    every_node,
    paused,
    random_choosers,
    seat_sessions,
    sign_as,
    snapshot,
)
from helpers.knowledge import KnowledgeTable

from protocol import complaint, curve
from protocol import deck as mp
from protocol.errors import CheatDetected, RemoteProtocolError
from protocol.local import LocalTable
from protocol.messages import Complaint, from_body, to_body
from protocol.sealing import key_from_shared, open_shares
from protocol.transcript import Signed, parse_header
from protocol.wire import pair_context


def complaint_entries(table):
    """(index, sender, Complaint) of every complaint the host ordered."""
    out = []
    for entry in table.host.transcript.entries:
        header, body = parse_header(Signed.decode(entry.message).payload)
        if header.kind == "complaint":
            out.append((entry.index, header.sender, from_body("complaint", body)))
    return out


def wrong_share_table(players=3, cheater=2, victim=0, spectators=1):
    sessions = seat_sessions(players, {cheater: type("W", (WrongShare,), {"victim": victim})})
    table = LocalTable(
        "briscola", players, {}, choosers=random_choosers(players), sessions=sessions, spectators=spectators
    )
    table.run(max_hands=1)
    return table


# --- the true complaint --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players, cheater, victim", [(2, 1, 0), (3, 2, 0), (4, 0, 3)])
def test_a_true_complaint_names_the_sender_at_every_node(players, cheater, victim):
    table = wrong_share_table(players, cheater, victim, spectators=2)
    ((index, sender, msg),) = complaint_entries(table)
    assert (sender, msg.accused, msg.step) == (victim, cheater, 0)
    assert not table.refused  # the complaint was right: it is ordered, not kept as evidence
    for node in every_node(table):
        (finding,) = node.hand.findings
        assert (finding.seat, finding.entry) == (cheater, index)
        assert "does not match its committed key" in finding.reason
        assert not node.hand.moves  # stopped before another card was played
        assert node.hand.stopped is None  # by the complaint, not by an early reveal
    assert_named(table, cheater, "does not match its committed key")


def test_the_complaint_comes_before_any_reveal():
    table = wrong_share_table()
    ((index, _, _),) = complaint_entries(table)
    host = table.host.session
    assert all(entry > index for _, entry in host.hand.reveals.values())


# --- the false and the forged complaint -------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_a_false_complaint_names_the_complainer(players):
    sessions = seat_sessions(players, {1: FalseComplainer})
    table = LocalTable("briscola", players, {}, choosers=random_choosers(players), sessions=sessions)
    table.run(max_hands=1)
    (ordered,) = table.refused
    assert ordered.refused.culprit == 1 and "complained falsely about seat 0" in ordered.refused.reason
    named = assert_named(table, 1, "complained falsely")
    assert named.entry == ordered.refused.entry
    assert not table.host.session.hand.moves


def forged(table, seat=0, accused=1, **change):
    """A complaint from `seat` about `accused`'s blob of step 0, right but for `change`."""
    me, host = table.seats[seat], table.host.session
    z, proof = complaint.make(
        host.transcript.table_id,
        change.pop("context_hand", host.hand.number),
        0,
        seat,
        me.secrets.seal_key,
        me.secrets.seal_public,
        accused,
        host.hand.commits[accused if accused in host.hand.commits else 1][0].seal_key,
    )
    fields = {"hand": host.hand.number, "step": 0, "accused": accused, "z": z, "proof": proof, **change}
    return Complaint(**fields)


def refused(table, message, seat=0):
    """The host refuses it naming `seat`; a peer given it as an entry refuses it too, changing nothing."""
    signed = sign_as(table.seats[seat], message)
    with pytest.raises(RemoteProtocolError) as caught:
        table.host.judge(signed)
    peer = table.seats[1 - seat] if seat < 2 else table.seats[0]
    before = snapshot(peer)
    with pytest.raises(RemoteProtocolError) as again:
        peer.receive(entry_for(peer, signed, table.host))
    assert snapshot(peer) == before
    assert caught.value.culprit == seat and again.value.culprit == seat
    return caught.value


def test_a_forged_proof_names_the_complainer():
    table = paused()
    other_point = curve.encode(curve.base_mul(12345))
    host = table.host.session
    good = forged(table)
    proof = bytearray(good.proof)
    proof[40] ^= 1
    for message in (
        forged(table, z=other_point),  # another Z, with the proof made for the real one
        Complaint(good.hand, 0, 1, good.z, bytes(proof)),  # proof bytes changed
        forged(table, context_hand=host.hand.number + 1),  # proved for another hand
        Complaint(good.hand, 0, 1, good.z, bytes(64)),
    ):
        error = refused(table, message)
        assert isinstance(error, CheatDetected) and "proof does not verify" in error.reason


def test_a_right_proof_about_right_shares_names_the_complainer():
    table = paused()
    error = refused(table, forged(table))
    assert isinstance(error, CheatDetected) and "complained falsely" in error.reason


def test_refused_complaints_name_their_sender():
    table = paused()
    host = table.host.session
    n = len(host.hand.steps)
    cases = [
        (forged(table, accused=0), "no other committed seat"),  # naming itself
        (forged(table, accused=5), "no other committed seat"),  # no such seat at the table
        (forged(table, step=n), "not yet dealt"),
        (forged(table, step=999), "not yet dealt"),
    ]
    for message, reason in cases:
        assert reason in refused(table, message).reason


def test_a_second_complaint_is_refused():
    table = paused()
    first = sign_as(table.seats[0], forged(table))
    ordered = table.host.submit(first)
    assert ordered.refused is not None and ordered.refused.culprit == 0  # false: kept as evidence, the hand stops
    for node in [*table.seats, *table.spectators]:
        node.receive(ordered.entry)
    assert table.host.session.phase == "reveal"
    with pytest.raises(RemoteProtocolError, match="out of phase"):
        table.host.judge(sign_as(table.seats[0], forged(table), seq=table.host.transcript.next_seq(0)))


@pytest.mark.parametrize(
    "body",
    [
        [],
        [0, 0, 1, bytes(33)],  # torn: a field short
        [0, 0, 1, bytes(33), bytes(64), b""],  # a field too many
        [0, 0, 1, bytes(32), bytes(64)],  # Z of 32 bytes
        [0, 0, 1, bytes(33), bytes(63)],  # a short proof
        [0, 0, 1, bytes(33), bytes(65)],
        [0, -1, 1, bytes(33), bytes(64)],
        [0, 1001, 1, bytes(33), bytes(64)],
        [0, 0, 6, bytes(33), bytes(64)],
        [0, 0, "1", bytes(33), bytes(64)],
        [0, 0, 1, "z", bytes(64)],
        "complaint",
    ],
)
def test_malformed_complaint_bodies_are_refused(body):
    with pytest.raises(RemoteProtocolError):
        from_body("complaint", body)


def test_a_complaint_with_a_value_that_is_no_point_names_the_complainer():
    table = paused()
    good = forged(table)
    for z in (b"\x02" + b"\xff" * 32, b"\x05" + good.z[1:], bytes(33)):
        assert "proof does not verify" in refused(table, Complaint(good.hand, 0, 1, z, good.proof)).reason


def test_the_body_round_trips():
    table = paused()
    message = forged(table)
    assert from_body("complaint", to_body(message)) == message


# --- the judgment, sans-IO -------------------------------------------------------------------


def test_judge_names_the_sender_for_each_kind_of_wrong_blob():
    from protocol.identity import seal
    from protocol.sealing import seal_shares

    table_id, hand, step = bytes(16), 0, 0
    r, s = mp.SeatSecrets(b"\x01" * 32), mp.SeatSecrets(b"\x02" * 32)
    keys = s.public_keys(40)[1]
    z, proof = complaint.make(table_id, hand, step, 0, r.seal_key, r.seal_public, 1, s.seal_public)
    key = key_from_shared(z, pair_context(table_id, hand, 1, 0))
    good = [(3, mp.key_share(s, 3)), (7, mp.key_share(s, 7))]

    def judge(blob, positions=frozenset({3, 7})):
        return complaint.judge(
            table_id, hand, step, 0, 1, r.seal_public, s.seal_public, z, proof, blob, set(positions), keys
        )

    blob = seal_shares(key, table_id, hand, step, 1, 0, good)
    assert open_shares(key, table_id, hand, step, 1, 0, blob) == dict(good)
    assert judge(blob)[0] == 0  # right shares: the complaint is false
    assert judge(seal_shares(key, table_id, hand, step, 1, 0, good[:1]))[0] == 1  # a share missing
    assert judge(seal_shares(key, table_id, hand, step, 1, 0, [*good, (9, mp.key_share(s, 9))]))[0] == 1
    assert judge(seal_shares(key, table_id, hand, step, 1, 0, [good[0], (7, 5)]))[0] == 1  # wrong share
    assert judge(blob[:-1] + bytes([blob[-1] ^ 1]))[0] == 1  # does not open
    assert judge(seal(key, b"\xff\xff", bytes(16)))[0] == 1  # another AAD: does not open
    from protocol.wire import seal_aad

    assert judge(seal(key, b"\x01", seal_aad(table_id, hand, step, 1, 0)))[0] == 1  # does not parse
    # The same Z for another pair's blob, or another step's: it does not open, but the proof is
    # bound to the pair and the step, so the complainer cannot move it.
    assert not complaint.check_proof(table_id, hand, step + 1, 0, 1, r.seal_public, s.seal_public, z, proof)
    assert not complaint.check_proof(table_id, hand, step, 1, 0, r.seal_public, s.seal_public, z, proof)


# --- what a complaint reveals ------------------------------------------------------------------


def test_z_opens_only_the_pairs_blobs_and_no_card():
    """With the complaint's Z every node opens the blobs of that pair, of that hand; still no
    hidden card opens: each needs its holder's own share, which never leaves it."""
    table = wrong_share_table(players=3, cheater=2, victim=0)
    ((_, sender, msg),) = complaint_entries(table)
    host = table.host.session
    table_id, hand = host.transcript.table_id, host.hand.number
    key = key_from_shared(msg.z, pair_context(table_id, hand, sender, msg.accused))
    opened: dict[int, set[int]] = {}
    for step in host.hand.steps:
        for who, shares in step.shares.items():
            for p, _ in shares.public:
                opened.setdefault(p, set()).add(who)
            for recipient, blob in shares.sealed:
                try:
                    pairs = open_shares(key, table_id, hand, step.number, who, recipient, blob)
                except RemoteProtocolError:
                    assert {who, recipient} != {sender, msg.accused}, "a blob of the pair did not open"
                    continue
                assert {who, recipient} == {sender, msg.accused}
                for p in pairs:
                    opened.setdefault(p, set()).add(who)
    # Nobody outside the pair learns more than n - 1 shares of a position, and never its holder's.
    for p, owner in host.cards.owner.items():
        if p in host.cards.known:
            continue
        assert owner not in opened.get(p, set()) and len(opened.get(p, set())) < host.players


def test_knowledge_with_a_complaint_in_the_stream():
    """The knowledge check of every entry, on a table a complaint stops: its Z (valid, with a
    proof that holds) is in the stream, kept as evidence. (A true complaint's table cannot pass
    the check as it stands: its victim really cannot open the card; see the test above.)"""
    sessions = seat_sessions(3, {1: FalseComplainer})
    table = KnowledgeTable("briscola", 3, {}, choosers=random_choosers(3, 11), sessions=sessions, spectators=2)
    table.run(max_hands=1)
    assert table.checks > 3
    (ordered,) = table.refused
    assert "complained falsely" in ordered.refused.reason
    assert table.host.session.verdicts[-1].cheats


# --- from the command line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, said",
    [
        ("wrong-share", "seat 1 named by a complaint: its sealed key share for deck position"),
        ("false-complaint", "seat 1's message refused: complained falsely about seat 0's sealed shares"),
    ],
)
@pytest.mark.slow
def test_selfplay_from_a_real_command_line(kind, said, tmp_path):
    path = tmp_path / "t.bin"
    cli = [sys.executable, "-m", "briscola_tui.cli"]
    done = subprocess.run(
        [*cli, "selfplay", "--seed", "1", "--deal-seed", "1", "--cheat", kind, "--transcript", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert said in done.stdout, done.stdout
    assert ": play " not in done.stdout  # stopped before a card was played
    assert last_line(done.stdout) == "culprits: seat 1"
    verified = subprocess.run([*cli, "verify", str(path)], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 3 and last_line(verified.stdout) == "culprits: seat 1", verified.stdout
