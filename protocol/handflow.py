"""One hand, as the transcript moves it: commitments, the two shuffle phases,
dealing steps (key shares, then opening what this node may see), decisions,
the Calabresella handover, and the reveals.

Functions over one node's state (`SessionState`, sessionstate.py): the
handlers `TableSession` applies (`HANDLERS`, session.py) and what they share.
Every handler checks all it can before it changes anything; the phase moves
by `s.machine.advance` only (machine.py).
"""

from __future__ import annotations

import hashlib

from engine.deal import Deal
from engine.state import CHANCE, PUBLIC, TERMINAL, Action, IllegalAction

from . import complaint, curve, events, hidden_proofs, statements, stepproofs
from . import deck as mp
from .audit import Culprit
from .errors import CheatDetected, RemoteProtocolError
from .hidden_claims import ClaimRefused
from .lifecycle import finish_if_revealed, stop_hand
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


# --- commitments and the shuffle -------------------------------------------------


def on_commit(s: SessionState, sender: int, msg: Commit, index: int) -> None:
    assert s.hand is not None  # a hand's message: the hand is on
    try:
        check_seal_public(msg.seal_key)  # else no seat could seal it a share
    except RemoteProtocolError as error:
        raise CheatDetected(error.reason, culprit=sender, entry=index) from None
    if len(msg.position_keys) != s.plan.size:
        raise RemoteProtocolError(
            f"committed {len(msg.position_keys)} position keys for a deck of {s.plan.size}",
            culprit=sender,
            entry=index,
        )
    for key in (msg.phase1_key, *msg.position_keys):
        try:
            curve.decode(key)  # else no step of its could be checked
        except curve.PointError:
            raise CheatDetected("committed a deck key that is not a curve point", culprit=sender, entry=index) from None
    if not s.hand.commits:
        # The hand begins with its first commitment, not when the last one ended: a table
        # closed after its last hand (`--hands`) announces no hand it never deals.
        s._emit(events.HandBegins(s.hand.dealer, s.hand.number))
    s.hand.commits[sender] = (msg, index)
    if len(s.hand.commits) == s.players:
        s.machine.advance("committed")


def on_shuffle(s: SessionState, sender: int, msg: Shuffle, index: int) -> None:
    hand, n = s.hand, s.players
    assert hand is not None  # a hand's message: the hand is on
    expected = 1 if len(hand.shuffles) < n else 2  # the shuffle phase
    size = s.plan.size
    if msg.phase != expected or len(msg.deck) != size:
        raise RemoteProtocolError(f"expected a phase-{expected} deck of {size} cards", culprit=sender, entry=index)
    mp.check_points(msg.deck)  # a value that is no point would stop every seat after it
    if msg.phase == 1:
        mp.check_distinct(list(msg.deck))  # a duplicated card shows here at once
    check_step_proof(s, sender, msg)
    hand.shuffles.append((sender, msg, index))
    if len(hand.shuffles) == 2 * n:
        open_step(s, "deal", *s.cards.deal(s.game, list(msg.deck)))


def check_step_proof(s: SessionState, sender: int, msg: Shuffle) -> None:
    """DeckError unless the step's proof verifies (nodes sharing a process check it once)."""
    hand = s.hand
    assert hand is not None and s.game is not None and s.transcript is not None  # a shuffle step
    deck_in = hand.shuffles[-1][1].deck if hand.shuffles else mp.start_deck([c.index for c in s.game.deck()])
    commit = hand.commits[sender][0]
    keys = (commit.phase1_key, commit.position_keys)
    ctx = stepproofs.context(s.transcript.table_id, hand.number, sender, msg.phase, keys, deck_in, msg.deck)
    done = s.shared.verified if s.shared is not None else set()
    digest = hashlib.sha256(b"step-proof" + ctx + msg.proof).digest()
    if digest not in done:
        stepproofs.check(ctx, msg.phase, keys, deck_in, msg.deck, msg.proof)
        done.add(digest)


# --- dealing steps ---------------------------------------------------------------


def open_step(s: SessionState, kind: StepKind, positions: list[int], audiences: list[int]) -> None:
    """Start a dealing step: every seat sends its key shares for these positions."""
    assert s.hand is not None  # the deal and the chance events of a hand
    todo = [(p, a) for p, a in zip(positions, audiences) if p not in s.cards.public_scalar]
    step = Step(len(s.hand.steps), kind, tuple(p for p, _ in todo), tuple(a for _, a in todo))
    s.hand.steps.append(step)
    s.machine.advance("step opened")
    if not step.positions:
        finish_step(s, step)


