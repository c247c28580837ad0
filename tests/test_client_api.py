"""What a client stands on: events, the seat's view, computer players.

- Events: every node tells the same story; a seat hears its own cards, a
  spectator only what is public; `briscola selfplay` prints one line each.
- The view: a computer player is handed a `SeatView` holding no secret and
  no other seat's hidden card, and nothing it does to it changes the table.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers.cheaters import random_choosers

from briscola_tui.cli import main
from briscola_tui.render import render
from engine.cards import Card
from engine.labels import parse
from engine.state import State
from engine.view import SeatView
from protocol import events
from protocol.local import LocalTable
from protocol.session import TableSession

TABLES = [("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)]
PRIVATE = ("dealt", "draw", "discard", "monte", "dividete", "secret")
"""Kinds whose text depends on what the node may see."""
KINDS = {
    events.Dealt: "dealt",
    events.DealtSizes: "dealt",  # a seat is dealt its cards where a spectator hears how many
    events.FaceUp: "dealt",
    events.Drawn: "draw",
    events.MonteShown: "monte",
    events.MonteDivided: "dividete",
    events.SecretRole: "secret",
    events.HandBegins: "hand",
    events.TrickTaken: "trick",
    events.HandScored: "verdict",
    events.HandVoid: "verdict",
}


def kind(event) -> str:
    """An event's kind in a word: a decision's own kind, or its class's."""
    if isinstance(event, events.Acted):
        return event.action.kind
    return KINDS.get(type(event), type(event).__name__)


def seat(event) -> int | None:
    """Who the event is about, where it is about one seat."""
    return getattr(event, "seat", None)


def story(table) -> dict:
    """Every node's events as (kind, seat, text), from the whole run."""
    told: dict = {id(node): [] for node in table.nodes}

    def listen(node, event):
        told[id(node)].append((kind(event), seat(event), render(event)))

    table.on_event = listen
    return told


@pytest.mark.slow
@pytest.mark.parametrize("game, players", TABLES)
def test_every_node_tells_the_same_story(game, players):
    table = LocalTable(game, players, {}, choosers=random_choosers(players, 5), spectators=2)
    told = story(table)
    table.run(max_hands=2)
    public = [[e for e in told[id(node)] if e[0] not in PRIVATE] for node in table.nodes]
    host = [(kind(e), seat(e), render(e)) for e in table.host.events if kind(e) not in PRIVATE]
    for heard in public:
        assert heard == host
    kinds = {kind for kind, _, _ in host}
    assert {"hand", "play", "trick", "verdict"} <= kinds
    # The same private events too, but for what only one seat may know: only what they say differs.
    counts = {tuple(k for k, _, _ in told[id(node)] if k != "secret") for node in table.nodes}
    assert len(counts) == 1


@pytest.mark.slow
@pytest.mark.parametrize("game, players", TABLES)
def test_a_seat_hears_its_own_cards_and_a_spectator_hears_none(game, players):
    table = LocalTable(game, players, {}, choosers=random_choosers(players, 6))
    told = story(table)
    table.run(max_hands=1)
    deal = table.host.session.verdicts[0].deal
    for seat in table.seats:
        (dealt,) = [e for e in told[id(seat)] if e[0] == "dealt" and e[1] == seat.seat]
        assert dealt[2] == "you are dealt " + " ".join(map(str, sorted(deal.hands[seat.seat])))
    spectator = table.spectators[0]
    for kind, _, text in told[id(spectator)]:
        if kind == "dealt":
            assert "you are dealt" not in text


