"""The offline table's pace: a computer player's move shows `pace` seconds after the last thing
the person saw, its search and the protocol's work counted in them (no timing: a fake clock)."""

from __future__ import annotations

from briscola_tui.tables import offline
from briscola_tui.tables.offline import OfflineTable, Result


class FakeClock:
    """offline.py's `time`: a clock that moves only when the table sleeps or a player 'thinks'."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_the_pace_runs_while_the_computer_player_thinks(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(offline, "time", clock)
    thought = []

    def slow(view, rng):  # each move 'takes' 0.25 s, then a second one 0.5 s, and so on
        clock.now += 0.25 * (1 + len(thought) % 2)
        thought.append(view.seat)
        return view.legal[0]

    table = OfflineTable(
        "briscola", 4, "normal", 1, seed=1, deal_seed=1, pace=0.4, choosers=dict.fromkeys((1, 2, 3), slow)
    )
    result = table.advance()
    while result is Result.TURN and len(thought) < 6:
        result = table.advance(table.me.seat_view().legal[0])
    assert len(thought) >= 4
    # a 0.25 s move sleeps the 0.15 s left of its pace; a 0.5 s one does not sleep at all
    assert all(abs(s - 0.15) < 1e-9 for s in clock.sleeps)
    assert 0 < len(clock.sleeps) <= (len(thought) + 1) // 2


def test_no_pace_no_sleep(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(offline, "time", clock)
    table = OfflineTable("briscola", 2, "normal", 1, seed=1, deal_seed=1, pace=0)
    for _ in range(5):
        if table.advance(table.me.seat_view().legal[0] if table.me.my_turn() else None) is not Result.TURN:
            break
    assert clock.sleeps == []
