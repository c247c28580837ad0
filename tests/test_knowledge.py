"""What each node can decrypt, checked after every transcript entry of honest tables.

Ground truth comes from outside the protocol: the test reads every seat's
secrets and decrypts the whole deck itself, then checks, at every step,
that a seat knows exactly its own cards plus the public ones, and that the
spectator, the host and the host's stored bytes reveal no hidden card.
"""

from __future__ import annotations

import pytest
from helpers.cheaters import pick, random_choosers, scripted

from protocol import deck as mp
from protocol.codec import decode
from protocol.errors import RemoteProtocolError
from protocol.identity import unseal
from protocol.local import LocalTable
from protocol.messages import from_body
from protocol.transcript import Entry, parse_signed
from protocol.transcript_file import dump_transcript
from protocol.wire import scalar_bytes, scalar_int, seal_aad


class KnowledgeTable(LocalTable):
    """A LocalTable that checks every node's knowledge after each broadcast entry."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.checks = 0
        self._truth: dict[tuple, list[int]] = {}
        self.ever: dict[tuple[int, int], set[int]] = {}
        self.max_public = 0
        self.read = 0  # entries whose proofs about hidden cards were attacked
        self.claim_points = 0

    def broadcast(self, entry: bytes) -> None:
        super().broadcast(entry)
        self.check()

    def truth(self) -> list[int]:
        final = tuple(self.host.session.cards.final)
        if final not in self._truth:
            self._truth[final] = mp.decrypt_deck(list(final), [s.secrets for s in self.seats])
        return self._truth[final]

    def check(self) -> None:
        host = self.host.session
        spectators = self.spectators
        for spectator in spectators:
            assert spectator.cards.known == host.cards.known
            assert spectator.known_cards() == host.known_cards()
        if host.hand is None or not host.cards.final or host.phase in ("over", "aborted"):
            return
        self.checks += 1
        n = host.players
        truth = self.truth()
        public = dict(host.cards.known)
        self.max_public = max(self.max_public, len(public))
        for p, card in public.items():
            assert card == truth[p], "a public card opened to the wrong card"
        hidden = [p for p in range(len(truth)) if p not in public]
        hidden_cards = {truth[p] for p in hidden}
        number = host.hand.number
        for seat in self.seats:
            ever = self.ever.setdefault((number, seat.seat), set())
            ever.update(p for p, o in host.cards.owner.items() if o == seat.seat)
        # Each seat: its own cards and the public ones, nothing else.
        for seat in self.seats:
            s = seat.seat
            ever = self.ever[(number, s)]
            for p, card in seat.cards.known.items():
                assert card == truth[p]
                assert p in public or p in ever, f"seat {s} opened position {p}, never its own"
            allowed = set(public.values()) | {truth[p] for p in ever}
            assert {c.index for c in seat.known_cards()} <= allowed
            if host.phase != "deal" and seat.view is not None:
                owned = {p for p, o in host.cards.owner.items() if o == s}
                assert owned <= set(seat.cards.known), f"seat {s} cannot open a card it holds"
                hand = set(seat.view.hands[s])
                assert seat.view.unknown[s] == 0
                assert hand <= seat.known_cards()
                assert {c.index for c in hand} == {truth[p] for p in owned}
        # Spectators and the host: public cards only.
        for node in (host, *spectators):
            assert not (node.known_cards() and {c.index for c in node.known_cards()} & hidden_cards)
            if node.view is not None:
                for s in range(n):
                    assert {c.index for c in node.view.hands[s]} <= set(public.values())
        # The host's stored bytes: no hidden card's point, not every share of a hidden position.
        stored = dump_transcript(self.host.table_id, [], [Entry.decode(e) for e in self.entries])
        for p in hidden:
            assert mp.card_point(truth[p]) not in stored
        published: dict[int, set[int]] = {}
        for step in host.hand.steps:
            for sender, shares in step.shares.items():
                for p, _ in shares.public:
                    published.setdefault(p, set()).add(sender)
        for p in hidden:
            assert len(published.get(p, ())) < n, f"every share of hidden position {p} is public"
        self.attack_claims(host, {mp.card_point(truth[p]) for p in hidden})

    def attack_claims(self, host, hidden_points: set[bytes]) -> None:
        """Each new proof about hidden cards, attacked with all the host holds: no point in
        it is a hidden card's, nor becomes one under any key the host knows (the public
        cards' openings and the public shares)."""
        new, self.read = self.entries[self.read :], len(self.entries)
        scalars = set(host.cards.public_scalar.values())
        for step in host.hand.steps:
            for shares in step.shares.values():
                scalars.update(scalar_int(k) for _, k in shares.public)
        for data in new:
            opened = parse_signed(Entry.decode(data).message)
            if opened.header.kind not in ("act", "handover"):
                continue
            claim = from_body(opened.header.kind, opened.body).claim
            points = [x for x in _leaves(claim) if isinstance(x, bytes) and len(x) == mp.POINT_LEN]
            self.claim_points += len(points)
            for x in points:
                assert x not in hidden_points, "a proof shows a hidden card's point"
                assert not {mp.mul(x, k) for k in scalars} & hidden_points, "a public key opens a proof's point"


