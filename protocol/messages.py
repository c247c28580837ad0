"""Every wire message body, as frozen dataclasses with strict parsing.

A message on the wire is the transcript envelope (header: version, table,
kind, sender, seq, echoed head) followed by the body fields of its kind, in
the fixed order of the dataclass fields below. `to_body` gives those fields,
`from_body` checks and parses them; a body of the wrong shape is the peer's
fault (RemoteProtocolError).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import astuple, dataclass, fields
from typing import Literal, TypeVar, overload

from .codec import expect_array, expect_bytes, expect_int, expect_list, expect_str
from .errors import RemoteProtocolError
from .sizes import MAX_LEVEL, MAX_SUBMIT

_T = TypeVar("_T")

MAX_HANDS = 10_000
MAX_POSITION = 39
SCALAR_LEN = 32
POINT_LEN = 33  # a compressed secp256k1 point (protocol/curve.py)
MAX_PROOF = 16384  # a phase-1 shuffle proof of 40 cards is 10,262 bytes
MAX_CLAIM_PARTS = 4  # a lacks proof: chains, blinded cards, blinded positions, scalars (hidden_claims.py)


@dataclass(frozen=True)
class Table:
    """Host, first entry: what is played at this table."""

    game: str
    players: int
    options: tuple  # ((name, value), ...)
    name: str
    key: bytes  # the host's Ed25519 key (this message is signed by it)
    rules: tuple = ()  # table rules ((name, value), ...): time_limit, retake; absent in old transcripts


@dataclass(frozen=True)
class Join:
    """A seat binds its Ed25519 key (the message is signed by that key); `certificate`:
    () or (identity, signature), its person's long-term key vouching for it at this table
    (protocol/certificate.py), absent in transcripts from before it existed; a computer seat's
    is (identity, signature, level): the person who runs it, and the level."""

    key: bytes
    name: str
    certificate: tuple = ()


@dataclass(frozen=True)
class CoinCommit:
    commitment: bytes


@dataclass(frozen=True)
class CoinReveal:
    value: bytes


@dataclass(frozen=True)
class Commit:
    """Start of a hand: the seat's seed commitment, its sealing key U = u·B for the hand,
    and the public forms of its deck keys (all derived from the committed seed):
    K = phase1_key·B and K_i = card_key(i)·B for each deck position i."""

    hand: int
    commitment: bytes
    seal_key: bytes  # 33-byte point (sealing.py)
    phase1_key: bytes  # 33-byte point
    position_keys: tuple  # of 33-byte points, one per deck position


@dataclass(frozen=True)
class Shuffle:
    """The deck after this seat's shuffle step (phase 1 or 2), and the proof
    that it is the previous deck correctly re-encrypted (stepproofs.py)."""

    hand: int
    phase: int
    deck: tuple  # of 33-byte points
    proof: bytes


@dataclass(frozen=True)
class Shares:
    """Key shares for one dealing step: sealed to each receiving seat, or public."""

    hand: int
    step: int
    sealed: tuple  # ((recipient, blob), ...)
    public: tuple  # ((position, scalar32), ...)


@dataclass(frozen=True)
class Act:
    """A player's decision, with proofs for every card it shows."""

    hand: int
    action: tuple  # (kind, card, cards, rank, target, contract, choice)
    proofs: tuple  # ((position, card, scalar32), ...)
    positions: tuple  # positions given up face down (discards)
    claim: tuple = ()  # proofs about the sender's hidden cards (statements.py): () or (lacks, holds)


@dataclass(frozen=True)
class Handover:
    """Calabresella Chiamo: a defender shows the called card, or says it has none."""

    hand: int
    proof: tuple | None  # (position, card, scalar32)
    claim: tuple = ()  # a denial's proof that the sender lacks the called card: () or (lacks, holds)


@dataclass(frozen=True)
class Complaint:
    """A seat's proof that `accused` sealed it a wrong share in `step` (complaint.py):
    their shared point Z and a DLEQ proof that log_B U_me = log_{U_accused} Z."""

    hand: int
    step: int
    accused: int
    z: bytes  # 33-byte point
    proof: bytes  # dleq.PROOF_LEN bytes


@dataclass(frozen=True)
class Reveal:
    """End of a hand (or an abort): the seat's seed, for the audit."""

    hand: int
    seed: bytes


@dataclass(frozen=True)
class Evidence:
    """Host: a seat's signed message, refused because it proves its sender cheated.

    Every node checks it again: the message must be the seat's next one,
    signed by it, and refused by the rules here. The hand stops; the audit
    names the seat.
    """

    message: bytes  # the refused `Signed`, as its sender signed it
    reason: str


