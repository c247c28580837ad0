"""The served club's members: invited (a new credential, its public key added to the
configuration), revoked (taken out of it), listed; and the running server told to read its
configuration again (SIGHUP, as `nats-server --signal reload` sends), which admits a new
member and refuses a revoked one from then on."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

from ..files.atomic import replace_file
from ..language import _
from . import state
from .config import keeper_key, render
from .invite import Invitation
from .keys import NAME, BadKey, checked_public_key, new_seed, public_key
from .state import Club, ClubError
from .tls import der_of

RELOADED = "Reloaded server configuration"
FAILED = "Failed to reload server configuration"
"""What nats-server logs after a reload (its log file is the club's nats.log)."""

WAIT = 10.0
"""Seconds to wait for the running server to say it reloaded."""


def write_config(club: Club) -> Path:
    """The club's record and its server's configuration written (both 0600)."""
    state.save(club)
    config = state.path("nats.conf")
    replace_file(config, render(club, keeper_key(club)).encode("utf-8"), 0o600)
    return config


def invite(name: str) -> Invitation:
    """A new member `name` (ClubError if the name is not one, or taken) and its invitation."""
    seed = new_seed()
    club = _added(name, public_key(seed))
    cert = der_of(state.path("cert.pem").read_bytes()) if club.tls else b""
    return Invitation(club.name, club.url, name, seed, cert)


def admit(name: str, key: str) -> None:
    """The member `name` another node of the cluster invited, admitted here too by its public
    key `key` (the same credential: it reaches the club through this node when its own is
    down); ClubError if the name is not one or taken, or the key is not a member's."""
    try:
        key = checked_public_key(key)
    except BadKey:
        raise ClubError(
            _("{key!r} is not a member's public key (U..., as briscola club members prints it)").format(key=key)
        ) from None
    _added(name, key)


def _added(name: str, key: str) -> Club:
    club = state.load()
    if not NAME.match(name):
        raise ClubError(
            _("a member's name is lowercase letters, digits, '-' and '_' (at most 32), not {name!r}").format(name=name)
        )
    if name in club.members:
        raise ClubError(_("{name} is a member already (revoke first to give a new credential)").format(name=name))
    club.members[name] = key
    write_config(club)
    return club


def revoke(name: str) -> None:
    club = state.load()
    if name not in club.members:
        raise ClubError(_("{name} is not a member").format(name=name))
    del club.members[name]
    write_config(club)


def running_pid() -> int:
    """The running club server's process id, 0 when none runs (a pid file left by a server
    that ended, or naming another program now, is not one)."""
    try:
        pid = int(state.path("nats.pid").read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return 0
    with contextlib.suppress(OSError):
        if b"nats-server" not in Path(f"/proc/{pid}/cmdline").read_bytes():
            return 0
    return pid


def reload() -> bool | None:
    """Tell the running server to read its configuration again: True once it says it did,
    None when no server runs (it reads it when started), False if it did not say so in time
    or says it failed."""
    pid = running_pid()
    if not pid:
        return None
    log = state.path("nats.log")
    before = _said(log)
    os.kill(pid, signal.SIGHUP)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        done, failed = _said(log)
        if failed > before[1]:
            return False
        if done > before[0]:
            return True
        time.sleep(0.05)
    return False


def _said(log: Path) -> tuple[int, int]:
    try:
        text = log.read_bytes()
    except OSError:
        return 0, 0
    return text.count(RELOADED.encode()), text.count(FAILED.encode())
