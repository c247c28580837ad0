"""One hand, as the transcript moves it: commitments, the two shuffle phases,
dealing steps (key shares, then opening what this node may see), decisions,
the Calabresella handover, and the reveals.

A part of `TableSession`, over the state `SessionState` sets (sessionstate.py). Every
handler checks all it can before it changes anything.
"""

from __future__ import annotations

import hashlib

from engine.deal import Deal
from engine.state import CHANCE, PUBLIC, TERMINAL, Action, IllegalAction, State

from . import complaint, curve, events, hidden_proofs, statements, stepproofs
from . import deck as mp
from .audit import Culprit
from .errors import CheatDetected, RemoteProtocolError
from .hidden_claims import ClaimRefused
from .messages import Act, Commit, Complaint, Handover, Reveal, Shares, Shuffle
from .records import Step, StepKind
from .sealing import check_seal_public, open_shares
from .sessionstate import SessionState
from .wire import action_from_wire, scalar_int

CLAIM_NAMES = {
    "void": "renege: its proof that it holds none of the suit led does not check",
    "denial": "false denial: its proof that it lacks the called card does not check",
    "two rule": "two rule: its proof of the trumps it holds and lacks does not check",
}
"""What a claim that does not check is, by `Statement.about` (the reason names only the seat)."""


