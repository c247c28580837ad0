"""What the screens write in a game's own words and units (issue 46): Calabresella's tricks in
thirds in the summary, the log and headless; the replay viewer's header and called card; the
prompt once a card is played."""

from __future__ import annotations

import re

import pytest
from helpers.app import SIZE, app_for, play_hand, wait_for

from briscola_tui.tui.app import BriscolaApp


def under_indent(lines: list[str], width: int, indent: str = " ") -> bool:
    """Every line fits `width` and each line after the first goes on under a deeper indent
    (none wraps back to the first column)."""
    first, rest = lines[0], lines[1:]
    return (
        all(len(line) <= width for line in lines)
        and first.startswith(indent)
        and all(line.startswith(indent + "  ") for line in rest)
    )


@pytest.mark.slow
async def test_the_calabresella_summary_counts_every_trick_in_thirds():
    app = app_for("calabresella", 3)
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot)
        text = str(app.screen.query_one("#summary-text").render())
    assert "of 35" in text  # the header counts thirds...
    tricks = re.findall(r"takes? the trick \(.*\) for (\d+) (\w+)", text)
    assert len(tricks) == 12
    assert {unit for n, unit in tricks} <= {"third", "thirds"}, tricks  # ...and so does every trick


@pytest.mark.slow
async def test_the_calabresella_summary_wraps_its_long_lines_under_their_indent_at_80_columns():
    from briscola_tui.tui.screens.summary import SummaryScreen

    app = app_for("calabresella", 3)
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot)
        assert isinstance(app.screen, SummaryScreen)
        text = app.screen.query_one("#summary-text")
        await wait_for(pilot, lambda: text.content_region.width > 0, "the summary laid out")
        width = text.content_region.width
        lines = str(text.render()).split("\n")
    took = next(i for i, line in enumerate(lines) if "thirds of 35" in line)
    said = [lines[took], *(line for line in lines[took + 1 : took + 3] if line.startswith("    "))]
    assert "needed: success" in " ".join(said) or "needed: failure" in " ".join(said)
    assert under_indent(said, width, "  "), said


@pytest.mark.slow
async def test_the_settings_help_wraps_under_its_indent_at_80_columns():
    from briscola_tui.tui.screens.settings import ROWS, SettingsScreen

    app = BriscolaApp(None, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SettingsScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        for _row in range(len(ROWS)):  # each setting's help in turn
            await pilot.pause()
            help_ = app.screen.query_one("#setup-help")
            explained = str(help_.render()).split("\n saved in")[0]  # (the settings file's place under it)
            texts = re.split(r"\n(?=\s\S)", explained)  # (the club's: why none can be used, a text of its own)
            assert all(under_indent(text.split("\n"), help_.content_region.width) for text in texts), explained
            await pilot.press("down")


def test_italian_bids_say_the_rank_as_italian_players_do(italian):
    from briscola_tui.render import render
    from briscola_tui.tui.widgets.cards import Style
    from engine.actions import Action
    from protocol.events import Acted

    def said(action: Action, style: Style | None = None) -> str:
        return render(Acted(action), style or Style(), ("Ada", "Bea"))

    assert said(Action(1, "bid", rank="Q")) == "Bea: offro donna"
    assert said(Action(1, "bid", rank="Q"), Style(names="italian")) == "Bea: offro cavallo"
    assert said(Action(1, "bid", rank="A")) == "Bea: offro asso"
    assert said(Action(1, "bid", rank="3")) == "Bea: offro 3"  # (a number as on the cards)
    assert Style().action(Action(0, "bid", rank="K")) == "offro re"  # the auction's choices


def test_english_bids_keep_the_rank_letters():
    from briscola_tui.tui.widgets.cards import Style
    from engine.actions import Action

    assert Style().action(Action(0, "bid", rank="K")) == "bid K"
    assert Style().action(Action(0, "bid", rank="2", target=70)) == "bid 2 target 70"


@pytest.mark.slow
async def test_once_a_card_is_played_the_prompt_says_so_and_the_hand_lets_it_go():
    from helpers.app import prompt_of, turn_of

    from briscola_tui.tui.widgets.hand import Hand

    app = app_for("briscola", 2)
    async with app.run_test(size=SIZE) as pilot:
        table = await turn_of(app, pilot, "card")
        card = table.hand[0]
        play = next(a for a in table.view.legal if a.card == card)
        table.act(play)  # as Enter does; the table's answer comes after this frame
        sent_prompt, sent_hand = prompt_of(table), table.query_one("#hand", Hand).cards
        await wait_for(pilot, lambda: card not in table.view.hand, "the view after my card")
    assert sent_prompt == f"playing {table.style_.card(card)}…"
    assert card not in sent_hand and len(sent_hand) == 2  # going out, not still in my hand


@pytest.mark.slow
async def test_at_200x60_the_auction_shows_each_seats_bids_one_under_another():
    from helpers.app import turn_of

    from briscola_tui.render import bid_words
    from briscola_tui.tui.widgets.seats import SeatsPanel

    app = app_for("chiamata", 5)
    async with app.run_test(size=(200, 60)) as pilot:
        table = await turn_of(app, pilot, "choose", "auction")
        for turn in (2, 3):  # a bid each time: the auction goes round again to me
            said = len(table.view.auction)
            await pilot.press("2", "enter")
            asked = lambda said=said: table.mode == "choose" and len(table.view.auction) >= said + 2  # noqa: E731
            await wait_for(pilot, asked, f"my bid {turn}")
        await pilot.pause()
        rows = str(table.query_one(SeatsPanel).render()).split("\n")
        auction = table.view.auction
    twice = {a.seat for a in auction if sum(b.seat == a.seat for b in auction) >= 2}
    assert twice
    for seat in twice:
        first, last = (bid_words(a, table.style_) for a in [a for a in auction if a.seat == seat][-2:])
        stacked = [
            (i, col)
            for i in range(1, len(rows))
            for col in range(len(rows[i]))
            if rows[i][col:].startswith(last) and rows[i - 1][col : col + len(first)] == first
        ]
        assert stacked, (seat, first, last)  # the bid before, just above the last, where its card goes


def test_a_wrapped_line_breaks_a_clause_a_line_and_leaves_no_word_alone():
    from briscola_tui.tui.widgets.fit import hanging

    said = "four colours (spades plain, hearts red, diamonds blue, clubs green) instead of two"
    assert hanging(said, 80) == [
        " four colours (spades plain, hearts red, diamonds blue, clubs green) instead",
        "   of two",
    ]
    lost = "connection lost (reset); trying 127.0.0.1:40123 again for up to 120 s"
    assert hanging(lost, 51) == [" connection lost (reset);", "   trying 127.0.0.1:40123 again for up to 120 s"]
    assert hanging("short", 80) == [" short"]
