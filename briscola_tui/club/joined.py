"""The clubs this data folder belongs to (the member's side): `<data folder>/clubs/<name>.json`,
private (0600), each the invitation as `briscola club add` took it, so that `--club NAME`
finds the club's URL, the member's credential and the pinned certificate."""

from __future__ import annotations

from pathlib import Path

from ..files.atomic import replace_file
from ..files.folders import read_own, subfolder
from ..language import _
from .invite import BadToken, Invitation, read_token
from .keys import NAME
from .state import ClubError


def _path(name: str) -> Path:
    return subfolder("clubs") / f"{name}.json"


def add(invitation: Invitation, name: str = "") -> str:
    """Keep `invitation` under `name` (by default the club's own); the name kept."""
    name = name or invitation.club
    if not NAME.match(name):
        raise ClubError(
            _("a club's name is lowercase letters, digits, '-' and '_' (at most 32), not {name!r}").format(name=name)
        )
    replace_file(_path(name), (invitation.token() + "\n").encode("ascii"), 0o600)
    return name


def find(name: str) -> Invitation:
    """The club kept under `name`; ClubError if there is none or its file is damaged."""
    if not NAME.match(name):
        raise ClubError(_("no club called {name!r} here (briscola club add keeps one)").format(name=name))
    try:
        raw = read_own(_path(name))
    except FileNotFoundError:
        raise ClubError(_("no club called {name!r} here (briscola club add keeps one)").format(name=name)) from None
    try:
        return read_token(raw.decode("ascii", "replace"))
    except BadToken as error:
        raise ClubError(_("{path} is damaged: {why}").format(path=_path(name), why=error)) from None


def kept() -> list[str]:
    return sorted(p.stem for p in subfolder("clubs").glob("*.json"))
