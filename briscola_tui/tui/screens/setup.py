"""New game against the computer: the game, players, the rule options with
their explanations (values and defaults from the engine's option tables),
the computer players' level and how many hands to play. Arrows or Space
change the row under the cursor; Enter starts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine.games import GAMES
from engine.text import visible

from ...files.settings import LEVELS, Settings, value_word
from ...language import N_, _
from ...options import PlayOptions
from ...wording import listing
from ..shell import Shell
from ..widgets.choices import DIGITS, Choice, Choices
from ..widgets.fit import hanging
from ..widgets.literal import literal

STOP_AFTER = (None, 1, 2, 3, 5, 10)
OPTION_HELP = {
    "trump_exchange": N_("the player holding the 2 (or 7) of trump may swap it for the face-up card"),
    "seven_second": N_("the 7 ranks second (A 7 K Q J ...) and is worth 10; the 3 is worth 0"),
    "open_hands": N_("every hand is dealt face up"),
    "black_hand": N_("holding A, 3 and K of trump you may declare and win the hand at once"),
    "scoring": N_(
        "briscola: hands won, or game points (1-3 a hand, first to 12); "
        "chiamata: units by target, or flat (one unit whatever the target)"
    ),
    "match": N_("hands to win the match (scoring by hands)"),
    "auction": N_("rank: bid ranks downwards, then the 2 with a target; points: bid targets 61-120 upwards"),
    "call": N_("exact: call a card of the rank bid; at_least: that rank or higher"),
    "cappotto": N_("the score doubles when one side takes all 8 tricks, or (points) all 120 points"),
    "series_hands": N_("scored hands in the series"),
    "series_target": N_("above 0: the series lasts until someone reaches this score"),
}
"""Each game option's explanation (translated with `_` where shown); the option names stay as
`-o` takes them."""
ROW_HELP = {
    "game": N_("which game: {games}"),
    "players": N_("how many sit at the table; you and computer players"),
    "level": N_("how well the computer plays: random, easy, normal, hard (slower)"),
    "hands": N_("stop after this many hands, or play the whole series"),
}

ROW_NAMES = {"game": N_("game"), "players": N_("players"), "level": N_("level"), "hands": N_("hands")}
"""The fixed rows' names in words; the options' rows are named as `-o` takes them."""


def row_name(name: str) -> str:
    return _(ROW_NAMES[name]) if name in ROW_NAMES else name.replace("_", " ")


def row_help(name: str) -> str:
    """The explanation of the setup row `name`, in the current language."""
    if name == "game":
        games = ", ".join(f"{info.short} ({listing(map(str, info.players), _('or'))})" for info in GAMES.values())
        return _(ROW_HELP["game"]).format(games=games)
    text = ROW_HELP.get(name) or OPTION_HELP.get(name, "")
    return _(text) if text else ""


@dataclass
class Row:
    name: str
    values: tuple
    value: object

    def step(self, by: int) -> None:
        i = self.values.index(self.value) if self.value in self.values else 0
        self.value = self.values[(i + by) % len(self.values)]


def show_value(value: object) -> str:
    if value is None:
        return _("whole series")
    if isinstance(value, bool):
        return value_word("", value)
    if value in LEVELS:
        return value_word("level", value)
    return str(value)


def rows_for(game: str, players: int | None, level: str, hands: int | None, options: dict) -> list[Row]:
    """The setup rows of `game`: fixed rows, then the game's options (defaults from the engine)."""
    info = GAMES[game]
    cls = info.load()
    players = players if players in info.players else info.default_players
    rows = [
        Row("game", tuple(GAMES), game),
        Row("players", info.players, players),
        Row("level", LEVELS, level),
        Row("hands", STOP_AFTER, hands),
    ]
    for name, values in cls.OPTIONS.items():
        rows.append(Row(name, tuple(values), options.get(name, values[0])))
    for name, (default, low, high) in cls.INT_OPTIONS.items():
        step = 50 if high - low > 200 else 1
        values = tuple(range(low, high + 1, step))
        if default not in values:
            values = tuple(sorted({*values, default}))
        rows.append(Row(name, values, options.get(name, default)))
    return rows


