"""Tables of computer players with chosen people at the seats, for the ledger's tests, and a
forger's tool: a transcript's entries re-signed after an edit."""

from __future__ import annotations

import subprocess
from pathlib import Path

from briscola_tui.files.storage import save_transcript
from engine import bots
from protocol import host as host_module
from protocol import local
from protocol.host import Host
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.session import TableSession
from protocol.transcript import GENESIS, Entry, Signed, entry_hash


def play(
    path: Path,
    people: list[Identity | None],
    names: list[str],
    levels: list[str] | None = None,
    game: str = "briscola",
    options: dict | None = None,
    seed: int = 1,
    table_id: bytes | None = None,
    host: Identity | None = None,
    runs: list[str] | None = None,
) -> LocalTable:
    """Play a whole table whose seat `s` is certified by `people[s]` (None: no certificate)
    under `names[s]`, its moves by the computer player `levels[s]` (random by default); the
    transcript at `path`. `runs[s]`: the computer level the certificate says `people[s]` runs
    at the seat ("": the person's own seat). `host`: the host's key (a fork's two tables share
    one); `table_id`: an id of one's choosing rather than the one the host key makes (a forger
    copying a public id)."""
    n = len(people)
    sessions = {s: TableSession(s, Identity.generate(), names[s]) for s in range(n)}
    for s, person in enumerate(people):
        sessions[s].person, sessions[s].bot_level = person, (runs or [""] * n)[s]
    choosers = {s: bots.get((levels or ["random"] * n)[s]) for s in range(n)}
    options = {"match": 1} if options is None and game == "briscola" else (options or {})
    saved = local.Host, host_module.table_id_of
    if host is not None:
        local.Host = lambda _key, *args, **kwargs: Host(host, *args, **kwargs)  # type: ignore[misc]
    if table_id is not None:
        host_module.table_id_of = lambda key: table_id  # type: ignore[assignment]
    try:
        table = LocalTable(game, n, options, choosers=choosers, sessions=sessions, seed=seed)
    finally:
        local.Host, host_module.table_id_of = saved  # type: ignore[misc]
    table.run()
    assert table.host.session.phase == "over", table.host.session.phase
    save_transcript(path, table.host.table_id, table.entries)
    return table


def resign(
    entries: list[bytes], table_id: bytes, at: int, message: bytes, signer: Identity, host: Identity
) -> list[bytes]:
    """The entries with entry `at`'s message replaced by `message` signed by `signer`, and every
    entry from there on linked again and signed by `host` (a forger holding those keys)."""
    out = [Entry.decode(e) for e in entries]
    payload = Signed.decode(message).payload
    out[at] = Entry(at, out[at].prev, Signed.sign(signer, payload).encode())
    head = entry_hash(out[at - 1]) if at else GENESIS
    for k in range(at, len(out)):
        entry = Entry(k, head, out[k].message).signed_by(host, table_id)
        out[k] = entry
        head = entry_hash(entry)
    return [e.encode() for e in out]


def stop(child: subprocess.Popen) -> None:
    """Kill `child` if it still runs, and reap it (a test's `finally`)."""
    if child.poll() is None:
        child.kill()
        child.wait(timeout=10)
