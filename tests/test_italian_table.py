"""The table in Italian at 80x24: the prompt and the key line in Italian (the key line
within 80 columns), the header whole (never cut: no "…"), a refusal in Italian; and the
same words in English as before once English is chosen again."""

from __future__ import annotations

import os

import pytest
from helpers.app import app_for, my_turn, until

from briscola_tui import language
from briscola_tui.files.settings import Settings
from briscola_tui.tui.screens.table import TableScreen
from briscola_tui.tui.widgets.header import TableHeader
from briscola_tui.tui.widgets.picker import key_line

os.environ["TEXTUAL_ANIMATIONS"] = "none"
SIZE = (80, 24)


def table(app) -> TableScreen:
    return next(s for s in app.screen_stack if isinstance(s, TableScreen))


def screen_lines(app) -> list[str]:
    """The screen as it shows, one string a row."""
    return ["".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips()]


def check_whole(app) -> tuple[str, str]:
    """The header's two lines, checked to be whole (not cut) and within 80 columns; and the key
    line within 80 columns, in Italian."""
    lines = screen_lines(app)
    header = table(app).query_one(TableHeader)
    first, second = header.header_text().plain.split("\n")
    for line in (first, second):
        assert "…" not in line and len(line) <= 80, line
    # The second line has every item in its longest form: nothing was shortened to fit.
    assert second.strip() == "  ".join(forms[0] for forms in header._second())
    keys = lines[-1]
    assert keys.startswith(" ? aiuto") and keys.rstrip().endswith("ctrl+q esci"), keys
    assert len(keys.rstrip()) <= 80
    return first, second


@pytest.mark.slow
async def test_calabresella_in_italian(italian):
    app = app_for("calabresella", deal_seed=1, settings=Settings(language="it"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: my_turn(app))
        first, second = check_whole(app)
        assert first.startswith(" Calabresella · mano 1 di 1 · il tuo punteggio 0")
        assert second.strip() == "nessuna offerta"
        lines = screen_lines(app)
        assert "La tua offerta" in [line.strip() for line in lines]
        assert lines[-2].startswith("La tua offerta: 1–4, Enter")
        assert "scegli" in lines[-1] and "frecce muovi" in lines[-1]
        assert "tu     12 carte" in "\n".join(lines)

        await pilot.press("2", "enter")  # chiamo: the call grid
        await until(pilot, lambda: my_turn(app, "grid"))
        first, second = check_whole(app)
        assert second.strip() == "chiamo  solista tu"
        lines = screen_lines(app)
        assert lines[-2].startswith("Chiama una carta: frecce per muovere, Enter chiama")
        assert "Enter chiama" in lines[-1] and "clic una carta" in lines[-1]


@pytest.mark.slow
async def test_chiamata_in_italian(italian):
    app = app_for("chiamata", deal_seed=2, settings=Settings(language="it"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: my_turn(app))
        first, second = check_whole(app)
        assert first.startswith(" Briscola Chiamata · mano 1 di 1 · il tuo punteggio 0")
        assert second.strip() == "nessuna offerta"
        lines = screen_lines(app)
        assert lines[-2].startswith("La tua offerta: 1–11, Enter")
        assert "1-11 scegli" in lines[-1] and "s punti" in lines[-1]

        while not my_turn(app, "card"):  # pass, until the play
            await until(pilot, lambda: my_turn(app))
            if table(app).mode != "card":
                await pilot.press("1", "enter")
                await pilot.pause(0.1)
        await until(pilot, lambda: my_turn(app, "card"))
        first, second = check_whole(app)
        for words in ("chiamante Elio", "chiamata A♥", "socio ?", "briscola ♥", "obiettivo 61"):
            assert words in second
        lines = screen_lines(app)
        assert lines[-2].startswith("Carlo ha aperto con 2♣. Gioca una carta: 1–8, Enter")
        assert "Enter gioca" in lines[-1] and "h consiglio" in lines[-1]  # the coach before the last trick
        text = "\n".join(lines)
        assert "Elio    7 carte chiamante" in text and "tu      8 carte" in text and "← di turno" in text

        # A number that names no card is refused, in Italian (until the next key).
        await pilot.press("9")
        await until(pilot, lambda: table(app).picker.error is not None)
        assert screen_lines(app)[-2].startswith("Non c'è nessuna carta 9: digita 1–8")


def test_key_line_in_italian_then_english(italian):
    assert key_line((("1-3", language._("choose")), ("Enter", language._("play")))) == (
        " ? aiuto   1-3 scegli   Enter gioca   t ultima presa   s punti   ctrl+q esci"
    )
    language.choose("en")
    assert key_line((("1-3", language._("choose")), ("Enter", language._("play")))) == (
        " ? help   1-3 choose   Enter play   t last trick   s score   ctrl+q quit"
    )


@pytest.mark.slow
async def test_english_table_unchanged(tmp_path, monkeypatch):
    """The same table in English speaks as it always did."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    app = app_for("calabresella", deal_seed=1, settings=Settings(language="en"))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            lines = screen_lines(app)
            assert lines[1].strip() == "no bid yet"
            assert lines[-2].startswith("Your bid: 1–4, Enter")
            assert lines[-1].startswith(" ? help   1-4 choose   arrows move   Enter confirm")
            assert "you    12 cards" in "\n".join(lines)
    finally:
        language.choose("en")


def test_the_coach_key_takes_the_last_trick_s_place_where_both_do_not_fit(italian):
    keys = (("1-3", language._("choose")), ("Enter", language._("play")))
    assert key_line(keys, coach=True) == " ? aiuto   1-3 scegli   Enter gioca   s punti   h consiglio   ctrl+q esci"
    language.choose("en")
    keys = (("1-3", language._("choose")), ("Enter", language._("play")))
    assert key_line(keys, coach=True) == " ? help   1-3 choose   Enter play   s score   h hint   ctrl+q quit"
    assert key_line(keys) == " ? help   1-3 choose   Enter play   t last trick   s score   ctrl+q quit"
    assert key_line((("1-3", "choose"),), coach=True) == (
        " ? help   1-3 choose   t last trick   s score   h hint   ctrl+q quit"
    )
