"""The Textual client under Pilot at 80x24: whole hands against the computer
with key presses only, from the home screen or `play` to the hand summary."""

from __future__ import annotations

import time

import pytest
from helpers.app import DEADLINE, SIZE, play_hand, table_of, wait_for

from briscola_tui.cli import main
from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.dialogs import ConfirmQuit, InfoScreen
from briscola_tui.tui.screens.home import HomeScreen
from briscola_tui.tui.screens.setup import SetupScreen
from briscola_tui.tui.screens.table import TableScreen
from briscola_tui.tui.widgets.hand import Hand
from briscola_tui.tui.widgets.seats import seat_name


def make_app(game="briscola", players=2, **kwargs) -> BriscolaApp:
    play = None if game is None else {"game": game, "players": players, "hands": kwargs.pop("hands", 1)}
    return BriscolaApp(play, seed=kwargs.pop("seed", 1), deal_seed=kwargs.pop("deal_seed", 1), pace=0, **kwargs)


@pytest.mark.slow
async def test_briscola_two_players_to_the_summary_and_out(own_folders):
    from briscola_tui.tools.replay_steps import steps_of, stored_transcripts

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot)
        text = str(app.screen.query_one("#summary-text").render())
        assert "As dealt" in text and "series" in text and "card points of 120" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.is_running, "the app to exit", 10)
    stored = stored_transcripts()  # kept for the replay viewer, in the data folder
    assert len(stored) == 1 and stored[0].parent == own_folders["BRISCOLA_HOME"] / "transcripts"
    assert any(step.audited for step in steps_of(stored[0]))


@pytest.mark.parametrize(
    "game_steps, player_steps, game, players",
    [
        (0, 0, "briscola", 2),
        (0, 1, "briscola", 3),
        (0, 2, "briscola", 4),
        (0, 3, "briscola", 6),
        (1, 0, "chiamata", 5),
        (2, 0, "calabresella", 3),
    ],
)
@pytest.mark.slow
async def test_a_whole_hand_of_every_game_from_the_home_screen(game_steps, player_steps, game, players):
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        await pilot.press("1", "enter")  # play against the computer: the setup screen
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        await pilot.press(*["right"] * game_steps, "down", *["right"] * player_steps, "enter")
        await wait_for(pilot, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table.controller.game == game and table.controller.players == players
        await play_hand(app, pilot)
        last = app.screen.view.last_hand
        assert last is not None
        if game == "chiamata" and isinstance(last.result.partner, int):  # the reveal was shown
            log = " ".join(" ".join(line.text.split()) for line in table.query_one("#log").lines)  # unwrapped
            assert f"{seat_name(table.view, last.result.partner)} is the caller's partner" in log


@pytest.mark.parametrize(
    "game, deal_seed, mode, pick",
    [
        ("chiamata", 2, "choose", None),
        ("calabresella", 5, "discard", {"auction": "3"}),  # 3: bid solo
        ("calabresella", 1, "grid", {"auction": "2"}),  # 2: bid chiamo, then call a card from the grid
    ],
)
@pytest.mark.slow
async def test_auctions_and_discards_are_reached(game, deal_seed, mode, pick):
    app = BriscolaApp({"game": game, "hands": 1}, seed=3, deal_seed=deal_seed, pace=0, level="easy")
    seen: dict = {}
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot, seen, pick)
    assert seen.get(mode)


@pytest.mark.slow
async def test_help_last_trick_score_and_quit_asks_first():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        for key in ("question_mark", "t", "s"):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), f"the {key} screen", 10)
            if key == "question_mark":  # the keys, then the rules of the game being played
                assert "ctrl+q" in app.screen.text and "Briscola (2, 3, 4 or 6 players)" in app.screen.text
                assert "Calabresella (3 players)" not in app.screen.text
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table again", 10)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit), "the question", 10)
        assert "briscola play --resume" in app.screen.kept and "join" not in app.screen.kept
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table again", 10)
        await pilot.press("ctrl+q", "y")
        await wait_for(pilot, lambda: not app.is_running, "the app to exit", 10)


@pytest.mark.slow
async def test_clicking_a_card_twice_plays_it():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode == "card", "my turn")
        table = table_of(app)
        len(table.view.hand) + len(table.view.trick)
        for _ in range(2):  # the hand shown: the play's, or the plain hand once the card has gone
            hand = table.picker.query_one(Hand) if table.picker is not None else table.query_one("#hand")
            await pilot.click(hand, offset=(4, 1))
        await wait_for(
            pilot, lambda: table.view.history and any(a.seat == 0 for a in table.view.history), "my card played", 10
        )


