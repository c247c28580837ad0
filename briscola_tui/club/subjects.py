"""The subjects a table uses through a club, named so that the server's permissions can say who
may publish where (config.py): a connection's bytes to its host go up on a subject that names
the host, the table, the member who connects and the connection; the host's answer comes down
on the same names. The host publishes only under its own name (`down.<host>.`, `watch.<host>.`),
a member only under its own (`up.*.*.<member>.`): no member can write into another's
connection, whatever it sends, and a member reads only its own connections' answers."""

from __future__ import annotations

import re

from .keys import NAME

CONNECTION = re.compile(r"[0-9a-f]{16}")
"""A connection's id: 8 random bytes in hex, chosen by the member that connects."""


def up(prefix: str, host: str, table: str, member: str, connection: str) -> str:
    """A connection's bytes to its host."""
    return f"{prefix}.tables.up.{host}.{table}.{member}.{connection}"


def ups(prefix: str, host: str, table: str) -> str:
    """Every connection to one table (what its host listens to)."""
    return f"{prefix}.tables.up.{host}.{table}.>"


def down(prefix: str, host: str, table: str, member: str, connection: str) -> str:
    """The host's bytes to one connection."""
    return f"{prefix}.tables.down.{host}.{table}.{member}.{connection}"


def watch(prefix: str, host: str, table: str) -> str:
    """A table's broadcast to its spectators (sealed with a key each admitted one is given)."""
    return f"{prefix}.tables.watch.{host}.{table}"


def connection_of(prefix: str, host: str, table: str, subject: str) -> tuple[str, str] | None:
    """(member, connection) of an `up` subject of this table; None for one that is not."""
    head = f"{prefix}.tables.up.{host}.{table}."
    if not subject.startswith(head):
        return None
    member, _dot, connection = subject[len(head) :].partition(".")
    if not NAME.fullmatch(member) or not CONNECTION.fullmatch(connection):
        return None
    return member, connection


def bucket(club: str) -> str:
    """The key-value bucket of the tables the club's hosts announce."""
    return f"tables-{club}"


def table_key(host: str, table: str) -> str:
    """A table's key in the bucket: its host's name first (a member puts only under its own)."""
    return f"{host}.{table}"
