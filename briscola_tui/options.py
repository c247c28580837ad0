"""What a command starts, with its defaults, in one place: the command line
(`briscola play`, `host`, `join`, `watch`: `default=HostOptions.port`) and the
home screen's forms (screens/setup.py, screens/netforms.py) read their
defaults here, and the forms build these objects. Light: `briscola --help`
loads it."""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_GAME = "briscola"
"""The game a command or a form starts when none is chosen (`engine.games.GAMES` has the others)."""


@dataclass
class PlayOptions:
    """`briscola play` and the setup screen: a game against the computer."""

    game: str = DEFAULT_GAME
    players: int | None = None
    """None: the game's default table (`GameInfo.default_players`)."""
    hands: int | None = None
    """None: the whole series."""
    level: str | None = None
    """None: the level in the settings (`Settings.level`)."""
    pace: float = 0.4
    """Seconds a computer player takes per decision."""


@dataclass
class HostOptions:
    """`briscola host` and the host form: one table on the network."""

    game: str = DEFAULT_GAME
    players: int | None = None
    """None: the game's default table."""
    hands: int | None = None
    """None: the whole series."""
    port: int = 7777
    """0: any free port."""
    bind: str = "0.0.0.0"
    """The address to listen on: every interface."""
    code: str | None = None
    """None: a random join code (or the one a resumed table had)."""
    open: bool = False
    """True: no join code at all."""
    bots: int = 0
    """Computer players in the last seats."""
    level: str | None = None
    """None: the level in the settings (`Settings.level`), as the host form offers it."""
    bots_replace: bool = False
    coach: bool = False
    """True: the table rule `coach`, the players may ask the coach (`h`, the review)."""
    transcript: str | None = None
    time_limit: int | None = None
    option: list[tuple[str, object]] = field(default_factory=list)
    """Game options, (NAME, VALUE) as `-o NAME=VALUE` gives them."""
    name: str | None = None
    """The host's own name at its seat 0 (the app)."""
    ascii: bool = False


@dataclass
class JoinOptions:
    """`briscola join` and the join form: a seat at a table on the network."""

    address: str = ""
    """HOST:PORT."""
    code: str | None = None
    name: str | None = None
    seat: int = -1
    """-1: any free seat."""
    bot: str | None = None
    """A computer player's level to play the seat; None: the person does."""
    retry: float = 60.0
    """Seconds to keep trying to reach the host after a drop."""


@dataclass
class WatchOptions:
    """`briscola watch` and the watch form: a spectator."""

    address: str = ""
    code: str | None = None
    retry: float = 60.0
