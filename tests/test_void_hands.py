"""Hands stopped early: nothing of them is left behind, and only who the transcript proves wrong is named.

In memory (LocalTable), then as real processes on 127.0.0.1 (tests/helpers/network.py;
the stopping and cheating seats are tests/helpers/seat_process.py, run as a process):

1. a seat stops a hand with an early reveal and another seat leaves during it
   (it is timed out): between hands no node keeps the stopped hand's complaint or
   secrets, and the seat that left takes its seat back — still running, or started
   again from its key and store — or a computer player takes it; the next hand is
   dealt and scored. Where the stopper's own seed settles that it had no cause
   (Briscola: only a key share can give one) it is named for it, a cheat, and the
   table ends; where a rule only its cards show may have been its cause (the two
   rule of Chiamata; Calabresella), it is not named: the hand is void;
2. a wrong sealed share followed by a withheld reveal is named as the cheat it is:
   the victim's revealed seed opens the blob and the share fails against the
   cheater's committed key; the victim, who stopped the hand, is not named, and
   `briscola verify` of the transcript names the cheater alone;
   with the table rule `replace_cheats` (`briscola host --bots-replace`, `selfplay
   --bots-replace`) the cheater is evicted instead of ending the table: the hand is
   void, its key banned, a computer player takes its seat with a new key and the next
   hand is played (in memory, selfplay, and over the network); a cheat refused at once
   during a hand is evicted the same way; a cheat outside a hand (the coin) still ends it;
3. a message that reaches the host after the table ended names nobody: `briscola
   selfplay --cheat bad-key --cheater 0` (seat 1's commit was queued behind the
   refused one) names seat 0 only, as `briscola verify` of its transcript does.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers.cheaters import (
    BadCoin,
    BadKey,
    LaxSession,
    PlayUnheld,
    WrongPublicShare,
    entry_for,
    random_choosers,
    seat_sessions,
    sign_as,
)
from helpers.network import BRISCOLA, CODE, ROOT, WAIT, Child, Human, Table, wait_until
from helpers.seat_process import FlagStopper, WrongShareWithheld

from briscola_tui.cli import main
from briscola_tui.files.storage import TranscriptFile
from briscola_tui.tools.selfplay import culprits_of
from engine.cards import Card
from engine.state import Action
from protocol.audit import ABSENT, CHEAT
from protocol.errors import RemoteProtocolError
from protocol.events import HandBegins
from protocol.identity import Identity
from protocol.local import LocalTable, replacement_seat
from protocol.messages import Join
from protocol.session import TableSession

SEAT_PROCESS = [sys.executable, str(ROOT / "tests" / "helpers" / "seat_process.py")]


class Leaver(TableSession):
    """An honest seat that stops answering while `gone` is set (its entries still reach it)."""

    gone = False

    def outgoing(self):
        return [] if self.gone else super().outgoing()

    def my_turn(self):
        return False if self.gone else super().my_turn()


def every_node(table):
    return [*table.seats, *table.spectators, table.host.session]


def agree(table):
    """Every node holds the host's transcript, phase and verdicts."""
    host = table.host.session
    assert not table.failures, table.failures
    for node in table.nodes:
        assert node.transcript.head == host.transcript.head, node
        assert node.phase == host.phase, node
        assert [str(v) for v in node.verdicts] == [str(v) for v in host.verdicts], node


def named(verdict) -> set[tuple[int, str]]:
    return {(c.seat, c.kind) for c in verdict.culprits}


def stopped_and_left(game: str, players: int, rules=None, seed=1):
    """Seat 0 stops the first hand with an early reveal, without cause; seat 1 (a
    `Leaver`) has stopped answering just before, so it owes its reveal and is timed out."""
    leaver = Leaver(1, Identity.generate(), "seat 1")
    sessions = {0: FlagStopper(0, Identity.generate(), "seat 0"), 1: leaver}
    table = LocalTable(game, players, {}, choosers=random_choosers(players, seed), sessions=sessions, rules=rules)
    table.start()
    leaver.gone = True
    table.send(0, table.seats[0].stop_now())
    table.pump()
    host = table.host.session
    while host.phase == "reveal" and table.time_out():
        table.pump()
    assert table.timed_out == [1]
    return table, leaver


