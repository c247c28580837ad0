"""The clubs the app offers where a table may go through one (the settings screen, the Host,
Join and Watch forms): none (the LAN), or one of the clubs this data folder keeps (`briscola
club add`); and, where a club cannot be used here, the line that says why."""

from __future__ import annotations

from ..club import joined
from ..club.needs import Missing, need_client
from ..files.settings import Settings
from ..language import _


def kept_clubs() -> list[str]:
    """The clubs this data folder keeps, by name (none where its folder cannot be read)."""
    try:
        return joined.kept()
    except OSError:
        return []


def club_choices() -> list[str]:
    """What a club choice offers: "" (none: the LAN), then each club kept."""
    return ["", *kept_clubs()]


def club_word(club: str) -> str:
    """A club choice in words: its name, or none (the LAN)."""
    return club or _("none (the LAN)")


def first_club(settings: Settings) -> str:
    """The club a form goes through when it opens: the settings' club where it is kept, else the LAN."""
    return settings.club if settings.club in kept_clubs() else ""


def club_problem(club: str = "") -> str:
    """Why the club `club` (or any club, with "") cannot be used here: the club extra missing, no
    club kept, or `club` not kept; "" where nothing stands in the way."""
    try:
        need_client()
    except Missing as error:
        return str(error)
    kept = kept_clubs()
    if not kept:
        return _("no club is kept here: briscola club add keeps one (its invitation from the club's keeper)")
    if club and club not in kept:
        return _("the club {club} is not kept here: the forms go through the LAN").format(club=club)
    return ""
