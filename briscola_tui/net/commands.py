"""The `host`, `join` and `watch` commands: setting up a table or a client, then running it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

from engine import bots as players
from engine.game import OptionError
from engine.games import make
from engine.text import normal_name, visible
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.host import Host
from protocol.identity import Identity, KeyFileError
from protocol.local import replacement_seat
from protocol.session import TableSession
from protocol.transcript_file import NotATranscript

from ..engine_words import error_words, name_problem_words, protocol_error_words
from ..files.folders import own_file, subfolder
from ..files.hosted import HostedTable
from ..files.identity import own_identity
from ..files.storage import FileSeatStore, TranscriptFile
from ..files.table_keys import new_table_key, save_code, saved_code, table_key
from ..language import _, n_
from ..options import HostOptions
from .addresses import addresses
from .admission import GuessLimits
from .announcing import Announcing
from .carrier import Carrier
from .connection import Limits
from .finding import plates_in_use
from .hosting import Hosting, SetupError, cannot_listen, hold_table, kept_table, new_record
from .joincode import new_code
from .mdns import announced_on
from .ordering import BOT_NAMES, Bot, bot_name, is_bot_name
from .server import TableServer


def person_name(name: str) -> str:
    """`name` as a seat's name (in Unicode normal form C; "" for none); SetupError, before
    anything connects, for one the host would refuse (engine/text.py: printable, 1 to 20
    characters, no space at either end) or one kept for the host's computer players."""
    if not name:
        return name
    name = normal_name(name)
    problem = name_problem_words(name)
    if problem is not None:
        raise SetupError(_("--name {name!r}: {problem}").format(name=name, problem=problem))
    if is_bot_name(name):
        raise SetupError(_("--name {name!r}: {problem}").format(name=name, problem=_(BOT_NAMES)))
    return name


def say(line: str) -> None:
    """A line of the headless host or client on standard output (events as `render.HEADLESS`
    writes them: the trump suit named), every control character in it made visible (names
    and reasons come from peers)."""
    print(visible(line), flush=True)


HOST_FOLDERS = ("transcripts", "codes", "seats", "host-bots")
"""The subfolders of the data folder a host keeps its table's files in."""
CLIENT_FOLDERS = ("transcripts", "seats")
"""Those a player or a spectator keeps its copy of the transcript and its seat's secrets in."""


def own_folders(names: tuple[str, ...]) -> None:
    """Make (private) or check the data folder's subfolders `names`: a link where one should be
    is said (UnsafeFolder) before anything is written or any connection made."""
    for name in names:
        subfolder(name)


def prepare_host(options: HostOptions, say: Callable[[str], None], carrier: Carrier | None = None) -> Hosting:
    """The table `briscola host` serves (the one its --transcript holds, else the unfinished
    table of the same command, else a new one), its computer players and join code; `say(line)`
    hears what the server has to tell. Through `carrier` (a club), not on a TCP port."""
    person_name(options.name or "")
    own_folders(HOST_FOLDERS)
    host, log, record, resumed = _host_and_log(options, say)
    for warning in log.warnings:
        say(_("warning: {warning}").format(warning=warning))
    session = host.session
    code = None if options.open else (options.code or saved_code(host.table_id) or _fresh_code(options, carrier))
    if code is not None:
        save_code(host.table_id, code)  # a restarted host keeps the code its players were given
    level = host_level(options)
    entries = [e.encode() for e in log.entries]
    bots = _host_bots(host, options, entries, level)
    bots.update(_replacement_bots(host, options, entries, level))
    replace_with_bot = players.get(level) if options.bots_replace else None
    time_limit = options.time_limit if options.time_limit is not None else session.rules.get("time_limit")
    server = TableServer(
        host,
        log,
        code=code,
        bots=bots,
        time_limit=time_limit,
        replace_with_bot=replace_with_bot,
        hands=options.hands if options.hands is not None else session.rules.get("hands"),
        replacement=lambda seat, entries: kept_replacement(host.table_id, seat, entries, level),
        say=say,
        limits=_limits(options),
        guesses=_guess_limits(options),
    )
    again = _again(options, level)
    port = record.port if record is not None and record.port else options.port
    hosting = Hosting(server, log, code, options.bind, port, resumed, level, options.port_file, again)
    hosting.record, hosting.fallback = record, record is not None and record.port > 0
    server.carrier = carrier
    if options.advertise:
        server.announcing = Announcing(options.bind, options.name or "", code, lambda line: server.say(line))
    return hosting


