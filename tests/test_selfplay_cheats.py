"""`briscola selfplay --cheat KIND`: every kind of cheat, from the command line.

The cheater, and only the cheater, is named on the last line; no node raises
anything but a protocol error; and `briscola verify` of the stored transcript
names the same culprits — except for the four kinds of which nothing enters
the transcript (a replayed or forged message is dropped by the host; a
forking or hijacking host is named by the seats it deceives).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers.app import last_line

from briscola_tui.cli import main
from briscola_tui.tools.cheaters import CHEATS

# (game, players, seed): a table where the cheater has its chance early. Each
# run also passes the seed as --deal-seed, so its deals are the same every time.
TABLES = {
    "substitute": ("briscola", 3, 1),
    "renege": ("calabresella", 3, 3),  # refused at the off-suit play: its proof fails
    "false-denial": ("calabresella", 3, 1),
    "two-rule": ("chiamata", 5, 1),
}
NOT_IN_TRANSCRIPT = {"replay", "forge", "host-fork", "seat-hijack"}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(CHEATS))
def test_every_cheat_is_named_and_only_the_cheater(kind, tmp_path, capsys):
    game, players, seed = TABLES.get(kind, ("briscola", 2, 1))
    for attempt in range(5):  # in some deals the cheater never gets its chance
        path = tmp_path / f"t{attempt}.bin"
        status = main(
            [
                "selfplay",
                "--game",
                game,
                "--players",
                str(players),
                "--seed",
                str(seed + attempt),
                "--deal-seed",
                str(seed + attempt),
                "--cheat",
                kind,
                "--transcript",
                str(path),
            ]
        )
        out = capsys.readouterr().out
        if status != 2:
            break
        assert "never had its chance" in out
    assert status == 3, out
    cheat = CHEATS[kind]
    expected = (
        "culprits: host" if cheat.session is None else f"culprits: seat {1 if cheat.seat is None else cheat.seat}"
    )
    assert last_line(out) == expected, out
    assert "Traceback" not in out
    assert "in phase" not in out and " 1 hands" not in out and " 1 entries" not in out, out  # words, not state names
    verified = main(["verify", str(path)])
    report = capsys.readouterr().out
    if kind in NOT_IN_TRANSCRIPT:
        assert verified in (0, 4), report  # nothing of the cheat is in the transcript
    else:
        assert verified == 3, report
        assert last_line(report) == expected, report


@pytest.mark.slow
def test_a_renege_refused_at_once_names_the_cheater_not_the_host(tmp_path, capsys):
    """In this deal the soloist returns a club to seat 1 face up, so
    its renege is refused at once by the rules. Its own lax view holds the
    move valid, but not its proof that it holds no other club: its own node
    agrees with the others, and the audit names seat 1, alone."""
    path = tmp_path / "t.bin"
    status = main(
        [
            "selfplay",
            "--game",
            "calabresella",
            "--seed",
            "2",
            "--deal-seed",
            "2",
            "--cheat",
            "renege",
            "--transcript",
            str(path),
        ]
    )
    out = capsys.readouterr().out
    assert "seat 0: return 3C" in out and "refused: illegal action: must follow suit" in out, out  # the case itself
    assert " left" not in out and "timed out" not in out and "stopped:" not in out  # no node stopped
    assert status == 3 and last_line(out) == "culprits: seat 1", out
    assert main(["verify", str(path)]) == 3
    assert last_line(capsys.readouterr().out) == "culprits: seat 1"


AT_THE_STEP = {
    "substitute": "phase-1 shuffle proof fails",
    "tag-card": "phase-1 shuffle proof fails",
    "duplicate": "same ciphertext",
    "garbage-shuffle": "not a curve point",
    "swap-positions": "phase-2 proof fails",
    "wrong-public-share": "public key share for deck position",
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(AT_THE_STEP))
def test_deck_cheats_are_refused_at_the_step_that_carries_them(kind, tmp_path, capsys):
    """Before any card is dealt on top of the bad step: no card is dealt or played,
    the refused message is kept as evidence, and `briscola verify` names the seat for it."""
    game, players, seed = TABLES.get(kind, ("briscola", 3, 1))
    path = tmp_path / "t.bin"
    status = main(
        [
            "selfplay",
            "--game",
            game,
            "--players",
            str(players),
            "--seed",
            str(seed),
            "--cheat",
            kind,
            "--transcript",
            str(path),
        ]
    )
    out = capsys.readouterr().out
    cheater = CHEATS[kind].seat if CHEATS[kind].seat is not None else 1
    assert status == 3 and last_line(out) == f"culprits: seat {cheater}", out
    reason = AT_THE_STEP[kind]
    assert f"seat {cheater}'s message refused: " in out and reason in out and "(kept as evidence)" in out
    assert "cards dealt" not in out and ": play " not in out  # nothing was dealt on top of it
    assert main(["verify", str(path)]) == 3
    report = capsys.readouterr().out
    assert f"FAIL hand 1: seat {cheater}: " in report and reason in report
    assert last_line(report) == f"culprits: seat {cheater}"


@pytest.mark.slow
def test_the_cheater_can_be_chosen(tmp_path, capsys):
    assert main(["selfplay", "--seed", "1", "--players", "4", "--cheat", "wrong-proof", "--cheater", "2"]) == 3
    assert last_line(capsys.readouterr().out) == "culprits: seat 2"


@pytest.mark.slow
def test_the_two_rule_cheater_outbids_a_2_with_a_target(capsys):
    # Deal 4: seat 1 answers the cheater's 2 with "2 with a target"; the
    # cheater bids the next target (a plain 2 again was an IllegalAction).
    args = ["selfplay", "--game", "chiamata", "--cheat", "two-rule", "--cheater", "0"]
    assert main([*args, "--seed", "4", "--deal-seed", "4"]) == 3
    out = capsys.readouterr().out
    assert "seat 0: bid 2 target" in out
    assert last_line(out) == "culprits: seat 0"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cheat", "renege"], "cannot happen in briscola"),
        (["--game", "chiamata", "--cheat", "false-denial"], "cannot happen in chiamata"),
        (["--cheat", "substitute"], "leaves cards out"),
        (["--players", "3", "--cheat", "tag-card", "--cheater", "2"], "first seat to shuffle, seat 0"),
        (["--cheat", "wrong-proof", "--cheater", "5"], "a seat from 0 to 1"),
        (["--cheater", "1"], "give the cheat too"),
    ],
)
def test_a_cheat_that_cannot_happen_is_a_clear_error(args, message, capsys):
    assert main(["selfplay", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("briscola selfplay: ") and message in captured.err
    assert "hand 1" not in captured.out


@pytest.mark.slow
def test_from_a_real_command_line(tmp_path):
    path = tmp_path / "t.bin"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "briscola_tui.cli",
            "selfplay",
            "--seed",
            "1",
            "--cheat",
            "withhold-reveal",
            "--transcript",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr
    assert "seat 1 timed out" in done.stdout
    assert last_line(done.stdout) == "culprits: seat 1"
    verified = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "verify", str(path)], capture_output=True, text=True, timeout=120
    )
    assert verified.returncode == 3 and last_line(verified.stdout) == "culprits: seat 1"


AT_THE_CLAIM = {
    "renege": "renege: its proof that it holds none of the suit led does not check",
    "false-denial": "false denial: its proof that it lacks the called card does not check",
    "two-rule": "two rule: its proof of the trumps it holds and lacks does not check",
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(AT_THE_CLAIM))
def test_a_false_claim_about_hidden_cards_is_refused_at_its_message(kind, tmp_path, capsys):
    """From the command line: the message that carries the false claim is refused, naming the
    cheater alone; the hand stops there (no card is played after it); verify names it again."""
    game, players, seed = TABLES[kind]
    path = tmp_path / "t.bin"
    args = ["selfplay", "--game", game, "--players", str(players), "--seed", str(seed), "--deal-seed", str(seed)]
    assert main([*args, "--cheat", kind, "--transcript", str(path)]) == 3
    out = capsys.readouterr().out
    lines = out.splitlines()
    refused = next(i for i, line in enumerate(lines) if "seat 1's message refused: " in line)
    assert AT_THE_CLAIM[kind] in lines[refused], out
    assert not any(": play " in line for line in lines[refused + 1 :]), out  # the hand stopped at the claim
    assert last_line(out) == "culprits: seat 1", out
    assert main(["verify", str(path)]) == 3
    report = capsys.readouterr().out
    assert AT_THE_CLAIM[kind] in report and last_line(report) == "culprits: seat 1", report