def test_help_still_prints(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "play" in out and "selfplay" in out and "verify" in out


@pytest.mark.slow
async def test_setup_options_reach_the_table_and_explain_themselves():
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        setup = app.screen
        names = [row.name for row in setup.rows]
        assert names[:4] == ["game", "players", "level", "hands"] and "trump_exchange" in names
        await pilot.press(str(names.index("trump_exchange") + 1))  # a digit picks the row
        said = " ".join(line.strip() for line in str(setup.query_one("#setup-help").render()).split("\n"))
        assert "swap it for the face-up card" in said  # (wrapped under its indent at 80 columns)
        await pilot.press("right", "3", "left", "left")  # trump_exchange -> 2; level normal -> random
        await pilot.press("4", "right")  # stop after 1 hand
        chosen = setup.choice()
        assert chosen["options"]["trump_exchange"] == "2" and chosen["level"] == "random" and chosen["hands"] == 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: table_of(app) is not None, "the table")
        controller = table_of(app).controller
        assert controller.options["trump_exchange"] == "2" and controller.level == "random"
        assert controller.hands == 1


async def test_settings_are_saved_and_read_back(own_folders):
    home = own_folders["BRISCOLA_HOME"]
    from briscola_tui.files import settings
    from briscola_tui.tui.screens.settings import SettingsScreen

    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "enter")  # Settings
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings screen")
        await pilot.press("1", "enter")  # ascii: auto -> on
        await pilot.press("2", "enter")  # four colours on
        await pilot.press("3", "enter")  # italian suit names
        await pilot.press("escape")
        assert app.style_.ascii and app.style_.four_colour
    saved = settings.load()
    assert (saved.ascii, saved.four_colour, saved.suit_names) == ("on", True, "italian")
    assert (home / "settings.json").exists()
    again = BriscolaApp()
    assert (
        again.style_.ascii
        and again.style_.card_name(__import__("engine.cards").cards.Card.parse("AS")) == "Asso di Spade"
    )
    (home / "settings.json").write_text('{"level": "grandmaster", "ascii": "on"}')
    bad = settings.load()
    assert bad.level == "normal" and bad.ascii == "on" and "level='grandmaster'" in bad.problem


def test_no_color_and_ascii_never_leave_the_suit_to_colour(monkeypatch):
    from engine.cards import Card

    monkeypatch.setenv("NO_COLOR", "1")
    app = BriscolaApp(ascii=True)
    card = Card.parse("QH")
    assert app.style_.colour_of(card) == "" and app.style_.card(card) == "QH"
    monkeypatch.delenv("NO_COLOR")
    assert BriscolaApp(ascii=False).style_.card(card) == "Q♥"


def test_the_log_names_the_trump_suit_as_the_table_writes_it():
    from briscola_tui.render import render
    from briscola_tui.tui.widgets.cards import Style
    from engine.cards import Card
    from protocol.events import FaceUp

    event = FaceUp(Card.parse("6H"), "H")  # "the face-up card is 6H: trump H"
    assert render(event, Style(False)) == "the face-up card is 6♥: trump ♥ hearts"
    assert render(event, Style(True, names="italian")) == "the face-up card is 6H: trump H Coppe"


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory):
    """A Chiamata table of two hands and a Briscola hand where seat 1 plays a card it does not hold."""
    import io

    from briscola_tui.tools.selfplay import selfplay

    folder = tmp_path_factory.mktemp("transcripts")
    honest, cheat = folder / "chiamata.bin", folder / "cheat.bin"
    assert selfplay("chiamata", None, 2, 1, str(honest), {}, io.StringIO(), quiet=True) == 0
    assert selfplay("briscola", 2, 1, 1, str(cheat), {}, io.StringIO(), cheat="play-unheld", quiet=True) == 3
    return honest, cheat


def test_replay_steps_show_only_public_cards_until_the_audit(transcripts):
    from briscola_tui.tools.replay_steps import steps_of

    steps = steps_of(transcripts[0])
    audits = [k for k, step in enumerate(steps) if step.audited]
    assert len(audits) == 2 and sum(1 for step in steps if step.trick) == 16
    first = steps[audits[0]].view.last_hand.deal
    for step in steps[: audits[0]]:
        view = step.view
        assert view.seat is None and view.hand == ()
        played = {c for t in view.tricks for c in t.cards} | set(view.trick)
        known = {c for hand in view.known_hands for c in hand}
        assert known <= played  # nothing of a hand is known before it is played
    assert all(len(hand) == 8 for hand in first.hands)


