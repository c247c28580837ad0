"""Cheating peers and a cheating host: each cheat is detected and its culprit named.

"At once" means the host's `submit` refuses the message (it never enters the
transcript) and an honest peer's `receive` of such an entry raises, both
naming the seat. "At the audit" means the hand runs on, every seat reveals,
and every node's verdict names the seat with the entry that proves it.
"""

from __future__ import annotations

import pytest
from cheaters import (
    BadCoin,
    BadReveal,
    Denier,
    Duplicator,
    LaxSession,
    Stopper,
    Substituter,
    WrongPublicShare,
    WrongShare,
    entry_for,
    forced_act,
    mine,
    off_suit,
    seat_sessions,
    pick,
    proof_for,
    random_chooser,
    random_choosers,
    scripted,
    sign_as,
    snapshot,
)

from engine.cards import Card
from engine.games import make
from engine.state import Action
from protocol.errors import CheatDetected, RemoteProtocolError
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.messages import Act, Shares
from protocol.transcript import Entry, Signed, proves_fork
from protocol.wire import action_to_wire, scalar_bytes


def honest_nodes(table, culprit):
    return [n for n in (*table.seats, *table.spectators, table.host.session) if n.seat != culprit]


def assert_audit_names(table, seat, reason):
    """Every node's last verdict names `seat` (only it) for `reason`; the table is stopped."""
    for node in (*table.seats, *table.spectators, table.host.session):
        verdict = node.verdicts[-1]
        assert not verdict.ok
        assert [c.seat for c in verdict.culprits] == [seat], str(verdict)
        assert reason in verdict.culprits[0].reason, str(verdict)
        assert verdict.culprits[0].entry is not None
        assert node.phase == "aborted"
        assert verdict.outcome is None
    return table.host.session.verdicts[-1].culprits[0]


def paused(game="briscola", players=2, options=None, seed=0, sessions=None):
    """A table stopped at the first decision of the first hand."""
    table = LocalTable(game, players, options or {}, choosers=random_choosers(players, seed), sessions=sessions)
    table.start()
    return table


def to_move(table):
    return next(s for s in table.seats if s.my_turn())


def rejected_everywhere(table, signed, culprit, cls=RemoteProtocolError):
    """The host refuses `signed`, and so does every other node given it as an entry; nothing changes."""
    host = table.host
    before = {id(n): snapshot(n) for n in (*table.seats, *table.spectators, host.session)}
    with pytest.raises(cls) as caught:
        host.submit(signed)
    assert caught.value.culprit == culprit
    assert caught.value.entry == len(host.transcript.entries)
    for node in (*table.seats, *table.spectators):
        if node.seat == culprit:
            continue
        with pytest.raises(cls) as at_peer:
            node.receive(entry_for(node, signed, table.host))
        assert at_peer.value.culprit == culprit
    for node in (*table.seats, *table.spectators, host.session):
        if node.seat != culprit:
            assert snapshot(node) == before[id(node)]
    return caught.value


# --- (a) playing a card not held: at once ---------------------------------------------------


def test_play_the_face_up_card_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    faceup = cheat.faceup_pos
    card = Card.from_index(cheat.known[faceup])
    signed = forced_act(cheat, Action(cheat.seat, "play", card), [proof_for(cheat, faceup)])
    error = rejected_everywhere(table, signed, cheat.seat, CheatDetected)
    assert "does not hold" in error.reason


def test_play_another_seats_card_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    other = next(s for s in table.seats if s is not cheat)
    position, card = next((p, c) for p, c in other.known.items() if other.owner[p] == other.seat)
    # It guesses the card right, but cannot prove it: it holds no key for that position.
    fake = (position, card, scalar_bytes(12345))
    signed = forced_act(cheat, Action(cheat.seat, "play", Card.from_index(card)), [fake])
    rejected_everywhere(table, signed, cheat.seat, CheatDetected)


def test_play_a_card_not_in_hand_with_own_proof_is_caught_at_once():
    table = paused()
    cheat = to_move(table)
    held = mine(cheat)
    position = next(iter(held.values()))
    claimed = next(c for c in range(40) if c not in held and c not in cheat.known.values())
    proof = (position, claimed, proof_for(cheat, position)[2])
    signed = forced_act(cheat, Action(cheat.seat, "play", Card.from_index(claimed)), [proof])
    error = rejected_everywhere(table, signed, cheat.seat, CheatDetected)
    assert "does not open to the card claimed" in error.reason


def test_unproven_card_is_refused_at_once():
    table = paused()
    cheat = to_move(table)
    card = Card.from_index(next(iter(mine(cheat))))
    signed = forced_act(cheat, Action(cheat.seat, "play", card), [])
    rejected_everywhere(table, signed, cheat.seat)


# --- (b) substituting or duplicating a card in the shuffle ---------------------------------


