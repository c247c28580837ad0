"""Cheating peers and a cheating host: each cheat is detected and its culprit named.

"At once" means the host refuses the message when it arrives: a message its
sender's signature proves wrong is kept as evidence in a host-signed entry
(every node checks it again and stops the hand, and the audit names the
seat); a message that proves nothing about its author is dropped, naming
the connection it came from. A peer given the bad message itself as an
entry refuses it too, naming the seat (or the host, for a relay only the
host could make). "At the audit" means the hand runs on, every seat
reveals, and every node's verdict names the seat with the entry that
proves it. No honest seat is ever named.
"""

from __future__ import annotations

import pytest
from helpers.cheaters import (
    BadCoin,
    BadKey,
    BadReveal,
    Denier,
    Duplicator,
    ForkingTable,
    GarbageShuffle,
    HijackTable,
    LaxSession,
    PositionSwapper,
    Stopper,
    Substituter,
    TagCard,
    WrongPublicShare,
    WrongShare,
    assert_named,
    entry_for,
    every_node,
    forced_act,
    mine,
    off_suit,
    paused,
    pick,
    proof_for,
    random_chooser,
    random_choosers,
    scripted,
    seat_sessions,
    sign_as,
    snapshot,
)

from engine.cards import Card
from engine.games import make
from engine.state import Action
from protocol.errors import CheatDetected, RemoteProtocolError
from protocol.host import Dropped
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.messages import Act, Evidence, Reveal, Shares, from_body
from protocol.transcript import Entry, Signed, parse_signed, proves_fork
from protocol.wire import action_to_wire, scalar_bytes


def to_move(table):
    return next(s for s in table.seats if s.my_turn())


def refused_at_once(table, signed, culprit, cls=RemoteProtocolError):
    """The host keeps `signed` as evidence naming `culprit`; a peer given the
    message itself refuses it with nothing changed; every node accepts the
    evidence, the hand stops, and the audit names `culprit` only."""
    host = table.host
    before = {id(n): snapshot(n) for n in every_node(table)}
    for node in (*table.seats, *table.spectators):
        if node.seat == culprit:
            continue
        with pytest.raises(cls) as at_peer:
            node.receive(entry_for(node, signed, host))
        assert at_peer.value.culprit == culprit
        assert snapshot(node) == before[id(node)]
    ordered = host.submit(signed, connection=culprit)
    error = ordered.refused
    assert isinstance(error, cls) and error.culprit == culprit
    assert error.entry == len(host.transcript.entries) - 1  # the evidence entry
    assert host.transcript.entries[-1].encode() == ordered.entry
    table.broadcast(ordered.entry)
    _finish(table)
    named = assert_named(table, culprit, error.reason)
    assert named.entry == error.entry
    return error


def _finish(table):
    """Deliver until the hand's audit is in (nobody decides: the hand has stopped)."""
    host = table.host.session
    while host.phase not in ("over", "aborted") and table.queue:
        table.pump()


# --- (a) playing a card not held: at once -------------------------------------------------


def test_play_the_face_up_card_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    faceup = cheat.cards.faceup_pos
    card = Card.from_index(cheat.cards.known[faceup])
    signed = forced_act(cheat, Action(cheat.seat, "play", card), [proof_for(cheat, faceup)])
    error = refused_at_once(table, signed, cheat.seat, CheatDetected)
    assert "does not hold" in error.reason


def test_play_another_seats_card_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    other = next(s for s in table.seats if s is not cheat)
    position, card = next((p, c) for p, c in other.cards.known.items() if other.cards.owner[p] == other.seat)
    # It guesses the card right, but cannot prove it: it holds no key for that position.
    fake = (position, card, scalar_bytes(12345))
    signed = forced_act(cheat, Action(cheat.seat, "play", Card.from_index(card)), [fake])
    refused_at_once(table, signed, cheat.seat, CheatDetected)


def test_play_a_card_not_in_hand_with_own_proof_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    held = mine(cheat)
    position = next(iter(held.values()))
    claimed = next(c for c in range(40) if c not in held and c not in cheat.cards.known.values())
    proof = (position, claimed, proof_for(cheat, position)[2])
    signed = forced_act(cheat, Action(cheat.seat, "play", Card.from_index(claimed)), [proof])
    error = refused_at_once(table, signed, cheat.seat, CheatDetected)
    assert "does not open to the card claimed" in error.reason


