"""The club ledger against a hostile club (issue 44): a table under a copied id, many keys and
the computer levels, two `ledger add` at once, and the ledger's own files damaged or not files
at all. Each test here failed before the fix (see the issue's figures in its docstring)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.home import point_home_at
from helpers.ledger_tables import play, stop
from helpers.network import BRISCOLA

from briscola_tui.cli import main
from briscola_tui.files.folders import data_dir
from briscola_tui.ledger.book import Ledger
from briscola_tui.ledger.report import league_rows
from protocol.certificate import level_identity
from protocol.identity import Identity, fingerprint

ANNA, BRUNO, MALLORY = Identity.generate(), Identity.generate(), Identity.generate()
NORMAL = level_identity("normal").public_bytes.hex()


def home(monkeypatch, folder: Path) -> None:
    """A data folder of Anna's own at `folder` (she is "me" there)."""
    point_home_at(monkeypatch, folder)
    ANNA.save(data_dir() / "identity.key")


@pytest.fixture(autouse=True)
def anna(monkeypatch, tmp_path):
    home(monkeypatch, tmp_path / "anna")


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISCOLA, *args], capture_output=True, text=True, timeout=timeout)


# --- 1. a table under a copied id ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("forgery_first", [True, False])
def test_a_table_under_a_copied_id_is_refused_and_the_real_one_kept_in_either_order(
    tmp_path, monkeypatch, forgery_first
):
    """Issue: the forgery added first blocked the real table for good (both refused as a fork).
    Now the forgery is "not table X (signed by another key)", and the real table is kept and
    rated as it is alone, whichever arrived first."""
    real = play(tmp_path / "real.bt", [ANNA, BRUNO], ["Anna", "Bruno"], ["normal", "random"])
    table_id = real.host.table_id
    play(tmp_path / "forged.bt", [MALLORY, Identity.generate()], ["Anna", "Bruno"], seed=2, table_id=table_id)
    alone = Ledger.open()
    alone.add([tmp_path / "real.bt"])
    expected = alone.book().ratings.of(ANNA.public_bytes.hex(), "briscola")

    home(monkeypatch, tmp_path / "both")
    order = ["forged.bt", "real.bt"] if forgery_first else ["real.bt", "forged.bt"]
    ledger = Ledger.open()
    said = [ledger.add([tmp_path / name]) for name in order]
    book = ledger.book()
    assert [t.table_id for t in book.tables] == [table_id.hex()]
    assert book.ratings.of(ANNA.public_bytes.hex(), "briscola") == expected
    assert MALLORY.public_bytes.hex() not in {p for (p, _g) in book.ratings.now}
    why = said[1].dropped[0] if forgery_first else said[1].refused[0][1]
    assert why.startswith(f"not table {table_id.hex()} (signed by another key)")
    again = ledger.add([tmp_path / "forged.bt", tmp_path / "real.bt"])  # later copies: the same
    assert again.copies == 1 and "not table" in again.refused[0][1]
    assert [t.table_id for t in ledger.book().tables] == [table_id.hex()]


def test_a_fork_is_named_by_its_host_key_on_the_command_line(tmp_path, capsys):
    host = Identity.generate()
    table = play(tmp_path / "a.bt", [ANNA, BRUNO], ["Anna", "Bruno"], seed=1, host=host)
    play(tmp_path / "b.bt", [ANNA, BRUNO], ["Anna", "Bruno"], seed=2, host=host)
    assert main(["ledger", "add", str(tmp_path / "a.bt"), str(tmp_path / "b.bt")]) == 1
    err = capsys.readouterr().err
    line = (
        f"table {table.host.table_id.hex()}: host key {fingerprint(host.public_bytes)} signed two different histories"
    )
    assert line in err


# --- 4. the computer levels and many keys --------------------------------------------------------


