"""Whole tables in memory: every game and player count, with a spectator.

Every node (each seat, the spectator, the host) must end with the same
transcript, the same head, the same series scores, and every hand's audit
must pass; the series scores must be the sum of the audited outcomes.
"""

from __future__ import annotations

import secrets

import pytest
from helpers.cheaters import SeededSeat, deal_order, pick, random_choosers, scripted

from engine.cards import Card
from engine.games import make
from protocol.identity import Identity
from protocol.local import LocalTable
from protocol.messages import from_body
from protocol.transcript import Entry, Signed, parse_header


def nodes_of(table: LocalTable):
    return [*table.seats, *table.spectators, table.host.session]


def moves(table: LocalTable) -> list[tuple[int, str, tuple]]:
    """(sender, kind, body) of every entry of the table's transcript."""
    out = []
    for data in table.entries:
        header, body = parse_header(Signed.decode(Entry.decode(data).message).payload)
        out.append((header.sender, header.kind, from_body(header.kind, body)))
    return out


def acts(table: LocalTable) -> list[tuple[int, tuple]]:
    return [(sender, msg.action) for sender, kind, msg in moves(table) if kind == "act"]


def check_agreement(table: LocalTable, min_hands: int = 1) -> list:
    """All nodes agree; every verdict ok; scores = sum of audited outcomes. Returns the host's verdicts."""
    nodes = nodes_of(table)
    host = table.host.session
    assert len(host.verdicts) >= min_hands
    for node in nodes:
        assert node.transcript.head == host.transcript.head, node
        assert [e.encode() for e in node.transcript.entries] == table.entries, node
        assert node.series.scores == host.series.scores, node
        assert node.series.dealer == host.series.dealer, node
        assert node.phase == host.phase, node
        assert len(node.verdicts) == len(host.verdicts), node
        assert all(v.ok for v in node.verdicts), [str(v) for v in node.verdicts]
        assert [o.score for o in node.outcomes] == [v.outcome.score for v in host.verdicts]
        assert [o.result for o in node.outcomes] == [v.outcome.result for v in host.verdicts]
        total = [0] * table.host.session.players
        for outcome in node.outcomes:
            if not outcome.result.redeal:
                total = [a + b for a, b in zip(total, outcome.score)]
        assert node.series.scores == total
    return host.verdicts


def run(game, players, options=None, choosers=None, max_hands=None, spectators=1, sessions=None):
    table = LocalTable(
        game,
        players,
        options or {},
        choosers=choosers or random_choosers(players, 7),
        spectators=spectators,
        sessions=sessions,
    )
    table.run(max_hands=max_hands)
    return table


@pytest.mark.slow
def test_briscola_two_players_whole_match():
    table = run("briscola", 2, {"match": 2})
    check_agreement(table, 2)
    host = table.host.session
    assert host.phase == "over" and host.series.is_over()
    assert max(host.series.scores) == 2
    assert all(node.series.winners() == host.series.winners() for node in nodes_of(table))


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 6])
def test_briscola_more_players(players):
    table = run("briscola", players, max_hands=2, spectators=2)
    verdicts = check_agreement(table, 2)
    for v in verdicts:
        assert v.outcome.complete
        assert sum(v.outcome.result.side_points) == 120


@pytest.mark.slow
def test_chiamata_five_players():
    table = run("chiamata", 5, {"series_hands": 2}, max_hands=6)
    verdicts = check_agreement(table, 2)
    scored = [v for v in verdicts if not v.outcome.result.redeal]
    for v in scored:
        assert sum(v.outcome.score) == 0
        assert sum(v.outcome.points) == 120


@pytest.mark.slow
def test_calabresella_whole_series():
    table = run("calabresella", 3, {"series_hands": 2}, max_hands=8)
    verdicts = check_agreement(table, 2)
    assert table.host.session.phase == "over"
    for v in verdicts:
        assert sum(v.outcome.score) == 0


@pytest.mark.slow
@pytest.mark.parametrize("rank", ["2", "7"])
def test_briscola_trump_exchange(rank):
    prefer = pick("exchange")
    choosers = {s: scripted(s, play=prefer) for s in range(2)}
    table = run("briscola", 2, {"trump_exchange": rank, "match": 5}, choosers, max_hands=4)
    check_agreement(table, 1)
    exchanges = [a for _, a in acts(table) if a[0] == "exchange"]
    assert exchanges, "nobody exchanged in four hands"


@pytest.mark.slow
def test_briscola_open_hands_four_players():
    table = LocalTable("briscola", 4, {"open_hands": True}, choosers=random_choosers(4, 3))
    table.start()
    spectator, host = table.spectators[0], table.host.session
    # Every hand is dealt face up: the spectator and the host see all of them.
    for seat in table.seats:
        hand = set(seat.view.hands[seat.seat])
        assert len(hand) == 3
        assert hand <= spectator.known_cards() and hand <= host.known_cards()
        assert set(spectator.view.hands[seat.seat]) == hand
    # ... and the top of the stock is visible before every draw, to everyone.
    tops = 0
    while not host.verdicts:
        for node in (*table.seats, spectator):
            view = node.view
            if node.phase == "play" and view.drawn < len(view.stock):
                assert view.stock[view.drawn] is not None
                assert not any(view.unknown)
                tops += 1
        table.decide()
        table.pump()
    assert tops > 0
    check_agreement(table, 1)


