""" "Thinking" is for computer players: a person's turn at a network table shows as their
turn ("waiting for Bea..."), a computer player's as thinking once it has thought a while,
and a seat with no connection as away."""

from __future__ import annotations

from typing import cast

from briscola_tui.tables.controller import TableController
from briscola_tui.tui.frame import Marks
from briscola_tui.tui.screens.table import TableScreen
from briscola_tui.tui.screens.table_words import waiting_words
from briscola_tui.tui.widgets.cards import Style
from engine.view import SeatView


class People:
    """A table controller's `computers()` as a network table with people at seats 1 and 2
    and a computer player at seat 3."""

    def computers(self) -> frozenset[int]:
        return frozenset({3})


def view(turn: int) -> SeatView:
    names = ("Ada", "Bea", "Cy", "cpu3")
    return SeatView("briscola", 4, {}, 0, names, "play", {}, (0, 0, 0, 0), 0, False, (), turn=turn)


def test_a_person_is_never_shown_thinking_and_a_computer_player_is():
    screen = TableScreen(cast(TableController, People()), Style(True))
    screen.thinking, screen.thinking_since = 1, 0.0  # Bea's turn, long since
    assert screen._thinking_shown() is None
    screen.thinking = 3
    assert screen._thinking_shown() == 3


def test_the_waiting_line_names_a_persons_turn_a_computer_thinking_and_a_seat_away():
    assert waiting_words(view(1), Marks(), "...") == "waiting for Bea..."
    assert waiting_words(view(3), Marks(thinking=3), "...") == "cpu3 is thinking..."
    away = waiting_words(view(2), Marks(away=frozenset({2})), "...")
    assert away == "Cy is away (no connection): the table waits for them to come back..."