def _sybil_tables(folder: Path, n: int) -> tuple[list[Path], list[int]]:
    """An attacker's tables: `normal` (run by Mallory, or certified the old way, by its public
    level key) against keys of Mallory's own, dated before everyone else's; and the hands of
    each kind (run by Mallory, run by nobody known)."""
    paths, hands = [], [0, 0]
    for k in range(n):
        path = folder / f"sybil{k}.bt"
        runner, runs = (level_identity("normal"), "") if k % 2 else (MALLORY, "normal")
        sybil = Identity.generate()
        table = play(
            path, [runner, sybil], ["normal", f"sybil {k}"], ["random", "normal"], seed=10 + k, runs=[runs, ""]
        )
        assert table.host.session.series is not None
        hands[k % 2] += table.host.session.series.hands_played
        os.utime(path, (1_000_000 + k, 1_000_000 + k))
        paths.append(path)
    return paths, hands


@pytest.mark.slow
def test_an_attackers_tables_move_no_rating_in_a_members_league(tmp_path, monkeypatch, capsys):
    """Issue: 24 tables of `normal` against an attacker's keys took normal from 1862 to 1252, a
    member who never met the attacker from 1138 to 1004, and put the attacker first. Now a hand
    rates only when everyone at it is in the reader's roster (the runner of a computer seat too):
    the ratings are those without the attacker's tables, and the attacker is not in the league."""
    own = [tmp_path / f"anna{k}.bt" for k in range(2)]
    for k, path in enumerate(own):  # Anna against `normal`, which she runs herself
        play(path, [ANNA, ANNA], ["Anna", "normal"], ["random", "normal"], seed=k + 1, runs=["", "normal"])
    attack, (by_mallory, by_nobody) = _sybil_tables(tmp_path, 6)
    alone = Ledger.open()
    alone.add(own)
    before = alone.book()

    home(monkeypatch, tmp_path / "attacked")
    ledger = Ledger.open()
    ledger.add([*attack, *own])
    book = ledger.book()
    assert {row.person.label for row in league_rows(book, "briscola")} == {"Anna", "normal"}
    assert book.ratings.now == before.ratings.now
    assert league_rows(book, "briscola") == league_rows(before, "briscola")  # the win rates too
    assert main(["ledger", "--no-scan"]) == 0
    out = capsys.readouterr().out
    assert f"{by_mallory} hands not rated: someone at them is not in your roster" in out
    assert f"{by_nobody} hands not rated: a computer player at them was run by someone unknown" in out
    assert "sybil" not in out


def test_trust_adds_a_person_to_the_roster_and_untrust_takes_them_off(tmp_path, capsys):
    paths, _hands = _sybil_tables(tmp_path, 2)  # one run by Mallory, one by nobody known
    assert main(["ledger", "add", *map(str, paths)]) == 0
    assert main(["ledger", "--no-scan"]) == 0
    assert "sybil" not in capsys.readouterr().out
    mallory = fingerprint(MALLORY.public_bytes)
    assert main(["ledger", "--no-scan", "trust", mallory[:8]]) == 0
    assert capsys.readouterr().out.strip() == f"trusted: {mallory}"
    assert main(["ledger", "--no-scan", "roster"]) == 0
    roster = capsys.readouterr().out
    assert "trusted by fingerprint" in roster and mallory in roster
    ledger = Ledger.open()
    book = ledger.book()
    assert book.ratings.now == {}  # Mallory's `normal` played a key nobody trusts: still nothing rated
    sybil = next(s.person for _t, h in book.hands for s in h.seats if s.name == "sybil 0")
    assert main(["ledger", "--no-scan", "trust", fingerprint(bytes.fromhex(sybil))]) == 0
    assert (NORMAL, "briscola") in Ledger.open().book().ratings.now  # both trusted: that table counts
    assert main(["ledger", "--no-scan", "untrust", mallory]) == 0
    assert (NORMAL, "briscola") not in Ledger.open().book().ratings.now
    capsys.readouterr()
    assert main(["ledger", "--no-scan", "trust", "0123abcd"]) == 1
    assert "nobody in the ledger has the fingerprint 0123abcd" in capsys.readouterr().err