@dataclass(frozen=True)
class Timeout:
    """Host: `seat` owed a message of kind `owed` past the table's time limit.

    The hand (if any) is void; the seat is absent until a key takes it again.
    """

    seat: int
    owed: str


@dataclass(frozen=True)
class Close:
    """Host, between hands: the table ends here (fewer hands than the series)."""

    reason: str


MessageKind = Literal[
    "table",
    "join",
    "coin_commit",
    "coin_reveal",
    "commit",
    "shuffle",
    "shares",
    "act",
    "handover",
    "complaint",
    "reveal",
    "evidence",
    "timeout",
    "close",
]
"""The kind a message's header names: each names one body class (`KINDS`)."""

Message = (
    Table
    | Join
    | CoinCommit
    | CoinReveal
    | Commit
    | Shuffle
    | Shares
    | Act
    | Handover
    | Complaint
    | Reveal
    | Evidence
    | Timeout
    | Close
)
"""Any message body."""

HOST_KINDS: tuple[MessageKind, ...] = ("table", "evidence", "timeout", "close")
"""Kinds only the host sends."""

KINDS: dict[MessageKind, type[Message]] = {
    "table": Table,
    "join": Join,
    "coin_commit": CoinCommit,
    "coin_reveal": CoinReveal,
    "commit": Commit,
    "shuffle": Shuffle,
    "shares": Shares,
    "act": Act,
    "handover": Handover,
    "complaint": Complaint,
    "reveal": Reveal,
    "evidence": Evidence,
    "timeout": Timeout,
    "close": Close,
}
KIND_OF: dict[type[Message], MessageKind] = {cls: kind for kind, cls in KINDS.items()}


def to_body(message: Message) -> list:
    """The body fields of a message, ready for the codec."""
    body = [_plain(v) for v in astuple(message)]
    if isinstance(message, Table) and not message.rules:
        body.pop()  # a table without rules encodes as before they existed
    if isinstance(message, Join) and not message.certificate:
        body.pop()  # a join without a certificate encodes as before they existed
    return body


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@overload
def from_body(kind: Literal["table"], body: list) -> Table: ...
@overload
def from_body(kind: Literal["join"], body: list) -> Join: ...
@overload
def from_body(kind: str, body: list) -> Message: ...
def from_body(kind: str, body: list) -> Message:
    """Parse and check a body for `kind`; RemoteProtocolError if malformed."""
    if kind not in KINDS:
        raise RemoteProtocolError(f"unknown message kind {kind!r}")
    cls = KINDS[kind]
    if kind == "table" and isinstance(body, list) and len(body) == len(fields(cls)) - 1:
        body = [*body, []]  # a table from before table rules
    if kind == "join" and isinstance(body, list) and len(body) == len(fields(cls)) - 1:
        body = [*body, []]  # a join without a certificate
    values = expect_array(body, len(fields(cls)), f"{kind} body")
    return _PARSERS[kind](*values)


def _hand(v: object) -> int:
    return expect_int(v, 0, MAX_HANDS, "hand number")


def _position(v: object) -> int:
    return expect_int(v, 0, MAX_POSITION, "deck position")


def _card(v: object) -> int:
    return expect_int(v, 0, 39, "card")


def _scalar(v: object) -> bytes:
    return expect_bytes(v, SCALAR_LEN, "key share")


def _opt(parse: Callable[[object], _T], v: object) -> _T | None:
    return None if v is None else parse(v)


def _proof(v: object) -> tuple:
    position, card, scalar = expect_array(v, 3, "proof")
    return (_position(position), _card(card), _scalar(scalar))


def _option(v: object) -> tuple:
    name, value = expect_array(v, 2, "option")
    name = expect_str(name, 32, "option name")
    if not isinstance(value, (str, int, bool)) or (isinstance(value, str) and len(value) > 32):
        raise RemoteProtocolError("option value must be a short string, number or boolean")
    return (name, value)


def _action(v: object) -> tuple:
    kind, card, cards, rank, target, contract, choice = expect_array(v, 7, "action")
    return (
        expect_str(kind, 16, "action kind"),
        _opt(_card, card),
        tuple(_card(c) for c in expect_list(cards, 40, "action cards")),
        _opt(lambda r: expect_str(r, 1, "rank"), rank),
        _opt(lambda t: expect_int(t, 0, 120, "target"), target),
        _opt(lambda c: expect_str(c, 16, "contract"), contract),
        _opt(lambda c: expect_str(c, 16, "choice"), choice),
    )