def _fresh_code(options: HostOptions, carrier: Carrier | None) -> str:
    """A new join code, its plate none of those the tables on the LAN use (looked for only
    when this table is to be announced there too), or those its club lists."""
    if carrier is not None:
        return new_code(carrier.plates)
    return new_code(plates_in_use() if options.advertise and announced_on(options.bind) else ())


def _host_and_log(
    options: HostOptions, say: Callable[[str], None]
) -> tuple[Host, TranscriptFile, HostedTable | None, bool]:
    """The host and its transcript file: taken up from --transcript, or from the record of the
    same command's unfinished table, else new; the table's record (None with --transcript);
    whether it was taken up."""
    record = kept_table(options, saved_code, say)
    path = Path(record.transcript) if record is not None else Path(options.transcript) if options.transcript else None
    if path is None or not path.exists():
        host, log = _new_host(options, path)
        return host, log, new_record(options, host.table_id, log, host.session.players), False
    try:
        host, log = _resume_host(path)
    except SetupError as error:
        if record is None:
            raise
        hint = _("the same command with --new hosts a new table")
        raise SetupError(f"{error}; {hint}") from None
    say(
        n_(
            "resuming table {table} from {path} ({n} entries)",
            "resuming table {table} from {path} ({n} entries)",
            len(log.entries),
        ).format(table=host.table_id.hex(), path=path, n=len(log.entries))
    )
    if record is None:
        hold_table(host.table_id.hex())
    return host, log, record, True


def host_level(options: HostOptions) -> str:
    """The computer players' level: --level, else the one in the player's settings (as the host form)."""
    if options.level:
        return options.level
    from ..files.settings import load

    return load().level


def _again(options: HostOptions, level: str) -> tuple[str, ...]:
    """What `briscola host` must be given again, beside the transcript and the port, to serve the
    same table the same way: the game and its options come from the transcript, the join code
    from the data folder (`_save_code`); the rest only from the command line."""
    words = ["--bots", str(options.bots), "--level", level]
    if options.bind != HostOptions.bind:
        words += ["--bind", options.bind]
    words += [flag for flag, given in (("--open", options.open), ("--bots-replace", options.bots_replace)) if given]
    if options.coach:
        words.append("--coach")
    for flag, value in (("--hands", options.hands), ("--time-limit", options.time_limit), ("--name", options.name)):
        if value:
            words += [flag, str(value)]
    words += [flag for flag, given in (("--headless", options.headless), ("--ascii", options.ascii)) if given]
    return tuple(words)


def host_command(options: HostOptions, carrier: Carrier | None = None) -> int:
    hosting = prepare_host(options, say, carrier)
    session, code = hosting.server.session, hosting.code

    def listening(sockets: list[tuple[str, int]]) -> None:
        assert session.table is not None  # (the host opened it, or took it up again)
        say(
            _("hosting {game}, {n} players, table {table}").format(
                game=session.table.game, n=session.players, table=hosting.table_id.hex()
            )
        )
        if carrier is not None:
            through = f"{code or hosting.table_id.hex()} --club {options.club}"
            say(_("  through {club}").format(club=carrier.label))
            say(_("  join with: {command}").format(command=f"briscola join {through}"))
            say(_("  watch with: {command}").format(command=f"briscola watch {through}"))
            return
        port = sockets[0][1]
        with_code = "" if code is None else f" --code {code}"
        for address in addresses(options.bind, port):
            say(_("  join with: {command}").format(command=f"briscola join {address}{with_code}"))
        watch_at = addresses(options.bind, port)[0]
        say(_("  watch with: {command}").format(command=f"briscola watch {watch_at}{with_code}"))
        hosting.listening_on(port)

    try:
        status = asyncio.run(_serve(hosting, listening, carrier))
    except OSError as error:
        if hosting.listened:
            raise
        raise SetupError(cannot_listen(hosting.port, error, "command")) from None
    except KeyboardInterrupt:
        if session.phase not in ("over", "aborted"):
            command = hosting.resume_command(hosting.listened or options.port)
            say(_("left the table; to take it up again run: {command}").format(command=command))
        raise
    finally:
        hosting.close()
    if session.series is not None:
        say(_("scores: {scores}").format(scores=session.series.scores))
    return status


