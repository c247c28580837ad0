"""The nats-server configuration of a club, generated whole from its record (state.py).

No anonymous access: every connection is a user of the club's one account, known by its
nkey. A member may publish only its own transcripts (`club.<club>.ledger.<member>.>`), its
own connections' bytes to a table and, as a host, its own tables' answers, broadcasts and
records in the list (subjects.py names them so); read the ledger, the broadcasts and only its
own connections' answers; ask the JetStream API only for the stream's and the list's
information and messages (never to purge, delete or change them), and receive replies only on
its own inbox prefix. The serving
process's own user (`_keeper`) makes the stream. Limits: `max_payload`, connections per
account, and the account's JetStream storage.
"""

from __future__ import annotations

import json
import socket

from . import state
from .state import Club
from .subjects import bucket

MAX_PAYLOAD = 1024 * 1024
"""The largest message: a transcript travels in parts of PART bytes (sync.py), well under it,
as the protocol's largest frame (64 KiB, protocol/codec.py MAX_FRAME) will for tables."""

MAX_CONNECTIONS = 256
"""Connections to the club's account at once, every member's together."""

MAX_STORE = 4 * 1024**3
"""The JetStream storage on disk the club's account may take."""

KEEPER = "_keeper"
"""The serving process's own user: its inbox prefix; no member's name starts with '_'."""


def stream_name(club: Club) -> str:
    return f"CLUB_{club.name}"


def inbox(who: str) -> str:
    """The inbox prefix a user's replies come to (nats-py's `inbox_prefix`)."""
    return f"_INBOX.{who}"


def member_permissions(club: Club, member: str) -> dict[str, dict[str, list[str]]]:
    stream, p = stream_name(club), club.prefix
    kv, kv_stream = bucket(club.name), f"KV_{bucket(club.name)}"
    return {
        "publish": {
            "allow": [
                f"{p}.ledger.{member}.>",
                f"{p}.tables.up.*.*.{member}.>",  # (subjects.py: its own connections to any host)
                f"{p}.tables.down.{member}.>",  # (its own tables' answers and broadcasts)
                f"{p}.tables.watch.{member}.>",
                f"$KV.{kv}.{member}.>",  # (its own tables' records in the list)
                "$JS.API.INFO",
                f"$JS.API.STREAM.INFO.{stream}",
                f"$JS.API.STREAM.MSG.GET.{stream}",
                f"$JS.API.STREAM.INFO.{kv_stream}",
                f"$JS.API.STREAM.MSG.GET.{kv_stream}",
            ]
        },
        "subscribe": {
            "allow": [
                f"{p}.ledger.>",
                f"{p}.tables.up.{member}.>",
                f"{p}.tables.down.*.*.{member}.>",
                f"{p}.tables.watch.>",
                f"{inbox(member)}.>",
            ]
        },
    }


def keeper_permissions(club: Club) -> dict[str, dict[str, list[str]]]:
    return {
        "publish": {"allow": [f"{club.prefix}.>", "$JS.API.>"]},
        "subscribe": {"allow": [f"{club.prefix}.>", f"{inbox(KEEPER)}.>"]},
    }


def keeper_key(club: Club) -> str:
    from .keys import public_key

    return public_key(club.keeper_seed)


def render(club: Club, keeper: str) -> str:
    """The configuration text; `keeper`: the public key of the keeper's seed. (The NATS
    configuration format reads JSON values, so every value is written as JSON.)"""
    users = [{"nkey": keeper, "permissions": keeper_permissions(club)}]
    users += [
        {"nkey": key, "permissions": member_permissions(club, name)} for name, key in sorted(club.members.items())
    ]
    account = {
        "jetstream": {"max_file": MAX_STORE, "max_mem": 16 * 1024**2, "max_streams": 4, "max_consumers": 64},
        "limits": {"max_connections": MAX_CONNECTIONS},
        "users": users,
    }
    lines = [
        f"# the club {club.name}: written by briscola club serve, invite and revoke; changes by hand are lost",
        f"listen: {_j(host_port(club.bind, club.port))}",
        f"server_name: {_j(server_name(club))}",
        f"max_payload: {MAX_PAYLOAD}",
        f"max_connections: {MAX_CONNECTIONS}",
        f"pid_file: {_j(str(state.path('nats.pid')))}",
        f"log_file: {_j(str(state.path('nats.log')))}",
        f"jetstream: {_j({'store_dir': str(state.path('jetstream')), 'max_memory_store': 64 * 1024**2, 'max_file_store': MAX_STORE})}",
        f"accounts: {_j({'CLUB': account})}",
    ]
    if club.tls:
        tls = {"cert_file": str(state.path("cert.pem")), "key_file": str(state.path("key.pem")), "timeout": 5}
        lines.append(f"tls: {_j(tls)}")
    if club.cluster_port:
        lines.append(f"cluster: {_j(cluster(club))}")
    return "\n".join(lines) + "\n"


def cluster(club: Club) -> dict[str, object]:
    """The cluster block: its name (the club's), where routes are heard, the routes to the other
    nodes, and the shared secret a route must present (carried in the route URLs)."""
    block: dict[str, object] = {
        "name": f"club-{club.name}",
        "listen": host_port(club.bind, club.cluster_port),
        "routes": list(club.routes),
    }
    if club.cluster_secret:
        block["authorization"] = {"user": "route", "password": club.cluster_secret, "timeout": 5}
    return block


def own_route(club: Club) -> str:
    """This node's route, as the other nodes name it (with the cluster's secret)."""
    return f"nats://route:{club.cluster_secret}@{host_port(club.host, club.cluster_port)}"


def server_name(club: Club) -> str:
    """Unique within a cluster (JetStream clustering needs one): the club, the machine, the port."""
    machine = "".join(c if c.isalnum() or c == "-" else "-" for c in socket.gethostname()) or "host"
    return f"{club.name}-{machine}-{club.port}"


def host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _j(value: object) -> str:
    return json.dumps(value)
