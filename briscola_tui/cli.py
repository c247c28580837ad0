"""The `briscola` command and its subcommands."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import language
from .cli_parser import build_parser
from .language import _
from .options import HostOptions, JoinOptions, NetOptions, WatchOptions
from .os_errors import os_error_words

if TYPE_CHECKING:  # (the client is imported only when it runs: the command line starts fast)
    from .net.carrier import Carrier
    from .tui.app import BriscolaApp


def _replay(args: argparse.Namespace) -> int:
    from .tools.replay_file import replay_file

    return replay_file(args.file, sys.stdout, sys.stderr)


def _selfplay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.game import OptionError

    from .engine_words import error_words
    from .tools.selfplay import SelfplayError, selfplay

    if args.cheater is not None and not args.cheat:
        print(_("briscola selfplay: --cheater names the seat of a --cheat KIND; give the cheat too"), file=sys.stderr)
        return 2
    if args.transcript:
        target = Path(args.transcript)
        folder = target.resolve().parent
        if not folder.is_dir():
            print(_("briscola selfplay: no folder {folder} for the transcript").format(folder=folder), file=sys.stderr)
            return 2
        if target.is_dir():
            print(
                _("briscola selfplay: {target} is a folder; give the transcript a file name").format(target=target),
                file=sys.stderr,
            )
            return 2
        if target.exists():
            print(
                _("briscola selfplay: {target} already exists (a transcript is never overwritten)").format(
                    target=target
                ),
                file=sys.stderr,
            )
            return 2
    try:
        return selfplay(
            args.game,
            args.players,
            args.hands,
            args.seed,
            args.transcript,
            dict(args.option),
            sys.stdout,
            cheat=args.cheat,
            cheater=args.cheater,
            quiet=args.quiet,
            seats=args.seats,
            deal_seed=args.deal_seed,
            bots_replace=args.bots_replace,
        )
    except (OptionError, SelfplayError) as error:
        print(f"briscola selfplay: {error_words(error)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except OSError as error:
        print(f"briscola selfplay: {error.filename or args.transcript}: {os_error_words(error)}", file=sys.stderr)
        return 2


def _verify(args: argparse.Namespace) -> int:
    from .tools.verify import verify

    return verify(args.file, sys.stdout, sys.stderr)


def _ledger(args: argparse.Namespace) -> int:
    if getattr(args, "ledger_action", None) == "sync":  # through a club (briscola_tui/club/sync.py)
        from .club.sync import sync_command

        return sync_command(args.club, sys.stdout, sys.stderr)
    from .ledger.command import ledger_command

    return ledger_command(args)


def _club(args: argparse.Namespace) -> int:
    from .club.command import club_command

    return club_command(args)


def _review(args: argparse.Namespace) -> int:
    from .tools.review import review_file

    return review_file(args.file, args.seat, sys.stdout, sys.stderr)


def host_options(args: argparse.Namespace) -> HostOptions:
    """`briscola host`'s options, built once from its command line."""
    return HostOptions(
        game=args.game,
        players=args.players,
        hands=args.hands,
        port=args.port,
        bind=args.bind,
        code=args.code,
        open=args.open,
        advertise=not args.no_advertise,
        bots=args.bots,
        level=args.level,
        bots_replace=args.bots_replace,
        coach=args.coach,
        transcript=args.transcript,
        new=args.new,
        time_limit=args.time_limit,
        option=tuple(args.option),
        name=args.name,
        headless=args.headless,
        ascii=args.ascii,
        port_file=args.port_file,
        handshake_seconds=args.handshake_seconds,
        backlog=args.backlog,
        limit=tuple(args.limit or ()),
        guess_free=args.guess_free,
        guess_seconds=args.guess_seconds,
        guess_report_seconds=args.guess_report_seconds,
        club=args.club,
    )


def join_options(args: argparse.Namespace) -> JoinOptions:
    """`briscola join`'s options, built once from its command line."""
    return JoinOptions(
        address=args.address,
        code=args.code,
        name=args.name,
        seat=args.seat,
        bot=args.bot,
        retry=args.retry,
        headless=args.headless,
        ascii=args.ascii,
        club=args.club,
    )


def watch_options(args: argparse.Namespace) -> WatchOptions:
    """`briscola watch`'s options, built once from its command line."""
    return WatchOptions(
        address=args.address,
        code=args.code,
        retry=args.retry,
        headless=args.headless,
        ascii=args.ascii,
        club=args.club,
    )


