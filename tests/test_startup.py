"""`briscola --help` and the home screen start without the protocol stack.

Loading `protocol` and `cryptography` costs about 140 ms of every start; only a
table (or a command that deals or checks one) needs them. The command line
lists the cheats and levels from `briscola_tui.names`, which must agree with
their definitions.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from briscola_tui.names import CHEAT_KINDS, FIRST_SHUFFLER_CHEATS, HOST_CHEATS, LEVELS
from briscola_tui.tools.cheaters import CHEATS
from engine.bots import PLAYERS
from engine.games import GAMES, make

HEAVY = ("protocol", "cryptography", "coincurve", "msgpack", "engine.bots")


def loaded_after(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has loaded after running `code`."""
    probe = code + textwrap.dedent(f"""
        import sys
        heavy = {HEAVY!r}
        print(" ".join(sorted(m for m in sys.modules if m.startswith(heavy))))
        """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_help_loads_no_protocol():
    code = textwrap.dedent("""
        import contextlib, io
        from briscola_tui.cli import main
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            main(["--help"])
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            main(["selfplay", "--help"])
        """)
    assert loaded_after(code) == []


def test_the_home_screen_loads_no_protocol():
    code = textwrap.dedent("""
        import asyncio
        from briscola_tui.tui.app import BriscolaApp
        from briscola_tui.tui.screens.home import HomeScreen

        async def run():
            app = BriscolaApp(ascii=True)
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(50):
                    if isinstance(app.screen, HomeScreen):
                        break
                    await pilot.pause(0.05)
                assert isinstance(app.screen, HomeScreen)
                await pilot.pause()

        asyncio.run(run())
        """)
    assert loaded_after(code) == []


def test_the_names_the_command_line_lists_are_the_real_ones():
    assert sorted(CHEAT_KINDS) == sorted(CHEATS) and len(set(CHEAT_KINDS)) == len(CHEAT_KINDS)
    assert sorted(FIRST_SHUFFLER_CHEATS) == sorted(k for k, cheat in CHEATS.items() if cheat.seat == 0)
    assert sorted(HOST_CHEATS) == sorted(k for k, cheat in CHEATS.items() if cheat.session is None)
    assert sorted(LEVELS) == sorted(PLAYERS)


def test_the_games_the_command_line_lists_are_the_real_ones():
    """`engine.games.GAMES` is plain data that loads no rules; each game's class agrees with it."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, engine.games; print(sorted(m for m in sys.modules if m.startswith('engine')))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["['engine',", "'engine.games']"], done.stderr
    for name, info in GAMES.items():
        game = make(name)
        assert (type(game).name, type(game).PLAYERS, game.players) == (name, info.players, info.default_players)
        for players in info.players:
            teams = make(name, players).teams()
            assert (teams is not None) == (players in info.teams)
            if teams:
                assert teams == [list(range(0, players, 2)), list(range(1, players, 2))]
