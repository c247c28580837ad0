"""What each field of the network forms accepts (screens/netforms.py): plain functions from
the text typed to the options of `briscola host`, `join` and `watch`, or a `FormError`
naming the field and what it takes. No textual here: the forms and the tests use them."""

from __future__ import annotations

from typing import overload

from engine.bots import PLAYERS
from engine.game import OptionError
from engine.games import GAMES, make
from engine.text import normal_name

from ...engine_words import error_words, name_problem_words
from ...language import N_, _
from ...net.joincode import plate_of, tidy
from ...options import HostOptions, JoinOptions, WatchOptions

MAX_TEXT = 64
"""Longest name or join code the host takes (docs/network.md, limits)."""
EXAMPLE_ADDRESS = N_("HOST:PORT, e.g. 192.168.1.20:{port}")
"""The address fields' placeholder (translated with `_`, `{port}` filled, where shown)."""


def example_address() -> str:
    return _(EXAMPLE_ADDRESS).format(port=HostOptions.port)


TABLES = [
    (f"{info.title}, {n} players{' (partners)' if n in info.teams else ''}", (info.name, n))
    for info in GAMES.values()
    for n in info.players
]
"""Every game at every table size it allows (the host form's choice): label in English, (game,
players); the form shows `table_label`."""


class FormError(ValueError):
    """A field the form cannot use, and why."""


@overload
def whole(text: str, what: str, low: int, high: int, blank: int) -> int: ...


@overload
def whole(text: str, what: str, low: int, high: int, blank: None = None) -> int | None: ...


def whole(text: str, what: str, low: int, high: int, blank: int | None = None) -> int | None:
    """The number typed in a field (`blank` when the field is blank, None with no `blank`), or
    FormError naming the field (`what`) and the numbers it takes."""
    text = text.strip()
    if not text and blank is not None:
        return blank
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise FormError(
            _("{what}: a whole number from {low} to {high}, not {text}").format(
                what=what, low=low, high=high, text=repr(text)
            )
        )
    return int(text)


def short(text: str, what: str) -> str:
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise FormError(_("{what}: at most {n} characters").format(what=what, n=MAX_TEXT))
    return text


def person(text: str) -> str:
    """The name field: a name the host takes (engine/text.py), and not one kept for the host's
    computer players; blank for none."""
    from ...net.ordering import BOT_NAMES, is_bot_name

    text = normal_name(short(text, _("name")))
    problem = name_problem_words(text) if text else None
    if problem is not None:
        raise FormError(_("name: {problem}").format(problem=problem))
    if is_bot_name(text):
        raise FormError(_("name: {problem}").format(problem=_(BOT_NAMES)))
    return text


def code_as_address(text: str) -> str:
    """What to do with a join code typed where HOST:PORT goes (and another in the code's field)."""
    line = _("address: {code} is a join code, not HOST:PORT: put it in the Join code field (the address blank)")
    return line.format(code=repr(tidy(text)))


def address(text: str) -> str:
    from ...net.hosting import SetupError
    from ...net.joining import host_port

    if plate_of(text) is not None:
        raise FormError(code_as_address(text))
    try:
        host_port(text.strip())
    except SetupError as error:
        raise FormError(_("address: {problem}").format(problem=error)) from None
    return text.strip()


def host_args(values: dict) -> HostOptions:
    """`briscola host` options from the host form's values (FormError for a bad one); the
    rest are `HostOptions`' defaults, as on the command line."""
    game, players = values["table"]
    bots = whole(values["bots"], _("computer players"), 0, players - 1, blank=HostOptions.bots)
    level = values["level"]
    if level not in PLAYERS:
        raise FormError(_("level: one of {levels}").format(levels=", ".join(sorted(PLAYERS))))
    try:
        make(game, players, {})
    except OptionError as error:
        raise FormError(error_words(error)) from None
    return HostOptions(
        game=game,
        players=players,
        bots=bots,
        level=level,
        hands=whole(values["hands"], _("hands"), 1, 999),
        code=short(values["code"], _("join code")) or HostOptions.code,
        open=bool(values["open"]),
        coach=bool(values["coach"]),
        port=whole(values["port"], _("port"), 0, 65535, blank=HostOptions.port),
        bind=values["bind"].strip() or HostOptions.bind,
        name=person(values["name"]),
        advertise=bool(values.get("advertise", HostOptions.advertise)),
    )


def reach(values: dict, club: str | None) -> tuple[str, str | None]:
    """The address and the join code the fields give: on the LAN, HOST:PORT and the code;
    through a club, what names the table in the club's list (the address: a table's id or a
    join code; blank, the join code) and the code (None: blank)."""
    code = short(values["code"], _("join code"))
    if club is None:
        return address(values["address"]), code
    given = short(values["address"], _("address"))
    if not given and plate_of(code) is None:
        raise FormError(_("address: pick a table in the club's list, or give the whole join code (such as 42-7q8r2k)"))
    return given or code, code or None


def join_args(values: dict, club: str | None = None) -> JoinOptions:
    """`briscola join` options from the join form's values (through `club`, when there is one)."""
    where, code = reach(values, club)
    return JoinOptions(
        address=where,
        code=code,
        name=person(values["name"]),
        seat=whole(values["seat"], _("seat"), 0, 5, blank=JoinOptions.seat),
        club=club,
    )


def watch_args(values: dict, club: str | None = None) -> WatchOptions:
    where, code = reach(values, club)
    return WatchOptions(address=where, code=code, club=club)