async def _serve(hosting: Hosting, listening: Callable[[list[tuple[str, int]]], None], carrier: Carrier | None) -> int:
    try:
        return await hosting.server.run(hosting.bind, hosting.port, listening, hosting.fallback)
    finally:
        if carrier is not None:
            await carrier.close()


def _limits(options: HostOptions) -> Limits:
    """The defaults, or what a test or a bench asks for: `--handshake-seconds`, `--backlog` and
    `--limit NAME=VALUE` (any field of `Limits`), hidden options of `host`."""
    limits = Limits(handshake_seconds=options.handshake_seconds, backlog=options.backlog)
    defaults = {field.name: field.default for field in fields(Limits)}
    for item in options.limit:
        name, _, value = item.partition("=")
        if name not in defaults:
            raise SetupError(f"--limit {item!r}: no such limit")
        kind = int if isinstance(defaults[name], int) else float
        try:
            setattr(limits, name, kind(value))
        except ValueError:
            raise SetupError(f"--limit {item!r}: not a number") from None
    return limits


def _guess_limits(options: HostOptions) -> GuessLimits:
    """The defaults, or what a test asks for (hidden options of `host`)."""
    limits = GuessLimits()
    if options.guess_free is not None:
        limits.free = options.guess_free
    if options.guess_seconds is not None:
        limits.seconds = options.guess_seconds
    if options.guess_report_seconds is not None:
        limits.report_seconds = options.guess_report_seconds
    return limits


def _new_host(options: HostOptions, path: Path | None) -> tuple[Host, TranscriptFile]:
    game_options = dict(options.option)
    try:
        game = make(options.game, options.players, game_options)
    except OptionError as error:
        raise SetupError(error_words(error)) from None
    if options.bots >= game.players:
        raise SetupError(
            _("--bots {bots} leaves no seat for a player at a {n}-player table").format(
                bots=options.bots, n=game.players
            )
        )
    # --bots-replace: a seat timed out, or evicted for a cheat an audit names, goes to a computer player
    rules: dict[str, object] = {"retake": True, "replace_cheats": True} if options.bots_replace else {}
    if options.time_limit is not None:
        rules["time_limit"] = int(options.time_limit)
    if options.hands is not None:
        rules["hands"] = int(options.hands)  # the hands asked for: every seat's header counts them ("hand 1 of 3")
    if options.coach:
        rules["coach"] = True  # the players may ask the coach (`h`, the review after each hand)
    host = Host(new_table_key(), options.game, game.players, game_options, f"{options.game} table", rules)
    if path is None:
        path = subfolder("transcripts") / f"{host.table_id.hex()}-host.bin"
    log = TranscriptFile.create(path, host.table_id)
    log.append(host.open())
    host.events.clear()
    return host, log


