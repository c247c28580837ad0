""" "Thinking" is for computer players: a person's turn at a network table shows as their
turn ("waiting for Bea..."), a computer player's as thinking once it has thought a while,
and a seat with no connection as away."""

from __future__ import annotations

import time

from briscola_tui.tables.controller import TableUpdate
from briscola_tui.tui.frame import THINKING_DELAY, Marks, marks_of
from briscola_tui.tui.screens.table_words import waiting_words
from engine.view import SeatView


def view(turn: int) -> SeatView:
    names = ("Ada", "Bea", "Cy", "cpu3")
    return SeatView("briscola", 4, {}, 0, names, "play", {}, (0, 0, 0, 0), 0, False, (), turn=turn)


def update(moving: int) -> TableUpdate:
    """A network table with people at seats 1 and 2 and a computer player at seat 3."""
    return TableUpdate(view(moving), moving=moving, computers=frozenset({3}))


def test_a_person_is_never_shown_thinking_and_a_computer_player_is_after_a_while():
    assert marks_of(update(1), 10.0, "", False).thinking is None  # Bea's turn, long since
    assert marks_of(update(3), 10.0, "", False).thinking == 3
    assert marks_of(update(3), THINKING_DELAY / 2, "", False).thinking is None  # a quick one shows nothing


def test_the_clock_counts_down_to_the_deadline_it_is_given():
    ends = time.monotonic() + 30.4
    clock = marks_of(TableUpdate(view(1), deadline=(1, ends)), 0.0, "", False).clock
    assert clock is not None and clock[0] == 1 and 29 <= clock[1] <= 30
    past = marks_of(TableUpdate(view(1), deadline=(1, time.monotonic() - 5)), 0.0, "", False).clock
    assert past == (1, 0)


def test_the_waiting_line_names_a_persons_turn_a_computer_thinking_and_a_seat_away():
    assert waiting_words(view(1), Marks(), "...") == "waiting for Bea..."
    assert waiting_words(view(3), Marks(thinking=3), "...") == "cpu3 is thinking..."
    away = waiting_words(view(2), Marks(away=frozenset({2})), "...")
    assert away == "Cy is away (no connection): the table waits for them to come back..."
