"""Reaching the host: what a client asks for (`Options`), what stops it trying (`Refused`,
`Distrusted`), what has it wait (`Busy`), and how a failure is said."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from engine.bots import Player
from protocol import reasons
from protocol.channel import WRONG_CODE
from protocol.errors import ProtocolError
from protocol.identity import Identity
from protocol.session import TableSession

from ..engine_words import protocol_error_words, reason_words
from ..language import _
from ..os_errors import os_error_words
from .carrier import CarriedPlaces

CLEAR_BUSY_SECONDS = 5.0
"""The longest a `busy` said before the host proved the join code is heeded: anyone on the way
could have said it (a forged `busy 3600` would keep a client away for its whole --retry)."""

FIRST_CONTACT_SECONDS = 2.5
"""How long a client that never reached the table tries before it says nothing answers (a table
it was at, it tries again for --retry seconds)."""
LONGEST_PAUSE = 5.0
"""The most a client waits between two tries while it has no seat at the table (the pause
doubles from 0.2 s)."""
LONGEST_PAUSE_SEATED = 1.0
"""The most a seat that lost its host waits between two tries: the table stands still until it is
back, and a refused try costs the host nothing, so a host started again is found within a second."""


def next_pause(pause: float, seated: bool) -> float:
    """The pause after a try that followed a pause of `pause` seconds: twice as long, up to a limit."""
    return min(pause * 2, LONGEST_PAUSE_SEATED if seated else LONGEST_PAUSE)


class Refused(Exception):
    """The host said no (wrong code, no seat free...): not worth retrying."""


class Busy(ConnectionError):
    """The host turned this connection away for load (too many connections, or this key sent
    too many messages): try again, `seconds` later at the earliest."""

    def __init__(self, reason: str, seconds: float):
        super().__init__(reason)
        self.seconds = seconds


class Unconfirmed(ConnectionError):
    """A refusal said before the host proved the join code (in the clear, so anyone on the way
    could have said it): retried like a lost connection by a client that was at the table; one
    that never reached it takes it as the refusal it says (a wrong code is the user's to fix)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def in_the_clear(kind: str, fields: list) -> Exception:
    """A `refuse` or `busy` before the host proved the join code, as it is heeded: a refusal
    as `Unconfirmed`, a wait of `CLEAR_BUSY_SECONDS` at most."""
    if kind == "refuse":
        return Unconfirmed(fields[0])
    return Busy(fields[0], min(fields[1], CLEAR_BUSY_SECONDS))


class Whole(ConnectionError):
    """A connection's failure whose message says it whole (a club that cannot be reached)."""


class Distrusted(Refused):
    """The host did what an honest host does not (another seat than the one asked for, no
    proof of the join code): this client stops, and does not retry either."""


class AnotherTable(Refused):
    """The host this client was at serves another table now (it was started anew, not taken
    up): the table this client was at is not there, and waiting will not bring it back."""


ANOTHER_TABLE = 4
"""The exit status of a client whose host now serves another table (`AnotherTable`)."""


@dataclass
class Options:
    address: str
    port: int
    role: str  # "player" or "spectator"
    name: str = ""
    code: str = ""
    seat: int = -1
    player: Player | None = None  # a computer player `play(view, rng)`, or None: a person on stdin
    retry_seconds: float = 60.0  # how long to keep trying to reconnect
    person: Identity | None = None  # who vouches for the seat's key in the join (`join --bot`: who runs it)
    bot_level: str = ""  # `join --bot`: the computer level `person` runs at the seat, named in the certificate
    table: bytes | None = None  # the table the LAN named for this address (None: any table there)
    places: CarriedPlaces | None = None  # through a carrier (a club), not to `address`:`port`


def unreachable(error: BaseException, address: str) -> str:
    """Why a first connection to `address` (HOST:PORT) failed, in words."""
    if isinstance(error, Whole):
        return str(error)
    if isinstance(error, ConnectionRefusedError):
        return _("nothing answers at {address} (is the host running, on that port?)").format(address=address)
    if isinstance(error, (ProtocolError, asyncio.IncompleteReadError)):
        why_not = protocol_error_words(error) if isinstance(error, ProtocolError) else str(error)
        return _("{address} does not answer as a briscola host ({error})").format(address=address, error=why_not)
    return _("cannot reach the host at {address}: {why}").format(address=address, why=why(error))


def another_table(address: str, new: bytes, old: bytes) -> str:
    """A host at `address` serving table `new`, where this client was at table `old`, in words."""
    return _(
        "the host at {address} now serves another table ({new}, not {old}): it was started anew, not "
        "taken up; stopping (a seat is kept: if the host takes that table up again, the same command "
        "comes back to it)"
    ).format(address=address, new=new.hex()[:12], old=old.hex()[:12])


def impostor(address: str, answered: bytes, announced: bytes) -> str:
    """The host at `address` answers as another table than the one announced there, in words."""
    return _(
        "the host at {address} answers as table {answered}, not table {announced} that was announced there: "
        "an impostor (a relay, or a copied record)"
    ).format(address=address, answered=answered.hex()[:12], announced=announced.hex()[:12])


def given_up(address: str, seconds: float, error: BaseException) -> str:
    """The retry window after a drop is over: why, and what to do."""
    return _(
        "cannot reach the host at {address} after {seconds:g} s ({why}); stopping: the same command "
        "comes back to the table once the host is up (a seat is kept), or join the new address the "
        "host gives if it listens on another port"
    ).format(address=address, seconds=seconds, why=why(error))


def unreachable_at(address: str, seconds: float, error: BaseException) -> str:
    """The retry window of a client never let in is over (the host busy all along): why."""
    return _("cannot reach the host at {address} after {seconds:g} s: {why}").format(
        address=address, seconds=seconds, why=why(error)
    )


def still_trying(address: str, error: BaseException, left: float) -> str:
    """A try after a drop failed: what is waited for, and how long is left."""
    return _("still no host at {address} ({why}); trying again, {left:.0f} s left").format(
        address=address, why=why(error), left=max(left, 0)
    )


def refusal(reason: str, code: str) -> str:
    """The host's refusal (as the frame carries it: a code and its fields, or the host's own
    words) in this client's language (`code`: the join code given, "" for none)."""
    known = reasons.read(reason)
    if known is not None and known.code == WRONG_CODE and not code:
        return _("the host refused: this table needs a join code (--code)")
    return _("the host refused: {reason}").format(reason=reason_words(reason))


def check_seat(role: str, held: int | None, given: int | None, asked: int) -> None:
    """The host gave the seat asked for (or, asked for none, a seat: a player has one, a
    spectator none); a client coming back (`held`: its seat), its own seat. Distrusted
    otherwise: whoever changed what was asked, or a host that lies, takes nothing."""
    if (given is None) != (role == "spectator"):
        if given is None:
            raise Distrusted(_("the host gave a player no seat"))
        raise Distrusted(_("the host gave a spectator seat {seat}").format(seat=given))
    if held is not None and given != held:
        raise Distrusted(
            _("the host gave seat {given}, but this client holds seat {seat}").format(given=given, seat=held)
        )
    if asked >= 0 and given != asked:
        raise Distrusted(
            _("the host gave seat {given}, not seat {asked} that was asked for").format(given=given, asked=asked)
        )


def exit_status(session: TableSession | None) -> int:
    """0 for a table played to its end, 3 for one stopped for a cheat, 1 otherwise."""
    if session is None:
        return 1
    if session.phase == "over":
        return 0
    return 3 if session.phase == "aborted" else 1


def why(error: BaseException) -> str:
    """An error in words: a socket's without its number ("Connection reset by peer")."""
    if isinstance(error, Whole):
        return str(error)
    if isinstance(error, ConnectionRefusedError):
        return _("nothing answers on that port")  # (asyncio's words name the address again)
    if isinstance(error, Busy):  # the host's reason, as a code
        return reason_words(str(error))
    return os_error_words(error) or _("closed")
