"""Test doubles for the protocol tests: choosers and message crafting.

The cheating seats and hosts themselves live in `briscola_tui.tools` (cheaters.py,
deck_cheats.py, play_cheats.py: the `briscola selfplay --cheat` command uses them
too); they are re-exported here.
"""

from __future__ import annotations

import random

from briscola_tui.tools.cheaters import ForkingTable, HijackTable  # noqa: F401 - re-exported for the tests
from briscola_tui.tools.deck_cheats import (  # noqa: F401 - re-exported for the tests
    BadCoin,
    BadKey,
    BadReveal,
    Duplicator,
    FalseComplainer,
    GarbageShuffle,
    PositionSwapper,
    Substituter,
    TagCard,
    Withholder,
    WrongPublicShare,
    WrongShare,
)
from briscola_tui.tools.play_cheats import (  # noqa: F401 - re-exported for the tests
    Denier,
    Forger,
    LaxSession,
    PlayUnheld,
    Replayer,
    Stopper,
    WrongProof,
    forced_act,
    off_suit,
    proof_for,
)
from briscola_tui.tools.play_cheats import held as mine  # noqa: F401
from engine.state import Action
from protocol import deck as mp
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.messages import KIND_OF, to_body
from protocol.session import TableSession
from protocol.transcript import VERSION, Entry, Header, Signed, make_payload

# --- choosers -----------------------------------------------------------------


def random_chooser(seed: int):
    """A seeded random legal move (its own RNG: the table's is not used)."""
    rng = random.Random(seed)

    def choose(view, _rng) -> Action:
        return rng.choice(view.legal)

    return choose


def random_choosers(players: int, seed: int = 0) -> dict:
    return {s: random_chooser(seed * 100 + s) for s in range(players)}


def scripted(seed: int, **rules):
    """A random chooser that first tries `rules[phase](view)` (None: fall back)."""
    fallback = random_chooser(seed)

    def choose(view, rng) -> Action:
        rule = rules.get(view.phase)
        if rule is not None:
            action = rule(view)
            if action is not None:
                return action
        return fallback(view, rng)

    return choose


def pick(kind: str, **fields):
    """A rule choosing the legal action of `kind` with these fields, if any."""

    def rule(view):
        for action in view.legal:
            if action.kind == kind and all(getattr(action, k) == v for k, v in fields.items()):
                return action
        return None

    return rule


# --- crafting messages ------------------------------------------------------------


def sign_as(
    session: TableSession,
    message=None,
    *,
    kind: str | None = None,
    body: list | None = None,
    seq: int | None = None,
    head: bytes | None = None,
    identity: Identity | None = None,
    sender: int | None = None,
    table_id: bytes | None = None,
) -> bytes:
    """A message signed with `session`'s seat identity, without touching the session.

    Defaults are what an honest next message would carry (its seq, the head
    it has seen); every field can be overridden to build a bad one.
    """
    if message is not None:
        kind, body = KIND_OF[type(message)], to_body(message)
    header = Header(
        VERSION,
        table_id or session.transcript.table_id,
        kind,
        session.seat if sender is None else sender,
        session.seq if seq is None else seq,
        session.transcript.head if head is None else head,
    )
    return Signed.sign(identity or session.identity, make_payload(header, body or [])).encode()


def entry_for(node: TableSession, signed: bytes, host) -> bytes:
    """The entry `host` would broadcast to `node` for this message (signed by the host)."""
    entry = Entry(len(node.transcript.entries), node.transcript.head, signed)
    return entry.signed_by(host.identity, host.table_id).encode()


def snapshot(node: TableSession) -> tuple:
    """Everything a rejected entry must leave unchanged."""
    view = node.view
    hand = node.hand
    return (
        node.transcript.head if node.transcript else None,
        len(node.transcript.entries) if node.transcript else 0,
        dict(node.transcript._last_seq) if node.transcript else None,
        node.phase,
        node.seq,
        repr(view),
        len(view.history) if view is not None else None,
        tuple(node.series.scores) if node.series else None,
        len(node.verdicts),
        len(node.outcomes),
        tuple(sorted(node.cards.known.items())),
        tuple(sorted(node.cards.owner.items(), key=str)),
        None
        if hand is None
        else (
            hand.number,
            len(hand.commits),
            len(hand.shuffles),
            len(hand.steps),
            len(hand.moves),
            len(hand.reveals),
            sum(len(s.shares) for s in hand.steps),
        ),
        len(node._produced),
        node.complaint,
    )


# --- tables that record or check -------------------------------------------------------


class RecordingTable(LocalTable):
    """A LocalTable that keeps every signed message the host accepted."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.messages: list[bytes] = []

    def order(self, connection, signed: bytes) -> None:
        self.messages.append(signed)
        super().order(connection, signed)


class SeededSeat(TableSession):
    """An honest seat whose hand secrets come from `seeds` (one per hand), so a test can arrange a deal."""

    seeds: list[bytes] = []

    def make_commit(self):
        number = self.hand.number
        if number < len(self.seeds) and number not in self.store.seeds:
            self.store.put_seed(number, self.seeds[number])
        return super().make_commit()


def deal_order(game, seeds: list[bytes]) -> list[int]:
    """Card index at each final deck position when seat s shuffles with seeds[s] (no curve operations)."""
    cards = [c.index for c in game.deck()]
    for seed in seeds:
        perm = mp.SeatSecrets(seed).permutation(len(cards))
        cards = [cards[j] for j in perm]
    return cards


def seat_sessions(players: int, cheaters: dict) -> dict:
    return {s: cls(s, Identity.generate(), f"seat {s}") for s, cls in cheaters.items()}


# --- what the cheat tests check -------------------------------------------------------------


def every_node(table):
    return [*table.seats, *table.spectators, table.host.session]


def assert_named(table, seat, reason):
    """Every node's last verdict names `seat`, and only it, for `reason`; the table is stopped."""
    assert not table.failures, table.failures
    for node in every_node(table):
        verdict = node.verdicts[-1]
        assert not verdict.ok
        assert {c.seat for c in verdict.culprits} == {seat}, str(verdict)
        assert any(reason in c.reason for c in verdict.culprits), str(verdict)
        assert all(c.entry is not None for c in verdict.culprits)
        assert node.phase == "aborted"
        assert verdict.outcome is None
        assert node.transcript.head == table.host.transcript.head
    return next(c for c in table.host.session.verdicts[-1].culprits if reason in c.reason)


def paused(game="briscola", players=2, options=None, seed=0, sessions=None, cls=LocalTable):
    """A table stopped at the first decision of the first hand."""
    table = cls(game, players, options or {}, choosers=random_choosers(players, seed), sessions=sessions)
    table.start()
    return table
