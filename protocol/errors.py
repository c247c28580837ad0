"""Protocol errors, split as in h11: who broke it.

`LocalProtocolError` means we broke it (our own bug or misuse of the API).
`RemoteProtocolError` means the peer broke it (bad bytes, bad signature...).
Reasons are meant to be shown to people; never put a secret key or a hidden
card in one. A reason that travels to a peer (a refusal of the handshake) or
that a person meets (a transcript file too old) is given as a `Reason` (a code
and its fields, reasons.py): `coded` holds it, `reason` is its English, and the
product writes it in the reader's language.
"""

from __future__ import annotations

from .reasons import Reason

Culprit = int | str | None
"""A seat number, -1 for the host, -2 for a spectator, "host", or None."""


class ProtocolError(Exception):
    """Base class; `reason` is a short human-readable explanation (English), `coded` the
    reason as a code and its fields when it was given so (None: `reason` is all there is)."""

    def __init__(self, reason: str | Reason) -> None:
        self.coded = reason if isinstance(reason, Reason) else None
        self.reason = str(reason)
        super().__init__(self.reason)


class LocalProtocolError(ProtocolError):
    """We broke it: our own bug or a misuse of this library."""


class RemoteProtocolError(ProtocolError):
    """The peer broke it. `culprit` names who, `entry` the transcript index."""

    def __init__(self, reason: str | Reason, *, culprit: Culprit = None, entry: int | None = None) -> None:
        super().__init__(reason)
        self.culprit = culprit
        self.entry = entry

    def __str__(self) -> str:
        parts = [self.reason]
        if self.culprit is not None:
            parts.append(f"culprit={self.culprit}")
        if self.entry is not None:
            parts.append(f"entry={self.entry}")
        return " ".join(parts) if len(parts) == 1 else f"{parts[0]} ({', '.join(parts[1:])})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, culprit={self.culprit!r}, entry={self.entry!r})"


class CheatDetected(RemoteProtocolError):
    """Proven misbehaviour: the signed messages show `culprit` cheated."""
