"""`briscola club serve`: the club's record made or updated from the options, its
configuration written, `nats-server` run in the foreground with it (its own log in the club's
nats.log), the club's stream made once the server is ready, and the club's URL printed. Ctrl-C
stops the server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import TextIO
from urllib.parse import urlsplit

from ..files.folders import open_private
from ..language import _
from . import state
from .config import KEEPER, cluster, stream_name
from .connect import Unreachable, connect
from .keys import NAME, new_seed
from .members import running_pid, write_config
from .state import Club, ClubError
from .stream import ensure_stream
from .tls import der_of, fingerprint, make_certificate

READY = 20.0
"""Seconds the server has to start and admit the keeper."""


@dataclass(frozen=True)
class Options:
    name: str
    bind: str | None
    port: int | None
    advertise: str | None
    cluster_port: int | None
    routes: str | None


def prepare(options: Options) -> Club:
    """The club's record, made (the first time: a name is then needed) or updated from the
    options, and written with its configuration and, beyond loopback, its certificate."""
    if state.exists():
        club = state.load()
        if options.name and options.name != club.name:
            raise ClubError(_("this data folder serves the club {name}, not another").format(name=club.name))
    else:
        if not NAME.match(options.name):
            raise ClubError(
                _("a club's name is lowercase letters, digits, '-' and '_' (at most 32), not {name!r}").format(
                    name=options.name
                )
            )
        club = Club(name=options.name, keeper_seed=new_seed())
    club.bind = options.bind if options.bind is not None else club.bind
    club.port = options.port if options.port is not None else club.port
    club.advertise = options.advertise if options.advertise is not None else club.advertise
    if not club.port:
        club.port = free_port(club.bind)
    _cluster_options(club, options)
    if club.tls and not state.path("cert.pem").exists():
        make_certificate(
            state.path("cert.pem"), state.path("key.pem"), club.name, [club.host, club.bind, socket.gethostname()]
        )
    write_config(club)
    return club


def _cluster_options(club: Club, options: Options) -> None:
    if options.cluster_port is not None:
        club.cluster_port = options.cluster_port or free_port(club.bind)
    if options.routes is not None:
        club.routes = [r.strip() for r in options.routes.split(",") if r.strip()]
        for route in club.routes:
            parts = urlsplit(route)
            if parts.scheme not in ("nats", "nats-route") or not parts.hostname or not parts.port:
                raise ClubError(
                    _("a route is nats://HOST:PORT (another node's cluster port), not {route!r}").format(route=route)
                )
            if parts.password:
                club.cluster_secret = parts.password  # a node joining takes the secret of the route it was given
    if club.cluster_port and not club.cluster_secret:
        club.cluster_secret = secrets.token_urlsafe(24)


def free_port(host: str) -> int:
    """A port free on `host` now (nats-server needs a concrete one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def serve(binary: str, options: Options, out: TextIO, err: TextIO) -> int:
    club = prepare(options)
    if running_pid():
        raise ClubError(_("the club's server is running already (process {pid})").format(pid=running_pid()))
    os.close(
        open_private(state.path("nats.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    )  # (private before the server opens it)
    signal.signal(signal.SIGTERM, _terminated)  # (the server stopped too, as by Ctrl-C)
    process = subprocess.Popen([binary, "-c", str(state.path("nats.conf"))], stdin=subprocess.DEVNULL)
    try:
        ready = asyncio.run(_make_stream(club, process))
        if ready:
            raise ClubError(
                _("the club's server did not start: {why} (its log: {log})").format(
                    why=ready, log=state.path("nats.log")
                )
            )
        _say_serving(club, out)
        process.wait()
        return 0 if process.returncode == 0 else 1
    except KeyboardInterrupt:
        return 130
    finally:
        _stop(process)
        with contextlib.suppress(OSError):
            state.path("nats.pid").unlink()


async def _make_stream(club: Club, process: subprocess.Popen[bytes]) -> str:
    """ "" once the keeper is admitted and the stream is there, else why not."""
    deadline, why = time.monotonic() + READY, ""
    cert = der_of(state.path("cert.pem").read_bytes()) if club.tls else b""
    url = f"{'tls' if club.tls else 'nats'}://{_loopback_or(club.bind)}:{club.port}"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return _("it ended (exit status {status})").format(status=process.returncode)
        try:
            client = await connect(url, club.keeper_seed, KEEPER, cert)
        except Unreachable as error:
            why = str(error)
            await asyncio.sleep(0.1)
            continue
        try:
            await ensure_stream(client.jetstream(), stream_name(club), club.prefix)
            return ""
        finally:
            await client.close()
    return why or _("no answer")


def _loopback_or(bind: str) -> str:
    """Where this machine reaches its own server: loopback when it listens everywhere."""
    if bind in ("0.0.0.0", ""):
        return "127.0.0.1"
    if bind == "::":
        return "[::1]"
    return f"[{bind}]" if ":" in bind else bind


def _say_serving(club: Club, out: TextIO) -> None:
    print(
        _("club {name} serving at {url} (port {port}); Ctrl-C stops it").format(
            name=club.name, url=club.url, port=club.port
        ),
        file=out,
    )
    if club.tls:
        der = der_of(state.path("cert.pem").read_bytes())
        print(_("its certificate's SHA-256 fingerprint: {fingerprint}").format(fingerprint=fingerprint(der)), file=out)
    print(_("the server's log: {log}").format(log=state.path("nats.log")), file=out)
    print(_("members: {count}; invite one with briscola club invite NAME").format(count=len(club.members)), file=out)
    if club.cluster_port:
        block = cluster(club)
        route = f"nats://route:{club.cluster_secret}@{club.host}:{club.cluster_port}"
        print(
            _("cluster {name}: another node joins with --routes {route}").format(name=block["name"], route=route),
            file=out,
        )
    out.flush()


def _terminated(number: int, frame: object) -> None:
    raise SystemExit(128 + number)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    sys.stdout.flush()
