"""The one-line errors of `briscola replay` and `briscola verify` (issue 23), from real
processes: the command's name first, plain words, nothing on standard output, the file
left as it was."""

from __future__ import annotations

import subprocess

import pytest
from helpers.network import BRISCOLA, ROOT, WAIT


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISCOLA, *args], cwd=ROOT, capture_output=True, text=True, timeout=WAIT)


def test_replay_of_a_file_that_is_not_json_says_so_in_one_prefixed_line(tmp_path):
    bad = tmp_path / "hand.json"
    bad.write_text("xx\n")
    done = run("replay", str(bad))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("briscola replay: not valid JSON") and done.stderr.count("\n") == 1, done.stderr
    assert bad.read_text() == "xx\n"


@pytest.mark.slow
def test_verify_of_a_file_that_is_not_a_transcript_says_so_plainly(tmp_path):
    for name, data in (("notes.json", b"xx\n"), ("noise.bin", bytes(range(256)) * 4)):
        path = tmp_path / name
        path.write_bytes(data)
        done = run("verify", str(path))
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr == f"briscola verify: {path} is not a briscola transcript\n"
        assert path.read_bytes() == data
