"""The rules where they bite, under Pilot at 80x24 (issue 23): the Chiamata two rule
explained in one line when it offers a call, and every refused choice saying why
(a card, a call, a discard, a target, a number with nothing under it)."""

from __future__ import annotations

import pytest
from helpers.app import SIZE, patient_digits, prompt_of, turn_of, wait_for  # noqa: F401 (patient_digits: an autouse fixture)

from briscola_tui.tables.offline import OfflineTable
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.table import TableScreen

pytestmark = pytest.mark.slow  # (every test here: real processes, the app, or seconds of work)


def passer(view, rng):
    return next(a for a in view.legal if a.kind == "pass")


def chiamata_alone(**options) -> OfflineTable:
    """Chiamata where every computer player passes: I am dealt 2♥ and not 4♥ (deal seed 1)."""
    return OfflineTable(
        "chiamata",
        5,
        "easy",
        1,
        seed=1,
        deal_seed=1,
        options=options or None,
        choosers=dict.fromkeys(range(1, 5), passer),
    )


async def bid(pilot, table, text: str) -> None:
    number = 1 + [item.text for item in table.picker.items].index(text)
    await pilot.press(*str(number), "enter")


async def test_the_two_rule_is_explained_when_it_offers_a_call():
    app = BriscolaApp(None, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(TableScreen(chiamata_alone(), app.style_))
        table = await turn_of(app, pilot, "choose", "auction")
        rule = table.picker.query_one("#rule")
        assert not rule.display  # (the auction: no rule to explain)
        await bid(pilot, table, "bid 2")
        table = await turn_of(app, pilot, "choose", "call")
        texts = [item.text for item in table.picker.items]
        assert "call 4♥ (two rule)" in texts and "call 2♥ (yours: you play alone)" in texts  # I hold the 2♥
        line = str(rule.render())
        assert rule.display and line.startswith(" Two rule: you hold 2♥") and "4♥" in line and "partner" in line
        assert len(line) <= 80


async def call_grid_after_a_bid_of_j(app, pilot) -> TableScreen:
    """Chiamata with `call: at_least`, the others passing: I bid J, and the call grid is mine."""
    app.push_screen(TableScreen(chiamata_alone(call="at_least"), app.style_))
    table = await turn_of(app, pilot, "choose", "auction")
    await bid(pilot, table, "bid J")
    return await turn_of(app, pilot, "grid", "call")


async def test_a_call_refused_says_the_rule():
    """`call: at_least` after a bid of J: the grid of 20 callable cards; 7♠ is refused, and why."""
    app = BriscolaApp(None, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await call_grid_after_a_bid_of_j(app, pilot)
        await pilot.press(*["right"] * 5)  # A 3 K Q J 7: the 7 of spades
        await pilot.press("enter")
        assert table.mode == "grid"
        assert prompt_of(table) == "7♠ may not be called: the called card must be of the bid rank or higher (J), not 7♠"


async def test_a_card_refused_says_follow_suit():
    """Calabresella: a card of another suit than the one led, while I hold one of it."""
    app = BriscolaApp({"game": "calabresella", "hands": 1}, seed=3, deal_seed=1, pace=0, level="easy")
    async with app.run_test(size=SIZE) as pilot:
        table = await turn_of(app, pilot, "choose", "auction")
        await pilot.press("1", "enter")  # pass
        while True:
            table = await turn_of(app, pilot, "card")
            v = table.view
            playable = {a.card for a in v.legal}
            refused = [i for i, card in enumerate(table.hand) if card not in playable]
            if refused:
                break
            played = len(v.tricks), len(v.trick)
            await pilot.press(*str(table.hand.index(sorted(playable)[0]) + 1), "enter")
            await wait_for(
                pilot, lambda t=table, p=played: (len(t.view.tricks), len(t.view.trick)) != p, "my card played"
            )
        led = table.style_.suit(v.trick[0].suit)
        await pilot.press(*str(refused[0] + 1), "enter")
        card = table.style_.card(table.hand[refused[0]])
        assert prompt_of(table) == f"{card} may not be played: {led} were led and you hold one: follow suit"
        await pilot.press("right")  # the next key clears it
        assert "may not be played" not in prompt_of(table)


async def test_a_discard_of_the_wrong_size_and_a_number_with_no_card_say_why():
    app = BriscolaApp({"game": "calabresella", "hands": 1}, seed=3, deal_seed=5, pace=0, level="easy")
    async with app.run_test(size=SIZE) as pilot:
        table = await turn_of(app, pilot, "choose", "auction")
        await pilot.press("9")
        assert prompt_of(table) == "There is no choice 9: type 1–4"
        await pilot.press("3", "enter")  # bid solo
        table = await turn_of(app, pilot, "discard")
        await pilot.press("2", "3", "enter")
        assert prompt_of(table) == "The discard is exactly 4 cards; 2 chosen: choose 2 more"
        await pilot.press("4", "5", "6", "enter")
        assert prompt_of(table) == "The discard is exactly 4 cards; 5 chosen: untick 1 (Space, or its number)"
        await pilot.press("1", "7")
        assert prompt_of(table) == "There is no card 17: type 1–16"


async def test_a_target_refused_says_the_bid_to_beat():
    """The points auction: Bea bids 70 (the others pass); 65 is refused, and why."""

    def bid_70(view, rng):
        return next((a for a in view.legal if a.kind == "bid" and a.target == 70), None) or passer(view, rng)

    controller = OfflineTable(
        "chiamata", 5, "easy", 1, seed=1, deal_seed=1, options={"auction": "points"},
        choosers={1: bid_70, 2: passer, 3: passer, 4: passer},
    )  # fmt: skip
    app = BriscolaApp(None, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(TableScreen(controller, app.style_))
        table = await turn_of(app, pilot, "choose", "auction")
        if not any(a.target == 70 for a in table.view.auction):  # I speak before Bea: 61 first
            await pilot.press("2", "enter", "6", "1", "enter")
            await wait_for(pilot, lambda: any(a.target == 70 for a in table.view.auction), "Bea's 70")
            table = await turn_of(app, pilot, "choose", "auction")
        group = next(i for i, item in enumerate(table.picker.items) if item.action is None)
        await pilot.press(*str(group + 1), "enter")
        assert table.mode == "target"
        await pilot.press("6", "5", "enter")
        assert (
            prompt_of(table)
            == "65 may not be bid: a target is a number from 71 to 120 (a bid must beat the 70 bid so far)"
        )


async def test_the_call_grid_says_that_calling_a_card_of_my_own_plays_alone():
    """`call: at_least` after a bid of J: the cursor on each card of the grid; the prompt says
    "yours: you play alone" on exactly the cards of my hand."""
    app = BriscolaApp(None, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await call_grid_after_a_bid_of_j(app, pilot)
        marked = set()
        for _ in range(40):
            if "(yours: you play alone)" in prompt_of(table):
                marked.add(table.picker.card)
            await pilot.press("right")
        assert marked == set(table.view.hand)  # (the cursor went round the whole deck)