# --- 1: an early reveal, then a seat that left ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("calabresella", 3), ("chiamata", 5)])
def test_a_seat_that_left_a_stopped_hand_takes_its_seat_back_and_the_next_hand_is_played(game, players):
    table, leaver = stopped_and_left(game, players)
    host = table.host.session
    assert host.phase == "seating" and host.absent == {1}
    (void,) = host.verdicts
    assert void.outcome is None and named(void) == {(1, ABSENT)}  # the stopper's cause cannot be settled here
    for node in every_node(table):  # nothing of the stopped hand is left behind
        assert node.complaint is None and node.secrets is None, node
    leaver.gone = False
    table.send(1, leaver.rejoin().messages)
    table.pump()
    assert host.phase not in ("seating", "aborted") and host.keys[1] == leaver.identity.public_bytes
    table.play(max_hands=2)
    void, played = host.verdicts
    assert played.hand == 1 and played.ok and played.outcome is not None
    agree(table)


@pytest.mark.slow
def test_a_seat_started_again_after_a_stopped_hand_takes_its_seat_back():
    """The same, with the seat's process killed: a new session from its key, its store and the transcript."""
    table, leaver = stopped_and_left("calabresella", 3)
    again, owed = TableSession.resume(1, leaver.identity, leaver.store, table.entries, name="seat 1")
    again.shared = table.shared
    table.seats[1] = again
    table.send(1, owed)  # its reveal, signed before it learnt of its time-out: a no-op now
    table.send(1, again.rejoin().messages)
    table.pump()
    host = table.host.session
    assert host.stale and not table.refused and not table.dropped
    assert host.phase not in ("seating", "aborted") and host.keys[1] == leaver.identity.public_bytes
    table.play(max_hands=2)
    assert [v.ok for v in host.verdicts] == [False, True]
    agree(table)


@pytest.mark.slow
def test_a_computer_player_takes_the_seat_left_in_a_stopped_hand():
    """With `retake`, a new key takes the seat: it never committed to the void hand and owes nothing for it."""
    table, leaver = stopped_and_left("calabresella", 3, rules={"retake": True})
    table.replacement = replacement_seat
    table.play(max_hands=2)
    host = table.host.session
    assert table.seats[1] is not leaver and host.keys[1] != leaver.identity.public_bytes
    assert [v.ok for v in host.verdicts] == [False, True]
    assert named(host.verdicts[0]) == {(1, ABSENT)}
    agree(table)


def test_a_stopper_whose_cause_its_seed_settles_is_named_though_another_seat_left():
    """Briscola: only a key share could have given seat 0 cause, and its own seed shows every
    share it got was right. It is named (a cheat: the table ends), and seat 1 for leaving."""
    for players in (2, 3):
        table, _ = stopped_and_left("briscola", players, rules={"retake": True})
        table.replacement = replacement_seat
        host = table.host.session
        assert host.phase == "aborted"
        (verdict,) = host.verdicts
        assert named(verdict) == {(0, CHEAT), (1, ABSENT)}
        stop = next(c for c in verdict.culprits if c.seat == 0)
        assert stop.reason == "stopped the hand without cause" and stop.entry == host.hand.stopped[1]
        assert host.hand.stopped[0] == 0 and stop.entry == host.hand.reveals[0][1]
        agree(table)


class TwoRuleWithheld(LaxSession):
    """Chiamata: a seat that may break the two rule (its chooser decides), and that then
    withholds its reveal for that hand."""

    state: dict = {}

    def make_reveal(self):
        if self.seat == self.state.get("cheat") and self.hand.number == self.state.get("hand"):
            return None
        return super().make_reveal()


def test_a_two_rule_cheat_that_withholds_its_seed_is_named_for_the_call():
    """A caller bids 2 and calls a low trump without its 2, then withholds its seed. Its call
    was refused at once (its proof of the 2 fails), so the partial audit names it as the
    cheat it is, not merely as a seat that left; nobody else is named."""
    state: dict = {}

    def chooser(seat):
        def choose(view, rng):
            if view.phase == "auction":
                lacking = [s for s in "DHSC" if Card("2", s) not in view.hand]
                low = [Card(r, s) for s in lacking for r in "4567" if Card(r, s) not in view.hand]
                if "cheat" not in state and low:
                    state.update(cheat=seat, hand=view.hand_number, called=low[0])
                    return Action(seat, "bid", rank="2")
                return Action(seat, "pass")
            if view.phase == "call":
                return Action(seat, "call", state["called"])
            return rng.choice(view.legal)

        return choose

    cls = type("Seat", (TwoRuleWithheld,), {"state": state})
    sessions = {s: cls(s, Identity.generate(), f"seat {s}") for s in range(5)}
    table = LocalTable("chiamata", 5, {}, choosers={s: chooser(s) for s in range(5)}, sessions=sessions)
    table.run(max_hands=1)
    host = table.host.session
    caller = state["cheat"]
    (ordered,) = table.refused
    assert ordered.refused.culprit == caller and ordered.refused.reason.startswith("two rule: its proof")
    (verdict,) = host.verdicts
    assert table.timed_out == [caller] and named(verdict) == {(caller, CHEAT), (caller, ABSENT)}
    assert host.phase == "aborted"
    agree(table)