class RowsScreen(Screen[None]):
    """A titled list of rows, one line explaining the row under the cursor, keys at the bottom."""

    app = getters.app(Shell)

    CSS_PATH = "setup.tcss"
    HEADING = ""
    KEYS = ""
    ROW_BINDINGS = [*DIGITS, Binding("up,k", "move(-1)", show=False), Binding("down,j", "move(1)", show=False)]

    def compose(self) -> ComposeResult:
        yield Static(Text(f" {_(self.HEADING)}", "bold"), id="setup-title")
        yield Choices(id="setup-rows")
        yield Static(id="setup-help")
        yield Static(f" {_(self.KEYS)}", id="setup-keys")

    def show_words(self) -> None:
        """The heading and the keys again, in the current language."""
        self.query_one("#setup-title", Static).update(Text(f" {_(self.HEADING)}", "bold"))
        self.query_one("#setup-keys", Static).update(f" {_(self.KEYS)}")

    def on_mount(self) -> None:
        self.query_one(Choices).columns_max = 1
        self.show_rows(0)

    def show_help(self, *texts: str) -> None:
        """The lines under the rows: each text wrapped within the screen under its own indent."""
        help_ = self.query_one("#setup-help", Static)
        width = help_.content_region.width or self.app.size.width - 4  # (the screen's padding)
        lines = [literal(line, "italic") for text in texts for line in hanging(visible(text), width)]
        help_.update(Text("\n").join(lines))

    def show_rows(self, cursor: int) -> None:  # pragma: no cover - each screen has its own
        """Show the rows, the one at `cursor` chosen (each screen of rows has its own)."""
        raise NotImplementedError

    def action_digit(self, d: int) -> None:
        i = self.query_one(Choices).on_page(d)
        if i is not None:
            self.show_rows(i)

    def action_back(self) -> None:
        self.app.pop_screen()


class SetupScreen(RowsScreen):
    HEADING = N_("New game against the computer")
    KEYS = N_("up/down row   left/right change   Enter start   Escape back   ? rules")
    BINDINGS = [
        *RowsScreen.ROW_BINDINGS,
        Binding("left,h", "change(-1)", show=False),
        Binding("right,l,space", "change(1)", show=False),
        Binding("enter", "start", show=False),
        Binding("escape", "back", show=False),
        Binding("question_mark", "help", show=False),
    ]

    def __init__(
        self, game: str = PlayOptions.game, players: int | None = None, level: str = Settings.level, **kwargs: Any
    ):
        super().__init__(**kwargs)
        self.rows = rows_for(game, players, level, None, {})

    def show_rows(self, cursor: int) -> None:
        items = [Choice(f"{row_name(row.name):<15} {show_value(row.value)}") for row in self.rows]
        menu = self.query_one(Choices)
        menu.page_size_max = len(items)
        menu.show(items, cursor, 1)
        row = self.rows[cursor]
        explain = row_help(row.name)
        values = (
            ", ".join(show_value(v) for v in row.values)
            if len(row.values) <= 8
            else _("{low} to {high}").format(low=show_value(row.values[0]), high=show_value(row.values[-1]))
        )
        self.show_help(f"{row_name(row.name)}: {explain}", _("values: {values}").format(values=values))

    @property
    def cursor(self) -> int:
        return self.query_one(Choices).cursor

    def choice(self) -> dict:
        """The game to start: {"game", "players", "level", "hands", "options"}."""
        by = {row.name: row.value for row in self.rows}
        options = {row.name: row.value for row in self.rows[4:]}
        return {
            "game": by["game"],
            "players": by["players"],
            "level": by["level"],
            "hands": by["hands"],
            "options": options,
        }

    def action_move(self, step: int) -> None:
        self.show_rows((self.cursor + step) % len(self.rows))

    def action_change(self, step: int) -> None:
        cursor, row = self.cursor, self.rows[self.cursor]
        row.step(step)
        if row.name == "game":  # another game: its players and options
            chosen = self.choice()
            self.rows = rows_for(str(row.value), None, chosen["level"], chosen["hands"], {})
        self.show_rows(cursor)

    def action_start(self) -> None:
        chosen = self.choice()
        self.app.start_table(
            chosen["game"], chosen["players"], chosen["hands"], chosen["options"], level=chosen["level"]
        )

    def action_help(self) -> None:
        from .dialogs import InfoScreen, help_text

        self.app.push_screen(InfoScreen(_("Rules"), help_text(self.choice()["game"])))

    @on(Choices.Clicked)
    def _clicked(self, event: Choices.Clicked) -> None:
        if event.index == self.cursor:
            self.action_change(1)
        else:
            self.show_rows(event.index)