def _leaves(value):
    if isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def play(table: KnowledgeTable, hands: int = 1) -> KnowledgeTable:
    table.run(max_hands=hands)
    host = table.host.session
    assert len(host.verdicts) >= hands and all(v.ok for v in host.verdicts)
    assert table.checks > 20
    return table


@pytest.mark.parametrize(
    "game, players, options",
    [
        ("briscola", 2, {"trump_exchange": "2"}),
        ("briscola", 3, {}),
        ("briscola", 4, {}),
        ("briscola", 6, {"trump_exchange": "7"}),
        ("chiamata", 5, {}),
        ("calabresella", 3, {}),
    ],
)
def test_knowledge_random_play(game, players, options):
    table = play(KnowledgeTable(game, players, options, choosers=random_choosers(players, 11), spectators=2))
    assert table.max_public > 0
    if game == "calabresella":
        assert table.claim_points > 0  # proofs about hidden cards were in the stream, and attacked


def test_knowledge_with_a_two_rule_call():
    """Seat 0 bids 2 and calls under the two rule: its proof is in the stream, and attacked."""

    def auction(view):
        return pick("bid", rank="2")(view) if view.seat == 0 else pick("pass")(view)

    def call(view):
        return next((a for a in view.legal if a.card.rank != "2"), view.legal[0])

    for seed in range(20):
        choosers = {s: scripted(seed + s, auction=auction, call=call) for s in range(5)}
        table = play(KnowledgeTable("chiamata", 5, {}, choosers=choosers, spectators=1))
        if table.claim_points:
            return
    pytest.fail("no deal gave seat 0 a call under the two rule")  # pragma: no cover


def test_knowledge_open_hands():
    table = play(KnowledgeTable("briscola", 2, {"open_hands": True}, choosers=random_choosers(2, 5)))
    assert table.max_public >= 7  # both hands and the face-up card


@pytest.mark.parametrize(
    "contract, choice", [("chiamo", None), ("solo", None), ("solissimo", "dividete"), ("solissimo", "scegliete")]
)
def test_knowledge_calabresella_contracts(contract, choice):
    rules = {"auction": lambda s: (pick("bid", contract=contract)(s) if s.seat == 0 else None) or pick("pass")(s)}
    if choice:
        rules["raise"] = pick("raise", choice=choice)
    choosers = {s: scripted(20 + s, **rules) for s in range(3)}
    table = play(KnowledgeTable("calabresella", 3, {}, choosers=choosers))
    assert table.host.session.verdicts[0].outcome.result["contract"] == contract
    assert table.claim_points > 0  # a Chiamo denial, or a play off suit, proved


def test_sealed_share_opens_only_for_its_recipient():
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3, 1))
    table.start()
    a, b, c = table.seats
    host = table.host.session
    step = host.hand.steps[0]
    blob = dict(step.shares[a.seat].sealed)[b.seat]
    table_id, number = host.transcript.table_id, host.hand.number
    aad = seal_aad(table_id, number, step.number, a.seat, b.seat)
    # The recipient opens it, and finds the shares for its own positions.
    pairs = {p: k for p, k in decode(unseal(b.pair_key(a.seat), blob, aad))}
    mine = {p for p, o in host.cards.owner.items() if o == b.seat}
    assert set(pairs) == mine
    assert all(k == scalar_bytes(mp.key_share(a.secrets, p)) for p, k in pairs.items())
    # A third seat cannot, whatever key or context it tries.
    for key in (c.pair_key(a.seat), c.pair_key(b.seat)):
        for context in (aad, seal_aad(table_id, number, step.number, a.seat, c.seat)):
            with pytest.raises(RemoteProtocolError):
                unseal(key, blob, context)
    # The share itself is not in the relayed bytes.
    stored = b"".join(table.entries)
    for p in mine:
        assert scalar_bytes(mp.key_share(a.secrets, p)) not in stored
