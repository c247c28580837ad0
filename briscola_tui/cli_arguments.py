"""What several commands of the `briscola` command line take alike: a game option, a whole
number of at least 1, a list of levels, --game and --players, -o NAME=VALUE, --ascii."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from engine.games import GAMES

from .language import _
from .names import LEVELS
from .options import DEFAULT_GAME

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]
    """What `add_subparsers` returns: each command's parser is added to it."""


def game_option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(_("options are NAME=VALUE, not {text}").format(text=repr(text)))
    name, value = text.split("=", 1)
    if value.isdigit():
        return name, int(value)
    return name, {"true": True, "false": False}.get(value.lower(), value)


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(_("expected a whole number of at least 1, not {text}").format(text=repr(text)))
    return value


def levels(text: str) -> list[str]:
    levels = [t.strip() for t in text.split(",")]
    unknown = [t for t in levels if t not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            _("unknown level {level} (levels: {levels})").format(
                level=repr(unknown[0]), levels=", ".join(sorted(LEVELS))
            )
        )
    return levels


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """--game and --players, as every command that opens a table takes them."""
    parser.add_argument("--game", default=DEFAULT_GAME, choices=list(GAMES))
    parser.add_argument("--players", type=int, help=_("number of players (default: the game's smallest table)"))


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """-o NAME=VALUE, a game option (repeatable)."""
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        type=game_option,
        default=[],
        metavar="NAME=VALUE",
        help=_("a game option, e.g. -o trump_exchange=2 (see docs/rules.md)"),
    )


def add_ascii_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """--ascii after the command; it leaves the value alone when not given, so that `briscola
    --ascii play` (the option before the command) holds too."""
    parser.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=help)