def test_play_proved_by_another_held_card_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    (card, _), (_, other) = list(mine(cheat).items())[:2]
    signed = forced_act(cheat, Action(cheat.seat, "play", Card.from_index(card)), [proof_for(cheat, other)])
    error = refused_at_once(table, signed, cheat.seat, CheatDetected)
    assert "proofs show other cards" in error.reason


def test_unproven_card_is_refused_at_once():
    table = paused()
    cheat = to_move(table)
    card = Card.from_index(next(iter(mine(cheat))))
    signed = forced_act(cheat, Action(cheat.seat, "play", card), [])
    refused_at_once(table, signed, cheat.seat)


# --- exchange and black hand: the proofs must be the cards the rule names ---------------------


def test_trump_exchange_proving_another_card_is_caught_at_once():
    table = paused(options={"trump_exchange": "7"}, seed=3)
    cheat = to_move(table)
    trump = Card.from_index(cheat.cards.known[cheat.cards.faceup_pos]).suit
    seven = Card("7", trump)
    other = next(p for c, p in mine(cheat).items() if c != seven.index)
    signed = forced_act(cheat, Action(cheat.seat, "exchange"), [proof_for(cheat, other)])
    error = refused_at_once(table, signed, cheat.seat, CheatDetected)
    assert "proofs show other cards than its exchange needs" in error.reason


def test_black_hand_without_ace_three_and_king_of_trump_is_caught_at_once():
    table = paused(options={"black_hand": True}, seed=5)
    cheat = to_move(table)
    proofs = [proof_for(cheat, p) for p in list(mine(cheat).values())[:3]]
    trump = Card.from_index(cheat.cards.known[cheat.cards.faceup_pos]).suit
    if sorted(c for c, _ in mine(cheat).items()) == sorted(Card(r, trump).index for r in "A3K"):  # pragma: no cover
        pytest.skip("the deal gave it a real black hand")
    signed = forced_act(cheat, Action(cheat.seat, "declare"), proofs)
    error = refused_at_once(table, signed, cheat.seat, CheatDetected)
    assert "declare" in error.reason or "black hand" in error.reason


# --- (b) the shuffle: duplicated, substituted, garbage or marked cards -------------------------


def test_duplicated_card_is_caught_at_once():
    sessions = seat_sessions(3, {1: Duplicator})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    table.run(max_hands=1)
    (ordered,) = table.refused
    assert ordered.refused.culprit == 1 and "same ciphertext" in ordered.refused.reason
    assert len(table.host.session.hand.shuffles) == 1  # seat 0's shuffle only: the duplicate never entered
    assert_named(table, 1, "same ciphertext")


def test_shuffle_with_a_value_that_is_no_curve_point_is_caught_at_once():
    sessions = seat_sessions(3, {1: GarbageShuffle})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    table.run(max_hands=1)
    (ordered,) = table.refused
    assert ordered.refused.culprit == 1
    assert "not a curve point" in ordered.refused.reason
    assert_named(table, 1, "not a curve point")


def test_commit_with_an_unusable_sealing_key_is_caught_at_once():
    sessions = seat_sessions(2, {1: BadKey})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=sessions)
    table.run(max_hands=1)
    assert_named(table, 1, "sealing key is not a curve point")
    assert table.host.session.hand.commits.keys() == {0}


def refused_step(table, culprit, reason, phase=1):
    """The one refused message is `culprit`'s shuffle step, kept as evidence; every node names it."""
    (ordered,) = table.refused
    assert ordered.refused.culprit == culprit and reason in ordered.refused.reason
    host = table.host.session
    assert not [
        m for seat, m, _ in host.hand.shuffles if seat == culprit and m.phase == phase
    ]  # never entered the deck
    assert not host.hand.steps and not host.hand.moves  # no card was dealt on top of it
    named = assert_named(table, culprit, reason)
    assert named.entry == ordered.refused.entry
    return named