@pytest.mark.slow
def test_briscola_black_hand():
    """Seeds arranged so one seat is dealt A, 3, K of trump; it declares at once and wins the hand."""
    game = make("briscola", 2, {"black_hand": True})
    first = secrets.token_bytes(32)
    for _ in range(200_000):
        second = secrets.token_bytes(32)
        order = deal_order(game, [first, second])
        trump = Card.from_index(order[6]).suit
        want = {Card(r, trump).index for r in "A3K"}
        if {order[0], order[2], order[4]} == want or {order[1], order[3], order[5]} == want:
            break
    else:  # pragma: no cover
        pytest.fail("no arranged deal found")

    sessions = {}
    for seat, seed in enumerate([first, second]):
        cls = type(f"Seat{seat}", (SeededSeat,), {"seeds": [seed]})
        sessions[seat] = cls(seat, Identity.generate(), f"seat {seat}")
    choosers = {s: scripted(s, play=pick("declare")) for s in range(2)}
    table = run("briscola", 2, {"black_hand": True}, choosers, max_hands=1, sessions=sessions)
    verdicts = check_agreement(table, 1)
    outcome = verdicts[0].outcome
    declarer = outcome.result.black_hand
    assert declarer is not None
    assert outcome.score[declarer] == 1 and sum(outcome.score) == 1
    assert [a[0] for _, a in acts(table)][-1] == "declare"


def _calabresella(contract, choice=None, seed=3, call=None, soloist_seat=None):
    """Choosers for a Calabresella hand that reaches `contract` (and `choice` after Solissimo)."""
    holder = {}

    def auction(view):
        if soloist_seat is not None and view.seat != soloist_seat:
            return pick("pass")(view)
        return pick("bid", contract=contract)(view) or pick("pass")(view)

    rules = {"auction": auction}
    if choice:
        rules["raise"] = pick("raise", choice=choice)
    if call:
        rules["call"] = lambda view: call(view, holder)
    return {s: scripted(seed + s, **rules) for s in range(3)}, holder


def _calabresella_verdict(table):
    verdicts = check_agreement(table, 1)
    return verdicts[0].outcome.result


def test_calabresella_chiamo_with_handover():
    table_ref = {}

    def call(view, holder):
        # Call a card a defender holds (the chooser peeks; the protocol does not).
        for other in table_ref["table"].seats:
            if other.seat != view.seat:
                card = other.view.hands[other.seat][0]
                holder["seat"] = other.seat
                return next(a for a in view.legal if a.card == card)

    choosers, holder = _calabresella("chiamo", call=call, soloist_seat=1)
    table = LocalTable("calabresella", 3, {}, choosers=choosers)
    table_ref["table"] = table
    table.run(max_hands=1)
    result = _calabresella_verdict(table)
    assert result.contract == "chiamo" and result.soloist == 1
    kinds = [(s, k, m) for s, k, m in moves(table) if k == "handover"]
    assert len(kinds) == 2
    shown = [s for s, _, m in kinds if m.proof is not None]
    assert shown == [holder["seat"]]
    returned = [a for s, a in acts(table) if a[0] == "return"]
    assert len(returned) == 1


@pytest.mark.slow
def test_calabresella_chiamo_called_card_in_monte():
    table_ref = {}

    def call(view, holder):
        held = {c for other in table_ref["table"].seats for c in other.view.hands[other.seat]}
        return next(a for a in view.legal if a.card not in held)

    choosers, _ = _calabresella("chiamo", call=call, soloist_seat=2)
    table = LocalTable("calabresella", 3, {}, choosers=choosers)
    table_ref["table"] = table
    table.run(max_hands=1)
    result = _calabresella_verdict(table)
    assert result.contract == "chiamo"
    assert all(m.proof is None for _, k, m in moves(table) if k == "handover")
    assert not [a for _, a in acts(table) if a[0] == "return"]


@pytest.mark.parametrize(
    "contract, choice", [("solo", None), ("solissimo", "none"), ("solissimo", "dividete"), ("solissimo", "scegliete")]
)
@pytest.mark.slow
def test_calabresella_contracts(contract, choice):
    choosers, _ = _calabresella(contract, choice, soloist_seat=0)
    table = LocalTable("calabresella", 3, {}, choosers=choosers, spectators=1)
    table.run(max_hands=1)
    result = _calabresella_verdict(table)
    assert result.contract == contract and result.soloist == 0
    if choice:
        assert result.raised == choice
    kinds = [a[0] for _, a in acts(table)]
    if contract == "solo" or choice == "scegliete":
        assert "discard" in kinds
    if choice == "scegliete":
        assert "take" in kinds
    if choice == "dividete":
        assert kinds.count("discard") == 2


@pytest.mark.slow
def test_calabresella_all_pass_redeals():
    choosers = {s: scripted(s, auction=pick("pass")) for s in range(3)}
    table = LocalTable("calabresella", 3, {}, choosers=choosers)
    table.run(max_hands=2)
    verdicts = check_agreement(table, 2)
    assert all(v.outcome.result.json() == {"redeal": True} for v in verdicts)
    assert table.host.session.series.scores == [0, 0, 0]
    assert table.host.session.series.hands_scored == 0