def on_shares(s: SessionState, sender: int, msg: Shares, index: int) -> None:
    assert s.hand is not None  # a hand's message: the hand is on
    step = s.hand.steps[-1]
    if msg.step != step.number:
        raise RemoteProtocolError(f"shares for step {msg.step}, expected {step.number}", culprit=sender, entry=index)
    want_sealed = sorted({a for a in step.audiences if a not in (PUBLIC, sender)})
    want_public = sorted(p for p, a in zip(step.positions, step.audiences) if a == PUBLIC)
    if sorted(r for r, _ in msg.sealed) != want_sealed:
        raise RemoteProtocolError("shares sealed to the wrong seats", culprit=sender, entry=index)
    if sorted(p for p, _ in msg.public) != want_public:
        raise RemoteProtocolError("public shares for the wrong positions", culprit=sender, entry=index)
    keys = s.hand.commits[sender][0].position_keys
    for p, scalar in msg.public:
        if not mp.check_share(keys[p], scalar_int(scalar)):
            raise CheatDetected(
                f"its public key share for deck position {p} is not the one its committed key gives",
                culprit=sender,
                entry=index,
            )
    step.shares[sender] = msg
    s.hand.share_entries[(step.number, sender)] = index
    if len(step.shares) == s.players:
        finish_step(s, step)


def finish_step(s: SessionState, step: Step) -> None:
    """All shares are in: open what this node may see, then move the hand on.

    A public card that does not open cannot be blamed on one seat yet
    (any of them may have sent a wrong share): every node sees it at the
    same entry, the hand stops, and the audit names the seat.
    """
    public = [p for p, a in zip(step.positions, step.audiences) if a == PUBLIC]
    if not s.cards.open_public(public, [dict(m.public) for m in step.shares.values()]):
        s.machine.advance("deal failed")
        return
    if s.holds_seat() and s.seat in step.audiences:
        open_mine(s, step)
    apply_step(s, step)


def open_mine(s: SessionState, step: Step) -> None:
    assert s.hand is not None and s.transcript is not None
    assert s.seat is not None and s.secrets is not None  # this seat's cards: it committed to the hand
    mine = [p for p, a in zip(step.positions, step.audiences) if a == s.seat]
    received: dict[int, dict[int, int]] = {p: {s.seat: mp.key_share(s.secrets, p)} for p in mine}
    for sender, msg in step.shares.items():
        if sender == s.seat:
            continue
        try:
            pairs = open_shares(
                s.pair_key(sender),
                s.transcript.table_id,
                s.hand.number,
                step.number,
                sender,
                s.seat,
                dict(msg.sealed)[s.seat],
            )
        except RemoteProtocolError:
            fault(s, step, sender, f"seat {sender}'s sealed shares do not open")
            continue
        keys = s.hand.commits[sender][0].position_keys
        if set(pairs) != set(mine):
            fault(s, step, sender, f"seat {sender} sealed me shares for other positions than mine")
        for p in mine:
            if p not in pairs:
                fault(s, step, sender, f"seat {sender} sent no share for a card of mine")
            elif not mp.check_share(keys[p], pairs[p]):
                fault(s, step, sender, f"seat {sender}'s key share for a card of mine does not match its key")
            else:
                received[p][sender] = pairs[p]
    for p in mine:
        if not s.cards.open_private(p, received[p]):
            s._complaint = "a card dealt to me does not open (wrong key share)"


def fault(s: SessionState, step: Step, sender: int, why: str) -> None:
    """A wrong blob sealed to this seat: complain (the first one), with the proof
    that lets every node open it (complaint.py)."""
    s._complaint = s._complaint or why
    if s._sealed_fault is None:
        s._sealed_fault = (step.number, sender)