def test_substituted_card_is_refused_at_once():
    # Three-player Briscola plays without the 2 of clubs: seat 0 slips it in for the ace of coins.
    game_cards = {c.index for c in make("briscola", 3).deck()}
    extra = next(c for c in range(40) if c not in game_cards)
    cls = type("Sub", (Substituter,), {"victim": Card("A", "D").index, "extra": extra})
    sessions = seat_sessions(3, {0: cls})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3, 4), sessions=sessions)
    table.run(max_hands=1)
    refused_step(table, 0, "phase-1 shuffle proof fails")


def test_marked_card_is_refused_at_once():
    """The tag-card cheat: a point of the first shuffler's own making in place of
    a card. Its shuffle proof fails, so it is refused before anyone builds on it."""
    sessions = seat_sessions(2, {0: TagCard})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=sessions)
    table.run(max_hands=1)
    refused_step(table, 0, "phase-1 shuffle proof fails")


def test_swapped_phase2_positions_are_refused_at_once():
    sessions = seat_sessions(3, {2: PositionSwapper})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    table.run(max_hands=1)
    refused_step(table, 2, "phase-2 proof fails at deck position 0", phase=2)
    assert len(table.host.session.hand.shuffles) == 5  # every phase-1 step and two phase-2 steps


# --- (c) a wrong key share ---------------------------------------------------------------------


def test_wrong_private_key_share_stops_the_hand_and_the_audit_names_the_sender():
    sessions = seat_sessions(3, {2: type("W", (WrongShare,), {"victim": 0})})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    table.run(max_hands=1)
    victim, cheat = table.seats[0], table.seats[2]
    assert cheat.spoiled_position not in victim.cards.known  # the recipient cannot open that card
    assert "does not open" in victim.complaint
    host = table.host.session
    assert not host.hand.moves  # no card was played: the hand stopped
    culprit = assert_named(table, 2, "wrong key share")
    assert culprit.entry == host.hand.share_entries[(0, 2)]


def test_wrong_public_key_share_is_refused_at_once():
    sessions = seat_sessions(2, {1: WrongPublicShare})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=sessions)
    table.run(max_hands=1)
    (ordered,) = table.refused
    reason = "public key share for deck position"
    assert ordered.refused.culprit == 1 and reason in ordered.refused.reason
    host = table.host.session
    assert 1 not in host.hand.steps[0].shares  # the wrong share never entered the step
    assert host.cards.faceup_pos not in host.cards.known and not host.hand.moves
    named = assert_named(table, 1, reason)
    assert named.entry == ordered.refused.entry


def test_key_share_out_of_range_is_caught_at_once():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2))
    table.broadcast(table.host.open())
    for seat in table.seats:
        table.send(seat.seat, seat.start().messages)
    host = table.host.session
    while host.phase != "deal":
        table.order(*table.queue.popleft())
    cheat = table.seats[0]
    table.queue = type(table.queue)((c, m) for c, m in table.queue if c != cheat.seat)  # lost in flight
    step = host.hand.steps[0]
    honest = cheat.make_deal()
    zero = Shares(honest.hand, step.number, honest.sealed, tuple((p, bytes(32)) for p, _ in honest.public))
    assert zero.public  # the face-up card's share
    error = refused_at_once(table, sign_as(cheat, zero, seq=cheat.seq - 1), cheat.seat)
    assert "out of range" in error.reason


# --- (d) reveals that do not match their commitments -------------------------------------------


def test_seed_reveal_not_matching_its_commitment_is_named_at_the_audit():
    sessions = seat_sessions(2, {1: BadReveal})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 2), sessions=sessions)
    table.run(max_hands=1)
    culprit = assert_named(table, 1, "does not match its commitment")
    assert culprit.entry == table.host.session.hand.reveals[1][1]


def test_coin_reveal_not_matching_its_commitment_is_caught_at_once():
    sessions = seat_sessions(3, {2: BadCoin})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    table.run()
    for node in every_node(table):
        assert node.phase == "aborted"
        assert [(c.seat, c.entry) for c in node.culprits] == [(2, len(table.entries) - 1)]
        assert "coin" in node.culprits[0].reason
        assert node.series is None  # no hand was ever dealt


