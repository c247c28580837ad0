"""The home screen's forms for network play: host a table (game, players,
computer players and their level, a join code or an open table, the port),
join one (address, code, name, seat) and watch one (address, code). Each
form goes through the LAN or a club (its first field, set at first from the
settings: tui/clubs.py). Each field is checked before anything starts
(netform_fields.py), and a bad one is named; what only the network can tell
(a refused code, a host that does not answer) shows in the lobby that follows."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from textual.widgets import Select

from engine.bots import PLAYERS

from ...club.choosing import club_of
from ...files.settings import Settings, value_word
from ...language import N_, _
from ...options import HostOptions, JoinOptions, WatchOptions
from ...wording import table_label
from .netform_base import Field, NetForm, Tick, compact_input
from .netform_fields import (
    TABLES,
    example_address,
    host_args,
    join_args,
    watch_args,
)
from .netform_finding import LanForm

if TYPE_CHECKING:
    from ...club.choosing import Reaching
    from ...tables.network import NetTable


class HostForm(NetForm):
    HEADING = N_("Host a table")
    INTRO = N_(
        " You hold seat 0; computer players take the last seats. The lobby shows\n"
        " the join code and the addresses to give friends."
    )

    LAN_ONLY = ("port", "bind", "advertise")
    """The fields that do not apply through a club (it carries the table, and lists it)."""

    def fields(self) -> list[tuple[str, str, Field]]:
        return [
            self.club_field(),
            (
                "table",
                _("Game"),
                Select(
                    [(table_label(*value), value) for _text, value in TABLES],
                    value=TABLES[0][1],
                    allow_blank=False,
                    compact=True,
                ),
            ),
            ("bots", _("Computer players"), compact_input(str(HostOptions.bots), _("0 to players - 1"), "integer")),
            (
                "level",
                _("Their level"),
                Select(
                    [(value_word("level", name), name) for name in sorted(PLAYERS)],
                    value=Settings.level,
                    allow_blank=False,
                    compact=True,
                ),
            ),
            ("hands", _("Hands"), compact_input("", _("blank: the whole series"), "integer")),
            ("code", _("Join code"), compact_input("", _("blank: a random one"))),
            ("open", _("Open table"), Tick(_("no join code at all"), compact=True)),
            ("coach", _("Coach"), Tick(_("the players may ask it (h)"), compact=True)),
            ("port", _("Port"), compact_input(str(HostOptions.port), _("0: any free port"), "integer")),
            ("bind", _("Listen on"), compact_input("", _("blank: every interface"))),
            ("advertise", _("Announce on the LAN"), Tick(_("friends see the table in their list"), True, compact=True)),
            ("name", _("Your name"), compact_input("", _("what the others see"))),
        ]

    def club_note(self, club: str) -> str:
        return _(
            "Through the club {club}: it carries the table and lists it to its members; no port to open "
            "(Port, Listen on and Announce on the LAN do not apply)"
        ).format(club=club)

    def made_for(self, club: str | None) -> None:
        for ident in self.LAN_ONLY:
            self.query_one(f"#{ident}").disabled = club is not None

    def table(self, values: dict) -> NetTable:
        from ...net.joining import player_identity
        from ...tables.hosting_seat import hosting_table

        club = self.club()
        if club is None:
            return hosting_table(host_args(values), player_identity())
        lan_only = {"port": "", "bind": "", "advertise": True}  # (listed by the club, not on the LAN)
        options = dataclasses.replace(host_args({**values, **lan_only}), club=club)
        return hosting_table(options, player_identity(), club_of(club))


class JoinForm(LanForm):
    HEADING = N_("Join a table")
    INTRO = N_(
        " Pick a table in the list or type the host's HOST:PORT, then the join code;\n"
        " the code alone (such as 42-7q8r2k) finds its table on the LAN."
    )

    def fields(self) -> list[tuple[str, str, Field]]:
        return [
            self.club_field(),
            ("address", _("Address"), compact_input("", example_address())),
            ("code", _("Join code"), compact_input("", _("blank for an open table"))),
            ("name", _("Your name"), compact_input("", _("what the others see"))),
            ("seat", _("Seat"), compact_input("", _("blank: any free seat"), "integer")),
        ]

    def options(self, values: dict, club: str | None) -> Reaching:
        return join_args(values, club)

    def table(self, values: dict) -> NetTable:
        from ...net.joining import join_options, player_identity
        from ...tables.network import NetTable

        club = self.club()
        if club is None:
            options = dataclasses.replace(join_args(values), table=self.table_id(values))
            return NetTable(join_options(options), player_identity())
        through, member = self.reached(join_args(values, club))
        assert isinstance(through, JoinOptions)
        return NetTable(join_options(through, member), player_identity(), carrier=member)


class WatchForm(LanForm):
    HEADING = N_("Watch a table")
    INTRO = N_(
        " A spectator sees every public card and nothing hidden, and sends nothing.\n"
        " Pick a table in the list or type the host's HOST:PORT, then the join code."
    )

    def fields(self) -> list[tuple[str, str, Field]]:
        return [
            self.club_field(),
            ("address", _("Address"), compact_input("", example_address())),
            ("code", _("Join code"), compact_input("", _("blank for an open table"))),
        ]

    def options(self, values: dict, club: str | None) -> Reaching:
        return watch_args(values, club)

    def table(self, values: dict) -> NetTable:
        from ...net.joining import watch_options
        from ...tables.network import NetTable

        club = self.club()
        if club is None:
            return NetTable(watch_options(dataclasses.replace(watch_args(values), table=self.table_id(values))))
        through, member = self.reached(watch_args(values, club))
        assert isinstance(through, WatchOptions)
        return NetTable(watch_options(through, member), carrier=member)


FORMS = {"host": HostForm, "join": JoinForm, "watch": WatchForm}