@pytest.mark.slow
async def test_replay_viewer_from_home_steps_to_the_audit(transcripts):
    from briscola_tui.tui.screens.replay import OpenReplay, ReplayScreen

    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "enter")  # Replay a transcript
        await wait_for(pilot, lambda: isinstance(app.screen, OpenReplay), "the file form", 10)
        await pilot.press(*str(transcripts[0]), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay viewer", 30)
        viewer = app.screen
        await pilot.press("right")
        text = str(viewer.query_one("#replay-step").render())
        assert "As dealt" not in text
        while not viewer.steps[viewer.k].audited:
            await pilot.press("right")
        text = str(viewer.query_one("#replay-step").render())
        assert "As dealt" in text and "target" in text.lower()
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home again", 10)


@pytest.mark.slow
async def test_the_replay_viewer_heads_an_audit_with_its_hand_and_writes_the_called_card_as_a_card(transcripts):
    import re

    from briscola_tui.tools.replay_steps import steps_of
    from briscola_tui.tui.screens.replay import ReplayScreen
    from briscola_tui.tui.widgets.cards import SUIT_GLYPHS

    steps = steps_of(transcripts[0])
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReplayScreen("chiamata.bin", steps))
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay viewer", 30)
        viewer = app.screen
        while not viewer.steps[viewer.k].audited:
            await pilot.press("right")
        await pilot.pause()
        head = str(viewer.query_one("#replay-header").render())
        text = str(viewer.query_one("#replay-step").render())
    assert "Hand 1" in text and " hand 1 " in head, head  # the hand whose result is shown
    called = re.findall(r"called ([^\s,;]+)", text)
    assert called and all(card[-1] in SUIT_GLYPHS.values() for card in called), called  # not "called 4S"


async def test_the_stored_transcripts_are_listed_by_game_players_and_whose_copy(transcripts, tmp_path, monkeypatch):
    import shutil

    from briscola_tui.tools.replay_steps import describe
    from briscola_tui.tui.screens.replay import OpenReplay

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    folder = tmp_path / "home" / "transcripts"
    folder.mkdir(parents=True)
    shutil.copy(transcripts[0], folder / "0123abcd-seat2.bin")
    (folder / "0123abcd-host.bin").write_bytes(b"not a transcript at all")
    label = describe(folder / "0123abcd-seat2.bin")
    assert label.startswith("Chiamata  ") and label.endswith(
        "  played at seat 2  seat 0, seat 1, seat 2, seat 3, seat 4"
    )
    assert describe(folder / "0123abcd-host.bin") == "0123abcd-host.bin (not a transcript this version reads)"
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "enter")  # Replay a transcript
        await wait_for(pilot, lambda: isinstance(app.screen, OpenReplay), "the list", 10)
        shown = str(app.screen.query_one("#replay-files").render())
        assert "Chiamata  " in shown and "seat 0, seat 1" in shown and "not a transcript" in shown


@pytest.mark.slow
async def test_the_replay_list_shows_every_stored_transcript_newest_first_and_names_its_folder(
    transcripts, tmp_path, monkeypatch
):
    import os
    import shutil

    from briscola_tui.tui.screens.replay import OpenReplay, ReplayScreen, shown_folder

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    folder = tmp_path / "home" / "transcripts"
    folder.mkdir(parents=True)
    for k in range(12):  # more than a page of nine
        copy = folder / f"{k:08x}-seat1.bin"
        shutil.copy(transcripts[1 if k == 11 else 0], copy)
        os.utime(copy, (1_700_000_000 + 60 * k, 1_700_000_000 + 60 * k))  # the last is the newest
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenReplay) and app.screen.files, "the list", 10)
        screen = app.screen
        assert [p.name for p in screen.files] == [f"{k:08x}-seat1.bin" for k in reversed(range(12))]
        assert f"12 transcripts in {shown_folder(folder)}, newest first" in str(
            screen.query_one("#replay-folder").render()
        )
        menu = screen.query_one("#replay-files")
        lines = str(menu.render()).splitlines()
        assert lines[0].split()[:2] == [">1", "Briscola"] and lines[1].split()[1] == "Chiamata"
        assert all(len(line) <= 76 for line in lines) and "page 1 of 2" in lines[-1]
        await pilot.press(*["down"] * 9)
        assert menu.page == 1 and "page 2 of 2" in str(menu.render())
        await pilot.press("1")  # the digits choose on the page shown: the tenth newest, the third copied
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer", 30)
        assert app.screen.name_ == "00000002-seat1.bin"


