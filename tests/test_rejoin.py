"""A person's seat over the network, as real `briscola` processes on 127.0.0.1 (issue 46):

1. a move typed at a headless `join` while it is not that seat's turn is answered at once
   (not your turn, whose it is or what the table waits for, the line dropped), in the
   player's language, and is never played at a later turn;
2. a player killed mid-hand and started again with the same command is told the hand so far
   (the trump, the tricks taken, what is on the table) before its turn: headless as lines, in
   the app in the table's log.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
from pathlib import Path

import pytest
from helpers.home import terminal_env
from helpers.network import BRISCOLA, CODE, Child, Human, Table, wait_until
from helpers.tmux import capture, session_name, tmux

from briscola_tui.net.asking import not_asked
from briscola_tui.net.seat_copy import this_hand
from engine.cards import Card
from engine.state import Action
from protocol.events import Acted, Dealt, Drawn, FaceUp, HandBegins, HandScored, TrickTaken

CARD = re.compile(r"\b[2-7AJQK][SHDC]\b")
PROMPT = re.compile(r"^(your turn|tocca a te): (.*)$")


def test_the_hand_so_far_is_the_last_hand_begun_with_each_trick_taken_in_one_line():
    """What a seat coming back is told: not the hands before, not the plays of a trick taken
    (its line names the cards), but the deal, the trump, the draws and the cards on the table."""

    def play(seat: int, card: str) -> Acted:
        return Acted(Action(seat, "play", card=Card.parse(card)), (Card.parse(card),))

    cards = tuple(map(Card.parse, ("3S", "KH", "7D")))
    before = [HandBegins(0, 0), Dealt(1, cards), play(1, "AS"), play(0, "2S"), TrickTaken(1, cards[:2], 11)]
    before.append(HandScored(0, (("winner", 1),), (70, 50), (0, 1)))
    now = [HandBegins(1, 1), Dealt(0, cards), FaceUp(Card.parse("4H"), "H"), play(0, "3S"), play(1, "KH")]
    now += [TrickTaken(0, cards[:2], 14), Drawn(((0, Card.parse("JC")), (1, None))), play(0, "7D")]
    assert this_hand(before + now) == [*now[:3], *now[5:]]
    assert this_hand(before[:2]) == before[:2] and this_hand([]) == []


def test_a_line_typed_before_the_table_is_reached_is_told_so():
    assert not_asked(None, (), "play 3S") == (
        'not your turn: you are not at the table yet ("play 3S" is dropped: type your move when asked)'
    )


class Typist:
    """A person at a headless seat: answers each prompt (in any language) with a move offered,
    never one that plays `avoid`; `played` holds the cards it chose."""

    def __init__(self) -> None:
        self.avoid: str | None = None
        self.played: list[str] = []

    def __call__(self, child: Child, line: str) -> None:
        found = PROMPT.match(line)
        if found is None:
            return
        choices = found.group(2).split(" | ")
        choice = next((c for c in choices if self.avoid is None or not c.endswith(" " + self.avoid)), choices[0])
        self.played.append(choice.split()[-1])
        _type(child, choice)


def _type(child: Child, line: str) -> None:
    try:
        child.proc.stdin.write(line + "\n")
        child.proc.stdin.flush()
    except (OSError, ValueError):  # killed meanwhile
        pass


@pytest.mark.slow
def test_a_move_typed_out_of_turn_is_answered_at_once_and_never_played_later(children, monkeypatch):
    """Ann (headless, in Italian) types a card she holds while Bob is to play: she is told at
    once, in Italian, that it is Bob's turn and the line is dropped; at her next turn that card
    is not played. Bob, in English, types a move before the hand is dealt: told so at once, and
    his first move is the one he chooses then."""
    table = Table(children, "briscola", players=2, bots=0)
    ann_keys, bob_keys = Typist(), Human(seed=1, hold_at=0)  # Bob holds at his first turn
    monkeypatch.setenv("LANGUAGE", "it")
    ann = table.join("Ann", seat=0, human=ann_keys)
    monkeypatch.delenv("LANGUAGE")
    bob = table.join("Bob", seat=1, human=bob_keys)
    _type(bob, "play AS")  # at once: no hand is dealt yet
    bob.wait_for(r'^not your turn: .+ \("play AS" is dropped: type your move when asked\)$')
    bob.wait_for(r"^your turn: ")  # Bob is to play now, and holds
    dealt = CARD.findall(ann.wait_for(r"^ricevi (.*)$").group(1))
    # Bob is to play (he holds): if Ann led, once her own move is back from the host (typed
    # before that, the line is answered as a move already on its way to the host).
    wait_until(
        lambda: len(re.findall(r"(?m)^tocca a te: ", ann.text)) == len(re.findall(r"(?m)^Ann: gioco ", ann.text)),
        "Ann's own move taken in",
        kids=children,
    )
    card = next(c for c in dealt if c not in ann_keys.played)  # one Ann holds
    ann_keys.avoid = card
    _type(ann, f"gioca {card}")
    ann.wait_for(rf"^non è il tuo turno: tocca a Bob \(«gioca {card}» è scartata: scrivi la mossa quando tocca a te\)$")
    plays = len(re.findall(r"(?m)^Ann: play ", table.host.text))
    bob_keys.go.set()
    wait_until(lambda: len(re.findall(r"(?m)^Ann: play ", table.host.text)) > plays, "Ann's next move", kids=children)
    after = re.findall(r"(?m)^Ann: play (\S+)$", table.host.text)[plays]
    assert after != card and after == ann_keys.played[plays], table.host.tail()
    for child in (ann, bob, table.host):  # (Ann says the end in Italian)
        assert child.finish() == 0, children.report()
    assert "not a move" not in bob.text and "mossa non valida" not in ann.text
    assert re.search(r"(?m)^il tavolo è finito: punteggi ", ann.text), ann.tail()


@pytest.mark.slow
def test_a_headless_player_killed_mid_hand_is_told_the_hand_so_far_before_its_turn(children):
    """Killed (SIGKILL) after four moves and started again with the same command: before its
    first "your turn" the player reads the trump and the tricks taken, the plays of a trick
    taken said once in its trick's line, then the hand goes on to the end."""
    table = Table(children, "briscola", players=2, bots=1)
    person = Human(seed=3, delay=0.12)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 4, "four moves", kids=children)
    cleo.proc.kill()
    cleo.finish()
    cleo = table.restart(cleo)
    cleo.wait_for(r"^your turn: ")
    before = cleo.text.split("\nyour turn: ")[0]
    assert re.search(r"(?m)^hand 1: .* deals?$", before), cleo.tail()
    trump = re.search(r"(?m)^the face-up card is ([2-7AJQK][SHDC]): trump ([SHDC]) \(\w+\)$", before)
    assert trump is not None, cleo.tail()
    taken = re.findall(r"(?m)^(?:Cleo|cpu1) takes? the trick \((\S\S) (\S\S)\) for ", before)
    assert len(taken) >= 3, cleo.tail()
    for cards in taken:  # each play of a trick taken is in the trick's line, not on a line of its own
        for card in cards:
            assert not re.search(rf"(?m)^(Cleo|cpu1): play {card}$", before), cleo.tail()
    assert before.index("at the table: ") < before.index("the face-up card is")
    table.finish()