def test_duplicated_card_is_caught_at_once():
    sessions = seat_sessions(3, {1: Duplicator})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    with pytest.raises(CheatDetected) as caught:
        table.run(max_hands=1)
    assert caught.value.culprit == 1
    assert "same ciphertext" in caught.value.reason
    host = table.host.session
    assert caught.value.entry == len(host.transcript.entries)
    assert len(host.hand.shuffles) == 1  # seat 0's shuffle only: the duplicate never entered


def test_substituted_card_is_named_at_the_audit():
    # Three-player Briscola plays without the 2 of clubs: seat 0 slips it in for the ace of coins.
    game_cards = {c.index for c in make("briscola", 3).deck()}
    extra = next(c for c in range(40) if c not in game_cards)
    victim = Card("A", "D").index
    cls = type("Sub", (Substituter,), {"victim": victim, "extra": extra})
    sessions = seat_sessions(3, {0: cls})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3, 4), sessions=sessions)
    table.run(max_hands=1)
    culprit = assert_audit_names(table, 0, "phase-1 shuffle")
    host = table.host.session
    assert culprit.entry == host.hand.shuffles[0][2]
    # The hand itself ran to its end: nothing was visible before the audit.
    assert len(host.hand.reveals) == 3 and host.hand.moves


# --- (c) a wrong key share ---------------------------------------------------------------------


def test_wrong_private_key_share_stops_the_hand_and_the_audit_names_the_sender():
    sessions = seat_sessions(3, {2: type("W", (WrongShare,), {"victim": 0})})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    table.run(max_hands=1)
    victim, cheat = table.seats[0], table.seats[2]
    position = cheat.spoiled_position
    assert position not in victim.known  # the recipient cannot open that card
    assert "does not open" in victim._complaint
    host = table.host.session
    assert not [m for m in host.hand.moves]  # no card was played: the hand stopped
    culprit = assert_audit_names(table, 2, "wrong key share")
    assert culprit.entry == host.hand.share_entries[(0, 2)]
    # The recipient stopped the hand with cause: it is not blamed.
    assert all(c.seat != 0 for c in host.verdicts[-1].culprits)


def test_wrong_public_key_share_stops_the_hand_and_the_audit_names_the_sender():
    sessions = seat_sessions(2, {1: WrongPublicShare})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=sessions)
    table.run(max_hands=1)
    host = table.host.session
    assert host.faceup_pos not in host.known
    culprit = assert_audit_names(table, 1, "wrong key share")
    assert culprit.entry == host.hand.share_entries[(0, 1)]


def test_key_share_out_of_range_is_refused_naming_the_sender():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2))
    table.broadcast(table.host.open())
    for seat in table.seats:
        table.queue.extend(seat.start())
    host = table.host.session
    while host.phase != "deal":
        table.broadcast(table.host.submit(table.queue.popleft()))
    cheat = table.seats[0]
    step = host.hand.steps[0]
    honest = cheat._make_deal()
    zero = Shares(honest.hand, step.number, honest.sealed, tuple((p, bytes(32)) for p, _ in honest.public))
    assert zero.public  # the face-up card's share
    error = rejected_everywhere(table, sign_as(cheat, zero, seq=cheat.seq - 1), cheat.seat)  # in place of its queued one
    assert "out of range" in error.reason


# --- (d) reveals that do not match their commitments -------------------------------------------


def test_seed_reveal_not_matching_its_commitment_is_named_at_the_audit():
    sessions = seat_sessions(2, {1: BadReveal})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 2), sessions=sessions)
    table.run(max_hands=1)
    culprit = assert_audit_names(table, 1, "does not match its commitment")
    assert culprit.entry == table.host.session.hand.reveals[1][1]


def test_coin_reveal_not_matching_its_commitment_is_caught_at_once():
    sessions = seat_sessions(3, {2: BadCoin})
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3), sessions=sessions)
    with pytest.raises(CheatDetected) as caught:
        table.start()
    assert caught.value.culprit == 2
    assert "coin" in caught.value.reason


# --- (e) not following suit in Calabresella ----------------------------------------------------


def not_following_table(cheat: int = 1, seed: int = 0):
    """A Calabresella hand in which seat `cheat`, soloist in Solissimo, fails to follow suit once."""
    sessions = seat_sessions(3, {cheat: LaxSession})
    choosers = {}
    for s in range(3):
        if s == cheat:
            choosers[s] = scripted(seed + s, auction=pick("bid", contract="solissimo"),
                                   **{"raise": pick("raise", choice="none")}, play=off_suit)
        else:
            choosers[s] = scripted(seed + s, auction=pick("pass"))
    return LocalTable("calabresella", 3, {}, choosers=choosers, sessions=sessions)


