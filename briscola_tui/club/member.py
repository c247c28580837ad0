"""This process as a member of a club, for a table: one connection to the club (made when first
needed, reconnecting by itself to any node of the club's cluster), the links of a host and of
its clients over it, and the tables its hosts announce."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from protocol.identity import Identity

from ..language import _
from ..net.announcement import Announcement
from ..net.reaching import Whole
from . import joined, tables
from .broadcast import Broadcaster, Heard, broadcaster, heard
from .connect import Unreachable, connect
from .invite import Invitation
from .keys import NAME
from .link import ClubLink, ClubListener, connect_link
from .needs import need_client
from .state import ClubError
from .tables import Listed

if TYPE_CHECKING:
    from nats.aio.client import Client


class ClubUnreachable(Whole):
    """The club cannot be reached or refused this member; the message says it whole."""


class Member:
    """A club this data folder belongs to, as kept by `briscola club add`."""

    def __init__(self, name: str, invitation: Invitation) -> None:
        self.name, self.invitation = name, invitation
        self.nc: Client | None = None
        self.casters: list[Broadcaster] = []  # a host's tables' broadcasts (closed with the connection)
        self.plates: frozenset[int] = frozenset()  # those its tables used when the command started

    @property
    def member(self) -> str:
        return self.invitation.member

    @property
    def label(self) -> str:
        return _("the club {club}").format(club=self.name)

    @property
    def prefix(self) -> str:
        return f"club.{self.invitation.club}"

    async def client(self) -> Client:
        """The connection to the club, made if there is none (ClubUnreachable if it cannot be)."""
        if self.nc is None or self.nc.is_closed:
            invitation = self.invitation
            try:
                self.nc = await connect(
                    invitation.url, invitation.seed, invitation.member, invitation.cert, reconnect=True
                )
            except Unreachable as error:
                raise ClubUnreachable(self.unreachable(str(error))) from None
        return self.nc

    def unreachable(self, why: str) -> str:
        return _("the club {club} cannot be reached at {url}: {why}").format(
            club=self.name, url=self.invitation.url, why=why
        )

    async def connect(self, host: str, table: str) -> ClubLink:
        return await connect_link(await self.client(), self.prefix, host, table, self.member)

    async def listen(self, serve: Callable[[ClubLink], Coroutine[Any, Any, None]], table: str) -> ClubListener:
        listener = ClubListener(await self.client(), self.prefix, self.member, table, serve)
        await listener.start()
        return listener

    async def announce(self, now: Callable[[], Announcement], identity: Identity, say: Callable[[str], None]) -> None:
        await tables.announce(await self.client(), self.invitation.club, self.member, now, identity, say)

    async def broadcast(self, table: str) -> Callable[[bytes], None]:
        caster = await broadcaster(await self.client(), self.prefix, self.member, table)
        self.casters.append(caster)
        return caster.publish

    async def watch(self, host: str, table: str) -> Heard:
        return await heard(await self.client(), self.prefix, host, table)

    async def tables(self) -> list[Listed]:
        """The tables the club lists now (ClubUnreachable where it cannot be asked)."""
        from nats.errors import Error

        try:
            return await tables.listed(await self.client(), self.invitation.club)
        except (Error, TimeoutError) as error:
            raise ClubUnreachable(self.unreachable(str(error) or type(error).__name__)) from None

    async def tables_once(self) -> list[Listed]:
        """The tables the club lists now, on a connection closed after the asking (a command's or
        a form's one question)."""
        try:
            return await self.tables()
        finally:
            await self.close()

    async def close(self) -> None:
        for caster in self.casters:
            await caster.close()
        self.casters.clear()
        if self.nc is not None and not self.nc.is_closed:
            await self.nc.close()
        self.nc = None  # (the next use connects again, on its own loop)


def member_of(club: str) -> Member:
    """The club `club` names: a club kept under that name, or the kept club whose URL it is;
    ClubError where there is none (Missing without the club extra)."""
    need_client()
    if NAME.match(club):
        return Member(club, joined.find(club))
    for name in joined.kept():
        if joined.find(name).url == club:
            return Member(name, joined.find(name))
    raise ClubError(
        _("no club kept here answers to {club!r}: briscola club add keeps one, briscola club list lists them").format(
            club=club
        )
    )
