"""`briscola verify`: passes on a selfplay transcript, fails (naming the entry) after any one byte changes.

Exit codes: 0 all well; 3 a cheat or a tampered entry (named); 1 not a transcript.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cheaters import LaxSession, off_suit, pick, scripted, seat_sessions

from briscola_tui.cli import main
from briscola_tui.storage import save_transcript
from protocol.local import LocalTable

ENTRY = re.compile(r"entry (\d+)")


@pytest.fixture(scope="module")
def transcript(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("verify") / "selfplay.bin"
    assert main(["selfplay", "--game", "briscola", "--hands", "1", "--seed", "5", "--transcript", str(path)]) == 0
    return path


def frames(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of every frame of a transcript file, the 4-byte length included."""
    out, offset = [], 0
    while offset < len(data):
        size = int.from_bytes(data[offset:offset + 4], "big")
        out.append((offset, offset + 4 + size))
        offset += 4 + size
    return out


def verify(path, capsys) -> tuple[int, str]:
    code = main(["verify", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_selfplay_transcript_verifies(transcript, capsys):
    code, text = verify(transcript, capsys)
    assert code == 0, text
    assert "hand 1: all checks pass" in text
    assert f"verified {len(frames(transcript.read_bytes())) - 1} entries" in text


def test_verify_in_a_real_process(transcript):
    done = subprocess.run([sys.executable, "-m", "briscola_tui.cli", "verify", str(transcript)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "all checks pass" in done.stdout


def test_every_changed_byte_is_caught(transcript, tmp_path, capsys):
    data = transcript.read_bytes()
    spans = frames(data)
    header, entries = spans[0], spans[1:]
    exhaustive = [range(*header), *(range(*s) for s in entries[:3]), range(*entries[-1])]
    positions = sorted({i for r in exhaustive for i in r})
    rng = random.Random(1234)
    others = [i for i in range(len(data)) if i not in set(positions)]
    positions += rng.sample(others, 300)
    path = tmp_path / "tampered.bin"
    failures = []
    for i in positions:
        changed = bytearray(data)
        changed[i] ^= rng.randrange(1, 256)
        path.write_bytes(bytes(changed))
        code, text = verify(path, capsys)
        in_header = i < header[1]
        if code == 1 and in_header:
            continue  # no longer starts as a transcript
        if code == 3 and ENTRY.search(text):
            entry = int(ENTRY.search(text).group(1))
            holder = next(k for k, (a, b) in enumerate(entries) if a <= i < b) if not in_header else 0
            # The entry named is the changed one or (a broken link) the one after it.
            if in_header or entry in (holder, holder + 1):
                continue
        failures.append((i, code, text.strip()[-200:]))
    assert not failures, failures[:5]


def test_not_a_transcript(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("this is not a transcript\n" * 10)
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.bin"
    for path in (text, empty, missing):
        code, out = verify(path, capsys)
        assert code == 1, (path, out)
        assert str(path) in out


def test_a_cheat_in_the_transcript_is_named(tmp_path, capsys):
    """A seat that did not follow suit: the host let it through (it cannot see); verify names the seat."""
    cheat = 2
    for seed in range(20):
        sessions = seat_sessions(3, {cheat: LaxSession})
        choosers = {
            s: scripted(seed + s, auction=pick("bid", contract="solissimo"), **{"raise": pick("raise", choice="none")},
                        play=off_suit)
            if s == cheat else scripted(seed + s, auction=pick("pass"))
            for s in range(3)
        }
        table = LocalTable("calabresella", 3, {}, choosers=choosers, sessions=sessions)
        table.run(max_hands=1)
        if getattr(table.seats[cheat], "cheated", False):
            break
    else:  # pragma: no cover
        pytest.fail("the cheater never had the chance")
    path = tmp_path / "cheat.bin"
    save_transcript(path, table.host.table_id, table.entries)
    code, out = verify(path, capsys)
    assert code == 3, out
    assert f"seat {cheat}: illegal action: must follow suit" in out
    assert ENTRY.search(out)
