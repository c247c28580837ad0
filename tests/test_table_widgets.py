"""The table's header and seats panel (issue 23) under Pilot, from views built by hand: the
auction in full, the header never cut at 80 columns, the trick just taken kept in view, the
sides' points, a spectator's scores; and `t` (the last trick) in every game."""

from __future__ import annotations

import pytest
from helpers.app import SIZE, table_of, wait_for
from textual.app import App, ComposeResult

from briscola_tui.tui.app import BriscolaApp
from briscola_tui.tui.screens.dialogs import InfoScreen
from briscola_tui.tui.widgets.cards import Style
from briscola_tui.tui.widgets.header import TableHeader
from briscola_tui.tui.widgets.seats import SeatsPanel, seat_name
from engine.cards import Card
from engine.state import Action, Trick
from engine.view import SeatView

C = Card.parse
LONG = ("you", "Bartolomea Ferraris", "Carlo Alberto Rossi", "Dorotea Castiglioni", "Eliodoro Mancinelli")


def view(**fields) -> SeatView:
    base = dict(
        game="chiamata",
        players=5,
        options={},
        seat=0,
        names=("you", "Bea", "Carlo", "Dora", "Elio"),
        table_phase="play",
        awaited={},
        scores=(0,) * 5,
        hands_played=0,
        series_over=False,
        winners=(),
        hand_number=0,
        hand_sizes=(8,) * 5,
        captured=(0,) * 5,
    )
    base.update(fields)
    return SeatView(**base)  # type: ignore[arg-type]


class Table(App):
    """The header over the seats panel, 80 columns wide as on the table (the seats get 52)."""

    CSS = "SeatsPanel { width: 52; }"

    def compose(self) -> ComposeResult:
        yield TableHeader(Style(), id="header")
        yield SeatsPanel(Style(), id="seats")


async def shown(v: SeatView) -> tuple[list[str], list[str]]:
    """The header's lines and the seats panel's lines as drawn for `v`."""
    app = Table()
    async with app.run_test(size=SIZE) as pilot:
        app.query_one(TableHeader).view = v
        app.query_one(SeatsPanel).view = v
        await pilot.pause()
        header = str(app.query_one(TableHeader).render()).split("\n")
        seats = str(app.query_one(SeatsPanel).render()).split("\n")
    return header, seats


def seat_line(lines: list[str], name: str) -> str:
    return next(line for line in lines if line.startswith(f" {name} "))


AUCTION = (
    Action(1, "bid", rank="A"),
    Action(2, "pass"),
    Action(3, "bid", rank="2"),
    Action(4, "bid", rank="2", target=70),
)


async def test_the_auction_in_full_each_seat_and_the_bid_to_beat():
    header, seats = await shown(view(phase="auction", turn=0, auction=AUCTION, dealer=0, roles={0: ("dealer",)}))
    assert header[1].strip() == "to beat: 2 target 70 (Elio)"
    assert "2 target 70" in seat_line(seats, "Elio")
    assert seat_line(seats, "Carlo").split()[3] == "pass"
    assert seat_line(seats, "Dora").split()[3] == "2" and seat_line(seats, "Bea").split()[3] == "A"
    assert all(len(line) <= 52 for line in seats)


async def test_no_bid_yet_and_calabresella_contracts():
    header, _ = await shown(view(phase="auction", turn=0))
    assert header[1].strip() == "no bid yet"
    cala = dict(game="calabresella", players=3, names=("you", "Bea", "Carlo"), hand_sizes=(12,) * 3)
    header, seats = await shown(
        view(
            **cala,
            captured=(0,) * 3,
            phase="auction",
            turn=2,
            auction=(Action(0, "pass"), Action(1, "bid", contract="solo")),
            contract="solo",  # the engine's contract so far: the header says it once, as the bid to beat
        )
    )
    assert header[1].strip() == "to beat: solo (Bea)" and "solo" in seat_line(seats, "Bea")


