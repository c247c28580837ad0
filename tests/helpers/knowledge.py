"""A local table that checks, after every entry it broadcasts, what each node can decrypt:
exactly its own cards and the public ones; the spectator, the host and the host's stored
bytes no hidden card (tests/test_knowledge.py, test_complaint.py)."""

from __future__ import annotations

from protocol import deck as mp
from protocol.local import LocalTable
from protocol.messages import from_body
from protocol.transcript import Entry, parse_signed
from protocol.transcript_file import dump_transcript
from protocol.wire import scalar_int


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