def on_complaint(s: SessionState, sender: int, msg: Complaint, index: int) -> None:
    """A complaint about a sealed blob: judged at once, the same at every node.
    A false one (or a bad proof) is refused, naming its sender (the host keeps it
    as evidence); a true one names the accused; either way the hand stops here."""
    hand, transcript = s.hand, s.transcript
    assert hand is not None and transcript is not None  # a hand's message
    if msg.accused == sender or msg.accused not in hand.commits or sender not in hand.commits:
        raise RemoteProtocolError("a complaint about no other committed seat", culprit=sender, entry=index)
    if msg.step >= len(hand.steps) or len(hand.steps[msg.step].shares) < s.players:
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
    s._emit(events.Complained(culprit, reason))
    stop_hand(s, index)


def apply_step(s: SessionState, step: Step) -> None:
    try:
        if step.kind == "deal":
            build_view(s)
        else:
            apply_chance(s)
        show_peeked(s)
    except (IllegalAction, ValueError):
        # Public cards contradict each other (a card seen twice): every
        # node sees it here, so all stop together; the audit names who.
        s.machine.advance("deal failed")
        return
    move_on(s)


def apply_chance(s: SessionState) -> None:
    assert s.view is not None  # a chance event comes after the deal
    need = s.view.need()
    positions = [s.cards.slot_position(slot) for slot in need.slots]
    cards = tuple(s.cards.card(p) for p in positions)
    before = s.view
    try:
        s.view = before.child(Action(CHANCE, need.kind, cards=cards))
    except IllegalAction:
        # A card only this seat sees contradicts its view: complain (an
        # early reveal) and carry on with that card unknown, like the others.
        s._complaint = "a card dealt to me contradicts what I have seen"
        public = tuple(c if a == PUBLIC else None for c, a in zip(cards, need.audiences))
        s.view = before.child(Action(CHANCE, need.kind, cards=public))
    s.cards.move_chance(s.view, need, positions)
    s._emit_chance(need, positions)


def build_view(s: SessionState) -> None:
    assert s.game is not None and s.hand is not None  # the deal of a hand
    plan, cards = s.plan, s.cards
    if len(set(cards.known.values())) != len(cards.known):
        s._complaint = "the cards dealt to me contradict each other"
        cards.forget_private()
    deal = Deal(
        hands=[[cards.card(p) for p in positions] for positions in plan.hands],
        stock=[cards.card(p) for p in plan.stock],
        faceup=None if plan.faceup is None else cards.card(plan.faceup),
        monte=[cards.card(p) for p in plan.monte],
    )
    s.view = s.make_view(deal, PUBLIC if s.seat is None else s.seat)
    s._emit_deal()


def show_peeked(s: SessionState) -> None:
    """Tell the view the stock cards everyone sees (Briscola open hands: the top)."""
    assert s.view is not None  # built by the deal
    s.view.see_peeked(s.plan, s.cards.public_card)


def move_on(s: SessionState) -> None:
    """Decide what the hand waits for next."""
    view = s.view
    assert view is not None  # dealt
    turn = view.current_player()
    if turn == TERMINAL:
        s.machine.advance("hand played")
        return
    if turn != CHANCE:
        s.machine.advance("decision due")
        return
    need = view.need()
    if need.kind == "handover":
        s.current.handovers = {}
        s.machine.advance("handover due")
        return
    positions = [s.cards.slot_position(slot) for slot in need.slots] + view.peeks(s.plan)
    audiences = list(need.audiences) + [PUBLIC] * (len(positions) - len(need.slots))
    open_step(s, need.kind, positions, audiences)


# --- decisions ------------------------------------------------------------


def on_act(s: SessionState, sender: int, msg: Act, index: int) -> None:
    kind = msg.action[0]
    view, cards = s.view, s.cards
    assert view is not None and s.hand is not None  # "play": the hand is dealt
    if kind == "discard" and not msg.positions:
        raise RemoteProtocolError("a discard names its positions", culprit=sender, entry=index)
    if kind != "discard" and msg.positions:
        raise RemoteProtocolError(f"{kind} gives up no positions", culprit=sender, entry=index)
    cards.check_given(sender, msg.positions, index)
    # Only the discarder sees its discards; every other view gets them face down.
    face_down = tuple(cards.card(p) if sender == s.seat else None for p in msg.positions)
    action = action_from_wire(sender, msg.action, face_down)
    opened = cards.check_proofs(sender, kind, view.shown_cards(action), msg.proofs, index)
    s.claims.check(sender, [(p, card) for p, (_, card) in opened], index)
    after = view.child(action)
    # What it says of its hidden cards, proved: a seat's own cards can refuse an action
    # (the holder of the 2, a two-rule call) only when that proof fails at every node.
    statement = statements.of_act(view, action, cards, [p for p, _ in opened])
    chains = check_claim(s, sender, statement, msg.claim, "act", list(msg.action), index)
    s.view = after
    cards.show(opened)
    cards.chain(sender, chains)
    if statement.about == "void":
        s.claims.lacks_suit(sender, view.trick[0].suit, held(s, sender), index)
    cards.move_action(view, action, msg.positions, opened)
    s.hand.moves.append((index, sender, "act", msg))
    s._emit_action(view, action)
    move_on(s)