@pytest.mark.parametrize("names", [("you", "Bea", "Carlo", "Dora", "Elio"), LONG])
async def test_the_chiamata_header_is_never_cut_at_80_columns(names):
    v = view(
        names=names,
        phase="play",
        turn=0,
        auction=AUCTION,
        roles={0: ("dealer",), 4: ("caller",), 2: ("partner",)},
        called=C("4S"),
        trump="S",
        tricks=(Trick(0, (C("4S"), C("AH"), C("2C"), C("3D"), C("KS")), 2, 25),),
        captured=(0, 0, 25, 0, 0),
    )
    header, _ = await shown(v)
    assert all(len(line) <= 80 for line in header)
    assert header[1].split()[-2:] == ["target", "70"]
    assert "called 4♠" in header[1] and "partner Carlo" in header[1] and "trump ♠" in header[1]
    assert ("caller " + names[4][:6]) in header[1]


async def test_a_two_player_header_with_long_names_fits():
    v = view(game="briscola", players=2, names=("Bartolomea Ferraris", "Carlo Alberto Rossi"), scores=(12, 7))
    v = view(**{**v.__dict__, "hand_sizes": (3, 3), "captured": (0, 0), "phase": "play", "trump": "H", "stock": 33})
    header, _ = await shown(v)
    assert all(len(line) <= 80 for line in header)
    assert "12" in header[0] and "7" in header[0] and "stock 33" in header[1]


@pytest.mark.parametrize("names", [("Ada", "Bea", "Carlo", "Dora", "Elio"), LONG[1:] + ("Fiammetta Orsini",)])
async def test_a_spectators_header_shows_every_seats_score_and_fits(names):
    v = view(seat=None, names=names, scores=(4, -2, -2, 0, 0), phase="play", trump="S", called=C("4S"))
    header, _ = await shown(v)
    assert all(len(line) <= 80 for line in header)
    short = names[0] == "Ada"
    assert ("scores Ada 4, Bea -2, Carlo -2, Dora 0, Elio 0" if short else "scores 4 -2 -2 0 0") in header[0]
    assert "your score" not in header[0]


TRICK = Trick(3, (C("5D"), C("KS"), C("5S"), C("AD"), C("JC")), 2, 17)


async def test_the_trick_just_taken_stays_in_view_until_the_next_card():
    roles = {3: ("dealer",), 1: ("caller",)}
    played = dict(phase="play", roles=roles, called=C("JC"), trump="C", captured=(0, 0, 17, 0, 0), tricks=(TRICK,))
    _, seats = await shown(view(**played, turn=2))
    # the trick taken, in the seats' column: Dora led 5♦, Elio K♠, you 5♠, Bea A♦, Carlo J♣
    assert "[ 5♦ ]" in seat_line(seats, "Dora") and "[ J♣ ]" in seat_line(seats, "Carlo")
    assert " last: 5♦ K♠ 5♠ A♦ J♣, Carlo takes 17 points" in seats  # "Dora led" left out: 52 wide
    _, seats = await shown(view(**played, turn=3, trick=(C("7H"),), trick_leader=2))  # Carlo leads again
    assert "[ 7♥ ]" in seat_line(seats, "Carlo") and "[" not in seat_line(seats, "Dora")
    assert " last: 5♦ K♠ 5♠ A♦ J♣, Carlo takes 17 points" in seats  # "Dora led" left out: 52 wide