@pytest.mark.slow
def test_the_replay_viewer_shows_each_hand_as_a_spectator_saw_it(tmp_path):
    import io

    from briscola_tui.tools.replay_steps import steps_of
    from briscola_tui.tools.selfplay import selfplay
    from briscola_tui.tui.screens.replay import step_text
    from briscola_tui.tui.widgets.cards import Style

    style = Style(ascii=True)
    path = tmp_path / "open.bin"
    options = {"open_hands": "true"}
    assert selfplay("briscola", 4, 1, 1, str(path), options, io.StringIO(), quiet=True, deal_seed=1) == 0
    closed = tmp_path / "closed.bin"
    assert selfplay("briscola", 2, 1, 1, str(closed), {}, io.StringIO(), quiet=True, deal_seed=1) == 0
    for file, shown in ((path, True), (closed, False)):
        for k, step in enumerate(steps_of(file)):
            if step.audited or step.view.game is None:
                continue
            view = step.view
            lines = str(step_text(steps_of(file), k, style)).splitlines()
            for seat in range(view.players):
                line = lines[seat]
                size = view.hand_sizes[seat]
                known = view.known_hands[seat]
                assert line.split()[2] == str(size)
                assert line.count("##") == size - len(known)  # a back for each card not shown
                assert all(str(card) in line for card in known)
                assert (len(known) == size) == shown  # open hands: every card; else none
                assert ", " in line or "," not in line  # roles listed with commas and spaces
            break


@pytest.mark.slow
async def test_the_replay_viewer_header_fits_80_columns(transcripts):
    from briscola_tui.tools.replay_steps import steps_of
    from briscola_tui.tui.screens.replay import ReplayScreen

    steps = steps_of(transcripts[0])
    name = "offline-chiamata-20250101-120000-123456-" + "x" * 40 + ".bin"
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReplayScreen(name, steps))
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.query("#replay-header"), "it")
        viewer = app.screen
        await pilot.press(*["right"] * 6)
        await wait_for(pilot, lambda: "step 7 of" in str(viewer.query_one("#replay-header").render()), "step 7")
        header = str(viewer.query_one("#replay-header").render())
        file = str(viewer.query_one("#replay-file").render())
        assert header.startswith(" Briscola Chiamata") and "step 7 of" in header and "trump" in header
        assert len(header) <= 80 and len(file) <= 80 and file.startswith(" offline-chiamata-")


@pytest.mark.slow
async def test_replay_refuses_a_file_that_is_not_a_transcript(tmp_path):
    from briscola_tui.tui.screens.replay import OpenReplay

    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a transcript at all")
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "enter")  # Replay a transcript
        await wait_for(pilot, lambda: isinstance(app.screen, OpenReplay), "the file form", 10)
        form = app.screen
        await pilot.press(*str(junk), "enter")
        said = lambda: str(form.query_one("#replay-error").render())  # noqa: E731
        await wait_for(pilot, lambda: "not a briscola transcript" in said(), "the refusal", 10)
        assert app.screen is form


async def test_a_cheat_named_by_the_audit_gets_its_own_screen(transcripts):
    from briscola_tui.tools.replay_steps import steps_of
    from briscola_tui.tui.screens.verdict import VerdictScreen

    view = steps_of(transcripts[1])[-1].view
    assert view.last_hand is not None and not view.last_hand.ok
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(VerdictScreen(view, (), app.style_))
        await wait_for(pilot, lambda: isinstance(app.screen, VerdictScreen) and app.screen.query("#body"), "it", 10)
        text = str(app.screen.query_one("#body").render())
        assert "void" in text and "seat 1" in text and "scores nothing" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, VerdictScreen), "the screen to close", 10)


@pytest.mark.slow
async def test_scegliete_the_first_defender_takes_from_the_monte_then_discards():
    """The computer players bid solissimo and raise scegliete: I take one card of the monte, then discard one."""
    from briscola_tui.tables.offline import OfflineTable
    from engine import bots

    easy = bots.get("easy")

    def solissimo_scegliete(view, rng):
        wanted = [a for a in view.legal if a.contract == "solissimo" or a.choice == "scegliete"]
        return wanted[0] if wanted else easy(view, rng)

    app = make_app(None)
    seen: dict = {}
    async with app.run_test(size=SIZE) as pilot:
        controller = OfflineTable(
            "calabresella", 3, "easy", 1, seed=1, deal_seed=2, choosers={1: solissimo_scegliete, 2: solissimo_scegliete}
        )
        app.push_screen(TableScreen(controller, app.style_))
        table = await _take_turn(app, pilot)
        assert table.view.phase == "take" and len(table.picker.items) == 16  # every subset of the 4 cards
        assert "take none" in [item.text for item in table.picker.items]
        await pilot.press("2")  # a single card
        taken = table.picker.items[table.picker.cursor].action.cards
        assert len(taken) == 1
        await pilot.press("enter")
        await play_hand(app, pilot, seen)
        result = app.screen.view.last_hand.result
    assert seen.get("discard") == 1 and result.raised == "scegliete"


