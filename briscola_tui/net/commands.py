"""The `host`, `join` and `watch` commands: setting up a table or a client, then running it."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import socket
from pathlib import Path

from engine import bots as players
from engine.game import OptionError
from engine.games import make
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.host import Host
from protocol.identity import Identity
from protocol.session import TableSession

from ..storage import FileSeatStore, TranscriptFile, data_dir
from .client import Client, Options, stdin_lines
from .server import Bot, Limits, TableServer, new_code


class SetupError(ValueError):
    """A command line that cannot make a table (said before anything starts)."""


def say(line: str) -> None:
    print(line, flush=True)


def host_command(args) -> int:
    identity = Identity.load_or_create(data_dir() / "host.key")
    path = Path(args.transcript) if args.transcript else None
    if path is not None and path.exists():
        host, log = _resume_host(identity, path)
        say(f"resuming table {host.table_id.hex()} from {path} ({len(log.entries)} entries)")
    else:
        host, log = _new_host(identity, args, path)
    for warning in log.warnings:
        say(f"warning: {warning}")
    session = host.session
    code = None if args.open else (args.code or _saved_code(host.table_id) or new_code())
    if code is not None:
        _save_code(host.table_id, code)  # a restarted host keeps the code its players were given
    bots = _host_bots(host, args, log)
    replace = players.get(args.level) if args.bots_replace else None
    time_limit = args.time_limit if args.time_limit is not None else session.rules.get("time_limit")
    server = TableServer(host, log, code=code, bots=bots, time_limit=time_limit, replace_with_bot=replace,
                         hands=args.hands, say=say, limits=Limits(handshake_seconds=args.handshake_seconds))

    def listening(addresses) -> None:
        port = addresses[0][1]
        say(f"hosting {session.table.game}, {session.players} players, table {host.table_id.hex()}")
        for address in _addresses(args.bind, port):
            say(f"  join with: briscola join {address}" + ("" if code is None else f" --code {code}"))
        say(f"  watch with: briscola watch {_addresses(args.bind, port)[0]}" + ("" if code is None else f" --code {code}"))
        if args.port_file:
            Path(args.port_file).write_text(str(port))

    try:
        status = asyncio.run(server.run(args.bind, args.port, listening))
    finally:
        log.close()
    if session.series is not None:
        say(f"scores: {session.series.scores}")
    return status


def _code_path(table_id: bytes) -> Path:
    folder = data_dir() / "codes"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{table_id.hex()}.code"


def _saved_code(table_id: bytes) -> str | None:
    path = _code_path(table_id)
    return path.read_text().strip() or None if path.exists() else None


def _save_code(table_id: bytes, code: str) -> None:
    """Kept in a file only its user can read: never in the transcript or a log."""
    path = _code_path(table_id)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(code)


def _new_host(identity: Identity, args, path: Path | None) -> tuple[Host, TranscriptFile]:
    options = dict(args.option)
    try:
        game = make(args.game, args.players, options)
    except OptionError as error:
        raise SetupError(str(error)) from None
    if args.bots >= game.players:
        raise SetupError(f"--bots {args.bots} leaves no seat for a player at a {game.players}-player table")
    rules = {"retake": True} if args.bots_replace else {}
    if args.time_limit is not None:
        rules["time_limit"] = int(args.time_limit)
    table_id = secrets.token_bytes(16)
    host = Host(identity, table_id, args.game, game.players, options, f"{args.game} table", rules)
    if path is None:
        folder = data_dir() / "transcripts"
        folder.mkdir(mode=0o700, exist_ok=True)
        path = folder / f"{table_id.hex()}-host.bin"
    log = TranscriptFile.create(path, table_id)
    log.append(host.open())
    host.events.clear()
    return host, log


def _resume_host(identity: Identity, path: Path) -> tuple[Host, TranscriptFile]:
    log = TranscriptFile.open(path)
    try:
        host = Host.resume(identity, [e.encode() for e in log.entries])
    except LocalProtocolError as error:
        raise SetupError(f"{path}: {error.reason}") from None
    except ProtocolError as error:
        raise SetupError(f"{path} does not check out: {error.reason}") from None
    host.events.clear()
    return host, log


def _host_bots(host: Host, args, log: TranscriptFile) -> dict[int, Bot]:
    """The last `--bots` seats, played by this process (their keys and secrets kept like anyone's)."""
    session = host.session
    entries = [e.encode() for e in log.entries]
    player = players.get(args.level)
    out = {}
    for seat in range(session.players - args.bots, session.players):
        key = data_dir() / "host-bots" / f"{host.table_id.hex()}-seat{seat}.key"
        identity = Identity.load_or_create(key)
        store = FileSeatStore.for_seat(host.table_id, seat)
        bot, owed = TableSession.resume(seat, identity, store, entries, name=f"computer ({args.level})")
        out[seat] = Bot(bot, player, random.Random(), owed)
    return out


def _addresses(bind: str, port: int) -> list[str]:
    if bind not in ("0.0.0.0", "::", ""):
        return [f"{bind}:{port}"]
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if address not in found and not address.startswith("127."):
                found.append(address)
    except OSError:
        pass
    return [f"{a}:{port}" for a in found] + [f"127.0.0.1:{port}"]


def join_command(args) -> int:
    address, port = _host_port(args.address)
    identity = Identity.load_or_create(data_dir() / "identity.key")
    player = players.get(args.bot) if args.bot else None
    options = Options(address, port, "player", args.name or "", args.code or "", args.seat, player,
                      retry_seconds=args.retry)
    return asyncio.run(_run_client(options, identity))


def watch_command(args) -> int:
    address, port = _host_port(args.address)
    options = Options(address, port, "spectator", "", args.code or "", -1, None, retry_seconds=args.retry)
    return asyncio.run(_run_client(options, None))


async def _run_client(options: Options, identity: Identity | None) -> int:
    lines = stdin_lines() if options.role == "player" and options.player is None else None
    return await Client(options, say, identity, lines).run()


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SetupError(f"expected HOST:PORT, e.g. 192.168.1.20:7777, not {text!r}")
    return host, int(port)