# --- 2: a wrong sealed share, then a withheld reveal --------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("briscola", 2), ("briscola", 3), ("calabresella", 3)])
def test_a_wrong_sealed_share_then_a_withheld_reveal_is_named_as_the_cheat_it_is(game, players, tmp_path, capsys):
    path = tmp_path / "t.bin"
    sessions = seat_sessions(players, {0: WrongShareWithheld})
    table = LocalTable(game, players, {}, choosers=random_choosers(players), sessions=sessions, rules={"retake": True})
    table.replacement = replacement_seat
    log = TranscriptFile.create(path, table.host.table_id)
    table.on_entry = log.append
    table.run(max_hands=2)
    log.close()
    host = table.host.session
    cheat = table.seats[0]
    assert cheat.cheated and table.timed_out == [0]
    (complained,) = host.hand.findings[:1]  # the victim's complaint stopped the hand, naming seat 0 at once
    assert complained.seat == 0 and "does not match its committed key" in complained.reason
    assert host.hand.stopped is None  # by the complaint, not by an early reveal
    (verdict,) = host.verdicts
    assert named(verdict) == {(0, CHEAT), (0, ABSENT)}  # not the victim, and not as one that merely left
    wrong = next(c for c in verdict.culprits if c.reason == "sent a wrong key share")  # and its seed withheld
    assert wrong.entry == host.hand.share_entries[(0, 0)]
    assert host.phase == "aborted"
    agree(table)
    assert main(["verify", str(path)]) == 3
    report = capsys.readouterr().out
    assert report.rstrip().splitlines()[-1] == "culprits: seat 0", report


# --- 2b: a table whose rules evict a cheat (`replace_cheats`, set by `briscola host --bots-replace`) ---

EVICT = {"retake": True, "replace_cheats": True}


def evicted_and_replaced(table, cheat, played: int = 2):
    """The first hand named `cheat`'s seat a cheat: it is evicted (its key banned, the hand void,
    the seat empty), a computer player with a new key takes it, and the next hand is played."""
    host = table.host.session
    seat = cheat.seat
    first, second = host.verdicts[:2]
    assert seat in {c.seat for c in first.cheats} and first.outcome is None  # void: not scored
    assert cheat.identity.public_bytes in host.banned and cheat.evicted and not cheat.holds_seat()
    assert table.seats[seat] is not cheat and host.keys[seat] != cheat.identity.public_bytes
    assert second.hand == 1 and second.ok and second.outcome is not None
    assert host.outcomes == [second.outcome]  # the series counts the played hand only
    dealers = [e.dealer for e in table.host.events if isinstance(e, HandBegins)]
    assert dealers[0] == dealers[1]  # a void hand does not move the dealer
    assert len(host.verdicts) == played and host.phase != "aborted"
    for node in every_node(table):  # every node banned the same key, and holds the same series
        assert node.banned == host.banned and node.series.scores == host.series.scores, node
    agree(table)


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("briscola", 2), ("briscola", 3), ("calabresella", 3)])
def test_a_cheat_named_by_the_audit_is_evicted_and_the_table_plays_on(game, players, tmp_path, capsys):
    """With `replace_cheats`: a wrong sealed share, then a withheld reveal. The verdict names seat 0
    (the cheat and its absence); its seat is empty, its key banned; the cheat's own key cannot take
    it back (every node refuses that join: the host drops it); a computer player takes it with a new
    key, and the next hand is dealt, played and scored. `briscola verify` names seat 0 alone and
    audits the later hand (it passes)."""
    path = tmp_path / "t.bin"
    sessions = seat_sessions(players, {0: WrongShareWithheld})
    table = LocalTable(game, players, {}, choosers=random_choosers(players), sessions=sessions, rules=EVICT)
    log = TranscriptFile.create(path, table.host.table_id)
    table.on_entry = log.append
    table.run(max_hands=1)
    host, cheat = table.host.session, table.seats[0]
    assert cheat.cheated and table.timed_out == [0] and host.hand.findings[0].seat == 0
    (verdict,) = host.verdicts
    assert named(verdict) == {(0, CHEAT), (0, ABSENT)}
    assert host.phase == "seating" and host.absent == {0}
    for node in every_node(table):  # every node: the same verdict, the same empty seat, nothing left of the hand
        assert node.phase == "seating" and node.absent == {0}, node
        assert node.banned == {cheat.identity.public_bytes} and node.secrets is None, node
    assert cheat.evicted and cheat.rejoin().messages == []  # it sends nothing more
    back = sign_as(cheat, Join(cheat.identity.public_bytes, "seat 0"))
    for node in every_node(table):  # a host that ordered it would be named
        with pytest.raises(RemoteProtocolError, match="evicted") as refused:
            node.receive(entry_for(node, back, table.host))
        assert refused.value.culprit == "host"
    table.order(0, back)
    assert table.dropped[-1].culprit == 0 and "evicted" in table.dropped[-1].reason
    table.replacement = replacement_seat
    table.play(max_hands=2)
    log.close()
    evicted_and_replaced(table, cheat)
    assert main(["verify", str(path)]) == 3
    report = capsys.readouterr().out
    assert report.rstrip().splitlines()[-1] == "culprits: seat 0", report
    assert "FAIL hand 1: seat 0: " in report and "left or withheld its reveal" in report
    assert "sent a wrong key share" in report and "does not match its committed key" in report
    assert re.search(r"^ok   hand 2: all checks pass", report, re.M), report
    assert "takes the seat with a new key" in report


