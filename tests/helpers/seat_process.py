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
from briscola_tui.net.client import Client, Options
from briscola_tui.net.listener import Listener
from briscola_tui.tools.deck_cheats import WrongShare
from engine import bots
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


async def watch_flag(client: Client, flag: Path) -> None:
    """Once the flag file exists, the seat stops the hand (an early reveal), between entries."""
    while client.ended is None:
        session = client.session
        if flag.exists() and session is not None and client.channel is not None:
            async with client.receiving:  # never while the session takes an entry in
                messages = session.stop_now()
                if messages:
                    print("stopping the hand (an early reveal)", flush=True)
                    client.submit(messages)
                    return
        await asyncio.sleep(0.1)


async def run_seat(options: Options, identity: Identity, session_class, flag: Path | None) -> int:
    """The network client with another session class; `stop` also watches for its flag file."""
    client = Client(options, Listener(lambda line: print(line, flush=True)), identity, session_class=session_class)
    watching = asyncio.ensure_future(watch_flag(client, flag)) if flag is not None else None
    try:
        return await client.run()
    finally:
        if watching is not None:
            watching.cancel()


def main(argv: list[str]) -> int:
    kind, address, code, name, seat, *rest = argv
    host, _, port = address.rpartition(":")
    options = Options(host, int(port), "player", name, code, int(seat), bots.get("random"), retry_seconds=20)
    identity = Identity.load_or_create(data_dir() / "identity.key")
    flag = Path(rest[0]) if rest else None
    return asyncio.run(run_seat(options, identity, SESSIONS[kind], flag))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