def _pane(name: str, argv: list[str], home: Path) -> None:
    """`argv` in a tmux session of its own at 120x40, the process itself the pane's (exec)."""
    env = f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none BRISCOLA_HOME={home}"
    shell = f"exec env {env} PYTHONPATH={os.getcwd()} {shlex.join(argv)}"
    tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", os.getcwd(), shell)


def _log(name: str) -> str:
    """The table's log as the pane shows it (right of the seats), its wrapped lines joined."""
    lines = [line.split("│", 1)[1].strip() for line in capture(name).splitlines() if "│" in line]
    return " ".join(line for line in lines if line)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_app_killed_mid_hand_and_started_again_shows_the_hand_so_far_in_its_log(children):
    """Cleo plays in the app (tmux) against a headless host's computer player; killed after a
    few tricks and started again with the same command, her table's log shows the hand's lines
    (the trump, the tricks taken) before anything more is played."""
    table = Table(children, "briscola", players=2, bots=1)
    join = [*BRISCOLA, "join", table.address, "--code", CODE, "--name", "Cleo", "--retry", "60"]
    cleo = session_name("briscola-cleo")
    try:
        _pane(cleo, join, children.folder / "cleo")
        for _trick in range(3):
            wait_until(lambda: "Play a card" in capture(cleo), "Cleo's turn", kids=children)
            tmux("send-keys", "-t", cleo, "1", "Enter")
            wait_until(lambda: "Play a card" not in capture(cleo), "the card played", kids=children)
        wait_until(lambda: re.search(r"takes? the trick \(", _log(cleo)) is not None, "a trick taken", kids=children)
        pid = int(tmux("list-panes", "-t", cleo, "-F", "#{pane_pid}").split()[0])
        os.kill(pid, signal.SIGKILL)
        tmux("kill-session", "-t", cleo, check=False)
        _pane(cleo, join, children.folder / "cleo")  # the same command, the same data folder
        wait_until(lambda: "Play a card" in capture(cleo), "Cleo's turn, again", kids=children)
        wait_until(
            lambda: "face-up card is" in _log(cleo) and re.search(r"takes? the trick \(", _log(cleo)) is not None,
            "the trump and the tricks taken in the log",
            kids=children,
        )
    finally:
        tmux("kill-session", "-t", cleo, check=False)