@pytest.mark.parametrize(
    "cheat, game, players", [(PlayUnheld, "briscola", 3), (WrongPublicShare, "briscola", 2), (BadKey, "chiamata", 5)]
)
@pytest.mark.slow
def test_a_cheat_refused_at_once_in_a_hand_is_evicted_and_the_table_plays_on(cheat, game, players):
    """Evidence the host keeps during a hand voids the hand, as a time-out does; with
    `replace_cheats` the verdict that names the seat evicts it, and the table goes on."""
    sessions = seat_sessions(players, {1: cheat})
    table = LocalTable(game, players, {}, choosers=random_choosers(players), sessions=sessions, rules=EVICT)
    table.outsiders.append(sessions[1])  # as in selfplay: its word counts for nothing
    table.replacement = replacement_seat
    table.run(max_hands=2)
    assert table.refused and {o.refused.culprit for o in table.refused} == {1}
    assert {(c.seat, c.kind) for c in table.host.session.verdicts[0].culprits} <= {(1, CHEAT), (1, ABSENT)}
    evicted_and_replaced(table, sessions[1])


def test_without_the_rule_a_cheat_still_ends_the_table():
    sessions = seat_sessions(3, {1: PlayUnheld})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions, rules={"retake": True})
    table.replacement = replacement_seat
    table.run()
    host = table.host.session
    assert host.phase == "aborted" and len(host.verdicts) == 1 and not host.banned
    assert all(node.phase == "aborted" for node in every_node(table))


def test_with_the_rule_a_cheat_outside_a_hand_still_ends_the_table():
    """A coin reveal that does not match its commitment: no hand to void, so the table stops."""
    sessions = seat_sessions(3, {2: BadCoin})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions, rules=EVICT)
    table.replacement = replacement_seat
    table.run()
    for node in every_node(table):
        assert node.phase == "aborted" and [c.seat for c in node.culprits] == [2] and not node.banned, node


@pytest.mark.slow
@pytest.mark.parametrize("cheat", ["wrong-share", "play-unheld"])
def test_selfplay_bots_replace_evicts_the_cheater_and_plays_on(cheat, tmp_path, capsys):
    path = tmp_path / "t.bin"
    # --deal-seed fixes hand 1; hand 2 is dealt with the new computer player's fresh key, so it may end 60-60
    args = ["selfplay", "--game", "briscola", "--cheat", cheat, "--bots-replace", "--hands", "2", "--seed", "1"]
    args += ["--deal-seed", "1"]
    assert main([*args, "--transcript", str(path)]) == 3
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == "culprits: seat 1", out
    assert "seat 1 is evicted for cheating" in out and "table closed after 2 hands" in out
    assert re.search(r"^hand 2: (winner \d|a draw), trump", out, re.M), out
    assert main(["verify", str(path)]) == 3
    report = capsys.readouterr().out
    assert report.rstrip().splitlines()[-1] == "culprits: seat 1", report
    assert re.search(r"^ok   hand 2: all checks pass", report, re.M), report