# --- (e) not following suit in Calabresella: refused at the play, its proof fails ---------------


def not_following_table(cheat: int = 1, seed: int = 0):
    """A Calabresella hand in which seat `cheat`, soloist in Solissimo, fails to follow suit once."""
    sessions = seat_sessions(3, {cheat: LaxSession})
    choosers = {}
    for s in range(3):
        if s == cheat:
            choosers[s] = scripted(
                seed + s,
                auction=pick("bid", contract="solissimo"),
                **{"raise": pick("raise", choice="none")},
                play=off_suit(sessions[cheat]),
            )
        else:
            choosers[s] = scripted(seed + s, auction=pick("pass"))
    return LocalTable("calabresella", 3, {}, choosers=choosers, sessions=sessions)


def refused_cheat(table, seat, reason):
    """The one refused message is `seat`'s last, refused for `reason`, and no card was played after it."""
    (ordered,) = table.refused
    error = ordered.refused
    assert error.culprit == seat and error.reason.startswith(reason), error.reason
    host = table.host.session
    assert all(index < error.entry for index, *_ in host.hand.moves)  # the hand stopped at the cheat
    culprit = assert_named(table, seat, reason)
    assert culprit.entry == error.entry
    return error


def test_a_renege_is_refused_at_the_play_itself():
    for seed in range(20):
        table = not_following_table(1, seed)
        table.run(max_hands=1)
        if getattr(table.seats[1], "cheated", False):
            break
    else:  # pragma: no cover
        pytest.fail("the cheater never had the chance")
    refused_cheat(table, 1, "renege: its proof that it holds none of the suit led does not check")


@pytest.mark.slow
def test_honest_off_suit_plays_carry_proofs_every_node_accepts():
    table = LocalTable("calabresella", 3, {}, choosers=random_choosers(3, 4), spectators=1)
    table.run(max_hands=3)
    assert not table.refused and all(v.ok for v in table.host.session.verdicts)
    assert len(claims_in(table.entries)) >= 2, "hardly an off-suit play in three hands"


def claims_in(entries: list[bytes]) -> list:
    """The claims about hidden cards in a transcript's acts and handovers."""
    found = []
    for data in entries:
        opened = parse_signed(Entry.decode(data).message)
        if opened.header.kind in ("act", "handover"):
            message = from_body(opened.header.kind, opened.body)
            if message.claim:
                found.append(message.claim)
    return found


# --- (f) falsely denying the called card in a Chiamo: refused at the denial ------------------------


def test_a_false_denial_of_the_called_card_is_refused_at_once():
    denier, soloist = 2, 0
    sessions = seat_sessions(3, {denier: Denier})
    ref = {}

    def call(view):
        card = ref["table"].seats[denier].view.hands[denier][0]
        return next(a for a in view.legal if a.card == card)

    choosers = {
        s: scripted(s, auction=(pick("bid", contract="chiamo") if s == soloist else pick("pass")), call=call)
        for s in range(3)
    }
    table = LocalTable("calabresella", 3, {}, choosers=choosers, sessions=sessions)
    ref["table"] = table
    table.run(max_hands=1)
    refused_cheat(table, denier, "false denial: its proof that it lacks the called card does not check")


# --- (g) the Chiamata two rule: refused at the call -------------------------------------------------


def two_rule_choosers(target):
    """Every seat passes, except the first that can abuse the two rule: it bids 2 and calls `target(hand)`."""
    state = {}

    def chooser(seat):
        fallback = random_chooser(seat)

        def choose(view, rng):
            if view.phase == "auction":
                if "cheat" not in state and target(view.hand) is not None:
                    state["cheat"] = seat
                    return Action(seat, "bid", rank="2")
                return Action(seat, "pass")
            if view.phase == "call":
                card = target(view.hand)
                state["called"] = card
                return Action(seat, "call", card)
            return fallback(view, rng)

        return choose

    return {s: chooser(s) for s in range(5)}, state


def two_rule_table(target, hands):
    for _attempt in range(8):
        choosers, state = two_rule_choosers(target)
        sessions = seat_sessions(5, {s: LaxSession for s in range(5)})
        table = LocalTable("chiamata", 5, {}, choosers=choosers, sessions=sessions)
        table.run(max_hands=hands)
        if "cheat" in state:
            return table, state
    pytest.fail("no deal gave anybody the chance")  # pragma: no cover


