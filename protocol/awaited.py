"""Is a message the one the table waits for now? The questions `TableSession`
asks of each message before it applies it, over the session's state and the
table of what each phase allows (machine.py: `WAITS_FOR`, `INTERRUPTS`,
`HOST_MAY`).
"""

from __future__ import annotations

from .errors import RemoteProtocolError
from .messages import Message
from .sessionstate import SessionState
from .transcript import HOST, Header


def in_phase(s: SessionState, header: Header, message: Message) -> bool:
    """Is this message one the table waits for now (kind, sender and hand)?"""
    if header.sender == HOST:
        return host_may(s, header.kind)
    hand = getattr(message, "hand", None)
    if hand is not None and (s.hand is None or hand != s.hand.number):
        return False
    if s.machine.interrupted_by(header.kind) and 0 <= header.sender < s.players:
        assert s.hand is not None  # a hand's phases
        if header.kind == "complaint" or header.sender not in s.hand.reveals:
            return True  # (machine.INTERRUPTS) a reveal once; a complaint: `on_complaint` checks which step
    kinds, senders = s.expected()
    return header.kind in kinds and header.sender in senders


def is_stale(s: SessionState, header: Header, message: Message) -> bool:
    """A seat's message out of phase because an interruption (an early
    reveal, evidence, a time-out) was ordered after the entry it echoes:
    it crossed in flight. It is accepted as a no-op (its sequence number
    is spent), so the sender is neither blamed nor stuck."""
    if header.sender == HOST or s._interrupted_at < 0:
        return False
    assert s.transcript is not None  # the table message came first
    echoed = s.transcript.echoed_index(header.head)
    return echoed is not None and echoed < s._interrupted_at and not in_phase(s, header, message)


def check_expected(s: SessionState, header: Header, message: Message, index: int) -> None:
    """RemoteProtocolError, naming the sender, unless the table waits for this message now."""
    if not in_phase(s, header, message):
        hand = getattr(message, "hand", None)
        if hand is not None and s.hand is not None and hand != s.hand.number:
            reason = f"message for hand {hand}, this is hand {s.hand.number}"
        else:
            reason = f"{header.kind} from {s._who(header.sender)} is out of phase ({s.phase})"
        raise RemoteProtocolError(reason, culprit="host" if header.sender == HOST else header.sender, entry=index)


def host_may(s: SessionState, kind: str) -> bool:
    """Is the host's `kind` allowed now (machine.HOST_MAY)?"""
    if kind == "close" and s.phase == "commit":
        assert s.hand is not None  # "commit" starts a hand
        if s.hand.commits:
            return False  # the hand has begun: closed at its end only
    return s.machine.host_may(kind)
