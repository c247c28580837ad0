"""Every message a person can meet has its Italian words: the test installs a checking
translator (each `_`, `n_` and `p_` lookup of words the Italian catalogue does not hold is
recorded), then drives every path that writes to a person: the command line's errors, every
reason that travels between nodes (each code of `protocol.reasons`, and a peer's own words),
the events and notes of whole tables of each game through `render`, the headless player's
prompt, help and wrong moves, the coach's lines, the resume list. Nothing may be recorded.
A catalogue with one translation taken out is caught (the last test)."""

from __future__ import annotations

import gettext
import io
import json
import os
from pathlib import Path

import pytest

from briscola_tui import cli, engine_words, language, po
from briscola_tui.files.saved import SavedGame, Slot
from briscola_tui.net.listener import Keyboard
from briscola_tui.net.reaching import refusal
from briscola_tui.net.typed import move_error, read_typed
from briscola_tui.notes import AtTable, Away, Back, Resumed, Said, SoFar, Stopping, TableOver, TableStopped
from briscola_tui.render import HEADLESS, render
from briscola_tui.tools import review, selfplay
from briscola_tui.tui.screens.home import saved_label
from engine.bots import coach
from engine.cards import Card
from engine.games import make
from engine.labels import LabelError, parse
from engine.state import Action
from protocol.audit import Culprit
from protocol.events import Complained, Evicted, Refused, StoppedEarly, TableClosed, TimedOut
from protocol.reasons import REASONS, Reason, fields_of

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
_ENGLISH = gettext.NullTranslations()
CATALOGUE = ROOT / "briscola_tui" / "locale" / "it" / "LC_MESSAGES" / "briscola.po"


class Checking(gettext.NullTranslations):
    """The Italian catalogue, recording every lookup of words it has no translation for."""

    def __init__(self, real: gettext.GNUTranslations, missing: list[str]) -> None:
        super().__init__()
        self.real, self.missing = real, missing
        self.known = real._catalog  # type: ignore[attr-defined]

    def _check(self, key, shown: str) -> None:
        if key not in self.known:
            self.missing.append(shown)

    def gettext(self, message):
        if message:
            self._check(message, message)
        return self.real.gettext(message)

    def ngettext(self, msgid1, msgid2, n):
        self._check((msgid1, 0), msgid1)
        return self.real.ngettext(msgid1, msgid2, n)

    def pgettext(self, context, message):
        self._check(f"{context}\x04{message}", f"{context}|{message}")
        return self.real.pgettext(context, message)


def _translations(drop: str | None = None) -> gettext.GNUTranslations:
    entries = [e for e in po.parse(CATALOGUE.read_text(encoding="utf-8")) if e.msgid != drop or drop is None]
    return gettext.GNUTranslations(io.BytesIO(po.mo_bytes(entries)))


@pytest.fixture
def checking(monkeypatch):
    """Italian, through the checking translator, for the test (and for `cli.main`, which
    chooses the language again); the words found missing, in order."""
    missing: list[str] = []
    real = _translations()
    monkeypatch.setattr(language, "_catalogue", lambda code: Checking(real, missing) if code == "it" else _ENGLISH)
    monkeypatch.setenv("LANGUAGE", "it")
    monkeypatch.setenv("COLUMNS", "400")  # the help's sentences on one line each
    language.choose("it")
    try:
        yield missing
    finally:
        language.choose("en")


def _cli(argv: list[str], capsys) -> str:
    """What `briscola ARGV` writes, its exit status not 0 (an error path)."""
    try:
        status = cli.main(argv)
    except SystemExit as exit:  # argparse's own errors, and --help
        status = exit.code
    out, err = capsys.readouterr()
    assert argv[-1] == "--help" or status not in (0, None), (argv, out, err)
    return out + err


