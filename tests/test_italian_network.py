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

import pytest

from briscola_tui import language
from briscola_tui.net.admission import Guesses, GuessLimits
from briscola_tui.net.connection import Conn
from briscola_tui.net.listener import Keyboard
from briscola_tui.net.ordering import BOT_NAMES
from briscola_tui.net.reaching import refusal
from briscola_tui.net.typed import move_error, read_typed, typed_label
from briscola_tui.tables.lobby_data import waiting
from engine.games import make
from engine.labels import LabelError, parse
from protocol.channel import WRONG_CODE
from protocol.reasons import Reason

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


@pytest.mark.slow
def test_a_joiner_that_reaches_nothing_says_so_in_italian():
    done = join_nobody("it")
    assert done.returncode == 1, done.stderr
    assert f"nessuno risponde a 127.0.0.1:{done.port} (l'host è avviato, su quella porta?)" in done.stdout
    english = join_nobody("en")
    assert f"nothing answers at 127.0.0.1:{english.port} (is the host running, on that port?)" in english.stdout


def said_to(code: str = ""):
    """What a client joining with `code` says of a host's refusal."""
    return lambda reason: refusal(reason, code)


def test_refusals_and_the_prompt_in_italian(italian):
    assert said_to()(WRONG_CODE) == "l'host ha rifiutato: questo tavolo vuole un codice d'accesso (--code)"
    assert said_to("x")(WRONG_CODE) == "l'host ha rifiutato: codice d'accesso errato"
    # The host sends a code and its fields: the client words it in its own language.
    assert said_to("x")(Reason.of("seat-taken", seat=2).wire()) == "l'host ha rifiutato: il posto 2 è occupato"
    # A host of an earlier version sent English words: a reason without fields is known by them.
    assert said_to("x")("no handshake in time") == "l'host ha rifiutato: nessun handshake in tempo"
    # Any other text is the host's own words: shown literally (escaped), marked as the peer's, bounded.
    assert said_to("x")("posto\x1bpreso") == (
        "l'host ha rifiutato: «posto\\x1bpreso» (parole dell'altro nodo, così come le ha scritte)"
    )
    assert len(said_to("x")("x" * 5000)) < 300
    said = []
    Keyboard(None, said.append).prompt(["play AD", "play 3C"])
    assert said == ["tocca a te: gioca AD | gioca 3C"]  # the moves as an Italian player types them


def test_a_headless_player_types_italian_or_english(italian):
    typed = ["gioca 3S", "play 3S", "Gioco 3S", "passo", "pass", "offri 2 obiettivo 75", "scarta niente", "chiama KD"]
    typed += ["chiamo", "rilancia dividete"]
    assert [read_typed(line) for line in typed] == [
        "play 3S",
        "play 3S",
        "play 3S",
        "pass",
        "pass",
        "bid 2 target 75",
        "discard none",
        "call KD",
        "chiamo",  # alone, a contract: the labels read it as such (bid chiamo)
        "raise dividete",
    ]
    assert typed_label("bid 2 target 75") == "offri 2 obiettivo 75"
    game = make("briscola", 2)
    state = game.new_hand(0, game.plan(0).deal(list(game.deck())))
    with pytest.raises(LabelError) as error:
        parse(read_typed("gioca 3S 4S"), state.current_player(), state)
    assert move_error(error.value) == "gioca vuole una carta, es. 'gioca 3S'"


def test_the_lobby_and_the_host_console_in_italian(italian):
    joining = SimpleNamespace(phase="join", expected=lambda: (None, {1, 2}))
    assert waiting(joining) == "in attesa di giocatori per i posti 1, 2"
    assert waiting(SimpleNamespace(phase="play", expected=lambda: (None, set()))) == "mano in corso"
    conn = Conn(3, link=None)
    conn.seat = 0
    assert str(conn) == "connessione 3 (posto 0)"
    guesses = Guesses(GuessLimits())
    assert (
        guesses.wrong_code("10.0.0.9") == "un codice d'accesso errato da 10.0.0.9 (gli altri riassunti fra un minuto)"
    )
    guesses.wrong_code("10.0.0.9")
    assert guesses.report() == "2 codici d'accesso errati da 10.0.0.9 nell'ultimo minuto"


def test_what_goes_on_the_wire_is_a_code(italian):
    # A refusal goes as its code and fields, whatever the host's language: the joiner words it.
    assert Reason.of("bot-name", name="'cpu1'").wire() == "bot-name\x1f'cpu1'"
    assert language._(BOT_NAMES).startswith("un nome come cpu1")


def test_english_is_unchanged():
    assert said_to()(WRONG_CODE) == "the host refused: this table needs a join code (--code)"
    conn = Conn(3, link=None)
    conn.role = "spectator"
    assert str(conn) == "connection 3 (spectator)"
    seating = SimpleNamespace(phase="seating", expected=lambda: (None, {1, 2}))
    assert waiting(seating) == "waiting for seat 1, 2 to be taken again"
    guesses = Guesses(GuessLimits())
    guesses.wrong_code("10.0.0.9")
    guesses.wrong_code("10.0.0.9")
    assert guesses.report() == "2 wrong join codes from 10.0.0.9 in the last minute"