@pytest.mark.slow
def test_selfplay_prints_each_event_as_a_line_with_labels(capsys):
    assert main(["selfplay", "--game", "chiamata", "--seed", "3", "--hands", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [line.strip().split(": ", 1) for line in lines if line.startswith("  seat ") and ": " in line]
    plays = [(who, text) for who, text in moves if text.split()[0] in ("play", "bid", "pass", "call")]
    assert len([1 for _, text in plays if text.startswith("play")]) == 40
    for who, text in plays:
        seat = int(who.split()[1])
        assert parse(text, seat).seat == seat  # every move line is an action label
    assert any("takes the trick" in line for line in lines)
    assert any(line.strip().startswith("hand 1:") for line in lines)


def test_quiet_selfplay_prints_only_the_hands(capsys):
    assert main(["selfplay", "--seed", "3", "--hands", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "takes the trick" not in out and "hand 1:" in out


# --- the view a computer player is given --------------------------------------------------


def walk(value, seen=None):
    """Every value reachable from a view's fields (not into the engine state copy)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name != "_state":
                yield from walk(getattr(value, f.name), seen)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from walk(k, seen)
            yield from walk(v, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from walk(v, seen)


@pytest.mark.parametrize("game, players", TABLES)
def test_a_player_is_given_a_view_with_no_secret_and_no_hidden_card(game, players):
    checked = []

    def make_player(seat_number):
        rng = random.Random(seat_number)

        def player(view, table_rng):
            assert isinstance(view, SeatView) and isinstance(table_rng, random.Random)
            session = table.seats[seat_number]
            public = table.host.session.known_cards()  # what every node has seen opened
            mine = set(session.view.hands[seat_number])
            values = list(walk(view))
            assert not any(isinstance(v, (bytes, bytearray, TableSession)) for v in values)
            assert not any(type(v).__name__ in ("SeatSecrets", "Identity", "X25519PrivateKey") for v in values)
            # Every card the view holds is one this seat has seen (the legal actions
            # may name others: a card to call is a choice, not knowledge).
            seen_cards = {v for v in walk(dataclasses.replace(view, legal=())) if isinstance(v, Card)}
            assert seen_cards <= session.known_cards() | {view.called}  # its own cards, ever, and public ones
            assert all(a.card in mine for a in view.legal if a.kind == "play")
            for other, hand in enumerate(view.known_hands):
                if other != seat_number:
                    assert set(hand) <= public
            state = view.state
            assert isinstance(state, State) and state.viewer == seat_number
            for other in range(players):
                if other != seat_number:
                    assert set(state.hands[other]) <= public
            state.hands[seat_number].clear()  # the player's copy: the table is not touched
            assert set(session.view.hands[seat_number]) == mine
            checked.append(seat_number)
            return rng.choice(view.legal)

        return player

    table = LocalTable(game, players, {}, choosers={s: make_player(s) for s in range(players)})
    table.run(max_hands=1)
    assert table.host.session.verdicts[0].ok
    assert set(checked) == set(range(players))


def test_the_view_says_whose_turn_what_is_awaited_and_the_last_hand():
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 8))
    table.start()
    seat = next(s for s in table.seats if s.my_turn())
    view = seat.seat_view()
    assert view.turn == seat.seat and view.legal and view.awaited == {seat.seat: "act"}
    assert len(view.hand) == 3 and view.stock == 33 and view.faceup is not None and view.trump == view.faceup.suit
    assert view.roles[view.dealer] == ("dealer",)
    other = next(s for s in table.seats if s is not seat).seat_view()
    assert not other.legal and other.turn == seat.seat
    table.play(max_hands=1)
    last = table.seats[0].seat_view().last_hand
    assert last.ok and last.number == 0 and last.deal is not None
    assert sum(len(h) for h in last.deal.hands) + len(last.deal.stock) + 1 == 40


@pytest.mark.parametrize("game, players", [("chiamata", 5), ("calabresella", 3)])
def test_only_a_chiamata_call_makes_the_holder_a_secret_partner(game, players):
    # In Calabresella the holder of the called card hands it over face up and stays a defender.
    from engine.games import make
    from protocol.events import action_events

    rules = make(game, players, {})
    deck = rules.deck()
    random.Random(3).shuffle(deck)
    deal = rules.plan(0).deal(list(deck))
    caller = 1
    views = [rules.new_hand(0, deal.redact(s), viewer=s) for s in range(players)]
    full = rules.new_hand(0, deal)
    while full.phase == "auction":  # the caller bids, everyone else passes
        seat = full.current_player()
        choice = next(a for a in full.legal_actions() if (a.kind == "bid") == (seat == caller))
        for state in (full, *views):
            state.apply(choice)
    assert full.current_player() == caller and full.phase == "call"
    call = next(
        a
        for a in full.legal_actions()
        if a.kind == "call" and a.card not in deal.hands[caller] and any(a.card in hand for hand in deal.hands)
    )
    holder = next(seat for seat, hand in enumerate(deal.hands) if call.card in hand)
    before = views[holder].clone()
    views[holder].apply(call)
    texts = [render(e) for e in action_events(before, views[holder], call)]
    partner = "you hold the called card: you are the caller's partner, and nobody else knows"
    assert (partner in texts) == (game == "chiamata"), texts
