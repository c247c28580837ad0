"""The network's words in Italian: what a joiner reads when nothing answers or the host
refuses, the headless player's prompt, the lobby's status and the host's console; and
what goes on the wire (or into a transcript) stays in English."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from briscola_tui import language
from briscola_tui.net.admission import Guesses, GuessLimits
from briscola_tui.net.client import Client, Options
from briscola_tui.net.connection import Conn
from briscola_tui.net.listener import Keyboard, Listener
from briscola_tui.net.ordering import BOT_NAMES
from briscola_tui.tables.lobby_data import waiting
from protocol.channel import WRONG_CODE

BRISCOLA = Path(sys.executable).parent / "briscola"


def free_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def join_nobody(lang: str) -> subprocess.CompletedProcess:
    port = free_port()
    env = dict(os.environ, LANGUAGE=lang)
    command = [str(BRISCOLA), "join", f"127.0.0.1:{port}", "--headless", "--code", "abc234"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    done.port = port
    return done


def test_a_joiner_that_reaches_nothing_says_so_in_italian():
    done = join_nobody("it")
    assert done.returncode == 1, done.stderr
    assert f"nessuno risponde a 127.0.0.1:{done.port} (l'host è avviato, su quella porta?)" in done.stdout
    english = join_nobody("en")
    assert f"nothing answers at 127.0.0.1:{english.port} (is the host running, on that port?)" in english.stdout


def client(code: str = "") -> Client:
    return Client(Options("127.0.0.1", 7777, "player", code=code), Listener(lambda line: None))


def test_refusals_and_the_prompt_in_italian(italian):
    assert client()._refusal(WRONG_CODE) == "l'host ha rifiutato: questo tavolo vuole un codice d'accesso (--code)"
    assert client("x")._refusal(WRONG_CODE) == "l'host ha rifiutato: codice d'accesso errato"
    # Any other reason is the host's own words (it may speak another language): shown as it came.
    assert client("x")._refusal("seat 2 is taken") == "l'host ha rifiutato: seat 2 is taken"
    said = []
    Keyboard(None, said.append).prompt(["play AD", "play 3C"])
    assert said == ["tocca a te: play AD | play 3C"]  # the labels are what the player types: not translated


def test_the_lobby_and_the_host_console_in_italian(italian):
    joining = SimpleNamespace(phase="join", expected=lambda: (None, {1, 2}))
    assert waiting(joining) == "in attesa di giocatori per i posti 1, 2"
    assert waiting(SimpleNamespace(phase="play", expected=lambda: (None, set()))) == "mano in corso"
    conn = Conn(3, writer=None)
    conn.seat = 0
    assert str(conn) == "connessione 3 (posto 0)"
    guesses = Guesses(GuessLimits())
    assert (
        guesses.wrong_code("10.0.0.9") == "un codice d'accesso errato da 10.0.0.9 (gli altri riassunti fra un minuto)"
    )
    guesses.wrong_code("10.0.0.9")
    assert guesses.report() == "2 codici d'accesso errati da 10.0.0.9 nell'ultimo minuto"


def test_what_goes_on_the_wire_stays_english(italian):
    # A joiner under a computer player's name is refused with these words: the joiner may not read Italian.
    assert BOT_NAMES.startswith("a name such as cpu1")
    assert language._(BOT_NAMES).startswith("un nome come cpu1")


def test_english_is_unchanged():
    assert client()._refusal(WRONG_CODE) == "the host refused: this table needs a join code (--code)"
    conn = Conn(3, writer=None)
    conn.role = "spectator"
    assert str(conn) == "connection 3 (spectator)"
    seating = SimpleNamespace(phase="seating", expected=lambda: (None, {1, 2}))
    assert waiting(seating) == "waiting for seat 1, 2 to be taken again"
    guesses = Guesses(GuessLimits())
    guesses.wrong_code("10.0.0.9")
    guesses.wrong_code("10.0.0.9")
    assert guesses.report() == "2 wrong join codes from 10.0.0.9 in the last minute"
