"""Names the command line lists without loading what they name.

`briscola --help` and the home screen must start fast: the cheats are defined in
`briscola_tui.tools.cheaters`, which loads the whole protocol and `cryptography`, and
the levels in `engine.bots`, which loads every computer player. The command line
only needs their names; tests/test_startup.py checks these lists agree with the
definitions.
"""

# The computer players' levels (engine.bots.PLAYERS), from weakest.
LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")

# The cheats `briscola selfplay --cheat KIND` can stage (briscola_tui.tools.cheaters.CHEATS).
# `--cheater N` names the seat; CHEATER when it is not given, except for the cheats only the
# first seat to shuffle can commit (FIRST_SHUFFLER_CHEATS: seat 0) and the host's cheats
# (HOST_CHEATS: the seat the host cheats against).

CHEATER = 1
FIRST_SHUFFLER_CHEATS: tuple[str, ...] = ("substitute", "tag-card")
HOST_CHEATS: tuple[str, ...] = ("host-fork", "seat-hijack")

CHEAT_KINDS: tuple[str, ...] = (
    "bad-key",
    "bad-reveal",
    "duplicate",
    "false-complaint",
    "false-denial",
    "forge",
    "garbage-shuffle",
    "host-fork",
    "play-unheld",
    "renege",
    "replay",
    "seat-hijack",
    "substitute",
    "swap-positions",
    "tag-card",
    "two-rule",
    "withhold-reveal",
    "wrong-proof",
    "wrong-public-share",
    "wrong-share",
)
