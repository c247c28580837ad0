"""The table in a terminal with room (issue 35, item 1): the layout chosen from the size, the
log's lines wrapped again when the terminal grows, and a resize mid-hand that keeps the game
(the hand, the trick and the seats as the view has them) until the hand's end."""

from __future__ import annotations

import pytest
from helpers.app import app_for, play_hand, table_of, wait_for
from rich.text import Text

from briscola_tui.tui.frame import shown_hand
from briscola_tui.tui.screens.summary import SummaryScreen
from briscola_tui.tui.screens.table_layout import layout_for
from briscola_tui.tui.widgets.cards import Style
from briscola_tui.tui.widgets.faces import LARGE, MEDIUM, SMALL, face_lines
from briscola_tui.tui.widgets.ring import Spot, ring_lines
from briscola_tui.tui.widgets.seats import SeatsPanel, seat_name
from briscola_tui.tui.widgets.tablelog import TableLog
from engine.cards import Card


def test_80x24_keeps_its_layout_and_room_brings_the_ring_and_larger_cards():
    for width, height in ((80, 24), (99, 60), (200, 29)):  # under 100x30: the 80x24 table
        assert not layout_for(width, height).ring and layout_for(width, height).face is SMALL
    assert layout_for(100, 30).ring and layout_for(100, 30).face is SMALL
    assert layout_for(120, 40).face is MEDIUM and layout_for(200, 60).face is LARGE
    widths = [layout_for(w, 60).log_width for w in (80, 100, 120, 160, 200, 300)]
    assert widths == sorted(widths) and widths[0] == 28 and widths[-1] == widths[-2]


@pytest.mark.parametrize("face", [SMALL, MEDIUM, LARGE])
def test_a_face_is_its_size_with_the_rank_and_suit(face):
    lines = face_lines(Card("A", "S"), face, Style())
    assert [line.cell_len for line in lines] == [face.width] * face.height
    assert "A♠" in "".join(line.plain for line in lines)
    ascii_lines = face_lines(Card("K", "H"), face, Style(ascii=True))
    assert all(line.plain.isascii() for line in ascii_lines) and "KH" in ascii_lines[1].plain


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_ring_places_every_seat_and_card_without_overlap(players):
    """Each seat's name and card show whole, mine in the last rows, in 67x17 (100x30's room)."""
    spots = [Spot((Text(f"Name{i}"), Text("3 cards"), Text("0pt")), Card("A234567JQK"[i], "S")) for i in range(players)]
    lines = ring_lines(spots, 67, 17, SMALL, Style())
    assert lines is not None and all(line.cell_len == 67 for line in lines)
    text = "\n".join(line.plain for line in lines)
    for i in range(players):
        assert text.count(f"Name{i}") == 1 and text.count(f"{'A234567JQK'[i]}♠") == 1
    assert f"Name{players - 1}" in lines[-3].plain  # mine at the bottom
    assert ring_lines(spots, 40, 8, SMALL, Style()) is None  # no room: the seats panel's lines


def seats_shown(screen) -> str:
    return str(screen.query_one(SeatsPanel).render())


def assert_shows_the_view(screen) -> None:
    """The hand, the trick and every seat as the view has them."""
    view = screen.view
    hand = screen.picker.query_one("Hand") if screen.picker is not None and screen.picker.SHOWS_HAND else None
    hand = hand or screen.query_one("#hand")
    assert hand.cards == shown_hand(view)
    shown = seats_shown(screen)
    for seat in range(view.players):
        assert seat_name(view, seat)[:6] in shown
    for card in view.trick:
        assert screen.style_.card(card) in shown


@pytest.mark.slow
async def test_the_log_wraps_its_lines_again_when_the_terminal_grows():
    app = app_for("briscola", 4, ascii=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).picker is not None, "my turn")
        log = table_of(app).query_one(TableLog)
        await wait_for(pilot, lambda: len(log.lines) > len(log.kept), "a line wrapped at 80 columns")
        await pilot.resize_terminal(200, 60)
        await wait_for(pilot, lambda: len(log.lines) == len(log.kept), "every line on one row at 200 columns")
        assert [strip.text.rstrip() for strip in log.lines] == [line.plain for line in log.kept]
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: len(log.lines) > len(log.kept), "the lines wrapped again at 80")
        assert all(strip.cell_length <= log.scrollable_content_region.width for strip in log.lines)


@pytest.mark.slow
async def test_a_resize_mid_hand_keeps_the_game_to_its_end():
    app = app_for("briscola", 4, ascii=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).picker is not None, "my turn")
        screen = table_of(app)
        await pilot.press("1", "enter")  # a card on the table, then my next turn, mid-hand
        await wait_for(pilot, lambda: screen.picker is not None and len(screen.view.tricks) >= 1, "a later turn")
        await pilot.resize_terminal(200, 60)
        await wait_for(pilot, lambda: screen.query_one(SeatsPanel).ring is LARGE, "the ring at 200x60")
        await pilot.pause(0.1)
        assert_shows_the_view(screen)
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: screen.query_one(SeatsPanel).ring is None, "one line a seat at 80x24")
        await pilot.pause(0.1)
        assert_shows_the_view(screen)
        await play_hand(app, pilot)
        assert isinstance(app.screen, SummaryScreen)
        assert screen.view.last_hand is not None and screen.view.last_hand.ok


@pytest.mark.slow
async def test_a_click_on_a_larger_card_picks_that_card():
    """At 200x60 the hand's cards are LARGE boxes centred under the seats: a click on the middle
    of the second box selects the second card, a second click plays it."""
    app = app_for("briscola", 2, ascii=None)
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        screen = table_of(app)
        hand = screen.picker.query_one("Hand")
        await wait_for(pilot, lambda: hand.face() is LARGE and hand.indent(LARGE) > 0, "the hand's larger cards")
        second = hand.indent(LARGE) + (2 + LARGE.width + 1) + 2 + LARGE.width // 2
        await pilot.click(hand, offset=(second, LARGE.height // 2))
        await wait_for(pilot, lambda: screen.picker is not None and screen.picker.cursor == 1, "card 2 selected")
        card = screen.hand[1]
        await pilot.click(hand, offset=(second, LARGE.height // 2))
        await wait_for(pilot, lambda: any(a.seat == 0 and a.card == card for a in screen.view.history), "card 2 played")
