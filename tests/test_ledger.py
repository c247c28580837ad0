"""The club ledger (briscola_tui/ledger): only verified tables count, each once; a person is a
key; ratings move the right way; statistics; export; bad input refused, the store unchanged."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from helpers.ledger_tables import play, resign, stop

from briscola_tui.cli import main
from briscola_tui.files.identity import identity_path
from briscola_tui.ledger import check as checking
from briscola_tui.ledger import store
from briscola_tui.ledger.book import Fork, Ledger
from briscola_tui.ledger.facts import Hand, Seat, Table
from briscola_tui.ledger.ratings import START, rate
from briscola_tui.ledger.stats import statistics
from briscola_tui.tools.selfplay import selfplay
from protocol.certificate import level_identity
from protocol.codec import encode
from protocol.identity import Identity, fingerprint
from protocol.transcript import Entry, Signed, parse_header
from protocol.transcript_file import dump_transcript, load_transcript_prefix

ANNA, BRUNO = Identity.generate(), Identity.generate()


@pytest.fixture(autouse=True)
def anna_reads_the_ledger():
    """The ledger is read from Anna's data folder: she is "me", and her roster holds the people
    she played with."""
    ANNA.save(identity_path())


def ledger() -> Ledger:
    return Ledger.open()


def store_bytes() -> bytes:
    path = Ledger.open().path
    return path.read_bytes() if path.exists() else b""


def kept_tables() -> tuple:
    """What the ledger counts: its tables, the files that hold them, the forks (the refusals it
    remembers, and the files it has read, aside)."""
    state = Ledger.open().state
    return state.tables, state.files, state.forks


# --- ratings on a known series -------------------------------------------------------------


def _hand(number: int, people: list[str], sides, ranks) -> Hand:
    seats = tuple(Seat(p, p) for p in people)
    return Hand(number, seats, score=(0,) * len(people), sides=sides, ranks=ranks)


def test_ratings_move_the_right_way_for_a_known_series():
    table = Table("t1", "k", "h", "briscola", 2, "", 0.0, ())
    series = [(table, _hand(k, ["a", "b"], ((0,), (1,)), (0, 1))) for k in range(5)]
    ratings = rate(series)
    a, b = ratings.history[("a", "briscola")], ratings.history[("b", "briscola")]
    assert a == sorted(a) and a[0] > START  # every win moves a up
    assert b == sorted(b, reverse=True) and b[0] < START
    assert ratings.now[("a", "briscola")].sigma < 500  # and surer of it
    loss = rate([*series, (table, _hand(5, ["a", "b"], ((0,), (1,)), (1, 0)))])
    assert loss.now[("a", "briscola")].mu < ratings.now[("a", "briscola")].mu  # a loss moves it down


def test_chiamata_rates_caller_and_partner_against_three_and_a_void_hand_nobody():
    table = Table("t2", "k", "h", "chiamata", 5, "", 0.0, ())
    won = _hand(0, ["c", "p", "x", "y", "z"], ((0, 1), (2, 3, 4)), (0, 1))
    void = Hand(1, won.seats, void=True, cheats=(2,))
    ratings = rate([(table, won), (table, void)])
    assert ratings.of("c", "chiamata").mu > START and ratings.of("p", "chiamata").mu > START
    assert all(ratings.of(p, "chiamata").mu < START for p in "xyz")
    assert ratings.hands[("c", "chiamata")] == 1  # the void hand rated nobody
    stats = statistics([(table, won), (table, void)])
    assert stats["x"].cheats == 1 and stats["x"].void == 1 and stats["c"].record.won == 1
    assert stats["c"].against["x"].won == 1 and stats["x"].against["c"].lost == 1


def test_a_real_series_rates_its_winner_above_its_loser(tmp_path):
    table = play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"], ["normal", "random"])
    ledger_ = ledger()
    added = ledger_.add([tmp_path / "t.bt"])
    assert (added.verified, added.tables, added.refused) == (1, 1, [])
    book = ledger_.book()
    winner = table.host.session.series.winners()[0]
    people = [ANNA.public_bytes.hex(), BRUNO.public_bytes.hex()]
    won, lost = people[winner], people[1 - winner]
    assert book.ratings.of(won, "briscola").mu > START > book.ratings.of(lost, "briscola").mu
    assert book.persons[won].names == (["Anna", "Bruno"][winner],)


# --- a person is a key -----------------------------------------------------------------------


@pytest.mark.slow
def test_a_rename_keeps_the_rating_and_a_name_taken_by_another_key_is_another_player(tmp_path):
    impostor = Identity.generate()
    tables = [
        play(tmp_path / "1.bt", [ANNA, BRUNO], ["Anna", "Bruno"], seed=1),
        play(tmp_path / "2.bt", [ANNA, BRUNO], ["Annie", "Bruno"], seed=2),
    ]
    play(tmp_path / "3.bt", [impostor, BRUNO], ["Anna", "Bruno"], seed=3)
    hands = sum(t.host.session.series.hands_played for t in tables)  # (a drawn hand is played again)
    ledger_ = ledger()
    assert ledger_.add(sorted(tmp_path.glob("*.bt"))).tables == 3
    book = ledger_.book()
    anna = book.persons[ANNA.public_bytes.hex()]
    assert set(anna.names) == {"Anna", "Annie"}
    assert book.ratings.hands[(anna.key, "briscola")] == hands >= 2  # both tables, one rating
    other = book.persons[impostor.public_bytes.hex()]
    assert other.names == ("Anna",) and other.fingerprint != anna.fingerprint


@pytest.mark.slow
def test_computer_players_are_rated_by_level_across_tables(tmp_path):
    for seed in (1, 2):
        out = io.StringIO()
        selfplay(
            "briscola",
            2,
            None,
            seed,
            str(tmp_path / f"{seed}.bt"),
            {"match": 1},
            out,
            quiet=True,
            seats=["normal", "random"],
            deal_seed=seed,  # (the deals fixed: a drawn hand, played again, would make three)
        )
    ledger_ = ledger()
    ledger_.add(sorted(tmp_path.glob("*.bt")))
    book = ledger_.book()
    normal = level_identity("normal").public_bytes.hex()
    assert book.persons[normal].level == "normal" and book.ratings.hands[(normal, "briscola")] == 2


# --- copies, forks, forgeries ------------------------------------------------------------------


def test_two_copies_of_one_table_count_once(tmp_path):
    play(tmp_path / "host.bt", [ANNA, BRUNO], ["Anna", "Bruno"])
    table_id, _meta, entries, _torn = load_transcript_prefix((tmp_path / "host.bt").read_bytes())
    (tmp_path / "seat.bt").write_bytes(dump_transcript(table_id, ["another copy"], entries))  # other bytes
    ledger_ = ledger()
    added = ledger_.add([tmp_path / "host.bt", tmp_path / "seat.bt", tmp_path / "host.bt"])
    assert (added.verified, added.tables, added.copies) == (2, 1, 2)
    assert len({t.table_id for t in ledger_.book().tables}) == 1 and len(ledger_.book().tables) == 1
    assert ledger_.add([tmp_path / "seat.bt"]).verified == 0  # verified once: known by its hash


def test_a_fork_is_refused_both_copies_and_names_the_host_key(tmp_path):
    host = Identity.generate()  # one host key signs two histories of its table
    table = play(tmp_path / "a.bt", [ANNA, BRUNO], ["Anna", "Bruno"], seed=1, host=host)
    play(tmp_path / "b.bt", [ANNA, BRUNO], ["Anna", "Bruno"], seed=2, host=host)
    same = table.host.table_id
    ledger_ = ledger()
    assert ledger_.add([tmp_path / "a.bt"]).tables == 1
    added = ledger_.add([tmp_path / "b.bt"])
    assert added.forks == [Fork(same.hex(), fingerprint(host.public_bytes))]
    assert "fork" in added.refused[0][1] and fingerprint(host.public_bytes) in added.refused[0][1]
    assert ledger_.book().tables == []
    again = ledger_.add([tmp_path / "a.bt"])
    assert again.tables == 0 and "fork" in again.refused[0][1]


def test_a_forged_result_resigned_by_a_key_not_at_the_table_is_refused(tmp_path):
    """The winner's seat edited to be the loser's (its join made to carry the other person's key
    and name), then that entry and all after it re-signed by keys that were not at the table."""
    table = play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"], ["normal", "random"])
    table_id, series = table.host.table_id, table.host.session.series
    assert series is not None
    winner = series.winners()[0]
    loser = [ANNA, BRUNO][1 - winner]
    join = next(k for k, e in enumerate(table.entries) if _kind(e) == "join" and _sender(e) == winner)
    header, body = parse_header(Signed.decode(Entry.decode(table.entries[join]).message).payload)
    body[0], body[1] = loser.public_bytes, ["Anna", "Bruno"][1 - winner]
    payload = encode([header.version, header.table_id, header.kind, header.sender, header.seq, header.head, *body])
    outsider, outside_host = Identity.generate(), Identity.generate()
    forged = resign(table.entries, table_id, join, Signed(payload, bytes(64)).encode(), outsider, outside_host)
    (tmp_path / "forged.bt").write_bytes(dump_transcript(table_id, [], [Entry.decode(e) for e in forged]))
    ledger_ = ledger()
    added = ledger_.add([tmp_path / "forged.bt"])
    assert added.tables == 0 and f"entry {join} does not verify" in added.refused[0][1]
    assert kept_tables() == ({}, {}, set())
    assert ledger_.book().persons == {}


def test_a_join_whose_certificate_does_not_check_is_refused(tmp_path):
    table = play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"])
    seat = table.seats[1]
    join = next(k for k, e in enumerate(table.entries) if _kind(e) == "join" and _sender(e) == 1)
    header, body = parse_header(Signed.decode(Entry.decode(table.entries[join]).message).payload)
    body[2][0] = ANNA.public_bytes  # Bruno's seat claims Anna's identity, with Bruno's signature
    payload = encode([header.version, header.table_id, header.kind, header.sender, header.seq, header.head, *body])
    assert seat.identity is not None
    entries = resign(
        table.entries,
        table.host.table_id,
        join,
        Signed(payload, bytes(64)).encode(),
        seat.identity,
        table.host.identity,
    )
    (tmp_path / "bad.bt").write_bytes(dump_transcript(table.host.table_id, [], [Entry.decode(e) for e in entries]))
    added = ledger().add([tmp_path / "bad.bt"])
    assert "identity certificate does not check" in added.refused[0][1]


def _kind(entry: bytes) -> str:
    return parse_header(Signed.decode(Entry.decode(entry).message).payload)[0].kind


def _sender(entry: bytes) -> int:
    return parse_header(Signed.decode(Entry.decode(entry).message).payload)[0].sender


# --- bad input ---------------------------------------------------------------------------------


@pytest.fixture
def good(tmp_path) -> Path:
    play(tmp_path / "good.bt", [ANNA, BRUNO], ["Anna", "Bruno"])
    return tmp_path / "good.bt"


def _bad_files(good: Path, folder: Path) -> dict[str, Path]:
    data = good.read_bytes()
    files = {
        "tampered": data[:2000] + bytes([data[2000] ^ 1]) + data[2001:],
        "truncated": data[: len(data) * 2 // 3],
        "png": b"\x89PNG\r\n\x1a\n" + bytes(200),
        "json": b'{"format": "briscola-transcript"}',
    }
    paths = {}
    for name, content in files.items():
        paths[name] = folder / f"{name}.bt"
        paths[name].write_bytes(content)
    huge = paths["huge"] = folder / "huge.bt"
    with open(huge, "wb") as stream:
        stream.truncate(checking.MAX_FILE + 1)  # sparse: nothing is written, nothing is read
    return paths


def test_bad_files_are_refused_with_one_line_each_and_the_ledger_is_unchanged(good, tmp_path, capsys):
    assert main(["ledger", "add", str(good)]) == 0
    before = kept_tables()
    bad = _bad_files(good, tmp_path)
    capsys.readouterr()
    assert main(["ledger", "add", *map(str, bad.values())]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(bad)
    for line, (name, path) in zip(err, bad.items()):
        assert line.startswith(f"briscola ledger: {path}: refused: "), (name, line)
    assert "cut short" in err[1] or "does not verify" in err[1]
    assert "not a briscola transcript" in err[2] and "not a briscola transcript" in err[3]
    assert "too large" in err[4]
    assert kept_tables() == before


def test_the_store_survives_a_kill_mid_write(good, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    ledger().add([good])
    before = store_bytes()
    path = Ledger.open().path
    child = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)], env=dict(os.environ), stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "writing"
        deadline = time.monotonic() + 30
        while not list(path.parent.glob(".ledger.json.*.tmp")):  # caught mid-write
            assert time.monotonic() < deadline and child.poll() is None
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        stop(child)
    after = store_bytes()  # the old whole file, or (killed just after the rename) the new one
    assert after == before or len(store.decode(after).tables) == 3001
    assert len(ledger().book().tables) in (1, 3001)


_WRITER = """
import dataclasses
import sys
from pathlib import Path
from briscola_tui.ledger import store
state = store.load(Path(sys.argv[1]))
table = next(iter(state.tables.values()))
for k in range(3000):  # a big ledger: its write takes a while (each table its own id, as read back)
    state.tables[(f"{k:032x}", table.host_key)] = dataclasses.replace(table, table_id=f"{k:032x}")
