"""The table's updates reach the screen through a mailbox: at most one waits, and what comes
meanwhile merges into it without losing an event or a hand's end (a busy table or a slow
terminal cannot fill the screen's queue)."""

from __future__ import annotations

import asyncio

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


async def test_a_decision_taken_on_the_screen_before_the_client_awaits_it_is_not_lost():
    # The screen shows a question as soon as it is put: a quick player (or a test's keys) may
    # answer before the client awaits the answer; that answer is the one taken.
    from briscola_tui.tables.screen_person import ScreenPerson
    from engine.state import Action

    person = ScreenPerson(lambda: None)
    person.prompt(["play 7S"])
    played = Action(0, "play")
    person.deliver(played)
    assert await asyncio.wait_for(person.answer(), 5) is played  # (before: waited for ever)
    person.prompt(["play 3C"])  # the next question: the answer gone by is not kept for it
    assert person.decision is not None and not person.decision.done()