def _cli_errors(tmp_path: Path, capsys) -> list[str]:
    """Every error path of the command line that a person meets, as it writes it."""
    replay = json.loads((FIXTURES / "briscola_seed001.json").read_text())
    files = {
        "garbage.bin": b"hello\n",
        "notjson.json": b"{not json",
        "empty.json": b"{}",
        "badgame.json": json.dumps({**replay, "options": {"nope": 1}}).encode(),
        "baddeal.json": json.dumps({**replay, "deal": {"hands": []}}).encode(),
        "badaction.json": json.dumps({**replay, "actions": [{"seat": 0, "action": "fly"}]}).encode(),
        "illegal.json": json.dumps({**replay, "actions": replay["actions"][:1] * 2}).encode(),
        "binary.json": b"\xff\xfe",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    old = tmp_path / "old.bin"
    from protocol.codec import encode, frame
    from protocol.transcript_file import FILE_MAGIC

    old.write_bytes(frame(encode([FILE_MAGIC, 1, bytes(16), []])))
    runs = [
        ["play", "--game", "chiamata", "--players", "3"],
        ["play", "-o", "foo=1"],
        ["play", "-o", "match=9"],
        ["play", "-o", "trump_exchange=x"],
        ["play", "-o", "novalue"],
        ["play", "--game", "nope"],
        ["play", "--resume"],
        ["selfplay", "--game", "chiamata", "--players", "3"],
        ["selfplay", "--hands", "0"],
        ["selfplay", "--cheater", "1"],
        ["selfplay", "--seats", "genius"],
        ["replay", str(tmp_path / "missing.json")],
        *(["replay", str(tmp_path / name)] for name in files if name.endswith(".json")),
        ["verify", str(tmp_path / "garbage.bin")],
        ["verify", str(tmp_path / "missing.bin")],
        ["verify", str(old)],
        ["verify"],
        ["review", str(tmp_path / "garbage.bin")],
        ["join", "127.0.0.1:9", "--name", "cpu1", "--headless"],
        ["join", "127.0.0.1:9", "--name", " Ann", "--headless"],
        ["join", "127.0.0.1:9", "--name", "A\x1bB", "--headless"],
        ["join", "nowhere", "--headless"],
        ["host", "--game", "chiamata", "--players", "3", "--headless", "--port", "0"],
        ["host", "-o", "foo=1", "--headless", "--port", "0"],
        ["host", "--transcript", str(tmp_path / "garbage.bin"), "--headless", "--port", "0"],
        ["join", "--help"],
        ["host", "--help"],
        ["watch", "--help"],
    ]
    return [_cli(argv, capsys) for argv in runs]


def _reasons() -> list[str]:
    """Every reason code, worded as a client and a host write it; a peer's own words."""
    said = []
    for code in REASONS:
        reason = Reason.of(code, **dict.fromkeys(fields_of(code), "7"))
        said += [engine_words.reason_words(reason), refusal(reason.wire(), ""), refusal(reason.wire(), "x")]
    said.append(engine_words.reason_words("the host's own words"))
    return said


def _tables() -> list[str]:
    """Whole tables of each game, every event rendered as a spectator reads it, and a cheat
    named; the notes and the events of trouble."""
    out = io.StringIO()
    for game, players in (("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)):
        selfplay.selfplay(game, players, 1, 3, None, {}, out, deal_seed=1)
    for game, players, cheat in (
        ("briscola", 3, "wrong-share"),
        ("calabresella", 3, "renege"),
        ("briscola", 3, "forge"),
    ):
        selfplay.selfplay(game, players, 1, 3, None, {}, out, cheat=cheat, deal_seed=1)  # a cheat named, a hand stopped
    names = ("you", "Bea", "Carlo")
    notes = [
        AtTable(0, "ab", "briscola"),
        AtTable(None, "ab", "chiamata"),
        SoFar(names, (0, 1, 2), 2),
        Away(1, "Bea"),
        Back(1),
        Stopping("x", 1),
        TableStopped((Culprit(1, "sent a wrong key share", 3),)),
        TableOver((1, 2), Reason.of("hands-played", hands=2).wire()),
        Resumed(1),
        Resumed(None, 2),
        Said("x"),
        StoppedEarly(1),
        Refused(1, "x"),
        Complained(1, "x"),
        TimedOut(1, "reveal"),
        Evicted(1),
        TableClosed(Reason.of("host-closed").wire()),
    ]
    return [out.getvalue(), *(render(n, HEADLESS, names) for n in notes)]


def _headless() -> list[str]:
    """The headless player's prompt and every way a typed line is no move."""
    said: list[str] = []
    Keyboard(None, said.append).prompt(["play AD", "pass", "bid 2 target 75", "discard none"])
    briscola = make("briscola", 2)
    state = briscola.new_hand(0, briscola.plan(0).deal(list(briscola.deck())))
    seat = state.current_player()
    wrong = ["", "gioca", "gioca 3S 4S", "passo ora", "vola", "dividete", "chiamo", "gioca ZZ", "offri 9 9"]
    wrong += [
        "scarta",
        "scarta 4C 4C",
        "offri obiettivo 200",
        "offri 3 obiettivo 70",
        "rilancia su",
        "gioca 3S",
        "passo",
    ]
    for line in wrong:
        with pytest.raises(LabelError) as error:
            parse(read_typed(line), seat, state)
        said.append(move_error(error.value))
    with pytest.raises(LabelError) as error:
        parse("play AD", 1 - seat, state)
    said.append(move_error(error.value))
    return said


def _coach() -> list[str]:
    """The coach's advice (a move scored higher within the margin and one past it) and the review."""
    play = [Action(0, "play", card=Card(rank, "H")) for rank in ("2", "K", "3", "A")]
    estimates = (
        coach.Estimate(play[3], 30.0, 0.7, 1.0, 9.0, 1.0),
        coach.Estimate(play[1], 22.0, 0.6, 1.0, 1.0, 2.0),
        coach.Estimate(play[0], 21.0, 0.6, 1.0, 0.0, 0.0),
        coach.Estimate(play[2], 20.0, 0.5, 1.0, -1.0, 2.0),
    )
    advice = coach.Advice(play[0], estimates, 24, "point")
    found = coach.Finding(1, 2, "play", estimates[3], estimates[2], 9.0, 1.0)
    lines = review.advice_lines(advice)
    lines += review.hand_lines(coach.Review(0, 3, (found,), "point"))
    lines += review.hand_lines(coach.Review(0, 3, (), "point"))
    return lines


def _retries() -> list[str]:
    """What a client says while its host is away (each try, the end of the window, a host now
    serving another table, a host not there at all)."""
    from briscola_tui.net import reaching

    lost, refused = ConnectionResetError(104, "Connection reset by peer"), ConnectionRefusedError(111, "refused")
    return [
        reaching.still_trying("h:7777", refused, 41.5),
        reaching.given_up("h:7777", 60, refused),
        reaching.unreachable_at("h:7777", 60, reaching.Busy("busy-full", 2)),
        reaching.another_table("h:7777", bytes(16), bytes([1]) * 16),
        reaching.unreachable(refused, "h:7777"),
        reaching.unreachable(lost, "h:7777"),
        reaching.why(lost),
    ]


@pytest.mark.slow
def test_every_message_a_person_meets_is_in_the_italian_catalogue(checking, tmp_path, capsys):
    said = _cli_errors(tmp_path, capsys)
    said += _reasons() + _tables() + _headless() + _coach() + _retries()
    saved = SavedGame(Slot("x", tmp_path), "briscola", 2, 3, (1, 0), ("you", "Bea"), 0.0)
    said.append(saved_label(saved, "·"))
    assert sorted(set(checking)) == [], "words with no Italian translation"
    text = "\n".join(said)
    Path(os.environ.get("ITALIAN_DUMP", "/dev/null")).write_text(text, encoding="utf-8")  # to read them all
    for english in ("is played by", "unknown briscola option", "must be a whole number", "not valid JSON"):
        assert english not in text
    for italian in ("si gioca in 5, non in 3", "opzione di briscola sconosciuta", "non è JSON valido"):
        assert italian in text
    assert "hard giocherebbe 2H" in text and "buona quanto KH" in text and "tu 1 Bea 0" in text
    assert (
        "'passo' non è una mossa valida ora ('passo' non si può fare in questo momento della mano); valide: gioca"
        in text
    )
    assert "tocca a te: gioca AD | passo | offri 2 obiettivo 75 | scarta niente" in text
    assert "ancora nessun host a h:7777 (nessuno risponde su quella porta); riprovo, restano 42 s" in text


def test_the_cli_errors_read_in_italian(checking, tmp_path, capsys):
    said = _cli_errors(tmp_path, capsys)
    assert "briscola play: chiamata si gioca in 5, non in 3" in said[0]
    assert "opzione di briscola sconosciuta: 'foo' (quelle note:" in said[1]
    assert "l'opzione match dev'essere un numero intero da 1 a 5, non 9" in said[2]
    assert any("manca la chiave 'game'" in text for text in said)
    assert any("non è un registro di briscola" in text for text in said)
    assert any("un registro del formato 1, scritto da una versione precedente" in text for text in said)
    assert any("un nome non può cominciare o finire con uno spazio" in text for text in said)
    assert any("'gioca 3S' o 'play 3S'" in text for text in said)


def test_the_checker_catches_a_missing_translation(monkeypatch):
    missing: list[str] = []
    without = _translations(drop="seat {seat} is taken")
    monkeypatch.setattr(language, "_catalogue", lambda code: Checking(without, missing) if code == "it" else _ENGLISH)
    language.choose("it")
    try:
        assert refusal(Reason.of("seat-taken", seat=2).wire(), "x") == "l'host ha rifiutato: seat 2 is taken"
    finally:
        language.choose("en")
    assert missing == ["seat {seat} is taken"]
