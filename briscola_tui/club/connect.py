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
FIRST_TRIES = 1
"""Tries again of the first connection before the club is said unreachable (nats-py, 2.16 at
least, tries a refusing server for ever at 0)."""


class Unreachable(ConnectionError):
    """The club refused or could not be reached; the message is nats-py's or the system's."""


async def connect(url: str, seed: str, user: str, cert: bytes = b"", *, reconnect: bool = False) -> Client:
    """Connected to the club at `url` as `user` (its inbox prefix) with `seed`; Unreachable
    if it cannot be reached or refuses the credential. A command that runs once does not
    reconnect (it reports the failure, it does not wait on it); a table's connection does
    (`reconnect`), to any node of the club's cluster the server names, for as long as it runs."""
    import nats
    from nats.errors import Error, NoServersError

    last: list[BaseException] = []  # (the last error only: a table's connection lives long)

    async def quiet(error: Exception) -> None:  # (nats-py logs to stderr by default: the command says it once)
        last[:] = [error]

    try:
        client = await nats.connect(
            servers=[url],
            nkeys_seed_str=seed,
            inbox_prefix=inbox(user),
            tls=pinned_context(cert) if cert else None,
            connect_timeout=TIMEOUT,
            allow_reconnect=False,
            max_reconnect_attempts=FIRST_TRIES,
            reconnect_time_wait=RECONNECT_SECONDS,
            error_cb=quiet,
            name=f"briscola {user}",
        )
    except (Error, NoServersError, OSError, TimeoutError) as error:
        cause = last[0] if isinstance(error, NoServersError) and last else error
        why = os_error_words(cause) if isinstance(cause, ConnectionError) else str(cause)  # (not a TLS error's number)
        raise Unreachable(why or type(cause).__name__) from None
    if reconnect:  # (once connected: a first connection that reconnects is tried for ever)
        client.options.update(allow_reconnect=True, max_reconnect_attempts=-1)
    return client