print("writing", flush=True)
while True:
    store.save(Path(sys.argv[1]), state)
"""


# --- the command line ---------------------------------------------------------------------------


def test_the_command_shows_the_league_and_exports(good, tmp_path, capsys):
    assert main(["ledger", "add", str(good)]) == 0
    assert "1 verified now, 1 new" in capsys.readouterr().out
    assert main(["ledger", "--no-scan"]) == 0
    league = capsys.readouterr().out
    assert "briscola: " in league and "Anna" in league and "Bruno" in league
    assert main(["ledger", "--no-scan", "person", "anna"]) == 0
    assert "Anna (key " in capsys.readouterr().out
    assert main(["ledger", "--no-scan", "export", "ratings", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {json.loads(r["names"])[0] for r in rows} == {"Anna", "Bruno"}
    out = tmp_path / "hands.json"
    assert main(["ledger", "--no-scan", "export", "hands", "--format", "json", "-o", str(out)]) == 0
    hands = json.loads(out.read_text())
    assert hands and all(h["names"] == ["Anna", "Bruno"] for h in hands)
    assert main(["ledger", "--no-scan", "--game", "chiamata"]) == 0
    assert "no rated hands yet" in capsys.readouterr().out


def test_the_ledger_reads_this_machines_transcripts(good, capsys):
    from briscola_tui.files.folders import subfolder

    (subfolder("transcripts") / "x-host.bin").write_bytes(good.read_bytes())
    assert main(["ledger"]) == 0
    assert "Anna" in capsys.readouterr().out


@pytest.mark.slow
def test_a_cheat_voids_its_hand_and_counts_against_the_cheater(tmp_path):
    out = io.StringIO()
    path = tmp_path / "cheat.bt"
    selfplay("briscola", 2, 3, 2, str(path), {}, out, cheat="play-unheld", bots_replace=True, quiet=True)
    ledger_ = ledger()
    assert ledger_.add([path]).tables == 1
    book = ledger_.book()
    void = [h for _t, h in book.hands if h.void]
    assert void and void[0].cheats == (1,)
    cheater = void[0].seats[1].person
    assert statistics(book.hands)[cheater].cheats == 1


def test_a_refused_file_is_verified_once_and_an_unfinished_local_table_is_passed_over_quietly(
    good, capsys, monkeypatch
):
    from briscola_tui.files.folders import subfolder
    from briscola_tui.ledger import verifying

    table_id, _meta, entries, _torn = load_transcript_prefix(good.read_bytes())
    unfinished = subfolder("transcripts") / "playing-host.bin"
    unfinished.write_bytes(dump_transcript(table_id, [], entries[: len(entries) // 2]))
    assert main(["ledger"]) == 0
    assert capsys.readouterr().err == ""  # a table still being played is no error on this machine
    assert main(["ledger", "add", str(unfinished)]) == 1
    assert "the table had not ended" in capsys.readouterr().err

    def never(*args):
        raise AssertionError("verified twice")

    monkeypatch.setattr(verifying, "check", never)
    assert main(["ledger", "add", str(unfinished)]) == 1
    assert "the table had not ended" in capsys.readouterr().err


def test_a_ledger_file_this_version_cannot_read_is_left_as_it_is(good, capsys):
    path = Ledger.open().path
    path.write_bytes(b'{"format": "something else"}')
    assert main(["ledger", "add", str(good)]) == 1
    assert capsys.readouterr().err.strip().endswith("is not a ledger this version can read; it is left as it is")
    assert path.read_bytes() == b'{"format": "something else"}'


def test_a_file_unchanged_since_it_was_verified_is_not_read_again(good, monkeypatch):
    from briscola_tui.ledger import book as book_module

    assert ledger().add([good]).tables == 1

    def unread(path):
        raise AssertionError(f"{path} read again")

    monkeypatch.setattr(book_module, "read_bounded", unread)
    assert ledger().add([good]).copies == 1  # (its size and time as when it was read: its hash is known)
    os.utime(good, ns=(1, 1))  # touched: read again
    with pytest.raises(AssertionError, match="read again"):
        ledger().add([good])


def test_files_checked_by_the_cores_together_come_out_as_one_by_one_in_the_order_given(
    good, tmp_path, capsys, monkeypatch
):
    """A batch past `verifying.PARALLEL_FROM` files is shared among worker processes: each file
    is kept or refused as when checked here, one by one, its line in the order given, and the
    refusals in the caller's language (Italian here)."""
    from briscola_tui import language
    from briscola_tui.ledger import verifying

    other = tmp_path / "other.bt"
    play(other, [ANNA, BRUNO], ["Anna", "Bruno"])
    bad = _bad_files(good, tmp_path)
    files = [bad["tampered"], good, bad["png"], other, good]
    monkeypatch.setattr(verifying, "PARALLEL_FROM", 2)
    monkeypatch.setenv("LANGUAGE", "it")
    try:
        assert main(["ledger", "add", *map(str, files)]) == 1
    finally:
        language.choose("en")
    err = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[1] for line in err] == [str(bad["tampered"]), str(bad["png"])], err
    assert "la voce 6 non si verifica" in err[0] and "non è un registro di briscola" in err[1], err
    assert len(kept_tables()[0]) == 2  # (good and other; good's second path a copy of the first)
