"""The club this data folder serves: `<data folder>/club/club.json` (private, 0600), with
everything `briscola club serve` writes beside it: the server's configuration, its JetStream
store, its log, its process id and, beyond loopback, its certificate and key.

The record holds the club's name, where it listens, the address members are given, the
cluster options, the seed of the serving process's own credential (it makes the club's stream)
and each member's public key, never a member's seed.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..files.atomic import replace_file
from ..files.folders import read_own, subfolder
from ..language import _

DEFAULT_PORT = 4222
"""NATS's own port: what a member's firewall and a router's forwarding expect."""

LOOPBACK = ("127.0.0.1", "::1", "localhost")


class ClubError(ValueError):
    """A club command that cannot be done; the message says why."""


@dataclass
class Club:
    name: str
    keeper_seed: str
    bind: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    advertise: str = ""
    cluster_port: int = 0
    routes: list[str] = field(default_factory=list)
    cluster_secret: str = ""
    members: dict[str, str] = field(default_factory=dict)
    """Each member's name -> user public key ("U...")."""

    @property
    def tls(self) -> bool:
        """Beyond loopback the club speaks TLS only."""
        return self.bind not in LOOPBACK

    @property
    def host(self) -> str:
        """The address members are given: `advertise`, else the bind address."""
        return self.advertise or self.bind

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'tls' if self.tls else 'nats'}://{host}:{self.port}"

    @property
    def prefix(self) -> str:
        """Every subject of the club starts with this (and a dot)."""
        return f"club.{self.name}"


def folder() -> Path:
    return subfolder("club")


def path(name: str) -> Path:
    """A file of the served club's folder: club.json, nats.conf, nats.log, nats.pid,
    cert.pem, key.pem, jetstream/."""
    return folder() / name


def load() -> Club:
    """The club served from this data folder; ClubError if there is none or it is damaged."""
    try:
        raw = read_own(path("club.json"))
    except FileNotFoundError:
        raise ClubError(_("this data folder serves no club yet: start one with briscola club serve")) from None
    try:
        data = json.loads(raw)
        return Club(**data)
    except (ValueError, TypeError) as error:
        raise ClubError(
            _("{path} cannot be read: {why}").format(path=path("club.json"), why=type(error).__name__)
        ) from None


def exists() -> bool:
    return path("club.json").exists()


def save(club: Club) -> None:
    replace_file(path("club.json"), json.dumps(asdict(club), indent=1, sort_keys=True).encode("utf-8"), 0o600)
