"""A seat that stops or cheats, over the network, as a real process (`briscola join` has no cheat).

    python tests/helpers/seat_process.py KIND HOST:PORT CODE NAME SEAT [FLAG]

runs the client of `briscola join --bot random --seat SEAT` (its key and store in
$BRISCOLA_HOME, as `join` keeps them) with a seat session of KIND:

- `stop`: an honest computer player that stops the hand it is in with an early
  reveal, without cause, as soon as the file FLAG exists (once);
- `wrong-share-withheld`: seals the next seat a wrong key share in the first
  deal (`briscola_tui.tools.deck_cheats.WrongShare`), then never reveals that hand's seed.

The tests import the session classes from here too (tests/test_void_hands.py).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from briscola_tui.files.folders import data_dir
from briscola_tui.files.storage import FileSeatStore
from briscola_tui.net.client import Client, Options
from briscola_tui.net.thinking import think
from briscola_tui.tools.deck_cheats import WrongShare
from engine import bots
from protocol import handshake as hs
from protocol.identity import Identity
from protocol.messages import Reveal
from protocol.session import TableSession

STOPPING = ("shuffle", "deal", "play", "handover")
"""The phases in which a seat's reveal stops the hand (it has committed to it)."""


class FlagStopper(TableSession):
    """An honest seat that can stop the hand it is in when told (`stop_now`)."""

    def stop_now(self) -> list[bytes]:
        """The early reveal that stops this hand, signed; none if no hand can be stopped now."""
        hand = self.hand
        if self.phase not in STOPPING or hand is None or self.secrets is None or not self.holds_seat():
            return []
        reveal = self.make_reveal()  # None once revealed
        return [] if reveal is None else [self.sign_step(reveal)]  # no move for the step it stops at


class WrongShareWithheld(WrongShare):
    """Seals the next seat a wrong key share, then withholds its reveal for that hand:
    the host times it out, and the audit opens the blob with the victim's revealed seed."""

    spoiled_hand: int | None = None

    def make_deal(self):
        cheated = self.cheated
        message = super().make_deal()
        if self.cheated and not cheated:
            self.spoiled_hand = message.hand
        return message

    def make_reveal(self) -> Reveal | None:
        if self.hand is not None and self.hand.number == self.spoiled_hand:
            return None
        return super().make_reveal()


SESSIONS = {"stop": FlagStopper, "wrong-share-withheld": WrongShareWithheld}


class SeatClient(Client):
    """The network client with another session class; `stop` also watches for its flag file."""

    def __init__(self, options: Options, identity: Identity, session_class, flag: Path | None):
        super().__init__(options, lambda line: print(line, flush=True), identity)
        self.session_class = session_class
        self.flag = flag
        self.stopped = False

    def _rebuild(self, entries: list[bytes]):
        self.log = self._open_log(entries)
        store = FileSeatStore.for_seat(self.table_id, self.seat)
        return self.session_class.resume(self.seat, self.identity, store, entries, name=self.options.name)

    async def _play(self, reader, frames) -> None:
        """As `Client._play` for a computer player, looking for the flag between entries
        (the reading is cancelled and taken up again: nothing read is lost)."""
        while self.ended is None:
            session = self.session
            if self.flag is not None and not self.stopped and self.flag.exists():
                messages = session.stop_now()
                if messages:
                    self.stopped = True
                    print("stopping the hand (an early reveal)", flush=True)
                    for message in messages:
                        self._send(hs.submit(message))
            if session.my_turn():
                self._act(await think(self.options.player, session.seat_view(), self.rng))
                continue
            reading = asyncio.ensure_future(self._entry(reader, frames))
            done, _ = await asyncio.wait({reading}, timeout=0.1)
            if not done:
                reading.cancel()
                await asyncio.gather(reading, return_exceptions=True)
                continue
            await self._take(reading.result())


def main(argv: list[str]) -> int:
    kind, address, code, name, seat, *rest = argv
    host, _, port = address.rpartition(":")
    options = Options(host, int(port), "player", name, code, int(seat), bots.get("random"), retry_seconds=20)
    identity = Identity.load_or_create(data_dir() / "identity.key")
    flag = Path(rest[0]) if rest else None
    return asyncio.run(SeatClient(options, identity, SESSIONS[kind], flag).run())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
