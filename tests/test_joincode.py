"""The join code (net/joincode.py): a public plate naming the table on the LAN, then a
secret read aloud without mistakes; and `briscola join CODE` where no table can be found
(cli_lan.py): one line, and the command that works everywhere."""

from __future__ import annotations

import subprocess

import pytest
from helpers.network import BRISCOLA

from briscola_tui.net.joincode import ALPHABET, PLATES, SECRET_LENGTH, new_code, plate_of, tidy


def test_a_code_is_a_plate_and_a_secret_read_aloud_without_mistakes():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        plate, secret = code.split("-")
        assert int(plate) in PLATES and plate_of(code) == int(plate)
        assert len(secret) == SECRET_LENGTH and set(secret) <= set(ALPHABET)
    assert not set("01ilo") & set(ALPHABET)


def test_a_host_picks_a_plate_no_table_on_the_lan_uses():
    taken = set(PLATES) - {17}
    assert {plate_of(new_code(taken)) for _ in range(20)} == {17}
    assert all(plate_of(new_code(set(PLATES))) >= 100 for _ in range(20))  # all taken: three digits


def test_a_code_typed_in_capitals_or_with_spaces_is_the_same_code():
    assert tidy("  42-7Q8R2K ") == "42-7q8r2k" and plate_of("42-7Q8R2K") == 42
    assert tidy("S3cret") == "S3cret"  # a code chosen with --code is taken as it is
    for text in ("192.168.1.20:7777", "7q8r2k", "42", "42-", "-7q8r2k", "42-7q8r2k:80", "[::1]:7777"):
        assert plate_of(text) is None


@pytest.mark.slow
def test_the_code_alone_where_no_table_can_be_looked_for_says_what_works_everywhere():
    done = subprocess.run(
        [*BRISCOLA, "join", "42-7q8r2k", "--headless"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert "BRISCOLA_NO_MULTICAST is set" in last
    assert "ask the host for HOST:PORT and run: briscola join HOST:PORT --code 42-7q8r2k" in last


def test_two_different_codes_are_refused():
    done = subprocess.run(
        [*BRISCOLA, "watch", "42-7q8r2k", "--code", "43-7q8r2k", "--headless"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "two join codes given" in done.stderr
