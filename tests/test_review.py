"""`briscola review` of a hand the audit never opened (briscola_tui/tools/review.py):

- a table that stopped mid-hand leaves its last hand unaudited; the seat whose secrets
  are on this machine (its store in the data folder, as `briscola join` keeps it) is
  reviewed from its own session's reading of the transcript: the decisions the review
  looks at are the seat's own, each as the seat saw it at the table (its cards, the
  trick) with the action it took;
- the store is read, never written;
- without the seat's store the hand is said to be out of reach, and a seat whose store
  is missing is named so.
"""

from __future__ import annotations

import io

import pytest

from briscola_tui.files.storage import save_transcript
from briscola_tui.tools import review
from engine.bots import hard, normal
from protocol.local import LocalTable

QUICK = {"samples": 8, "budget": 1500, "player": hard.make_player(iterations=20, seconds=None, steps=None)}


def stopped_table(plays: int):
    """A Briscola table for two of normal players stopped once seat 0 has played `plays`
    cards of the first hand: (the table, seat 0's decisions as its player saw them)."""
    seen = []

    def watching(view, rng):
        action = normal.play(view, rng)
        seen.append((sorted(view.state.hands[0]), list(view.state.trick), action))
        return action

    table = LocalTable("briscola", 2, choosers={0: watching, 1: normal.play}, seed=3)
    table.start()
    while len(seen) < plays:
        assert table.decide() or table.queue
        table.pump()
    return table, seen


@pytest.mark.slow
def test_an_unaudited_hand_is_reviewed_from_the_seats_own_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    table, seen = stopped_table(plays=6)
    assert table.host.session.verdicts == []  # the hand was never audited
    path = tmp_path / "transcripts" / "stopped.bin"
    path.parent.mkdir()
    save_transcript(path, table.host.table_id, table.entries)
    stored = review.audited_hands(path)
    assert stored.audited == [] and stored.hands == [0]

    assert review.local_secrets(path, stored, 0) is None  # nothing on this machine yet
    out, err = io.StringIO(), io.StringIO()
    assert review.review_file(path, 0, out, err, **QUICK) == review.OK
    assert "nothing to review" in out.getvalue()

    secrets = table.seats[0].store.to_bytes()
    kept = tmp_path / "seats" / f"{stored.table_id.hex()}-seat0.store"
    kept.parent.mkdir()
    kept.write_bytes(secrets)
    assert review.local_secrets(path, stored, 0) is None  # a store without the seat's key is not enough
    table.seats[1].identity.save(tmp_path / "identity.key")
    assert review.local_secrets(path, stored, 0) is None  # nor with another seat's key
    (tmp_path / "identity.key").unlink()
    table.seats[0].identity.save(tmp_path / "identity.key")
    decisions = review.own_decisions(stored.entries, 0, review.local_secrets(path, stored, 0))
    rebuilt = [(sorted(v.state.hands[0]), list(v.state.trick), a) for v, a in decisions[0]]
    assert rebuilt == seen[: len(rebuilt)] and len(rebuilt) >= len(seen) - 1  # the last may not be sent yet
    assert all(v.state.viewer == 0 and all(c is None for c in v.state.hands[1]) for v, _ in decisions[0])

    out, err = io.StringIO(), io.StringIO()
    assert review.review_file(path, None, out, err, seed=1, **QUICK) == review.OK
    lines = out.getvalue().splitlines()
    assert lines[0] == "hand 1, seat 0:"
    assert lines[1] == "  (not audited: from this seat's secrets on this machine)"
    assert lines[2].startswith("  trick ") or lines[2].startswith(
        f"  No decision where the coach's choice was clearly better ({len(rebuilt)} looked at)"
    )
    assert "hand 1, seat 1: not audited, and this seat's secrets are not on this machine" in lines
    assert f"hand 1, seat 0: decision {len(rebuilt)} of {len(rebuilt)}" in err.getvalue()
    assert kept.read_bytes() == secrets  # read, never written


def test_a_store_that_is_not_one_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    table, _ = stopped_table(plays=2)
    path = tmp_path / "t.bin"
    save_transcript(path, table.host.table_id, table.entries)
    table.seats[0].identity.save(tmp_path / "identity.key")
    junk = tmp_path / "seats" / f"{table.host.table_id.hex()}-seat0.store"
    junk.parent.mkdir()
    junk.write_bytes(b"not a store")
    assert review.local_secrets(path, review.audited_hands(path), 0) is None


def test_an_offline_games_saved_secrets_are_found_by_the_transcripts_name(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    table, seen = stopped_table(plays=3)
    path = tmp_path / "transcripts" / "offline-briscola-1.bin"
    path.parent.mkdir()
    save_transcript(path, table.host.table_id, table.entries)
    saved = tmp_path / "saved" / "offline-briscola-1"
    saved.mkdir(parents=True)
    table.seats[1].identity.save(saved / "seat1.key")
    (saved / "seat1.store").write_bytes(table.seats[1].store.to_bytes())
    stored = review.audited_hands(path)
    assert review.local_secrets(path, stored, 0) is None
    secrets = review.local_secrets(path, stored, 1)
    assert secrets is not None
    decisions = review.own_decisions(stored.entries, 1, secrets)[0]
    assert decisions and all(v.state.viewer == 1 and a.seat == 1 for v, a in decisions)
    assert all(c is not None for v, _ in decisions for c in v.state.hands[1])  # its own cards, seen


def test_every_hand_the_seat_saw_is_rebuilt_even_before_its_first_decision(tmp_path, monkeypatch):
    # so the review never tells a seat with its secrets here that they are missing
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    table, seen = stopped_table(plays=0)
    assert seen == []  # dealt, nobody has played yet
    path = tmp_path / "t.bin"
    save_transcript(path, table.host.table_id, table.entries)
    stored = review.audited_hands(path)
    table.seats[0].identity.save(tmp_path / "identity.key")
    kept = tmp_path / "seats" / f"{stored.table_id.hex()}-seat0.store"
    kept.parent.mkdir()
    kept.write_bytes(table.seats[0].store.to_bytes())
    assert review.own_decisions(stored.entries, 0, review.local_secrets(path, stored, 0)) == {0: []}