class HandFlow(SessionState):
    """Hand-level handlers of `TableSession`."""

    # --- commitments and the shuffle -------------------------------------------------

    def _on_commit(self, sender: int, msg: Commit, index: int) -> None:
        assert self.hand is not None  # a hand's message: the hand is on
        try:
            check_seal_public(msg.seal_key)  # else no seat could seal it a share
        except RemoteProtocolError as error:
            raise CheatDetected(error.reason, culprit=sender, entry=index) from None
        if len(msg.position_keys) != self.plan.size:
            raise RemoteProtocolError(
                f"committed {len(msg.position_keys)} position keys for a deck of {self.plan.size}",
                culprit=sender,
                entry=index,
            )
        for key in (msg.phase1_key, *msg.position_keys):
            try:
                curve.decode(key)  # else no step of its could be checked
            except curve.PointError:
                raise CheatDetected(
                    "committed a deck key that is not a curve point", culprit=sender, entry=index
                ) from None
        if not self.hand.commits:
            # The hand begins with its first commitment, not when the last one ended: a table
            # closed after its last hand (`--hands`) announces no hand it never deals.
            self._emit(events.HandBegins(self.hand.dealer, self.hand.number))
        self.hand.commits[sender] = (msg, index)
        if len(self.hand.commits) == self.players:
            self.machine.advance("committed")

    def _on_shuffle(self, sender: int, msg: Shuffle, index: int) -> None:
        hand, n = self.hand, self.players
        assert hand is not None  # a hand's message: the hand is on
        expected_phase = 1 if len(hand.shuffles) < n else 2
        size = self.plan.size
        if msg.phase != expected_phase or len(msg.deck) != size:
            raise RemoteProtocolError(
                f"expected a phase-{expected_phase} deck of {size} cards", culprit=sender, entry=index
            )
        mp.check_points(msg.deck)  # a value that is no point would stop every seat after it
        if msg.phase == 1:
            mp.check_distinct(list(msg.deck))  # a duplicated card shows here at once
        self._check_step_proof(sender, msg)
        hand.shuffles.append((sender, msg, index))
        if len(hand.shuffles) == 2 * n:
            self._open_step("deal", *self.cards.deal(self.game, list(msg.deck)))

    def _check_step_proof(self, sender: int, msg: Shuffle) -> None:
        """DeckError unless the step's proof verifies (nodes sharing a process check it once)."""
        hand = self.hand
        assert hand is not None and self.game is not None and self.transcript is not None  # a shuffle step
        deck_in = hand.shuffles[-1][1].deck if hand.shuffles else mp.start_deck([c.index for c in self.game.deck()])
        commit = hand.commits[sender][0]
        keys = (commit.phase1_key, commit.position_keys)
        ctx = stepproofs.context(self.transcript.table_id, hand.number, sender, msg.phase, keys, deck_in, msg.deck)
        done = self.shared.verified if self.shared is not None else set()
        digest = hashlib.sha256(b"step-proof" + ctx + msg.proof).digest()
        if digest not in done:
            stepproofs.check(ctx, msg.phase, keys, deck_in, msg.deck, msg.proof)
            done.add(digest)

    # --- dealing steps ---------------------------------------------------------------

    def _open_step(self, kind: StepKind, positions: list[int], audiences: list[int]) -> None:
        """Start a dealing step: every seat sends its key shares for these positions."""
        assert self.hand is not None  # the deal and the chance events of a hand
        todo = [(p, a) for p, a in zip(positions, audiences) if p not in self.cards.public_scalar]
        step = Step(len(self.hand.steps), kind, tuple(p for p, _ in todo), tuple(a for _, a in todo))
        self.hand.steps.append(step)
        self.machine.advance("step opened")
        if not step.positions:
            self._finish_step(step)

    def _on_shares(self, sender: int, msg: Shares, index: int) -> None:
        assert self.hand is not None  # a hand's message: the hand is on
        step = self.hand.steps[-1]
        if msg.step != step.number:
            raise RemoteProtocolError(
                f"shares for step {msg.step}, expected {step.number}", culprit=sender, entry=index
            )
        want_sealed = sorted({a for a in step.audiences if a not in (PUBLIC, sender)})
        want_public = sorted(p for p, a in zip(step.positions, step.audiences) if a == PUBLIC)
        if sorted(r for r, _ in msg.sealed) != want_sealed:
            raise RemoteProtocolError("shares sealed to the wrong seats", culprit=sender, entry=index)
        if sorted(p for p, _ in msg.public) != want_public:
            raise RemoteProtocolError("public shares for the wrong positions", culprit=sender, entry=index)
        keys = self.hand.commits[sender][0].position_keys
        for p, scalar in msg.public:
            if not mp.check_share(keys[p], scalar_int(scalar)):
                raise CheatDetected(
                    f"its public key share for deck position {p} is not the one its committed key gives",
                    culprit=sender,
                    entry=index,
                )
        step.shares[sender] = msg
        self.hand.share_entries[(step.number, sender)] = index
        if len(step.shares) == self.players:
            self._finish_step(step)

    def _finish_step(self, step: Step) -> None:
        """All shares are in: open what this node may see, then move the hand on.

        A public card that does not open cannot be blamed on one seat yet
        (any of them may have sent a wrong share): every node sees it at the
        same entry, the hand stops, and the audit names the seat.
        """
        public = [p for p, a in zip(step.positions, step.audiences) if a == PUBLIC]
        if not self.cards.open_public(public, [dict(m.public) for m in step.shares.values()]):
            self.machine.advance("deal failed")
            return
        if self.holds_seat() and self.seat in step.audiences:
            self._open_mine(step)
        self._apply_step(step)

    def _open_mine(self, step: Step) -> None:
        assert self.hand is not None and self.transcript is not None
        assert self.seat is not None and self.secrets is not None  # this seat's cards: it committed to the hand
        mine = [p for p, a in zip(step.positions, step.audiences) if a == self.seat]
        received: dict[int, dict[int, int]] = {p: {self.seat: mp.key_share(self.secrets, p)} for p in mine}
        for sender, msg in step.shares.items():
            if sender == self.seat:
                continue
            try:
                pairs = open_shares(
                    self.pair_key(sender),
                    self.transcript.table_id,
                    self.hand.number,
                    step.number,
                    sender,
                    self.seat,
                    dict(msg.sealed)[self.seat],
                )
            except RemoteProtocolError:
                self._fault(step, sender, f"seat {sender}'s sealed shares do not open")
                continue
            keys = self.hand.commits[sender][0].position_keys
            if set(pairs) != set(mine):
                self._fault(step, sender, f"seat {sender} sealed me shares for other positions than mine")
            for p in mine:
                if p not in pairs:
                    self._fault(step, sender, f"seat {sender} sent no share for a card of mine")
                elif not mp.check_share(keys[p], pairs[p]):
                    self._fault(step, sender, f"seat {sender}'s key share for a card of mine does not match its key")
                else:
                    received[p][sender] = pairs[p]
        for p in mine:
            if not self.cards.open_private(p, received[p]):
                self._complaint = "a card dealt to me does not open (wrong key share)"

    def _fault(self, step: Step, sender: int, why: str) -> None:
        """A wrong blob sealed to this seat: complain (the first one), with the proof
        that lets every node open it (complaint.py)."""
        self._complaint = self._complaint or why
        if self._sealed_fault is None:
            self._sealed_fault = (step.number, sender)

    def _on_complaint(self, sender: int, msg: Complaint, index: int) -> None:
        """A complaint about a sealed blob: judged at once, the same at every node.
        A false one (or a bad proof) is refused, naming its sender (the host keeps it
        as evidence); a true one names the accused; either way the hand stops here."""
        hand, transcript = self.hand, self.transcript
        assert hand is not None and transcript is not None  # a hand's message
        if msg.accused == sender or msg.accused not in hand.commits or sender not in hand.commits:
            raise RemoteProtocolError("a complaint about no other committed seat", culprit=sender, entry=index)
        if msg.step >= len(hand.steps) or len(hand.steps[msg.step].shares) < self.players:
            raise RemoteProtocolError(f"a complaint about step {msg.step}, not yet dealt", culprit=sender, entry=index)
        step = hand.steps[msg.step]
        blob = dict(step.shares[msg.accused].sealed).get(sender)
        if blob is None:
            raise RemoteProtocolError(
                f"seat {msg.accused} sealed it nothing in step {msg.step}", culprit=sender, entry=index
            )
        culprit, reason = complaint.judge(
            transcript.table_id,
            hand.number,
            msg.step,
            sender,
            msg.accused,
            hand.commits[sender][0].seal_key,
            hand.commits[msg.accused][0].seal_key,
            msg.z,
            msg.proof,
            blob,
            {p for p, a in zip(step.positions, step.audiences) if a == sender},
            hand.commits[msg.accused][0].position_keys,
        )
        if culprit == sender:
            raise CheatDetected(reason, culprit=sender, entry=index)
        hand.findings.append(Culprit(culprit, reason, index))
        self._emit(events.Complained(culprit, reason))
        self._stop_hand(index)

    def _apply_step(self, step: Step) -> None:
        try:
            if step.kind == "deal":
                self._build_view()
            else:
                self._apply_chance()
            self._show_peeked()
        except (IllegalAction, ValueError):
            # Public cards contradict each other (a card seen twice): every
            # node sees it here, so all stop together; the audit names who.
            self.machine.advance("deal failed")
            return
        self._advance()

    def _apply_chance(self) -> None:
        assert self.view is not None  # a chance event comes after the deal
        need = self.view.need()
        positions = [self.cards.slot_position(s) for s in need.slots]
        cards = tuple(self.cards.card(p) for p in positions)
        before = self.view
        try:
            self.view = before.child(Action(CHANCE, need.kind, cards=cards))
        except IllegalAction:
            # A card only this seat sees contradicts its view: complain (an
            # early reveal) and carry on with that card unknown, like the others.
            self._complaint = "a card dealt to me contradicts what I have seen"
            public = tuple(c if a == PUBLIC else None for c, a in zip(cards, need.audiences))
            self.view = before.child(Action(CHANCE, need.kind, cards=public))
        self.cards.move_chance(self.view, need, positions)
        self._emit_chance(need, positions)

    def _build_view(self) -> None:
        assert self.game is not None and self.hand is not None  # the deal of a hand
        plan, cards = self.plan, self.cards
        if len(set(cards.known.values())) != len(cards.known):
            self._complaint = "the cards dealt to me contradict each other"
            cards.forget_private()
        deal = Deal(
            hands=[[cards.card(p) for p in positions] for positions in plan.hands],
            stock=[cards.card(p) for p in plan.stock],
            faceup=None if plan.faceup is None else cards.card(plan.faceup),
            monte=[cards.card(p) for p in plan.monte],
        )
        self.view = self.make_view(deal, PUBLIC if self.seat is None else self.seat)
        self._emit_deal()

    def make_view(self, deal: Deal, viewer: int) -> State:
        """This node's view of the hand once its cards are dealt: `deal` as
        `viewer` (this seat, or PUBLIC) knows it. A hook: a subclass may
        play the hand on another state class (the lax views of the cheating
        seats of `briscola selfplay --cheat`)."""
        assert self.game is not None and self.hand is not None  # the deal of a hand
        return self.game.new_hand(self.hand.dealer, deal, viewer=viewer)

    def _show_peeked(self) -> None:
        """Tell the view the stock cards everyone sees (Briscola open hands: the top)."""
        assert self.view is not None  # built by the deal
        self.view.see_peeked(self.plan, self.cards.public_card)

    def _advance(self) -> None:
        """Decide what the hand waits for next."""
        view = self.view
        assert view is not None  # dealt
        turn = view.current_player()
        if turn == TERMINAL:
            self.machine.advance("hand played")
            return
        if turn != CHANCE:
            self.machine.advance("decision due")
            return
        need = view.need()
        if need.kind == "handover":
            self.current.handovers = {}
            self.machine.advance("handover due")
            return
        positions = [self.cards.slot_position(s) for s in need.slots] + view.peeks(self.plan)
        audiences = list(need.audiences) + [PUBLIC] * (len(positions) - len(need.slots))
        self._open_step(need.kind, positions, audiences)

    # --- decisions ------------------------------------------------------------

    def _on_act(self, sender: int, msg: Act, index: int) -> None:
        kind = msg.action[0]
        view, cards = self.view, self.cards
        assert view is not None and self.hand is not None  # "play": the hand is dealt
        if kind == "discard" and not msg.positions:
            raise RemoteProtocolError("a discard names its positions", culprit=sender, entry=index)
        if kind != "discard" and msg.positions:
            raise RemoteProtocolError(f"{kind} gives up no positions", culprit=sender, entry=index)
        cards.check_given(sender, msg.positions, index)
        # Only the discarder sees its discards; every other view gets them face down.
        face_down = tuple(cards.card(p) if sender == self.seat else None for p in msg.positions)
        action = action_from_wire(sender, msg.action, face_down)
        opened = cards.check_proofs(sender, kind, view.shown_cards(action), msg.proofs, index)
        self.claims.check(sender, [(p, card) for p, (_, card) in opened], index)
        after = view.child(action)
        # What it says of its hidden cards, proved: a seat's own cards can refuse an action
        # (the holder of the 2, a two-rule call) only when that proof fails at every node.
        statement = statements.of_act(view, action, cards, [p for p, _ in opened])
        chains = self._check_claim(sender, statement, msg.claim, "act", list(msg.action), index)
        self.view = after
        cards.show(opened)
        cards.chain(sender, chains)
        if statement.about == "void":
            self.claims.lacks_suit(sender, view.trick[0].suit, self._held(sender), index)
        cards.move_action(view, action, msg.positions, opened)
        self.hand.moves.append((index, sender, "act", msg))
        self._emit_action(view, action)
        self._advance()

    def _check_claim(
        self, sender: int, statement: statements.Statement, claim: tuple, kind: str, decision: list, index: int
    ) -> dict[int, bytes]:
        """Check the proof of what `sender`'s message says of its hidden cards (before
        anything changes); the combined keys it newly proves. CheatDetected, naming
        the sender, if it does not prove the statement every node computes."""
        if not statement.needs_proof() and not claim:
            return {}  # the common case: nothing said of hidden cards, nothing sent
        context, keys = self._claim_inputs(sender, kind, decision)
        done = self.shared.claims if self.shared is not None else {}
        digest = hidden_proofs.digest(statement, context, self.cards, sender, claim)
        try:
            if digest not in done:
                done[digest] = hidden_proofs.check(statement, context, self.cards, sender, keys, claim)
            return done[digest]
        except ClaimRefused as error:
            what = f"{CLAIM_NAMES[statement.about]}: {error}" if statement.about else f"{kind}: {error}"
            raise CheatDetected(what, culprit=sender, entry=index) from None

    def _held(self, seat: int) -> frozenset[int]:
        return frozenset(p for p, owner in self.cards.owner.items() if owner == seat)

    def _on_handover(self, sender: int, msg: Handover, index: int) -> None:
        assert self.view is not None and self.hand is not None  # "handover": the hand is dealt
        need = self.view.need()
        called = need.card
        assert called is not None  # a handover's need names the called card
        if msg.proof is not None:
            position, card, _ = msg.proof
            if card != called.index:
                raise RemoteProtocolError("handover of a card that was not called", culprit=sender, entry=index)
            self.cards.check_proof(sender, msg.proof, index)
            self.claims.check(sender, [(position, card)], index)
            statement = statements.NOTHING
        else:
            statement = statements.of_denial(sender, called, self.cards)
        chains = self._check_claim(sender, statement, msg.claim, "handover", [called.index], index)
        handovers = {**self.current.handovers, sender: (msg, index)}
        if len(handovers) < len(self.view.handover_answerers()):
            self.current.handovers = handovers
            self.cards.chain(sender, chains)
            return
        proofs = [(s, m.proof) for s, (m, _) in handovers.items() if m.proof is not None]
        if len(proofs) > 1:
            raise CheatDetected("two seats showed the called card", culprit=sender, entry=index)
        self.cards.chain(sender, chains)
        holder = proofs[0][0] if proofs else None
        before = self.view
        self.view = before.child(Action(CHANCE, "handover", card=called, holder=holder))
        self.current.handovers = handovers
        for seat, (m, i) in sorted(handovers.items(), key=lambda item: item[1][1]):
            self.hand.moves.append((i, seat, "handover", m))
            if m.proof is None:
                self.claims.lacks_card(seat, called.index, self._held(seat), i)
        if proofs:
            position, card, scalar = proofs[0][1]
            self.cards.show([(position, (scalar_int(scalar), card))])
            self.cards.move_handover(position, before.handover_holder())
        self._emit_handover(holder, called)
        self._advance()

    # --- the end of a hand ----------------------------------------------------

    def _on_reveal(self, sender: int, msg: Reveal, index: int) -> None:
        hand = self.hand
        assert hand is not None  # a hand's message: the hand is on
        if sender in hand.reveals:
            raise RemoteProtocolError("seed already revealed", culprit=sender, entry=index)
        hand.reveals[sender] = (msg.seed, index)
        if self.phase != "reveal":
            self._complaint = self._complaint or f"seat {sender} stopped the hand"
            hand.stopped = (sender, index)  # the first interruption: no evidence or time-out came before it
            self._interrupted_at = index
            self.machine.advance("stopped")
            self._emit(events.StoppedEarly(sender))
        self._finish_if_revealed()
