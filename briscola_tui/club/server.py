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
from .config import KEEPER, cluster, host_port, own_route, stream_name
from .connect import Unreachable, connect
from .keys import NAME, new_seed
from .members import running_pid, write_config
from .state import Club, ClubError
from .stream import ensure_stream
from .tables import ensure_bucket
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
        if not options.name:
            raise ClubError(_("the first serve names the club: --name NAME (lowercase letters, digits, - and _)"))
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
    """The cluster port, the routes to the other nodes, and the cluster's secret: taken from a
    route given with one (a node joining), else made (the first node)."""
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
        club.cluster_secret = parts.password or club.cluster_secret
    if not club.cluster_port:
        return
    if not club.routes:
        raise ClubError(_("a cluster needs its other nodes' cluster URLs: --routes nats://HOST:PORT,..."))
    club.cluster_secret = club.cluster_secret or secrets.token_urlsafe(24)
    own = own_route(club)
    club.routes = [r for r in (_with_secret(r, club.cluster_secret) for r in club.routes) if r != own]


def _with_secret(route: str, secret: str) -> str:
    parts = urlsplit(route)
    return f"nats://route:{secret}@{host_port(parts.hostname or '', parts.port or 0)}"


def free_port(host: str) -> int:
    """A port free on `host` now (nats-server needs a concrete one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def serve(binary: str, options: Options, out: TextIO, err: TextIO) -> int:
    if running_pid():  # (before its configuration is written again)
        raise ClubError(_("the club's server is running already (process {pid})").format(pid=running_pid()))
    club = prepare(options)
    _say_cluster(club, out)
    log = state.path("nats.log")
    os.close(open_private(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND))  # (private before the server opens it)
    signal.signal(signal.SIGTERM, _terminated)  # (the server stopped too, as by Ctrl-C)
    process = subprocess.Popen([binary, "-c", str(state.path("nats.conf"))], stdin=subprocess.DEVNULL)
    try:
        ready = asyncio.run(_make_stream(club, process, out))
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


async def _make_stream(club: Club, process: subprocess.Popen[bytes], out: TextIO) -> str:
    """ "" once the keeper is admitted and the stream is there, else why not. A cluster's node
    waits for its other nodes as long as it takes (JetStream needs their quorum), saying so."""
    deadline, waiting = time.monotonic() + READY, False
    while True:
        if process.poll() is not None:
            return _("it ended (exit status {status})").format(status=process.returncode)
        why = await _try_stream(club)
        if not why:
            return ""
        if time.monotonic() > deadline:
            if not club.cluster_port:
                return why
            if not waiting:
                print(_("waiting for the cluster's other nodes ({why})").format(why=why), file=out, flush=True)
                waiting = True
        await asyncio.sleep(0.2)


async def _try_stream(club: Club) -> str:
    """The keeper connects and makes the stream if missing: "" done, else why not."""
    from nats.errors import Error

    cert = der_of(state.path("cert.pem").read_bytes()) if club.tls else b""
    url = f"{'tls' if club.tls else 'nats'}://{_loopback_or(club.bind)}:{club.port}"
    try:
        client = await connect(url, club.keeper_seed, KEEPER, cert)
    except Unreachable as error:
        return str(error)
    try:
        replicas = min(3, 1 + len(club.routes))
        await ensure_stream(client.jetstream(), stream_name(club), club.prefix, replicas)
        await ensure_bucket(client.jetstream(), club.name, replicas)
        return ""
    except (Error, TimeoutError) as error:
        return str(error) or type(error).__name__
    finally:
        await client.close()


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
    out.flush()


def _say_cluster(club: Club, out: TextIO) -> None:
    """Before the server starts (a node waits for the others): the routes every node serves with."""
    if not club.cluster_port:
        return
    routes = ",".join([own_route(club), *club.routes])
    words = _("cluster {name}: every other node serves with --routes {routes}")
    print(words.format(name=cluster(club)["name"], routes=routes), file=out, flush=True)


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
