"""What a command starts, with its defaults, in one place: the command line
(`briscola play`, `host`, `join`, `watch`: `default=HostOptions.port`) and the
home screen's forms (screens/setup.py, screens/netforms.py) read their
defaults here; the command line (`cli.host_options` and the others) and the
forms build these objects, and what they start (`net.commands`,
`tui.netapp`) takes them. Light: `briscola --help` loads it."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_GAME = "briscola"
"""The game a command or a form starts when none is chosen (`engine.games.GAMES` has the others)."""


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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
    advertise: bool = True
    """True: the table is announced on the LAN (net/announcing.py); False: a private table."""
    bots: int = 0
    """Computer players in the last seats."""
    level: str | None = None
    """None: the level in the settings (`Settings.level`), as the host form offers it."""
    bots_replace: bool = False
    coach: bool = False
    """True: the table rule `coach`, the players may ask the coach (`h`, the review)."""
    transcript: str | None = None
    new: bool = False
    """True: a new table, even when this command's unfinished table is kept (`files.hosted`)."""
    time_limit: int | None = None
    option: tuple[tuple[str, object], ...] = ()
    """Game options, (NAME, VALUE) as `-o NAME=VALUE` gives them."""
    name: str | None = None
    """The host's own name at its seat 0 (the app)."""
    headless: bool = False
    """True: only serve the table, the game as lines; False: the app, the host at seat 0."""
    ascii: bool = False
    port_file: str | None = None
    """Where to write the port once listening (scripts and tests)."""
    handshake_seconds: float = 10.0
    """Tests: `connection.Limits.handshake_seconds`."""
    backlog: int = 5_000
    """Tests: `connection.Limits.backlog`."""
    limit: tuple[str, ...] = ()
    """Tests: NAME=VALUE, any other field of `connection.Limits`."""
    guess_free: int | None = None
    """Tests: `admission.GuessLimits.free` (None: its default), and the two below."""
    guess_seconds: float | None = None
    guess_report_seconds: float | None = None
    club: str | None = None
    """The club (a name `briscola club add` kept, or its URL) the table goes through; None: the LAN."""


@dataclass(frozen=True)
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
    headless: bool = False
    """True: the game as lines, moves read from standard input; False: the app."""
    ascii: bool = False
    table: str | None = None
    """The id (hex) of the table the LAN named for HOST:PORT: the host must answer as that table."""
    club: str | None = None
    """The club (a name `briscola club add` kept, or its URL) the table goes through; None: the LAN."""
    via: str = ""
    """Through a club: the name the table's host has there (the club's list says it)."""


@dataclass(frozen=True)
class WatchOptions:
    """`briscola watch` and the watch form: a spectator."""

    address: str = ""
    code: str | None = None
    retry: float = 60.0
    headless: bool = False
    """True: the public events as lines; False: the app."""
    ascii: bool = False
    table: str | None = None
    """As `JoinOptions.table`."""
    club: str | None = None
    """The club (a name `briscola club add` kept, or its URL) the table goes through; None: the LAN."""
    via: str = ""


NetOptions = HostOptions | JoinOptions | WatchOptions
"""What `briscola host`, `join` or `watch` starts."""