def test_a_two_rule_call_of_a_held_trump_is_refused_at_the_call():
    """The caller holds the 2 and the 4 of a suit and calls the 4: nobody else could see it."""

    def target(hand):
        for suit in "DHSC":
            if Card("2", suit) in hand and Card("4", suit) in hand:
                return Card("4", suit)
        return None

    table, state = two_rule_table(target, 12)
    error = refused_cheat(table, state["cheat"], "two rule: its proof of the trumps it holds and lacks does not check")
    assert Card("4", "D").suit not in error.reason or True  # the reason names no hidden card
    assert "4" not in error.reason.split(":", 1)[1]


@pytest.mark.slow
def test_a_two_rule_call_without_the_two_is_refused_at_the_call_not_left_to_the_holder_of_the_two():
    def target(hand):
        for suit in "DHSC":
            if Card("2", suit) not in hand:
                return next(Card(r, suit) for r in "4567" if Card(r, suit) not in hand)
        return None

    table, state = two_rule_table(target, 3)
    refused_cheat(table, state["cheat"], "two rule: its proof")
    assert not any(seat.complaint for seat in table.seats)  # no early reveal was needed


@pytest.mark.slow
def test_an_honest_two_rule_call_is_proved_and_accepted():
    def target(hand):
        for suit in "DHSC":
            if Card("2", suit) in hand:
                return next((Card(r, suit) for r in "4567JQK" if Card(r, suit) not in hand), None)
        return None

    table, state = two_rule_table(target, 1)
    assert not table.refused
    ((lacks, holds),) = claims_in(table.entries)
    assert lacks and len(holds) >= 1
    assert all(v.ok for v in table.host.session.verdicts)


# --- (g') a claim tampered with, missing, or where none is due ------------------------------------


class ClaimSpoiler(LaxSession):
    """An honest seat but for its first proof about hidden cards, which `spoil` changes."""

    spoil = staticmethod(lambda claim: claim)
    when_none = False  # spoil a decision that needs no proof, instead of one that does

    def make_claim(self, statement, kind, decision):
        claim = super().make_claim(statement, kind, decision)
        if not self.cheated and bool(claim) != self.when_none:
            self.cheated = True
            return self.spoil(claim)
        return claim


def _flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


SPOILS = {
    "no proof": lambda claim: (),
    "a proof where none is due": lambda claim: ((), ()),
    "a scalar changed": lambda claim: ((*claim[0][:3], _flip_last(claim[0][3])), claim[1]),
    "a blinded card swapped for a forbidden one": lambda claim: (
        (claim[0][0], claim[0][1], [claim[0][1][0], *claim[0][2][1:]], claim[0][3]),
        claim[1],
    ),
    "a point cut short": lambda claim: ((claim[0][0], claim[0][1], [claim[0][2][0][:-1]], claim[0][3]), claim[1]),
    "a proof of another shape": lambda claim: ((claim[0][0], claim[0][1]), claim[1]),
}


@pytest.mark.slow
@pytest.mark.parametrize("spoil", sorted(SPOILS))
def test_a_claim_spoiled_is_refused_at_its_message_naming_its_sender(spoil):
    for seed in range(12):
        sessions = seat_sessions(3, {1: ClaimSpoiler})
        sessions[1].spoil = staticmethod(SPOILS[spoil])
        sessions[1].when_none = spoil == "a proof where none is due"
        table = LocalTable("calabresella", 3, {}, choosers=random_choosers(3, seed), sessions=sessions)
        table.run(max_hands=1)
        if table.seats[1].cheated:
            break
    else:  # pragma: no cover
        pytest.fail("seat 1 never made a claim")
    (ordered,) = table.refused
    error = ordered.refused
    assert error.culprit == 1, error
    if spoil == "a proof where none is due":
        assert error.reason.endswith("a proof about its hidden cards where the rules ask none"), error.reason
    else:
        assert error.reason.startswith("renege: its proof that it holds none of the suit led does not check: ")
    assert_named(table, 1, error.reason)