# --- 3: what reaches the host after the end ------------------------------------------------------


def test_a_message_after_the_end_of_the_table_names_nobody():
    """Seat 0's commit is refused (an unusable X25519 key) and ends the table before
    seat 1's commit, already on its way, is ordered: that one is dropped naming nobody."""
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=seat_sessions(2, {0: BadKey}))
    table.run()
    assert table.host.session.phase == "aborted"
    assert table.dropped and all(error.culprit is None for error in table.dropped)
    assert culprits_of(table) == ["seat 0"]


@pytest.mark.parametrize("game, players", [("briscola", 2), ("briscola", 4), ("calabresella", 3), ("chiamata", 5)])
def test_selfplay_bad_key_by_seat_0_names_seat_0_only(game, players, tmp_path, capsys):
    path = tmp_path / "t.bin"
    args = ["selfplay", "--game", game, "--players", str(players), "--cheat", "bad-key", "--cheater", "0"]
    assert main([*args, "--seed", "1", "--transcript", str(path)]) == 3
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == "culprits: seat 0", out
    assert "dropped a message from seat" not in out
    assert main(["verify", str(path)]) == 3
    report = capsys.readouterr().out
    assert report.rstrip().splitlines()[-1] == "culprits: seat 0", report


@pytest.mark.slow
def test_selfplay_bad_key_by_seat_0_from_a_real_command_line(tmp_path):
    path = tmp_path / "t.bin"
    done = subprocess.run(
        [
            *BRISCOLA,
            "selfplay",
            "--game",
            "briscola",
            "--cheat",
            "bad-key",
            "--cheater",
            "0",
            "--transcript",
            str(path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 3 and done.stdout.rstrip().splitlines()[-1] == "culprits: seat 0", done.stdout
    verified = subprocess.run([*BRISCOLA, "verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
    assert verified.returncode == 3 and verified.stdout.rstrip().splitlines()[-1] == "culprits: seat 0"


# --- real processes ------------------------------------------------------------------------------


def seat_process(children, table: Table, kind: str, name: str, seat: int, *extra: str) -> Child:
    """A stopping or cheating seat (tests/helpers/seat_process.py) joining `table`, as a process
    with its own data folder; the `children` fixture kills it at the end, as any other."""
    argv = [*SEAT_PROCESS, kind, table.address, CODE, name, str(seat), *extra]
    child = Child(name, argv, children.folder / name)
    children.started.append(child)
    table.clients.append(child)
    return child


def kill(child: Child, person: Human) -> None:
    """SIGKILL at a person's turn; its driver, held at that turn, is let go (it finds no process)."""
    child.proc.kill()
    child.proc.wait(WAIT)
    person.go.set()  # the same driver answers at once in the process started again, if any
    child.finish()


def verify_names(table: Table, expected: str) -> str:
    done = subprocess.run(
        [*BRISCOLA, "verify", str(table.transcript)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == expected, done.stdout
    return done.stdout


@pytest.mark.slow
def test_a_player_killed_in_a_stopped_hand_and_started_again_takes_its_seat_back(children, tmp_path):
    """Calabresella, three processes and the host's computer player: Cleo (a person, seat 1)
    is killed at her turn; then Stan (seat 0) stops the hand with an early reveal. Cleo owes
    her reveal, is timed out, and the hand is void. The same command again: she takes her
    seat back, the next hand is dealt and played (or passed by all), and the table ends."""
    table = Table(children, "calabresella", bots=1, extra=("--time-limit", "6"))
    flag = tmp_path / "stop-now"
    stan = seat_process(children, table, "stop", "Stan", 0, str(flag))
    person = Human(seed=2, hold_at=0)
    cleo = table.join("Cleo", seat=1, human=person)
    cleo.wait_for(r"^your turn: ")
    kill(cleo, person)
    flag.touch()
    stan.wait_for(r"^stopping the hand")
    table.host.wait_for(r"Cleo timed out")
    table.host.wait_for(r"hand 1 void")
    cleo = table.restart(cleo)  # the same command, the same data folder
    cleo.wait_for(r"you were timed out: taking your seat back")
    table.host.wait_for(r"Cleo is back \(seat 1\)")
    table.host.wait_for(r"hand 2: \S+ deals")
    assert stan.finish() == 0, children.report()
    assert cleo.finish() == 0, children.report()
    assert table.host.finish() == 0, children.report()
    # the computer players play at random: now and then all three pass, and the redeal ends the table
    assert re.search(r"^hand 2: (.*score|everybody passed, redeal)", table.host.text, re.M), table.host.tail()
    verify_names(table, "culprits: seat 1")  # she left (timed out); the stopper's cause is not settled here


@pytest.mark.slow
def test_a_computer_player_takes_a_seat_left_in_a_stopped_hand_and_plays_on(children, tmp_path):
    """The same stopped hand with --bots-replace: the host's computer player takes Cleo's seat
    (it never committed to the void hand: it owes nothing for it) and the table plays on."""
    table = Table(children, "calabresella", bots=1, extra=("--time-limit", "6", "--bots-replace"))
    flag = tmp_path / "stop-now"
    stan = seat_process(children, table, "stop", "Stan", 0, str(flag))
    person = Human(seed=2, hold_at=0)
    cleo = table.join("Cleo", seat=1, human=person)
    cleo.wait_for(r"^your turn: ")
    kill(cleo, person)
    flag.touch()
    table.host.wait_for(r"Cleo timed out")
    table.host.wait_for(r"a computer player takes seat 1")
    assert stan.finish() == 0, children.report()
    assert table.host.finish() == 0, children.report()
    # the computer players play at random: now and then all three pass and the hand is dealt again
    assert re.search(r"^hand [2-9]: (.*score|everybody passed, redeal)", table.host.text, re.M), table.host.tail()
    assert "Traceback" not in table.host.text
    verify_names(table, "culprits: seat 1")


@pytest.mark.slow
def test_a_wrong_sealed_share_then_a_withheld_reveal_over_the_network(children):
    """Briscola with --bots-replace: seat 0 seals the host's computer player a wrong key share and
    withholds its reveal. It is timed out, and the audit names it for the wrong share (the victim's
    seed opens the blob): a cheat, and on a --bots-replace table (rule `replace_cheats`) the cheat is
    evicted: its key is banned, the host's computer player takes its seat with a new key, and the
    next hand is played to its verdict. The host exits 3 (a cheat was named); `briscola verify`
    names seat 0 alone, and the later hand passes."""
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "3", "--bots-replace"))
    cheat = seat_process(children, table, "wrong-share-withheld", "Mallory", 0)
    table.host.wait_for(r"Mallory timed out")
    table.host.wait_for(r"Mallory is evicted for cheating")
    table.host.wait_for(r"a computer player takes seat 0")
    table.host.wait_for(r"^hand 2: .*score")
    assert table.host.finish() == 3, children.report()
    assert cheat.finish() != 0, children.report()  # its seat was given away: the host refused it
    assert "your seat was given to a computer player" in cheat.text, cheat.tail()
    assert "Traceback" not in table.host.text + cheat.text
    assert "sent a wrong key share" in table.host.text
    report = verify_names(table, "culprits: seat 0")
    assert "seat 0: sent a wrong key share" in report and "stopped the hand without cause" not in report
    assert re.search(r"^ok   hand 2: all checks pass", report, re.M), report
    assert re.search(r"^seat 0 key .* takes the seat with a new key", report, re.M), report
    assert "complete: the host closed the table" in report


@pytest.mark.slow
def test_a_player_timed_out_at_its_turn_and_started_again_takes_its_seat_back(children):
    """A person killed at her turn is timed out (the hand is void); started again, she has nothing
    left to send for that hand, and takes her seat back at once: the next hand is played."""
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "3"))
    person = Human(seed=6, hold_at=2)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: cleo.text.count("your turn: ") > 2, "her third turn (held)", kids=children)
    kill(cleo, person)
    table.host.wait_for(r"Cleo timed out")
    table.host.wait_for(r"hand 1 void")
    cleo = table.restart(cleo)
    cleo.wait_for(r"you were timed out: taking your seat back")
    assert cleo.finish() == 0, children.report()
    assert table.host.finish() == 0, children.report()
    assert re.search(r"^hand 2: .*score", table.host.text, re.M), table.host.tail()
    verify_names(table, "culprits: seat 0")