# --- 5. two `ledger add` at once ------------------------------------------------------------------


@pytest.mark.slow
def test_five_ledger_adds_at_once_keep_every_table(tmp_path):
    """Issue: 5 `ledger add` at once each said "N new" and only the last writer's tables were
    kept (10 of 21 lost). Now one writer at a time, each reading the ledger again: none lost."""
    groups = []
    for g in range(5):
        paths = [tmp_path / f"g{g}t{k}.bt" for k in range(3)]
        for k, path in enumerate(paths):
            play(path, [ANNA, BRUNO], ["Anna", "Bruno"], seed=100 * g + k)
        groups.append(paths)
    children = [
        subprocess.Popen(
            [*BRISCOLA, "ledger", "add", *map(str, paths)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for paths in groups
    ]
    try:
        outs = [child.communicate(timeout=300) for child in children]
    finally:
        for child in children:
            stop(child)
    assert [child.returncode for child in children] == [0] * 5, outs
    assert all("3 verified now, 3 new" in out for out, _err in outs)
    assert len(Ledger.open().book().tables) == 15


@pytest.mark.slow
def test_a_writer_killed_holding_the_lock_leaves_it_free(tmp_path):
    play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"])
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(Ledger.open().path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        stop(holder)
    done = run("ledger", "add", str(tmp_path / "t.bt"), timeout=120)
    assert done.returncode == 0 and "1 new" in done.stdout


_HOLDER = """
import sys, time
from pathlib import Path
from briscola_tui.ledger import store
with store.writing(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(600)
"""


# --- 7. the ledger's own files, and files that are not files ---------------------------------------


def _reverse_ranks(value) -> None:
    """Every hand's ranks turned around, wherever the ledger's file keeps them (a hand edited)."""
    if isinstance(value, dict):
        if isinstance(value.get("ranks"), list):
            value["ranks"].reverse()
        for item in value.values():
            _reverse_ranks(item)
    elif isinstance(value, list):
        for item in value:
            _reverse_ranks(item)


def test_a_changed_rank_in_the_ledgers_file_is_found_and_the_file_rebuilt(tmp_path, capsys):
    """Issue: a rank changed in ledger.json reversed the league. Now the file's hash does not
    check: it is rebuilt from the transcripts the ledger keeps, with one line saying so."""
    play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"], ["normal", "random"])
    assert main(["ledger", "add", str(tmp_path / "t.bt")]) == 0
    assert main(["ledger", "--no-scan"]) == 0
    capsys.readouterr()
    before = Ledger.open().book().ratings.now
    path = Ledger.open().path
    data = json.loads(path.read_bytes())
    _reverse_ranks(data)
    path.write_text(json.dumps(data))
    assert Ledger.open().book().ratings.now == before
    assert main(["ledger", "--no-scan"]) == 0  # (rebuilt already: nothing more to say)
    assert capsys.readouterr().err == ""


def test_a_damaged_ledger_file_is_rebuilt_with_one_line(tmp_path, capsys):
    play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"], ["normal", "random"])
    assert main(["ledger", "add", str(tmp_path / "t.bt")]) == 0
    before = Ledger.open().book().ratings.now
    path = Ledger.open().path
    path.write_bytes(path.read_bytes()[:100])  # cut short
    capsys.readouterr()
    assert main(["ledger", "--no-scan"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "was damaged (kept as ledger.json.damaged)" in err[0]
    assert "rebuilt from the 1 transcript the ledger keeps" in err[0]
    assert Ledger.open().book().ratings.now == before
    path.unlink()  # deleted: rebuilt from the copies too
    assert main(["ledger", "--no-scan"]) == 0
    assert capsys.readouterr().err.endswith("ledger.json was missing: rebuilt from the 1 transcript the ledger keeps\n")
    assert Ledger.open().book().ratings.now == before


def test_a_stray_refusal_beside_the_ledger_keeps_no_real_table_out(tmp_path, capsys):
    """Issue: a hash written into refused.json kept a real table out for good. Now refusals are
    kept inside the ledger's checked file: one changed there makes it rebuilt, and the table
    counts."""
    play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"])
    import hashlib

    digest = hashlib.sha256((tmp_path / "t.bt").read_bytes()).hexdigest()
    folder = Ledger.open().path.parent
    (folder / "refused.json").write_text(json.dumps({digest: [False, "made up"]}))
    assert main(["ledger", "add", str(tmp_path / "t.bt")]) == 0  # (the stray file is no ledger's)
    assert len(Ledger.open().book().tables) == 1

    path = Ledger.open().path
    data = json.loads(path.read_bytes())
    data["body"]["refused"].append([digest, False, "made up"])
    data["body"]["files"] = []
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["ledger", "add", str(tmp_path / "t.bt")]) == 0
    assert "was damaged" in capsys.readouterr().err
    assert len(Ledger.open().book().tables) == 1


@pytest.mark.slow
def test_ledger_add_of_a_fifo_is_refused_at_once(tmp_path):
    """Issue: `ledger add` of a FIFO hung. Now anything not a regular file is refused at once,
    and the other files are added."""
    play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"])
    fifo = tmp_path / "friday.bt"
    os.mkfifo(fifo)
    done = run("ledger", "add", str(fifo), str(tmp_path / "t.bt"), timeout=60)
    assert done.returncode == 1
    assert f"{fifo}: refused: not a regular file" in done.stderr
    assert "1 new" in done.stdout


@pytest.mark.slow
def test_a_fifo_where_the_ledgers_file_should_be_is_refused_at_once(tmp_path):
    path = Ledger.open().path
    os.mkfifo(path)
    done = run("ledger", "--no-scan", timeout=60)
    assert done.returncode == 1 and "is not a regular file" in done.stderr


def test_an_older_versions_ledger_is_rebuilt_from_the_files_it_was_read_from(tmp_path, capsys):
    """After the upgrade a member's ledger still shows their games, with one line saying why it
    was read again."""
    play(tmp_path / "t.bt", [ANNA, BRUNO], ["Anna", "Bruno"], ["normal", "random"])
    path = Ledger.open().path
    old = {"format": "briscola-ledger", "version": 1, "tables": [], "files": {}, "forks": []}
    path.write_text(json.dumps(old))
    status = os.stat(tmp_path / "t.bt")
    seen = {str(tmp_path / "t.bt"): [status.st_size, status.st_mtime_ns, "0" * 64]}
    path.with_name("seen.json").write_text(json.dumps(seen))
    assert main(["ledger", "--no-scan"]) == 0
    out, err = capsys.readouterr()
    assert err.strip().endswith(
        "the ledger was written by an older version: rebuilt from the 1 transcript it was read from"
    )
    assert "Anna" in out and "Bruno" in out
    assert not path.with_name("seen.json").exists()


def test_a_league_of_older_computer_seats_only_says_why_it_rates_nothing(tmp_path, capsys):
    """A member's offline tables from before computer seats named their runner: kept and
    counted, not rated, and the league says why rather than "no rated hands yet"."""
    table = play(tmp_path / "old.bt", [ANNA, level_identity("normal")], ["you", "normal"], ["random", "normal"])
    assert table.host.session.series is not None
    assert main(["ledger", "add", str(tmp_path / "old.bt")]) == 0
    capsys.readouterr()
    assert main(["ledger", "--no-scan"]) == 0
    out = capsys.readouterr().out
    hands = table.host.session.series.hands_played
    assert "no rated hands yet" not in out
    assert f"briscola: 0 rated hands\n  {hands} hand{'s' * (hands > 1)} not rated: a computer player at them" in out