def test_not_following_suit_is_named_at_the_audit():
    for seed in range(20):
        table = not_following_table(1, seed)
        table.run(max_hands=1)
        if getattr(table.seats[1], "cheated", False):
            break
    else:  # pragma: no cover
        pytest.fail("the cheater never had the chance")
    culprit = assert_audit_names(table, 1, "must follow suit")
    host = table.host.session
    entry, seat, kind, message = next(m for m in host.hand.moves if m[0] == culprit.entry)
    assert seat == 1 and message.action[0] == "play"
    # Nobody could tell during the hand: every card was played and every seat revealed.
    assert len(host.hand.reveals) == 3
    assert sum(1 for m in host.hand.moves if m[3].action[0] == "play") == 36


# --- (f) falsely denying the called card in a Chiamo -------------------------------------------


def test_false_denial_of_the_called_card_is_named_at_the_audit():
    denier, soloist = 2, 0
    sessions = seat_sessions(3, {denier: Denier})
    ref = {}

    def call(session):
        card = ref["table"].seats[denier].view.hands[denier][0]
        return next(a for a in session.legal_actions() if a.card == card)

    choosers = {
        s: scripted(s, auction=(pick("bid", contract="chiamo") if s == soloist else pick("pass")), call=call)
        for s in range(3)
    }
    table = LocalTable("calabresella", 3, {}, choosers=choosers, sessions=sessions)
    ref["table"] = table
    table.run(max_hands=1)
    culprit = assert_audit_names(table, denier, "falsely denied holding the called card")
    host = table.host.session
    entry, seat, kind, message = next(m for m in host.hand.moves if m[0] == culprit.entry)
    assert (seat, kind, message.proof) == (denier, "handover", None)


# --- (g) the Chiamata two rule ------------------------------------------------------------------


def two_rule_choosers(target):
    """Every seat passes, except the first that can abuse the two rule: it bids 2 and calls `target(hand)`."""
    state = {}

    def chooser(seat):
        fallback = random_chooser(seat)

        def choose(session):
            view = session.view
            if view.phase == "auction":
                if "cheat" not in state and target(view.hands[seat]) is not None:
                    state["cheat"] = seat
                    return Action(seat, "bid", rank="2")
                return Action(seat, "pass")
            if view.phase == "call":
                card = target(view.hands[seat])
                state["called"] = card
                return Action(seat, "call", card)
            return fallback(session)

        return choose

    return {s: chooser(s) for s in range(5)}, state


def test_two_rule_calling_a_held_trump_is_named_at_the_audit():
    """The caller holds the 2 and the 4 of a suit and calls the 4: nobody else can tell."""

    def target(hand):
        for suit in "DHSC":
            if Card("2", suit) in hand and Card("4", suit) in hand:
                return Card("4", suit)
        return None

    for attempt in range(8):
        choosers, state = two_rule_choosers(target)
        sessions = seat_sessions(5, {s: LaxSession for s in range(5)})
        table = LocalTable("chiamata", 5, {}, choosers=choosers, sessions=sessions)
        table.run(max_hands=12)
        if "cheat" in state:
            break
    else:  # pragma: no cover
        pytest.fail("no deal gave anybody the 2 and the 4 of a suit")
    caller = state["cheat"]
    culprit = assert_audit_names(table, caller, "two rule")
    host = table.host.session
    entry, seat, kind, message = next(m for m in host.hand.moves if m[0] == culprit.entry)
    assert seat == caller and message.action[0] == "call"


def test_two_rule_without_the_two_is_caught_at_once_by_the_holder_of_the_two():
    """Calling a low trump without the 2: the seat that holds that 2 knows, and names the caller."""

    def target(hand):
        for suit in "DHSC":
            if Card("2", suit) not in hand:
                low = next(Card(r, suit) for r in "4567" if Card(r, suit) not in hand)
                return low
        return None

    choosers, state = two_rule_choosers(target)
    sessions = seat_sessions(5, {s: LaxSession for s in range(5)})
    table = LocalTable("chiamata", 5, {}, choosers=choosers, sessions=sessions)
    with pytest.raises(CheatDetected) as caught:
        table.run(max_hands=3)
    caller = state["cheat"]
    assert caught.value.culprit == caller
    assert "two rule" in caught.value.reason
    called = state["called"]
    holder = next(s for s in table.seats if Card("2", called.suit) in s.view.hands[s.seat])
    assert holder.seat != caller


# --- (h) replayed, reordered and forged messages ---------------------------------------------


