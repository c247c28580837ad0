"""What the lobby shows of a network table's session (plain data, `controller.Lobby`):
its seats, who holds them, and who the table waits for, in words."""

from __future__ import annotations

from dataclasses import replace

from protocol.identity import fingerprint
from protocol.session import TableSession

from ..language import _, n_
from ..net.commands import is_bot_name
from .controller import Lobby, LobbySeat

LOBBY_PHASES = ("table", "join", "coin_commit", "coin_reveal")
"""Table phases before the first hand: the lobby shows them, the table takes over after."""


def table_lobby(
    connection: Lobby, session: TableSession, me: int | None, away: tuple[int, ...], bots: set[int]
) -> Lobby:
    """`connection` (the lobby of the connection alone) with the table of `session`: its game,
    seats (`me`: ours; `away`: without a connection; `bots`: the host's computer players), who
    it waits for, its coach rule, and whether a hand has started."""
    assert session.table is not None  # the table has opened
    return replace(
        connection,
        game=session.table.game,
        players=session.players,
        seats=lobby_seats(session, me, away, bots),
        waiting=waiting(session),
        coach=bool(session.rules.get("coach")),
        started=session.phase not in LOBBY_PHASES,
    )


def lobby_seats(session: TableSession, me: int | None, away: tuple[int, ...], bots: set[int]) -> tuple[LobbySeat, ...]:
    """Every seat of the table: who holds it (name and key), a computer or not, ours, away."""
    return tuple(
        LobbySeat(
            s,
            session.names.get(s, "") if s in session.keys else "",
            fingerprint(session.keys[s]) if s in session.keys else "",
            s in bots or is_bot_name(session.names.get(s, "")),
            s == me,
            s in away,
        )
        for s in range(session.players)
    )


def waiting(session: TableSession) -> str:
    """Who the table waits for, in words."""
    phase = session.phase
    _whose, owing = session.expected()
    owed = sorted(s for s in owing if s >= 0)
    seats, n = ", ".join(str(s) for s in owed), len(owed)  # "seat 1, 2" in English; by number in Italian
    if phase == "join":
        if not seats:
            return _("every seat is taken")
        line = n_("waiting for players to take seat {seats}", "waiting for players to take seat {seats}", n)
        return line.format(seats=seats)
    if phase in ("coin_commit", "coin_reveal"):
        if not seats:
            return _("every seat is taken: drawing the first dealer")
        line = n_(
            "every seat is taken: drawing the first dealer (waiting for seat {seats})",
            "every seat is taken: drawing the first dealer (waiting for seat {seats})",
            n,
        )
        return line.format(seats=seats)
    if phase == "seating":
        line = n_("waiting for seat {seats} to be taken again", "waiting for seat {seats} to be taken again", n)
        return line.format(seats=seats)
    if phase in ("over", "aborted"):
        return _("the table is over")
    return _("a hand is on")
