"""The table's updates reach the screen through a mailbox: at most one waits, and what comes
meanwhile merges into it without losing an event or a hand's end (a busy table or a slow
terminal cannot fill the screen's queue)."""

from __future__ import annotations

from briscola_tui.notes import Said
from briscola_tui.tables.controller import Mailbox, TableUpdate
from engine.view import SeatView


def view(turn: int) -> SeatView:
    return SeatView("briscola", 2, {}, 0, ("Ada", "Bo"), "play", {}, (0, 0), 0, False, (), turn=turn)


def test_updates_that_come_while_one_waits_merge_into_it_and_the_screen_is_told_once():
    told = []
    box = Mailbox(lambda: told.append(1))
    box.put(TableUpdate(view(1), (Said("a"),), hand_over=True))
    box.put(TableUpdate(view(0), (Said("b"),), asked=True))
    box.put(TableUpdate(view(0), (Said("c"),), asked=True, away=frozenset({1})))
    assert told == [1]
    update = box.take()
    assert update is not None
    assert [e.text for e in update.events] == ["a", "b", "c"]  # every event, in order
    assert update.hand_over and update.asked and update.away == {1}  # the hand's end kept, the latest table
    assert update.view.turn == 0
    assert box.take() is None
    box.put(TableUpdate(view(1)))
    assert told == [1, 1]  # taken: the next one tells again