def check_claim(
    s: SessionState, sender: int, statement: statements.Statement, claim: tuple, kind: str, decision: list, index: int
) -> dict[int, bytes]:
    """Check the proof of what `sender`'s message says of its hidden cards (before
    anything changes); the combined keys it newly proves. CheatDetected, naming
    the sender, if it does not prove the statement every node computes."""
    if not statement.needs_proof() and not claim:
        return {}  # the common case: nothing said of hidden cards, nothing sent
    context, keys = s.claim_inputs(sender, kind, decision)
    done = s.shared.claims if s.shared is not None else {}
    digest = hidden_proofs.digest(statement, context, s.cards, sender, claim)
    try:
        if digest not in done:
            done[digest] = hidden_proofs.check(statement, context, s.cards, sender, keys, claim)
        return done[digest]
    except ClaimRefused as error:
        what = f"{CLAIM_NAMES[statement.about]}: {error}" if statement.about else f"{kind}: {error}"
        raise CheatDetected(what, culprit=sender, entry=index) from None


def held(s: SessionState, seat: int) -> frozenset[int]:
    return frozenset(p for p, owner in s.cards.owner.items() if owner == seat)


def on_handover(s: SessionState, sender: int, msg: Handover, index: int) -> None:
    assert s.view is not None and s.hand is not None  # "handover": the hand is dealt
    need = s.view.need()
    called = need.card
    assert called is not None  # a handover's need names the called card
    if msg.proof is not None:
        position, card, _ = msg.proof
        if card != called.index:
            raise RemoteProtocolError("handover of a card that was not called", culprit=sender, entry=index)
        s.cards.check_proof(sender, msg.proof, index)
        s.claims.check(sender, [(position, card)], index)
        statement = statements.NOTHING
    else:
        statement = statements.of_denial(sender, called, s.cards)
    chains = check_claim(s, sender, statement, msg.claim, "handover", [called.index], index)
    handovers = {**s.current.handovers, sender: (msg, index)}
    if len(handovers) < len(s.view.handover_answerers()):
        s.current.handovers = handovers
        s.cards.chain(sender, chains)
        return
    proofs = [(seat, m.proof) for seat, (m, _) in handovers.items() if m.proof is not None]
    if len(proofs) > 1:
        raise CheatDetected("two seats showed the called card", culprit=sender, entry=index)
    s.cards.chain(sender, chains)
    holder = proofs[0][0] if proofs else None
    before = s.view
    s.view = before.child(Action(CHANCE, "handover", card=called, holder=holder))
    s.current.handovers = handovers
    for seat, (m, i) in sorted(handovers.items(), key=lambda item: item[1][1]):
        s.hand.moves.append((i, seat, "handover", m))
        if m.proof is None:
            s.claims.lacks_card(seat, called.index, held(s, seat), i)
    if proofs:
        position, card, scalar = proofs[0][1]
        s.cards.show([(position, (scalar_int(scalar), card))])
        s.cards.move_handover(position, before.handover_holder())
    s._emit_handover(holder, called)
    move_on(s)


# --- the end of a hand ----------------------------------------------------


def on_reveal(s: SessionState, sender: int, msg: Reveal, index: int) -> None:
    hand = s.hand
    assert hand is not None  # a hand's message: the hand is on
    if sender in hand.reveals:
        raise RemoteProtocolError("seed already revealed", culprit=sender, entry=index)
    hand.reveals[sender] = (msg.seed, index)
    if s.phase != "reveal":
        s._complaint = s._complaint or f"seat {sender} stopped the hand"
        hand.stopped = (sender, index)  # the first interruption: no evidence or time-out came before it
        s._interrupted_at = index
        s.machine.advance("stopped")
        s._emit(events.StoppedEarly(sender))
    finish_if_revealed(s)
