"""A computer player that took a seat (`briscola host --bots-replace`) keeps its key and its
secrets on disk like the host's other computer players: a host killed mid-hand and started
again with the same command plays that seat on (real processes on 127.0.0.1)."""

from __future__ import annotations

import re
import stat
import subprocess

import pytest
from helpers.network import BRISCOLA, ROOT, WAIT, Human, Table, wait_until

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)


def test_a_host_restarted_mid_hand_plays_on_the_seat_a_computer_player_took(children):
    table = Table(children, "briscola", players=3, bots=1, extra=("--time-limit", "5", "--bots-replace"))
    quitter = Human(seed=5)  # plays two cards, then never answers again
    nico = table.join("Nico", seat=0, human=lambda child, line: quitter(child, line) if quitter.moves < 2 else None)
    person = Human(seed=7, delay=0.3)
    pia = table.join("Pia", seat=1, human=person)
    table.host.wait_for(r"a computer player takes seat 0", timeout=WAIT)
    moves = person.moves
    wait_until(lambda: person.moves >= moves + 2, "two moves of the next hand", kids=children)
    table.host.proc.kill()  # mid-hand: the computer player at seat 0 has committed to it
    assert table.host.finish() != 0
    host = table.start_host()
    host.wait_for(r"^resuming table ")
    assert pia.finish() == 0, children.report()
    assert host.finish() == 0, children.report()
    assert "timed out" not in host.text and "takes seat" not in host.text, host.tail()  # seat 0 played on
    assert nico.finish() != 0
    kept = [
        *(host.home / "host-bots").glob("*-seat0-replacement.key"),
        *(host.home / "seats").glob("*-seat0-replacement.store"),
    ]
    assert len(kept) == 2 and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in kept), kept
    done = subprocess.run(
        [*BRISCOLA, "verify", str(table.transcript)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 3, done.stdout + done.stderr  # Nico's time-out, and only that
    assert re.search(r"^culprits: seat 0$", done.stdout, re.M), done.stdout
    assert re.search(r"^ok   hand 2: all checks pass", done.stdout, re.M), done.stdout
