"""The commands in Italian: `briscola --help` and its subcommands' help (argparse's own words
through our catalogue too), the errors and summaries of selfplay and verify, the refusals of
files/ — and English unchanged beside them."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from briscola_tui import cli, language
from briscola_tui.files import folders
from briscola_tui.files.storage import torn_warning
from briscola_tui.tools import replay_steps, selfplay, verify

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def help_of(argv: list[str]) -> str:
    out = io.StringIO()
    parser = cli.build_parser()
    with pytest.raises(SystemExit) as exit_, _redirect(out):
        parser.parse_args(argv)
    assert exit_.value.code == 0
    return out.getvalue()


class _redirect:
    def __init__(self, out):
        self.out = out

    def __enter__(self):
        self.saved, sys.stdout = sys.stdout, self.out

    def __exit__(self, *exc):
        sys.stdout = self.saved


def test_the_main_help_is_italian(italian, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = help_of(["--help"])
    assert text.startswith("uso: briscola [-h] [--ascii] [--version] COMMAND ...")
    assert "argomenti posizionali:" in text
    assert "opzioni:" in text
    assert "mostra questo aiuto ed esci" in text
    assert "mostra la versione del programma ed esci" in text
    assert "gioca contro il computer (il tavolo interattivo)" in text
    assert "nel terminale. Senza comando: la" in text
    assert "Briscola, Briscola Chiamata e Calabresella" in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("command", ["play", "selfplay", "verify", "replay", "host", "join", "watch"])
def test_every_subcommand_help_is_italian_within_80_columns(italian, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "80")
    text = help_of([command, "--help"])
    assert text.startswith(f"uso: briscola {command} ")
    assert "mostra questo aiuto ed esci" in text
    assert "usage:" not in text and "show this help" not in text
    assert all(len(line) <= 80 for line in text.splitlines()), text


def test_the_selfplay_help_fills_its_fields(italian, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = help_of(["selfplay", "--help"])
    assert "substitute e tag-card: il posto 0, il primo a mescolare" in text
    assert "host-fork e seat-hijack: il posto imbrogliato dall'host" in text
    host = help_of(["host", "--help"])
    assert "porta TCP (predefinita 7777; 0: una porta libera qualsiasi)" in host


def test_argparse_errors_are_italian(italian, capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["selfplay", "--hands", "0"])
    err = capsys.readouterr().err
    assert "uso: briscola selfplay" in err
    assert "briscola selfplay: errore: argomento --hands: serve un numero intero di almeno 1, non '0'" in err
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["verify"])
    assert "errore: questi argomenti sono obbligatori: file" in capsys.readouterr().err


def test_selfplay_refusals_are_italian(italian, capsys, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "it")  # main chooses the language from the setting: auto
    assert cli.main(["selfplay", "--cheater", "1"]) == 2
    assert "indica anche l'imbroglio" in capsys.readouterr().err
    with pytest.raises(selfplay.SelfplayError, match="livelli indicati 1, giocatori al tavolo 2"):
        selfplay.selfplay("briscola", 2, 1, 1, None, {}, io.StringIO(), seats=["normal"])


@pytest.mark.slow
def test_a_quiet_selfplay_and_its_verify_read_in_italian(italian, tmp_path):
    transcript = tmp_path / "t.bin"
    out = io.StringIO()
    assert selfplay.selfplay("briscola", 2, 1, 1, str(transcript), {}, out, quiet=True) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("briscola, 2 giocatori, opzioni ")
    assert lines[1].startswith("mano 1: ")
    assert "tavolo chiuso dopo 1 mano" in lines
    assert any(line.startswith("registro: ") and line.endswith(" voci)") for line in lines)
    story, err = io.StringIO(), io.StringIO()
    assert verify.verify(transcript, story, err) == 0
    told = story.getvalue()
    assert "ok      mano 1: tutti i controlli superati — " in told
    assert "controllo di 1 mano" in told
    # what went into the transcript stays English (it is data, not words for the reader)
    assert "completo: l'host ha chiuso il tavolo: il tavolo finisce dopo la mano 1, come stabilito all'avvio" in told


def test_verify_refuses_a_bad_file_in_italian(italian, tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"garbage\n")
    err = io.StringIO()
    assert verify.verify(bad, io.StringIO(), err) == 1
    assert err.getvalue() == f"briscola verify: {bad} non è un registro di briscola\n"
    err = io.StringIO()
    assert verify.verify(tmp_path / "none", io.StringIO(), err) == 1
    assert err.getvalue().startswith("briscola verify: impossibile leggere ")


def test_the_replay_viewer_and_files_speak_italian(italian, tmp_path):
    with pytest.raises(replay_steps.ReplayError, match="impossibile leggere"):
        replay_steps.steps_of(tmp_path / "none.bin")
    assert replay_steps.whose_copy("offline-briscola-1") == "contro il computer"
    assert replay_steps.whose_copy("x-seat2") == "giocata al posto 2"
    assert torn_warning(5).startswith("scartato un ultimo frammento troncato di 5 byte")
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    with pytest.raises(folders.UnsafeFolder, match="non è una cartella"):
        folders.private_folder(not_a_folder)


def test_english_is_unchanged(monkeypatch, tmp_path):
    language.choose("en")
    monkeypatch.setenv("COLUMNS", "80")
    text = help_of(["--help"])
    assert text.startswith("usage: briscola [-h] [--ascii] [--version] COMMAND ...")
    assert "show program's version number and exit" in text
    assert "play against the computer (the interactive table)" in text
    assert replay_steps.whose_copy("x-host") == "hosted"
    err = io.StringIO()
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"x")
    verify.verify(bad, io.StringIO(), err)
    assert err.getvalue() == f"briscola verify: {bad} is not a briscola transcript\n"


def _briscola() -> list[str]:
    script = Path(sys.executable).with_name("briscola")
    if script.exists():
        return [str(script)]
    found = shutil.which("briscola")
    return [found] if found else [sys.executable, "-m", "briscola_tui.cli"]


@pytest.mark.parametrize("locale", [{"LANGUAGE": "it"}, {"LANG": "it_IT.UTF-8"}], ids=["LANGUAGE", "LANG"])
def test_a_real_process_speaks_italian(locale):
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(locale, COLUMNS="80")
    done = subprocess.run(
        [*_briscola(), "--help"], env=env, capture_output=True, text=True, timeout=60, encoding="utf-8"
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("uso: briscola ")
    assert "argomenti posizionali:" in text
    assert "opzioni:" in text
    assert "mostra questo aiuto ed esci" in text
    assert "verifica un registro salvato" in text
    assert all(len(line) <= 80 for line in text.splitlines())
