"""The identity certificate in the join (protocol/certificate.py): bound to one table and one
seat key; a computer player's level key is the same everywhere; a join without one encodes
as before it existed, so older transcripts still read."""

from __future__ import annotations

import pytest

from protocol.certificate import certify, check_certificate, level_identity
from protocol.codec import decode, encode
from protocol.errors import RemoteProtocolError
from protocol.identity import Identity
from protocol.messages import Join, from_body, to_body

TABLE, OTHER_TABLE = bytes(16), bytes([1] * 16)


def test_a_certificate_checks_only_for_its_table_and_its_seat_key():
    person, seat, other = Identity.generate(), Identity.generate(), Identity.generate()
    certificate = certify(person, TABLE, seat.public_bytes)
    check_certificate(certificate, TABLE, seat.public_bytes)
    for table, key in ((OTHER_TABLE, seat.public_bytes), (TABLE, other.public_bytes)):
        with pytest.raises(RemoteProtocolError, match="identity certificate does not check"):
            check_certificate(certificate, table, key)
    forged = type(certificate)(other.public_bytes, certificate.signature)  # another identity claimed
    with pytest.raises(RemoteProtocolError):
        check_certificate(forged, TABLE, seat.public_bytes)


def test_a_level_has_one_key_everywhere_and_each_level_its_own():
    assert level_identity("normal").public_bytes == level_identity("normal").public_bytes
    assert level_identity("normal").public_bytes != level_identity("easy").public_bytes
    with pytest.raises(ValueError):
        level_identity("x" * 17)


def test_a_join_without_a_certificate_encodes_as_before_and_one_with_it_round_trips():
    key = Identity.generate().public_bytes
    assert to_body(Join(key, "Anna")) == [key, "Anna"]
    assert from_body("join", [key, "Anna"]) == Join(key, "Anna")
    certificate = certify(Identity.generate(), TABLE, key)
    join = Join(key, "Anna", (certificate.identity, certificate.signature))
    assert from_body("join", decode(encode(to_body(join)))) == join
    with pytest.raises(RemoteProtocolError):
        from_body("join", [key, "Anna", [certificate.identity]])


@pytest.mark.slow
def test_a_seat_a_computer_plays_from_afar_is_vouched_for_by_its_level_not_the_account(children):
    """`briscola join --bot random`: the seat's join is certified by the account that runs it,
    naming the level, so the club ledger rates `random` for it, run by that account (not the
    account itself); a person's own seat carries no certificate (its key is their identity key)."""
    import subprocess

    from helpers.network import BRISCOLA, Human, Table

    table = Table(children, "briscola", players=3)
    table.join("Bea"), table.join("Cy", human=Human(seed=1)), table.join("Dan")
    table.finish()
    lines = subprocess.run(
        [*BRISCOLA, "verify", str(table.transcript)], capture_output=True, text=True, timeout=120
    ).stdout.splitlines()
    seats = {name: line for line in lines for name in ("Bea", "Cy", "Dan") if f'"{name}"' in line}
    for bot in ("Bea", "Dan"):  # its key is the account's: the certificate names the level and its runner
        key = seats[bot].split(" key ")[1].split()[0]
        assert f"computer random run by {key}" in seats[bot]
    assert "identity" not in seats["Cy"] and "computer" not in seats["Cy"]


def test_a_computer_seat_certificate_names_its_level_and_its_runner_and_an_old_one_still_checks():
    runner, key = Identity.generate(), Identity.generate().public_bytes
    certificate = certify(runner, TABLE, key, "normal")
    check_certificate(certificate, TABLE, key)
    renamed = type(certificate)(certificate.identity, certificate.signature, "hard")  # another level claimed
    with pytest.raises(RemoteProtocolError, match="identity certificate does not check"):
        check_certificate(renamed, TABLE, key)
    join = Join(key, "Bea", (certificate.identity, certificate.signature, "normal"))
    assert from_body("join", decode(encode(to_body(join)))) == join
    old = certify(level_identity("normal"), TABLE, key)  # an older transcript's computer seat
    check_certificate(old, TABLE, key)
    assert from_body("join", [key, "Bea", [old.identity, old.signature]]) == Join(
        key, "Bea", (old.identity, old.signature)
    )


@pytest.mark.slow
def test_a_host_whose_identity_file_holds_no_key_says_so_in_one_line(tmp_path):
    """Its computer players are certified by this account's identity key: a file there that is
    no key stops the host in one line (no traceback), the file left as it was."""
    import os
    import subprocess
    import sys

    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    (home / "identity.key").write_text("not a key")
    command = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--bots", "1", "--level", "random"]
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", *command],
        env={**os.environ, "BRISCOLA_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "identity.key: not an unencrypted PEM private key; the file is left as it is" in done.stderr
    assert (home / "identity.key").read_text() == "not a key"
