"""A connection to a club as one of its users: the nkey seed proves who it is (signing the
server's nonce), replies come to the user's own inbox prefix, and beyond loopback the club's
pinned certificate is the only one trusted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..os_errors import os_error_words
from .config import inbox
from .tls import pinned_context

if TYPE_CHECKING:
    from nats.aio.client import Client

TIMEOUT = 10.0
"""Seconds to reach the club and be admitted."""


RECONNECT_SECONDS = 0.5
"""Between two tries to reach the club again (every node it names in turn)."""


class Unreachable(ConnectionError):
    """The club refused or could not be reached; the message is nats-py's or the system's."""


async def connect(url: str, seed: str, user: str, cert: bytes = b"", *, reconnect: bool = False) -> Client:
    """Connected to the club at `url` as `user` (its inbox prefix) with `seed`; Unreachable
    if it cannot be reached or refuses the credential. A command that runs once does not
    reconnect (it reports the failure, it does not wait on it); a table's connection does
    (`reconnect`), to any node of the club's cluster the server names, for as long as it runs."""
    import nats
    from nats.errors import Error, NoServersError

    last: list[Exception] = []

    async def heard(error: Exception) -> None:  # (nats-py logs to stderr by default: the command says it once)
        last[:] = [error]

    try:
        client = await nats.connect(
            servers=[url],
            nkeys_seed_str=seed,
            inbox_prefix=inbox(user),
            tls=pinned_context(cert) if cert else None,
            connect_timeout=TIMEOUT,
            allow_reconnect=True,  # (tried twice, then NoServersError: nats-py's only bound on a first connection)
            max_reconnect_attempts=1,
            reconnect_time_wait=RECONNECT_SECONDS,
            error_cb=heard,
            name=f"briscola {user}",
        )
    except (Error, NoServersError, OSError, TimeoutError) as error:
        why = last[0] if last and isinstance(error, NoServersError) else error  # (the refusal, not "no servers")
        words = os_error_words(why) if isinstance(why, OSError) else str(why)
        raise Unreachable(words or type(why).__name__) from None
    # Connected: from now on a table's connection tries again for ever, a command's not at all
    # (nats-py reads these options as it goes; it has no other way to change them).
    client.options["allow_reconnect"] = reconnect
    client.options["max_reconnect_attempts"] = -1 if reconnect else 0
    return client