# --- (h) replayed, reordered and forged messages: dropped, naming the connection ----------------


def test_replayed_message_is_dropped_naming_the_connection():
    table = paused()
    host = table.host
    last = Signed.decode(host.transcript.entries[-1].message)
    replay = last.encode()
    before = snapshot(host.session)
    with pytest.raises(Dropped) as caught:
        host.submit(replay, connection="conn-7")
    assert caught.value.culprit == "conn-7"
    assert "replayed" in caught.value.reason
    assert snapshot(host.session) == before
    # A host that relays the replay anyway is caught by every peer.
    for node in (*table.seats, *table.spectators):
        with pytest.raises(RemoteProtocolError) as at_peer:
            node.receive(entry_for(node, replay, table.host))
        assert "replayed" in at_peer.value.reason
        assert at_peer.value.culprit == "host"  # only the host can relay the same bytes twice


def test_reordered_message_is_dropped():
    table = paused()
    seat = to_move(table)
    card = Card.from_index(next(iter(mine(seat))))
    later = sign_as(
        seat, Act(seat.hand.number, action_to_wire(Action(seat.seat, "play", card)), (), ()), seq=seat.seq + 1
    )
    before = snapshot(table.host.session)
    with pytest.raises(Dropped) as caught:
        table.host.submit(later, connection=seat.seat)
    assert "out-of-order" in caught.value.reason and caught.value.culprit == seat.seat
    assert snapshot(table.host.session) == before


def test_made_up_or_stale_echo_is_dropped():
    table = paused()
    seat = to_move(table)
    card = Card.from_index(next(iter(mine(seat))))
    message = Act(seat.hand.number, action_to_wire(Action(seat.seat, "play", card)), (), ())
    before = snapshot(table.host.session)
    for head, reason in ((b"\x07" * 32, "not in this table's history"), (bytes(32), "backwards")):
        with pytest.raises(Dropped) as caught:
            table.host.submit(sign_as(seat, message, head=head), connection=seat.seat)
        assert reason in caught.value.reason and caught.value.culprit == seat.seat
    assert snapshot(table.host.session) == before


def test_forged_signature_is_dropped_naming_the_connection():
    table = paused()
    seat = to_move(table)
    position = next(iter(mine(seat).values()))
    honest = seat.act(Action(seat.seat, "play", Card.from_index(seat.cards.known[position]))).messages[0]
    signed = Signed.decode(honest)
    bad = Signed(signed.payload, bytes([signed.signature[0] ^ 1]) + signed.signature[1:]).encode()
    host = table.host
    with pytest.raises(Dropped) as caught:
        host.submit(bad, connection="intruder")
    assert caught.value.culprit == "intruder"
    # A peer given the forged entry blames the host that relayed it.
    other = next(s for s in table.seats if s is not seat)
    with pytest.raises(RemoteProtocolError) as at_peer:
        other.receive(entry_for(other, bad, table.host))
    assert at_peer.value.culprit == "host" and "bad message" in at_peer.value.reason
    # The genuine message still goes through.
    assert host.submit(honest).refused is None


def test_message_signed_with_another_key_is_dropped():
    table = paused()
    seat = to_move(table)
    card = Card.from_index(next(iter(mine(seat))))
    message = Act(seat.hand.number, action_to_wire(Action(seat.seat, "play", card)), (), ())
    forged = sign_as(seat, message, identity=Identity.generate())
    with pytest.raises(Dropped) as caught:
        table.host.submit(forged, connection=3)
    assert caught.value.culprit == 3
    # Also one claiming to be the host.
    forged_host = sign_as(seat, message, sender=-1, identity=Identity.generate())
    with pytest.raises(Dropped):
        table.host.submit(forged_host)


# --- (i) a cheating host ---------------------------------------------------------------------------


def test_evidence_of_a_valid_message_names_the_host():
    """The host cannot turn a seat's honest move into 'evidence': every node checks it."""
    table = paused()
    seat = to_move(table)
    honest = seat.act(table.choose(seat)).messages[0]
    for node in (*table.seats, *table.spectators):
        snapshot(node)
        with pytest.raises(RemoteProtocolError) as caught:
            node.receive(entry_for(node, _host_signed(table, Evidence(honest, "made up")), table.host))
        assert caught.value.culprit == "host"
        assert "valid message" in caught.value.reason
        assert node.phase == "aborted"  # it will not follow that host any further


