"""The session's state machine as data (protocol/machine.py): every phase change in one table."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest

from protocol.errors import LocalProtocolError
from protocol.machine import CLOSED, HOST_MAY, INTERRUPTS, TRANSITIONS, WAITS_FOR, Machine, Move
from protocol.messages import HOST_KINDS, MessageKind
from protocol.phases import HAND_PHASES, TablePhase

PROTOCOL = Path(__file__).resolve().parent.parent / "protocol"


def test_the_table_names_only_phases_and_moves():
    phases, moves = set(get_args(TablePhase)), set(get_args(Move))
    assert {p for p, _ in TRANSITIONS} <= phases and set(TRANSITIONS.values()) <= phases
    assert {m for _, m in TRANSITIONS} == moves  # every move happens somewhere
    assert set(WAITS_FOR) == phases - set(CLOSED) and set(WAITS_FOR.values()) <= set(get_args(MessageKind))
    assert set(HOST_MAY) == set(HOST_KINDS)
    assert set(INTERRUPTS) == {"reveal", "complaint"}


def test_each_move_leads_to_one_phase():
    for move in get_args(Move):
        assert len({to for (_, m), to in TRANSITIONS.items() if m == move}) == 1, move


def test_every_phase_is_reached_from_the_first():
    reached, todo = {"table"}, ["table"]
    while todo:
        phase = todo.pop()
        for (at, _), to in TRANSITIONS.items():
            if at == phase and to not in reached:
                reached.add(to)
                todo.append(to)
    assert reached == set(get_args(TablePhase))


def test_a_move_not_in_the_table_is_refused_and_changes_nothing():
    machine = Machine()
    with pytest.raises(LocalProtocolError):
        machine.advance("committed")
    assert machine.phase == "table"
    assert machine.advance("opened") == "join" and machine.phase == "join"


def test_a_hand_goes_round():
    machine = Machine()
    for move in ("opened", "all joined", "coins committed", "hand starts", "committed", "step opened"):
        machine.advance(move)
    assert machine.phase == "deal" and machine.in_hand and machine.waits_for() == "shares"
    assert machine.interrupted_by("reveal") and machine.interrupted_by("complaint")
    for move in ("decision due", "hand played", "series over"):
        machine.advance(move)
    assert machine.closed and machine.waits_for() is None and not machine.host_may("evidence")


def test_closed_tables_move_no_more_but_to_abort():
    for phase in CLOSED:
        assert {m for (p, m) in TRANSITIONS if p == phase} == {"host refused falsely"}
    assert all(TRANSITIONS.get((p, "stopped")) == "reveal" for p in HAND_PHASES)


def test_the_phase_is_assigned_in_the_machine_only():
    """No module of protocol/ but machine.py sets a phase (h11's `_state.py`)."""
    for path in sorted(PROTOCOL.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr in ("phase", "_phase"):
                    assert path.name == "machine.py", f"{path.name}:{node.lineno} sets {target.attr}"
