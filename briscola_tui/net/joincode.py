"""The join code: a public number, the table's *plate*, then a secret, as in `42-7q8r2k`.

The plate names the table in its announcement on the LAN (net/announcement.py), so that
`briscola join 42-7q8r2k` finds the table by itself; the whole code stays the password
of the handshake's key exchange (SPAKE2, protocol/channel.py), so the plate, which any
passer-by reads, adds nothing to a guesser and the secret is all a guess must hit.
Magic-wormhole's nameplate and words are the model.

The secret is six characters of `ALPHABET`: no `l`/`1`/`i`, no `o`/`0`, so nothing read
aloud is mistaken, and nothing in it is a word of one language. 31⁶ ≈ 8.9 × 10⁸ codes
(29.7 bits); under the host's limits (five wrong codes at once from an address, then one
each 10 s: 360 an hour) one address needs 1.2 million hours on average, and even 4,096
addresses at once have a chance of about 1 in 300 in the two hours a table lasts
(docs/network.md). A code given with `--code` is used as it is (it may have no plate: the
table is then found by its address only).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""The secret's characters: no l, 1, i, o or 0."""
SECRET_LENGTH = 6
PLATES = range(2, 100)
"""The plates a host picks from (two digits at most, each read aloud in one breath)."""
_CODE = re.compile(rf"(\d{{1,4}})-([{ALPHABET}]{{4,16}})")


def new_code(taken: Collection[int] = ()) -> str:
    """A fresh join code whose plate is none of `taken` (the plates seen on the LAN)."""
    free = [plate for plate in PLATES if plate not in taken] or list(range(100, 1000))
    secret = "".join(secrets.choice(ALPHABET) for _ in range(SECRET_LENGTH))
    return f"{secrets.choice(free)}-{secret}"


def tidy(text: str) -> str:
    """A code as typed, as the host made it: spaces around it dropped and, for a code of the
    plate-and-secret kind, capitals lowered (read aloud, "42-7Q8R2K" is the same code)."""
    text = text.strip()
    return text.lower() if _CODE.fullmatch(text.lower()) else text


def plate_of(code: str) -> int | None:
    """The plate of a plate-and-secret code; None for any other (an address, a code with no plate)."""
    match = _CODE.fullmatch(tidy(code))
    return int(match.group(1)) if match else None