def _resume_host(path: Path) -> tuple[Host, TranscriptFile]:
    try:
        log = TranscriptFile.open(path)
    except NotATranscript as error:
        if error.coded is not None:  # a transcript of an earlier format
            raise SetupError(_("{path} is {reason}").format(path=path, reason=protocol_error_words(error))) from None
        raise SetupError(_("{path} is not a briscola transcript").format(path=path)) from None
    except ProtocolError as error:  # garbage after the last good entry, a bad frame: not cut off for us
        entry = error.entry if isinstance(error, RemoteProtocolError) else None
        where = _("entry {n}").format(n=entry) if entry is not None else _("a frame")
        raise SetupError(
            _("{path}: {where} cannot be read ({reason}); the file is left as it is").format(
                path=path, where=where, reason=protocol_error_words(error)
            )
        ) from None
    try:
        host = Host.resume(table_key(log.table_id), [e.encode() for e in log.entries])
    except LocalProtocolError as error:
        raise SetupError(f"{path}: {protocol_error_words(error)}") from None
    except ProtocolError as error:
        raise SetupError(
            _("{path} does not check out: {reason}").format(path=path, reason=protocol_error_words(error))
        ) from None
    host.events.clear()
    return host, log


def _host_bots(host: Host, options: HostOptions, entries: list[bytes], level: str) -> dict[int, Bot]:
    """The last `--bots` seats, played by this process (their keys and secrets kept like anyone's)."""
    session = host.session
    player = players.get(level)
    out = {}
    person = own_identity()  # each one's key vouched for by this account, as `level`: the ledger knows who ran it
    for seat in range(session.players - options.bots, session.players):
        identity = Identity.load_or_create(_bot_key(host.table_id, seat))
        store = FileSeatStore.for_seat(host.table_id, seat)
        bot, owed = TableSession.resume(
            seat, identity, store, entries, name=bot_name(seat), person=person, bot_level=level
        )
        out[seat] = Bot(bot, player, random.Random(), owed)
    return out


def _bot_key(table_id: bytes, seat: int, tag: str = "") -> Path:
    """Where the key of the host's computer player at `seat` is kept (`tag`: "-replacement")."""
    return own_file(subfolder("host-bots") / f"{table_id.hex()}-seat{seat}{tag}.key")


def _replacement_files(table_id: bytes, seat: int) -> tuple[Path, Path]:
    """The key and the store of a computer player that took `seat` (`--bots-replace`): names of
    their own, apart from the seat's earlier holder's (who may have played from this data folder)."""
    tag = "-replacement"
    return _bot_key(table_id, seat, tag), subfolder("seats") / f"{table_id.hex()}-seat{seat}{tag}.store"


def kept_replacement(table_id: bytes, seat: int, entries: list[bytes], level: str) -> tuple[TableSession, list[bytes]]:
    """A computer player of `level` taking `seat` with a new key and an empty store, both on disk
    before its join is signed (a leftover of an earlier try, whose join never got in, is
    replaced); its key vouched for by this account as `level`, as the host's other computer players'."""
    key, store_path = _replacement_files(table_id, seat)
    identity = Identity.generate()
    identity.save(key)
    store_path.unlink(missing_ok=True)
    return replacement_seat(seat, entries, identity, FileSeatStore(store_path), own_identity(), level)


def _replacement_bots(host: Host, options: HostOptions, entries: list[bytes], level: str) -> dict[int, Bot]:
    """The computer players that took a seat before this host restarted: each seat whose key in
    the transcript is the one kept for it, rebuilt from its store."""
    session = host.session
    out = {}
    for seat in range(session.players - options.bots):
        key, store = _replacement_files(host.table_id, seat)
        identity = _kept_key(key, session.keys.get(seat))
        if identity is None:
            continue
        bot, owed = replacement_seat(seat, entries, identity, FileSeatStore(store), own_identity(), level)
        out[seat] = Bot(bot, players.get(level), random.Random(), owed)
    return out


def _kept_key(path: Path, key: bytes | None) -> Identity | None:
    """The key kept at `path`, if there is one and it is `key` (the seat's now)."""
    if key is None or not path.exists():
        return None
    try:
        identity = Identity.load(path)
    except KeyFileError as error:
        raise SetupError(_("{why}; the file is left as it is").format(why=error)) from None
    return identity if identity.public_bytes == key else None