def _host_signed(table, message):
    from protocol.messages import to_body
    from protocol.transcript import VERSION, Header, make_payload

    host = table.host
    header = Header(VERSION, host.table_id, "evidence", -1, host._seq, host.transcript.head)
    return Signed.sign(host.identity, make_payload(header, to_body(message))).encode()


def test_forked_history_is_detected():
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3))
    table.broadcast(table.host.open())
    for seat in table.seats:
        table.send(seat.seat, seat.start().messages)
    host = table.host.session
    while host.phase != "commit" or len(table.queue) < 3:
        table.order(*table.queue.popleft())
    commits = [m for _, m in table.queue]
    table.queue.clear()
    a, b, c = table.seats
    # The host shows seat 0 one order of the commits and everybody else another.
    for node, order in ((a, commits), (b, commits[::-1]), (c, commits[::-1])):
        out = []
        for signed in order:
            out += node.receive(entry_for(node, signed, table.host)).messages
        if node is a:
            shuffle = out
    assert a.transcript.head != b.transcript.head
    assert len(a.transcript.entries) == len(b.transcript.entries)
    (message,) = shuffle  # seat 0 shuffles first; its message echoes its own head
    before = snapshot(b)
    with pytest.raises(RemoteProtocolError) as caught:
        b.receive(entry_for(b, message, table.host))
    assert caught.value.culprit == "host"
    assert "different histories" in caught.value.reason
    assert snapshot(b) == before
    # The host signed both histories: two of its entries at one index prove the fork to anyone.
    index = len(a.transcript.entries) - 1
    mine_, theirs = a.transcript.entries[index], b.transcript.entries[index]
    key, table_id = table.host.identity.public_bytes, table.host.table_id
    assert proves_fork(mine_, theirs, key, table_id)
    assert not proves_fork(mine_, mine_, key, table_id)
    forged = Entry(theirs.index, theirs.prev, theirs.message, bytes(64))
    assert not proves_fork(mine_, forged, key, table_id)  # a seat cannot frame the host


def test_forking_host_is_named_by_the_seats_it_deceives():
    table = ForkingTable("briscola", 3, {}, choosers=random_choosers(3))
    table.run(max_hands=1)
    assert table.cheated and table.failures
    for _node, error in table.failures:
        assert error.culprit == "host" and "different histories" in error.reason


def test_a_seat_notices_a_puppet_in_its_seat_and_names_the_host():
    table = HijackTable("briscola", 2, {}, choosers=random_choosers(2))
    table.run(max_hands=1)
    ((node, error),) = table.failures
    assert node is table.seats[HijackTable.victim]
    assert error.culprit == "host" and "another key in seat" in error.reason


def test_entry_not_signed_by_the_host_is_refused_naming_nobody():
    table = paused()
    node = table.seats[0]
    honest = Entry.decode(entry_for(node, sign_as(table.seats[1], kind="chat", body=[]), table.host))
    for signature in (b"", bytes(64), Identity.generate().sign(b"x")):
        before = snapshot(node)
        with pytest.raises(RemoteProtocolError) as caught:
            node.receive(Entry(honest.index, honest.prev, honest.message, signature).encode())
        assert caught.value.culprit is None and "not signed by the host" in caught.value.reason  # (nobody's proof)
        assert snapshot(node) == before


# --- stopping a hand without cause ----------------------------------------------------------


def test_stopping_the_hand_without_cause_is_named():
    sessions = seat_sessions(2, {1: Stopper})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=sessions)
    table.run(max_hands=1)
    culprit = assert_named(table, 1, "stopped the hand without cause")
    assert culprit.entry == table.host.session.hand.reveals[1][1]


def test_an_early_reveal_needs_the_hand_number():
    table = paused()
    seat = to_move(table)
    stale = sign_as(seat, Reveal(seat.hand.number + 1, seat.secrets.seed))
    error = refused_at_once(table, stale, seat.seat)
    assert "hand" in error.reason
