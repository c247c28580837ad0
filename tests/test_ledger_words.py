"""The ledger's numbers add up (issue 46): every count a person reads can be recounted from the
hands it names; card points are never averaged across games that count them differently; a
hand that is not rated says why, once; a game on this machine not ended yet is named, not
passed over; and the Club screen's league and its detail line count hands the same way."""

from __future__ import annotations

import io
import re
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from helpers.ledger_tables import play

from briscola_tui.cli import main
from briscola_tui.cli_parser import build_parser
from briscola_tui.files.folders import subfolder
from briscola_tui.files.identity import identity_path
from protocol.identity import Identity
from protocol.transcript_file import dump_transcript, load_transcript_prefix

pytestmark = pytest.mark.slow  # (whole tables played first: seconds of work)

ANNA = Identity.generate()
NAME = "Annamaria Bianchi"  # (a long name: the Club screen's line must still fit)


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> dict[str, tuple[Path, int]]:
    """Anna's tables against the computer as the offline table seats them (every seat vouched
    for by her key, each computer seat "normal, run by Anna"): a two-player Briscola (rated),
    a four-player Briscola and a Chiamata (normal on both sides: mostly not rated) and a
    Calabresella; each file and the hands it holds (redeals too: each a hand dealt)."""
    folder = tmp_path_factory.mktemp("anna")
    out = {}
    for name, game, n in (("b2", "briscola", 2), ("b4", "briscola", 4), ("chiamata", "chiamata", 5)):
        others = ["normal"] * (n - 1)
        table = play(
            folder / f"{name}.bin",
            [ANNA] * n,
            [NAME, *others],
            ["random", *others],
            game=game,
            options=None if game == "briscola" else {},
            runs=["", *others],
        )
        out[name] = (folder / f"{name}.bin", len(table.host.session.verdicts))
    table = play(
        folder / "calabresella.bin",
        [ANNA] * 3,
        [NAME, "normal", "normal"],
        ["random", "normal", "normal"],
        game="calabresella",
        options={},
        runs=["", "normal", "normal"],
    )
    out["calabresella"] = (folder / "calabresella.bin", len(table.host.session.verdicts))
    return out


@pytest.fixture(autouse=True)
def anna_reads_the_ledger():
    ANNA.save(identity_path())


def _add(tables, *names: str) -> None:
    assert main(["ledger", "add", *(str(tables[name][0]) for name in names)]) == 0


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def test_a_persons_won_lost_and_tied_add_up_to_the_hands_counted(tables, capsys):
    """Issue 46: "6 hands at 6 different tables; won 0, lost 2, tied 0" after losing all six.
    Now the hands neither won nor lost are counted on that line, and why, in words that add up."""
    _add(tables, "b2", "b4", "chiamata", "calabresella")
    capsys.readouterr()
    assert main(["ledger", "--no-scan", "person", NAME]) == 0
    lines = capsys.readouterr().out.splitlines()
    line = next(x for x in lines if " at 4 different tables" in x)
    total = sum(played for _path, played in tables.values())
    found = re.fullmatch(
        r"  (\d+) hands at 4 different tables: won (\d+), lost (\d+), tied (\d+) \(\d+%\), (\d+) neither won nor lost",
        line,
    )
    assert found, line
    hands, won, lost, tied, neither = (int(n) for n in found.groups())
    assert hands == total and won + lost + tied + neither == hands
    why = next(x for x in lines if x.startswith("  neither won nor lost: "))
    assert sum(_numbers(why)) == neither, why
    assert "with one player on both sides" in why


def test_card_points_per_hand_are_never_averaged_across_games(tables, capsys):
    """Issue 46: "card points per hand 13.3" averaged Briscola's points with Calabresella's
    thirds. Now each game (and table size) has its own average, in its own unit."""
    _add(tables, "b2", "b4", "calabresella")
    capsys.readouterr()
    assert main(["ledger", "--no-scan", "person", NAME]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("  card points per hand"))
    assert re.search(r"Briscola, 2 players: \d+\.\d points", line), line
    assert re.search(r"Briscola, 4 players: \d+\.\d points", line), line
    assert re.search(r"Calabresella: \d+\.\d thirds", line), line


def test_a_chiamata_against_the_computer_says_why_its_hands_are_not_rated(tables, capsys):
    """Issue 46: `briscola ledger --game chiamata` right after a Chiamata against the computer
    said "no rated hands yet: play a table". Its hands are in the ledger; those with normal on
    both sides rate nobody, and the league says so, in numbers that add up."""
    _add(tables, "chiamata", "b4")
    capsys.readouterr()
    assert main(["ledger", "--no-scan", "--game", "chiamata"]) == 0
    out = capsys.readouterr().out
    assert "no rated hands yet" not in out
    rated = re.search(r"^chiamata: (\d+) rated hands?$", out, re.M)
    left = dict((why, int(n)) for n, why in re.findall(r"^  (\d+) hands? not rated: (.*)$", out, re.M))
    assert rated and left, out
    assert int(rated[1]) + sum(left.values()) == tables["chiamata"][1]  # every hand, once
    assert any(why.startswith("one player was on both sides") for why in left), out
    assert main(["ledger", "--no-scan", "--game", "briscola"]) == 0
    out = capsys.readouterr().out  # four players, normal in both teams: nothing to rate, and said so
    assert f"briscola: 0 rated hands\n  {tables['b4'][1]} hand" in out
    assert "not rated: one player was on both sides" in out


