"""`briscola join` and `briscola watch`: what a seat or a spectator asks of its host (`join_options`,
`watch_options`: the address, or the table through a carrier, a club), this account's key held by
one process, and the headless client run on standard input and output."""

from __future__ import annotations

import asyncio

from engine import bots as players
from protocol.identity import Identity

from ..files.folders import InUse, hold_lock
from ..files.identity import own_identity
from ..language import _
from ..options import JoinOptions, WatchOptions
from .asking import not_asked
from .carrier import CarriedPlaces, Carrier
from .client import Client, Options
from .commands import CLIENT_FOLDERS, own_folders, person_name, say
from .hosting import SetupError
from .listener import Keyboard, Listener, stdin_lines


def join_options(options: JoinOptions, carrier: Carrier | None = None) -> Options:
    """What `briscola join` asks of the host (SetupError for a bad address); through `carrier`
    (a club), the table `options.table` its host `options.via` serves there."""
    address, port, places = _where(options, carrier)
    own_folders(CLIENT_FOLDERS)
    player = players.get(options.bot) if options.bot else None
    return Options(
        address,
        port,
        "player",
        person_name(options.name or ""),
        options.code or "",
        options.seat,
        player,
        retry_seconds=options.retry,
        person=own_identity() if options.bot else None,  # the ledger rates the level, run by this account
        bot_level=options.bot or "",
        table=_announced(options.table),
        places=places,
    )


def watch_options(options: WatchOptions, carrier: Carrier | None = None) -> Options:
    """What `briscola watch` asks of the host (SetupError for a bad address); through `carrier`, as `join_options`."""
    address, port, places = _where(options, carrier)
    own_folders(CLIENT_FOLDERS)
    code = options.code or ""
    return Options(
        address,
        port,
        "spectator",
        "",
        code,
        retry_seconds=options.retry,
        table=_announced(options.table),
        places=places,
    )


def _where(options: JoinOptions | WatchOptions, carrier: Carrier | None) -> tuple[str, int, CarriedPlaces | None]:
    """HOST:PORT of the host, or (through a carrier) where the carrier reaches the table."""
    if carrier is None:
        return (*host_port(options.address), None)
    if not options.table or not options.via:
        raise SetupError(_("through a club, the table's id and its host's name there are needed"))
    return carrier.label, 0, CarriedPlaces(carrier, options.via, options.table)


def _announced(table: str | None) -> bytes | None:
    """The table id the LAN named (hex, from a checked record), as bytes."""
    return bytes.fromhex(table) if table else None


def player_identity() -> Identity:
    """This account's key at every table it joins, held by this process alone: two
    players sharing one key would take each other's seat (SetupError if another
    process plays with it)."""
    try:
        hold_lock("player")
    except InUse as error:
        raise SetupError(str(error)) from None
    return own_identity()


def join_command(options: JoinOptions, carrier: Carrier | None = None) -> int:
    return asyncio.run(_run_client(join_options(options, carrier), player_identity(), carrier))


def watch_command(options: WatchOptions, carrier: Carrier | None = None) -> int:
    return asyncio.run(_run_client(watch_options(options, carrier), None, carrier))


async def _run_client(options: Options, identity: Identity | None, carrier: Carrier | None) -> int:
    lines = stdin_lines() if options.role == "player" and options.player is None else None
    keyboard, listener = Keyboard(lines, say), Listener(say)
    client = Client(options, listener, identity, keyboard)
    keyboard.listen(lambda line: not_asked(client.session, listener.names, line))  # at once, not at the turn
    try:
        return await client.run()
    finally:
        if carrier is not None:
            await carrier.close()


def host_port(text: str) -> tuple[str, int]:
    """HOST:PORT, or [IPv6]:PORT, as (host, port); SetupError otherwise."""
    host, _colon, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        host = ""  # an IPv6 address needs its brackets: [::1]:7777
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SetupError(
            _("expected HOST:PORT, e.g. 192.168.1.20:7777 or [fe80::1]:7777, not {text!r}").format(text=text)
        )
    return host, int(port)