async def test_side_totals():
    # Briscola for 4: the two teams (you + Carlo against Bea + Dora)
    four = dict(game="briscola", players=4, names=("you", "Bea", "Carlo", "Dora"), hand_sizes=(3,) * 4)
    _, seats = await shown(view(**four, phase="play", captured=(10, 4, 20, 7), trump="H", stock=10))
    assert " points: you + Carlo: 30 · Bea + Dora: 11" in seats
    # Chiamata: "?" until the partner is known, then the caller's side against the others
    chiamata = dict(phase="play", called=C("JC"), trump="C", captured=(3, 10, 17, 0, 5), tricks=(TRICK,))
    _, seats = await shown(view(**chiamata, roles={1: ("caller",)}))
    assert " points: Bea + ?: ? · the others: ?" in seats
    _, seats = await shown(view(**chiamata, roles={1: ("caller",), 2: ("partner",)}))
    assert " points: Bea + Carlo: 27 · you + Dora + Elio: 8" in seats
    _, seats = await shown(view(**chiamata, roles={1: ("caller",)}, hand=(C("JC"),)))  # my secret: I am the partner
    assert " points: Bea + you: 13 · Carlo + Dora + Elio: 22" in seats
    # Calabresella: the soloist's thirds against the defenders'
    cala = dict(game="calabresella", players=3, names=("you", "Bea", "Carlo"), hand_sizes=(9,) * 3, unit="third")
    _, seats = await shown(view(**cala, phase="play", roles={1: ("soloist",)}, contract="solo", captured=(4, 12, 3)))
    assert " thirds: Bea: 12 · you + Carlo: 7" in seats


@pytest.mark.parametrize(
    "game, players, unit",
    [("briscola", 2, "point"), ("briscola", 4, "point"), ("chiamata", 5, "point"), ("calabresella", 3, "third")],
)
@pytest.mark.slow
async def test_t_shows_the_last_trick_in_every_game(monkeypatch, tmp_path, game, players, unit):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    app = BriscolaApp({"game": game, "players": players, "hands": 1}, seed=3, deal_seed=2, pace=0, level="easy")
    async with app.run_test(size=SIZE) as pilot:
        while True:
            await wait_for(pilot, lambda: table_of(app) is not None and table_of(app).mode != "wait", "my turn")
            table = table_of(app)
            if table.view.tricks:
                break
            if table.mode == "card":
                card = next(a.card for a in table.view.legal if a.card is not None)
                await pilot.press(str(table.hand.index(card) + 1), "enter")
            elif table.mode == "discard":
                await pilot.press("1", "2", "3", "4", "enter")
            else:
                await pilot.press("1", "enter")
            await pilot.pause(0.05)
        last = table.view.tricks[-1]
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), "the last trick", 10)
        text = app.screen.text
        assert f"led by {seat_name(table.view, last.leader)}" in text
        assert text.endswith(f"{last.points} {unit}" + ("" if last.points == 1 else "s"))
        assert all(table.style_.card(card) in text for card in last.cards)


@pytest.mark.slow
async def test_the_calabresella_summary_adds_up_the_soloists_thirds(monkeypatch, tmp_path):
    from helpers.app import play_hand

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    app = BriscolaApp({"game": "calabresella", "hands": 1}, seed=3, deal_seed=5, pace=0, level="easy")
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot, None, {"auction": "3"})  # 3: bid solo
        await wait_for(pilot, lambda: app.screen.query("#summary-text"), "the summary's text")
        text = str(app.screen.query_one("#summary-text").render())
        thirds = app.screen.view.last_hand.result.soloist_thirds
    assert "The monte at the end (your discards): " in text
    assert "The last trick: " in text and "who takes the monte and 3 thirds more" in text
    sum_line = next(line.strip() for line in text.splitlines() if line.strip().startswith("you: "))
    parts, total = sum_line.removeprefix("you: ").split(" = ")
    assert total == f"{thirds} thirds"
    assert sum(int(part.split()[0]) for part in parts.split(" + ")) == thirds


async def test_a_long_status_wraps_under_its_own_indent_not_to_column_0():
    status = "connection lost (the host closed the connection); trying 127.0.0.1:40123 again for up to 120 s"
    app = Table()
    async with app.run_test(size=SIZE) as pilot:
        seats = app.query_one(SeatsPanel)
        seats.view, seats.status = view(phase="play", turn=0), status
        await pilot.pause()
        lines = str(seats.render()).split("\n")
        width = seats.size.width
    at = next(i for i, line in enumerate(lines) if line.startswith(" connection lost"))
    said = [lines[at]] + [line for line in lines[at + 1 :] if line.startswith("   ")]
    assert " ".join(line.strip() for line in said) == status  # all of it, on lines of its own
    assert all(len(line) <= width for line in said) and len(said) > 1, said  # each under the indent
