"""Why: the reasons that travel between nodes, as codes with their data.

A host that refuses a client, turns it away for load, or closes its connection says why
in a `refuse`, `busy` or `bye` frame; a client says why it leaves in its `bye`; a host
closing a table says why in its `close` message. Each of them carries a `Reason`: a code
from `REASONS` and the code's fields, in the field of the frame (a string) as

    code                      (no fields)
    code US field US field    (US: the unit separator, U+001F, which no name holds)

The receiver writes the reason in its own language from the code (the product lists each
code's words in its catalogue); a text that is not a known code with its fields (a peer of
another version, or one that lies) is shown literally, as that peer's words. The English
templates here are the code's meaning, `str()` of an error that carries the reason, and
what a peer of an earlier version shows.

`ProtocolError` (errors.py) carries a `Reason` when its reason is one of these.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

SEPARATOR = "\x1f"
MAX_REASON = 200
"""Characters of a reason on the wire at most (the frames' string field)."""

REASONS: dict[str, str] = {
    # a host that refuses a client (`refuse`): the client does not try again
    "wrong-code": "wrong join code",
    "wrong-code-open": "wrong join code (this table is open: join it without --code)",
    "version": "protocol version {theirs}; this host speaks {ours}",
    "no-hello": "a connection starts with hello",
    "no-confirm": "expected the key confirmation",
    "no-request": "expected the client's request",
    "no-proof": "expected the handshake proof",
    "bad-proof": "the handshake proof is not signed by the key offered",
    "other-key": "the hello named another key than the request",
    "bad-frame": "a connection frame is an array starting with its kind",
    "unknown-frame": "unknown connection frame {kind}",
    "malformed": "a malformed frame ({detail})",
    "bad-role": "role must be player or spectator, not {role}",
    "no-key": "a player brings its 32-byte Ed25519 key",
    "bad-name": "the name {name} cannot sit at a table",
    "bot-name": "{name}: a name such as cpu1 (cpu and a digit) is kept for the host's computer players: choose another",
    "bot-join": "a join under a name kept for the host's computer players (such as cpu1)",
    "evicted": "this key was evicted from this table for cheating (watch it instead)",
    "no-free-seat": "no seat is free at this table (watch it instead)",
    "seat-taken": "seat {seat} is taken",
    "seat-given": "your seat was given to a computer player",
    "kept-out-seconds": "too many messages: kept out for {seconds} s",
    "too-large": "a message over the size limit",
    "flooding": "flooding the table with out-of-date messages",
    "other-signer": "a message signed by another key than the one this connection proved",
    "after-handshake": "{kind} after the handshake",
    "spectator-message": "a spectator cannot send game messages",
    # a host that turns a client away for load (`busy`): it tries again later
    "busy-idle": "the host is busy: too many idle connections from your address",
    "busy-address": "the host is busy: too many connections from your address",
    "busy-handshakes": "the host is busy: too many connections in their handshake",
    "busy-full": "the host has too many connections",
    "kept-out": "too many messages: kept out for now",
    "kept-out-address": "too many connections from your address: kept out for now",
    "guesses-address": "too many wrong codes from your address; wait {seconds} s",
    "guesses-key": "too many wrong codes from your key; wait {seconds} s",
    # a connection closed (`bye`): a client may come back
    "same-key": "the same key connected again",
    "too-slow": "too slow to read the table",
    "relay-failed": "the host failed to relay to this connection",
    "tampered": "a frame failed its integrity check (changed, cut short, replayed or out of order on the way)",
    "no-handshake": "no handshake in time",
    "connection-lost": "connection lost",
    "series-over": "the series is over; scores {scores}",
    "table-stopped": "the table stopped",
    # a client's goodbye (`bye`)
    "done": "done: the client holds the table's end",
    "spectator-left": "the spectator left",
    # a host's `close` message (in the transcript)
    "host-closed": "the host closed the table",
    "hands-played": "the table ends after hand {hands}, as it was started",
    # a transcript file
    "old-transcript": (
        "a transcript of format {theirs}, written by an earlier release; this release reads only "
        "format {ours} (proofs about hidden cards, sealing on secp256k1, a complaint anyone can check) "
        "and cannot check it"
    ),
}
"""Each code and its meaning in English (a template with the code's `{fields}`)."""


def fields_of(code: str) -> tuple[str, ...]:
    """The names of a code's fields, in the order the template names them."""
    return tuple(name for _, name, _, _ in string.Formatter().parse(REASONS[code]) if name)


@dataclass(frozen=True)
class Reason:
    """A code of `REASONS` and its fields' values (strings), in the template's order."""

    code: str
    values: tuple[str, ...] = ()

    @classmethod
    def of(cls, code: str, **fields: object) -> Reason:
        """The reason `code` with its fields by name (each written with `str`)."""
        return cls(code, tuple(_field(str(fields[name])) for name in fields_of(code)))

    @property
    def fields(self) -> dict[str, str]:
        return dict(zip(fields_of(self.code), self.values))

    def english(self) -> str:
        """The reason in English."""
        return REASONS[self.code].format(**self.fields)

    def wire(self) -> str:
        """The reason as a frame's string field carries it."""
        return SEPARATOR.join((self.code, *self.values))[:MAX_REASON]

    def __str__(self) -> str:
        return self.english()


_EARLIER = {template: code for code, template in REASONS.items() if not fields_of(code)}
"""A code without fields by its English: the reason as a peer of version 3 sends it."""


def _field(value: str) -> str:
    return value.replace(SEPARATOR, " ")[:MAX_REASON]


def read(text: str) -> Reason | None:
    """The reason a frame's field carries: a known code with as many fields as it names (or
    the English of a code without fields, as a peer of an earlier version sent it); None for
    any other text (a peer's own words)."""
    code, *values = text.split(SEPARATOR)
    if code not in REASONS:
        code = _EARLIER.get(text, "")
        return Reason(code) if code else None
    if len(values) != len(fields_of(code)):
        return None
    return Reason(code, tuple(values))


def english(text: str) -> str:
    """A reason from the wire in English: a known code's meaning, any other text as it is."""
    reason = read(text)
    return text if reason is None else reason.english()
