"""The host's broadcast to its spectators through a carrier that fans out (a club): each frame
a spectator reads (an entry, who is away, the table's end) sealed once with the broadcast key
(protocol/broadcast.py) and published once, whatever the audience. A spectator admitted gets
the key over its own channel, and its entries up to its welcome over its connection; then its
connection is let go (relay.py: `Conn.until`), and the rest comes by the broadcast. The host
keeps nothing of a spectator past its handshake; it says who is away on the broadcast every
BEAT_SECONDS all the same, so that a spectator tells a live table from a dead host."""

from __future__ import annotations

from collections.abc import Callable

from protocol import broadcast

BEAT_SECONDS = 5.0
"""How often the broadcast says something (who is away) when nothing else happens."""


class Fanout:
    def __init__(self, publish: Callable[[bytes], None], table_id: bytes) -> None:
        self.key = broadcast.new_key()
        self.sealer = broadcast.Sealer(self.key, table_id)
        self.publish = publish

    def send(self, payload: bytes, stored: int) -> None:
        """A frame's payload for every spectator, `stored` entries being stored."""
        self.publish(self.sealer.seal(payload, stored))
