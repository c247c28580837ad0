"""The table's keys under Pilot at 80x24 (issue 23): every card of a Calabresella hand
of 12 to 17 has a number the digits reach (two digits from 10), every option too."""

from __future__ import annotations

import pytest
from helpers.app import SIZE, patient_digits, prompt_of, turn_of, wait_for  # noqa: F401 (patient_digits: an autouse fixture)

from briscola_tui.tui.app import BriscolaApp

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)


def calabresella(deal_seed: int) -> BriscolaApp:
    return BriscolaApp({"game": "calabresella", "hands": 1}, seed=3, deal_seed=deal_seed, pace=0, level="easy")


async def test_card_twelve_of_a_calabresella_hand_is_chosen_by_its_number():
    """Pass, then in the play "1" "2" puts the cursor on card 12, "1" alone (once the wait is over)
    on card 1; the prompt says 1-12 and names the card."""
    app = calabresella(1)
    async with app.run_test(size=SIZE) as pilot:
        table = await turn_of(app, pilot, "choose", "auction")
        await pilot.press("1", "enter")  # pass
        table = await turn_of(app, pilot, "card")
        assert len(table.hand) == 12
        assert "1–12" in prompt_of(table) and "1-12 choose" in str(table.query_one("#keys").render())
        await pilot.press("1", "2")
        assert table.picker.cursor == 11
        assert table.style_.card_name(table.hand[11]) in prompt_of(table)
        await pilot.press("1")  # waits for a second digit, the cursor on card 1 meanwhile
        assert table.picker.cursor == 0 and "(or 10–12)" in prompt_of(table)
        await wait_for(pilot, lambda: table.picker.typed is None, "the wait for a second digit to end")
        assert "(or 10" not in prompt_of(table)
        await pilot.press("1", "0")
        assert table.picker.cursor == 9
        await pilot.press("1", "3")  # no card 13: said, and the cursor stays
        assert table.picker.cursor == 9 and "There is no card 13: type 1–12" in prompt_of(table)
        # Enter after a lone "1" takes card 1 at once: "1" then "2" is 12, never 1 then 2.
        await pilot.press("1", "enter")
        assert table.picker is None or table.picker.cursor == 0


async def test_cards_fifteen_and_sixteen_are_discarded_by_their_numbers():
    """Bid solo: the monte makes 16 cards; "1" "5", "1" "6", "2", "3" choose four, Enter discards them."""
    app = calabresella(5)
    async with app.run_test(size=SIZE) as pilot:
        await turn_of(app, pilot, "choose", "auction")
        await pilot.press("3", "enter")  # bid solo
        table = await turn_of(app, pilot, "discard")
        hand = table.hand
        assert len(hand) == 16 and "1–16" in prompt_of(table)
        await pilot.press("1", "5", "1", "6")
        assert table.picker.chosen == {14, 15}
        await pilot.press("1")  # a lone "1" toggles card 1 once the wait is over
        assert table.picker.chosen == {14, 15}
        await wait_for(pilot, lambda: table.picker.chosen == {0, 14, 15}, "card 1 toggled once the wait is over")
        await pilot.press("1", "right", "space")  # untoggle 1 (Right takes the "1" alone), toggle 2
        assert table.picker.chosen == {1, 14, 15}
        await pilot.press("right", "space", "enter")  # toggle 3, discard
        await wait_for(
            pilot,
            lambda: any(a.kind == "discard" and a.seat == 0 for a in table.view.history),
            "my discard",
        )
        discard = next(a for a in table.view.history if a.kind == "discard" and a.seat == 0)
        assert set(discard.cards) == {hand[1], hand[2], hand[14], hand[15]}


async def test_every_option_of_a_long_list_has_its_number():
    """The first Chiamata bid: pass and ten ranks, 11 options on one page; "1" "1" bids the 2."""
    app = BriscolaApp({"game": "chiamata", "hands": 1}, seed=3, deal_seed=2, pace=0, level="easy")
    async with app.run_test(size=SIZE) as pilot:
        table = await turn_of(app, pilot, "choose", "auction")
        items = table.picker.items
        count = len(items)
        assert count >= 10, "the first speakers have every rank to bid"
        assert f"1–{count}" in prompt_of(table)
        text = str(table.picker.query_one("#choices").render())
        assert "page" not in text and f"{count}  {items[-1].text}" in text
        await pilot.press(*str(count))
        assert table.picker.cursor == count - 1