def _host(args: argparse.Namespace) -> int:
    return _network("host", host_options(args))


def _join(args: argparse.Namespace) -> int:
    return _network("join", join_options(args))


def _watch(args: argparse.Namespace) -> int:
    return _network("watch", watch_options(args))


def _tables(args: argparse.Namespace) -> int:
    if args.club:
        from .cli_club import tables_command as club_tables

        return club_tables(args.club, args.json)
    from .cli_lan import tables_command

    return tables_command(args)


def _network(kind: str, options: NetOptions) -> int:
    """`briscola host|join|watch`: the app on a terminal, else headless; a command line that
    cannot make the table, or an error of the system's, said in a line (exit status 2)."""
    from engine.text import visible

    from .net.commands import SetupError

    carrier: Carrier | None = None
    try:
        if options.club:
            from .cli_club import carried

            options, carrier = carried(kind, options)
        elif not isinstance(options, HostOptions):
            from .cli_lan import found

            options = found(kind, options)
        if not options.headless and _terminal():
            return _network_app(kind, options, carrier)
        return _headless(options, carrier)
    except SetupError as error:  # (it may quote a name, or a file's words)
        print(visible(f"briscola {kind}: {error}"), file=sys.stderr)
        return 2
    except OSError as error:
        print(visible(f"briscola {kind}: {os_error_words(error)}"), file=sys.stderr)
        return 2


def _headless(options: NetOptions, carrier: Carrier | None) -> int:
    from .net.commands import host_command
    from .net.joining import join_command, watch_command

    if isinstance(options, HostOptions):
        return host_command(options, carrier)
    if isinstance(options, JoinOptions):
        return join_command(options, carrier)
    return watch_command(options, carrier)


def _terminal() -> bool:
    """The app needs a terminal: with standard input, output or error redirected (Textual
    draws on standard error), host, join and watch run headless (scripts, tests, a host
    started by a service)."""
    return all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout, sys.stderr))


def _network_app(kind: str, options: NetOptions, carrier: Carrier | None) -> int:
    """The Textual app on the lobby, then the table (the host's own seat in this process)."""
    from .tui.netapp import run_app

    return run_app(kind, options, carrier)


def _play(args: argparse.Namespace) -> int:
    from engine.game import OptionError
    from engine.games import make

    if args.resume:
        return _resume(args)
    try:
        make(args.game, args.players, dict(args.option))
    except OptionError as error:
        from .engine_words import error_words

        print(f"briscola play: {error_words(error)}", file=sys.stderr)
        return 2
    from .tui.app import BriscolaApp

    play = {"game": args.game, "players": args.players, "hands": args.hands, "options": dict(args.option)}
    app = BriscolaApp(
        play,
        ascii=True if args.ascii else None,
        level=args.level,
        seed=args.seed,
        deal_seed=args.deal_seed,
        pace=args.pace,
    )
    app.run()
    _say_farewell(app)
    return app.return_code or 0  # 1 when the app died of an error


def _say_farewell(app: BriscolaApp) -> None:
    """After the app: the last game against the computer's scores, or how to take it up again."""
    from .tables.offline import farewell

    if app.offline is not None:
        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
            print(farewell(app.offline), file=sys.stderr)


def _resume(args: argparse.Namespace) -> int:
    """`play --resume`: the newest unfinished game against the computer."""
    from .files.saved import saved_games
    from .tui.app import BriscolaApp

    games = saved_games()
    if not games:
        print(_("briscola play: no unfinished game to resume"), file=sys.stderr)
        return 2
    app = BriscolaApp(ascii=True if args.ascii else None, pace=args.pace, resume=games[0].slot)
    app.run()
    _say_farewell(app)
    return app.return_code or 0


def _home(ascii: bool = False) -> int:
    from .tui.app import BriscolaApp

    app = BriscolaApp(ascii=True if ascii else None)
    app.run()
    _say_farewell(app)
    return app.return_code or 0  # 1 when the app died of an error


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": _play,
    "replay": _replay,
    "selfplay": _selfplay,
    "verify": _verify,
    "review": _review,
    "host": _host,
    "join": _join,
    "watch": _watch,
    "tables": _tables,
    "ledger": _ledger,
    "club": _club,
}
"""What runs each command, given its parsed command line."""


def main(argv: list[str] | None = None) -> int:
    from .files import settings

    language.choose(settings.load().language)  # before the parser: its help is in words
    args = build_parser().parse_args(argv)
    if args.command is None:
        return _home(args.ascii)
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`briscola selfplay | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