async def _take_turn(app, pilot) -> TableScreen:
    await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode != "wait", "my turn")
    return table_of(app)


@pytest.mark.slow
async def test_long_roles_are_shown_whole_when_the_seat_line_has_room():
    """The dealer who bids solissimo is 'dealer, soloist': wider than the 13-column roles, shown whole."""
    app = make_app("calabresella", 3, deal_seed=4, level="easy")  # I deal, and speak first
    async with app.run_test(size=SIZE) as pilot:
        table = await _take_turn(app, pilot)
        assert table.view.roles.get(0) == ("dealer",)
        await pilot.press(str(1 + [item.text for item in table.picker.items].index("bid solissimo")), "enter")
        seats = table.query_one("#seats")
        await wait_for(pilot, lambda: "dealer, soloist " in str(seats.render()), "my roles, whole")
        assert max(line.cell_length for line in seats.render().split("\n")) <= seats.size.width


@pytest.mark.slow
async def test_a_target_is_typed_and_checked():
    """Chiamata with bids on points: the target group asks for a number; one out of range is refused."""
    app = BriscolaApp(
        {"game": "chiamata", "hands": 1, "options": {"auction": "points"}}, seed=1, deal_seed=1, pace=0, level="easy"
    )
    async with app.run_test(size=SIZE) as pilot:
        table = await _take_turn(app, pilot)
        assert table.view.phase == "auction"
        group = next(i for i, item in enumerate(table.picker.items) if item.action is None)
        await pilot.press(str(group + 1), "enter")
        assert table.mode == "target" and table.query_one("#target").display
        low = min(table.picker.group.targets)
        await pilot.press(*str(low - 1), "enter")
        assert table.mode == "target" and "from" in str(table.query_one("#prompt").render())
        table.query_one("#target").value = ""
        await pilot.press(*str(low + 4), "enter")
        await wait_for(
            pilot,
            lambda: any(a.seat == 0 and a.target == low + 4 for a in table.view.auction),
            "my bid in the auction",
            20,
        )


@pytest.mark.slow
async def test_a_computer_player_thinking_shows_after_300_ms():
    app = BriscolaApp({"game": "chiamata", "hands": 1}, seed=1, deal_seed=1, pace=0.8, level="easy")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: (
                table_of(app) is not None and table_of(app).shown is not None and table_of(app).shown.moving is not None
            ),
            "a computer player to think",
            30,
        )
        table = table_of(app)
        seen = []

        def note() -> bool:
            seen.append(str(table.query_one("#prompt").render()))
            return "is thinking" in seen[-1]

        await wait_for(pilot, note, "the note", 5)
        assert seen[-1].split(" is thinking")[0] in ("Bea", "Carlo", "Dora", "Elio")


@pytest.mark.slow
async def test_a_seat_thinking_in_the_play_keeps_to_one_line_of_the_seats_panel():
    # In the play a seat line also shows the points taken: "-> thinking..." must still fit beside them.
    # The auction goes at pace 0; once the play has begun, each computer move takes 0.8 s (the
    # controller's pace, read at each move), so that "thinking..." shows (after THINKING_DELAY).
    app = BriscolaApp({"game": "chiamata", "hands": 1}, seed=1, deal_seed=1, pace=0, level="easy")
    async with app.run_test(size=SIZE) as pilot:

        def thinking_in_the_play() -> bool:
            table = table_of(app)
            return (
                table is not None
                and table.view is not None
                and table.view.phase == "play"
                and "thinking" in str(table.query_one("#seats").render())
            )

        end = time.monotonic() + DEADLINE
        while not thinking_in_the_play():  # I pass in the auction and play my first card when asked
            assert time.monotonic() < end, "timed out waiting for a seat thinking in the play"
            table = table_of(app)
            if table is not None and table.view is not None and table.view.phase == "play":
                table.controller.pace = 0.8
            if table is not None and table.view is not None and table.mode != "wait":
                await pilot.press("1", "enter")
            await pilot.pause(0.05)
        seats = table_of(app).query_one("#seats")
        lines = seats.render().split("\n")
        assert lines and max(line.cell_length for line in lines) <= seats.size.width
        assert sum("pt" in line.plain for line in lines) == 5  # each seat on its own line, points shown
        await pilot.press("ctrl+q", "y")
        await pilot.press("ctrl+q", "y")