_PARSERS: dict[MessageKind, Callable[..., Message]] = {
    "table": lambda game, players, options, name, key, rules: Table(
        expect_str(game, 32, "game"),
        expect_int(players, 2, 6, "players"),
        tuple(_option(o) for o in expect_list(options, 16, "options")),
        expect_str(name, 64, "table name"),
        expect_bytes(key, 32, "host key"),
        tuple(_option(o) for o in expect_list(rules, 8, "table rules")),
    ),
    "join": lambda key, name, certificate: Join(
        expect_bytes(key, 32, "key"), expect_str(name, 64, "name"), _certificate(certificate)
    ),
    "coin_commit": lambda c: CoinCommit(expect_bytes(c, 32, "coin commitment")),
    "coin_reveal": lambda v: CoinReveal(expect_bytes(v, 32, "coin value")),
    "commit": lambda hand, c, x, k, keys: Commit(
        _hand(hand),
        expect_bytes(c, 32, "commitment"),
        expect_bytes(x, POINT_LEN, "sealing key"),
        expect_bytes(k, POINT_LEN, "phase-1 key"),
        tuple(expect_bytes(p, POINT_LEN, "position key") for p in expect_list(keys, 40, "position keys")),
    ),
    "shuffle": lambda hand, phase, deck, proof: Shuffle(
        _hand(hand),
        expect_int(phase, 1, 2, "phase"),
        tuple(expect_bytes(x, POINT_LEN, "deck card") for x in expect_list(deck, 40, "deck")),
        expect_bytes(proof, (0, MAX_PROOF), "shuffle proof"),
    ),
    "shares": lambda hand, step, sealed, public: Shares(
        _hand(hand),
        expect_int(step, 0, 1000, "step"),
        tuple(_sealed(s) for s in expect_list(sealed, 5, "sealed shares")),
        tuple(_public(p) for p in expect_list(public, 40, "public shares")),
    ),
    "act": lambda hand, action, proofs, positions, claim: Act(
        _hand(hand),
        _action(action),
        tuple(_proof(p) for p in expect_list(proofs, 4, "proofs")),
        tuple(_position(p) for p in expect_list(positions, 4, "positions")),
        _claim(claim),
    ),
    "handover": lambda hand, proof, claim: Handover(_hand(hand), _opt(_proof, proof), _claim(claim)),
    "complaint": lambda hand, step, accused, z, proof: Complaint(
        _hand(hand),
        expect_int(step, 0, 1000, "step"),
        expect_int(accused, 0, 5, "accused seat"),
        expect_bytes(z, POINT_LEN, "shared point"),
        expect_bytes(proof, 2 * SCALAR_LEN, "complaint proof"),
    ),
    "reveal": lambda hand, seed: Reveal(_hand(hand), expect_bytes(seed, 32, "seed")),
    "evidence": lambda message, reason: Evidence(
        expect_bytes(message, (1, MAX_SUBMIT), "evidence message"),  # the host takes none larger (sizes.py)
        expect_str(reason, 200, "evidence reason"),
    ),
    "timeout": lambda seat, owed: Timeout(expect_int(seat, 0, 5, "timed-out seat"), expect_str(owed, 16, "owed kind")),
    "close": lambda reason: Close(expect_str(reason, 200, "close reason")),
}


def _certificate(v: object) -> tuple:
    """() or (identity key, signature), or (identity key, signature, level) for a computer seat."""
    certificate = expect_list(v, 3, "certificate")
    if len(certificate) not in (0, 2, 3):
        raise RemoteProtocolError("a certificate is empty or (identity, signature[, level])")
    if not certificate:
        return ()
    identity, signature, *level = certificate
    checked = (expect_bytes(identity, 32, "identity key"), expect_bytes(signature, 64, "certificate signature"))
    if not level:
        return checked
    named = expect_str(level[0], MAX_LEVEL, "level")
    if not named:
        raise RemoteProtocolError("a computer seat's certificate names its level")
    return (*checked, named)


def _claim(v: object) -> tuple:
    """() for no claim, else (lacks, holds): the proof that none of the sender's hidden
    cards is forbidden, and one proof per card it must hold. Their insides are
    checked against the statement every node computes (hidden_claims.py)."""
    claim = expect_list(v, 2, "claim")
    if len(claim) not in (0, 2):
        raise RemoteProtocolError("a claim is empty or (lacks, holds)")
    if not claim:
        return ()
    lacks, holds = claim
    return (tuple(expect_list(lacks, MAX_CLAIM_PARTS, "lacks proof")), tuple(expect_list(holds, 10, "holds proofs")))


def _sealed(v: object) -> tuple:
    recipient, blob = expect_array(v, 2, "sealed share")
    return (expect_int(recipient, 0, 5, "recipient"), expect_bytes(blob, (28, 4096), "sealed blob"))


def _public(v: object) -> tuple:
    position, scalar = expect_array(v, 2, "public share")
    return (_position(position), _scalar(scalar))