def test_replayed_message_is_rejected_naming_the_sender():
    table = paused()
    host = table.host
    last = Signed.decode(host.transcript.entries[-1].message)
    sender = table.seats[[s.seat for s in table.seats].index(_sender(last))]
    replay = last.encode()
    before = snapshot(host.session)
    with pytest.raises(RemoteProtocolError) as caught:
        host.submit(replay)
    assert caught.value.culprit == sender.seat
    assert "replayed" in caught.value.reason
    assert snapshot(host.session) == before
    # A host that relays the replay anyway is caught by every peer.
    for node in (*table.seats, *table.spectators):
        with pytest.raises(RemoteProtocolError) as at_peer:
            node.receive(entry_for(node, replay, table.host))
        assert "replayed" in at_peer.value.reason
        assert at_peer.value.culprit == "host"  # only the host can relay the same bytes twice


def _sender(signed):
    from protocol.transcript import parse_header

    return parse_header(signed.payload)[0].sender


def test_reordered_message_is_rejected_naming_the_sender():
    table = paused()
    seat = to_move(table)
    card = Card.from_index(next(iter(mine(seat))))
    later = sign_as(seat, Act(seat.hand.number, action_to_wire(Action(seat.seat, "play", card)), (), ()),
                    seq=seat.seq + 1)
    error = rejected_everywhere(table, later, seat.seat)
    assert "out-of-order" in error.reason


def test_forged_signature_is_rejected_naming_the_sender():
    table = paused()
    seat = to_move(table)
    position = next(iter(mine(seat).values()))
    honest = seat.act(Action(seat.seat, "play", Card.from_index(seat.known[position])))[0]
    seat._produced.clear()  # let the real move go out later
    signed = Signed.decode(honest)
    bad = Signed(signed.payload, bytes([signed.signature[0] ^ 1]) + signed.signature[1:]).encode()
    host = table.host
    with pytest.raises(RemoteProtocolError) as caught:
        host.submit(bad)
    assert caught.value.culprit == seat.seat
    # A peer given the forged entry blames the host that relayed it.
    other = next(s for s in table.seats if s is not seat)
    with pytest.raises(RemoteProtocolError) as at_peer:
        other.receive(entry_for(other, bad, table.host))
    assert at_peer.value.culprit == "host" and "bad message" in at_peer.value.reason
    # The genuine message still goes through.
    host.submit(honest)


def test_message_signed_with_another_key_is_rejected():
    table = paused()
    seat = to_move(table)
    card = Card.from_index(next(iter(mine(seat))))
    message = Act(seat.hand.number, action_to_wire(Action(seat.seat, "play", card)), (), ())
    forged = sign_as(seat, message, identity=Identity.generate())
    with pytest.raises(RemoteProtocolError) as caught:
        table.host.submit(forged)
    assert caught.value.culprit == seat.seat
    # Also one claiming to be the host.
    forged_host = sign_as(seat, message, sender=-1, identity=Identity.generate())
    with pytest.raises(RemoteProtocolError):
        table.host.submit(forged_host)


# --- (i) a host showing two peers different histories -------------------------------------------


def test_forked_history_is_detected():
    table = LocalTable("briscola", 3, {}, choosers=random_choosers(3))
    table.broadcast(table.host.open())
    for seat in table.seats:
        table.queue.extend(seat.start())
    host = table.host.session
    while host.phase != "commit" or len(table.queue) < 3:
        table.broadcast(table.host.submit(table.queue.popleft()))
    commits = list(table.queue)
    table.queue.clear()
    a, b, c = table.seats
    # The host shows seat 0 one order of the commits and everybody else another.
    for node, order in ((a, commits), (b, commits[::-1]), (c, commits[::-1])):
        out = []
        for signed in order:
            out += node.receive(entry_for(node, signed, table.host))
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
    mine, theirs = a.transcript.entries[index], b.transcript.entries[index]
    key, table_id = table.host.identity.public_bytes, table.host.table_id
    assert proves_fork(mine, theirs, key, table_id)
    assert not proves_fork(mine, mine, key, table_id)
    forged = Entry(theirs.index, theirs.prev, theirs.message, bytes(64))
    assert not proves_fork(mine, forged, key, table_id)  # a seat cannot frame the host


def test_entry_not_signed_by_the_host_is_refused():
    table = paused()
    node = table.seats[0]
    honest = Entry.decode(entry_for(node, sign_as(table.seats[1], kind="chat", body=[]), table.host))
    for signature in (b"", bytes(64), Identity.generate().sign(b"x")):
        before = snapshot(node)
        with pytest.raises(RemoteProtocolError) as caught:
            node.receive(Entry(honest.index, honest.prev, honest.message, signature).encode())
        assert caught.value.culprit == "host" and "not signed by the host" in caught.value.reason
        assert snapshot(node) == before


# --- stopping a hand without cause ----------------------------------------------------------


def test_stopping_the_hand_without_cause_is_named():
    sessions = seat_sessions(2, {1: Stopper})
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2), sessions=sessions)
    table.run(max_hands=1)
    culprit = assert_audit_names(table, 1, "stopped the hand without cause")
    assert culprit.entry == table.host.session.hand.reveals[1][1]