def test_a_game_on_this_machine_not_ended_yet_is_named_not_passed_over(tables, capsys):
    """Issue 46: a Chiamata quit before its series ended (kept to resume) was left out without a
    word. Now the league says a table of that game on this machine has not ended, and what to do."""
    table_id, meta, entries, _size = load_transcript_prefix(tables["chiamata"][0].read_bytes())
    kept = subfolder("transcripts") / "chiamata-kept.bin"
    kept.write_bytes(dump_transcript(table_id, meta, entries[: len(entries) // 2]))
    assert main(["ledger", "--game", "chiamata"]) == 0
    out = capsys.readouterr().out
    assert "no rated hands yet" not in out
    assert "1 Briscola Chiamata table on this machine has not ended" in out
    assert "briscola play --resume" in out
    assert main(["ledger", "--game", "calabresella"]) == 0  # another game's page: not said there
    assert "has not ended" not in capsys.readouterr().out


async def _club_rows(tables) -> list[tuple[str, int, str]]:
    """The Club screen at 80x24 on the Calabresella page (hands that rate nobody too): each
    league row's player and hands, and the detail line under the league as shown with that
    row chosen (every screen line it takes, joined)."""
    from helpers.app import SIZE, wait_for
    from textual.geometry import Region
    from textual.widgets import DataTable

    from briscola_tui.tui.app import BriscolaApp
    from briscola_tui.tui.screens.club import ClubScreen

    for name in ("calabresella", "b2"):
        shutil.copy(tables[name][0], subfolder("transcripts") / f"{name}.bin")
    app, rows = BriscolaApp(), []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ClubScreen) and app.screen.rows, "the league")
        screen = app.screen
        assert isinstance(screen, ClubScreen)
        await pilot.press("right")
        await wait_for(pilot, lambda: "Calabresella" in str(screen.query_one("#club-title").render()), "the game")
        await pilot.pause()
        league = screen.query_one("#club-league", DataTable)
        person = screen.query_one("#club-person")
        for k in range(league.row_count):
            league.move_cursor(row=k)
            await pilot.pause()
            row = league.get_row_at(k)
            region = Region(0, 0, *person.outer_size)  # (its padding too)
            shown = " ".join(strip.text for strip in person.render_lines(region))
            rows.append((str(row[1]), int(str(row[4])), " ".join(shown.split())))
    return rows


async def test_the_club_screens_league_and_detail_line_count_the_same_hands(tables):
    """Issue 46: the Club screen's league row said 2 hands where its detail line said 3."""
    for label, hands, shown in await _club_rows(tables):
        assert shown.startswith(label[:16]), shown
        assert f"· {hands} hands" in shown, shown  # the league's "hands" is the line's


async def test_the_club_screens_detail_line_is_shown_whole_at_80_columns(tables):
    """Issue 46: the detail line was cut at 80x24 (`… · 0`); now it wraps, whole, for a long
    name too."""
    rows = await _club_rows(tables)
    assert any(label.startswith(NAME[:16]) for label, _hands, _shown in rows)
    for _label, _hands, shown in rows:
        assert re.search(r"· \d+ cheats?$", shown), shown


def test_italian_tells_the_ledger_from_a_transcript(italian, tables, monkeypatch, capsys):
    """Issue 46: Italian said "registro" both for a transcript and for the ledger. Now a
    transcript is a "registro" and the ledger the "albo" (del circolo), in the help and in what
    the ledger says."""
    monkeypatch.setenv("COLUMNS", "200")
    out = io.StringIO()
    with pytest.raises(SystemExit), redirect_stdout(out):
        build_parser().parse_args(["--help"])
    line = next(x for x in out.getvalue().splitlines() if x.strip().startswith("ledger"))
    assert "l'albo del circolo: punteggi e statistiche dai registri verificati" in line, line
    monkeypatch.setenv("LANGUAGE", "it")  # (main chooses the language from the setting: auto)
    _add(tables, "b2")
    assert "0 già nell'albo" in capsys.readouterr().out
    assert main(["ledger", "add", str(tables["b2"][0])]) == 0
    assert "1 già nell'albo" in capsys.readouterr().out
    junk = subfolder("transcripts") / "junk.bin"
    junk.write_bytes(b"not a transcript")
    assert main(["ledger", "add", str(junk)]) == 1
    assert "rifiutato: non è un registro di briscola" in capsys.readouterr().err
