"""Action labels (`engine.labels`): every legal action of every game round-trips.

Seeded random playouts of every game, player count and a spread of options
check, at every decision, every legal action (a random sample of the up to
1,820 Calabresella discards) on the full state and on the acting seat's own
view: `parse(label(a), a.seat, state) == a`, `label(parse(s, ...)) == s`,
distinct actions have distinct labels, and `labels(state)` lists them. Then
Hypothesis checks parsing without a state and that no text breaks `parse`,
and bad input is refused with a message a person can act on.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, BRISCOLA_ORDER, Card
from engine.games import make
from engine.labels import LabelError, label, labels, parse
from engine.state import CHANCE, PUBLIC, Action

SAMPLE = 40
"""Legal actions checked per state when there are more (Calabresella discards)."""


# --- playing ------------------------------------------------------------------


def redact(action: Action, need, seat: int) -> Action:
    """`action` as `seat` receives it (as in tests/test_views.py)."""
    if action.seat == CHANCE:
        if not action.cards:
            return action
        return Action(
            CHANCE,
            action.kind,
            cards=tuple(c if need.audiences[i] in (seat, PUBLIC) else None for i, c in enumerate(action.cards)),
        )
    if action.kind == "discard" and action.seat != seat:
        return Action(action.seat, "discard", cards=(None,) * len(action.cards))
    return action


def shape(text: str) -> str:
    """A label with its cards, ranks and numbers generalised: 'discard C C C C' -> 'discard C...'."""
    words = text.split()
    out = [words[0]]
    for word in words[1:]:
        if re.fullmatch(r"[A2-7JQK][DHSC]", word):
            word = "C"
        elif out[-1] == "bid" and len(word) == 1 and word in BRISCOLA_ORDER:
            word = "R"
        elif word.isdigit():
            word = "N"
        if not (word == "C" and out[-1] in ("C", "C...")):
            out.append(word)
        else:
            out[-1] = "C..."
    return " ".join(out)


def check_state(state, rng: random.Random) -> set[str]:
    """Every (sampled) legal action round-trips on `state`; returns their shapes."""
    legal = state.legal_actions()
    texts = [label(a) for a in legal]
    assert len(set(texts)) == len(texts), "two legal actions share a label"
    assert sorted(labels(state)) == sorted(texts)
    by_text = dict(zip(texts, legal))
    for text in rng.sample(texts, min(SAMPLE, len(texts))):
        action = by_text[text]
        assert parse(text, action.seat, state) == action
        assert label(parse(text, action.seat, state)) == text
        assert label(parse(text, action.seat)) == text
        # Forgiving: other case and spacing, cards in another order.
        words = text.split()
        head, cards = words[:1], words[1:]
        if action.kind in ("discard", "take"):
            rng.shuffle(cards)
        noisy = "  " + "   ".join(w.lower() if rng.random() < 0.5 else w for w in head + cards) + " "
        assert parse(noisy, action.seat, state) == action
    return {shape(t) for t in texts}


def playout(name: str, players: int, options: dict, seed: int, prefer=(), deal=None) -> set[str]:
    """Play a hand at random (taking the first `prefer`red label that is legal;
    `prefer` may be a function of the state) checking every decision on the full state and on the
    acting seat's view; returns the shapes seen."""
    game = make(name, players, options)
    rng = random.Random(seed)
    dealer = seed % players
    if deal is None:
        deck = game.deck()
        rng.shuffle(deck)
        deal = game.plan(dealer).deal(deck)
    full = game.new_hand(dealer, deal)
    public = bool(game.options.get("open_hands"))
    views = [game.new_hand(dealer, deal.redact(s, public_hands=public), viewer=s) for s in range(players)]
    shapes: set[str] = set()
    while not full.is_over():
        if full.current_player() == CHANCE:
            action, need = full.chance_outcome(), full.need()
            text = label(action)
            assert text.split()[0] == action.kind
            with pytest.raises(LabelError, match="dealt by the table"):
                parse(text, 0)
            shapes.add(shape(text))
        else:
            seat, need = full.current_player(), None
            shapes |= check_state(full, rng)
            check_state(views[seat], rng)
            assert labels(views[seat]) == labels(full)
            legal = labels(full)
            liked = prefer(full) if callable(prefer) else prefer
            wanted = [t for t in liked if t in legal]
            text = wanted[0] if wanted else rng.choice(legal)
            action = parse(text, seat, full)
        full.apply(action)
        for seat, view in enumerate(views):
            view.apply(redact(action, need, seat))
    return shapes


CONFIGS = [
    ("briscola", 2, {}),
    ("briscola", 3, {}),
    ("briscola", 4, {}),
    ("briscola", 6, {}),
    ("briscola", 2, {"trump_exchange": "7", "black_hand": True}),
    ("briscola", 3, {"trump_exchange": "2", "open_hands": True}),
    ("briscola", 4, {"trump_exchange": "2", "black_hand": True, "seven_second": True}),
    ("briscola", 6, {"trump_exchange": "7", "black_hand": True, "scoring": "game_points"}),
    ("chiamata", 5, {}),
    ("chiamata", 5, {"call": "at_least"}),
    ("chiamata", 5, {"auction": "points"}),
    ("calabresella", 3, {}),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, players, options", CONFIGS)
@pytest.mark.parametrize("seed", range(4))
def test_every_legal_action_round_trips(name, players, options, seed):
    playout(name, players, options, seed, prefer=("exchange",))


CALABRESELLA_ROUTES = [
    ("bid chiamo",),
    ("bid solo",),
    ("bid solissimo", "raise none"),
    ("bid solissimo", "raise dividete"),
    ("bid solissimo", "raise scegliete"),
]


@pytest.mark.slow
@pytest.mark.parametrize("prefer", CALABRESELLA_ROUTES, ids=" ".join)
@pytest.mark.parametrize("seed", range(3))
def test_every_calabresella_contract_round_trips(prefer, seed):
    playout("calabresella", 3, {}, seed, prefer=prefer)


def black_hand_deal(game, dealer: int):
    """A deal where seat dealer+1 holds A, 3 and K of trump (5D face up)."""
    plan = game.plan(dealer)
    seat = (dealer + 1) % game.players
    special = dict(zip(plan.hands[seat], [Card(r, "D") for r in "A3K"]))
    special[plan.faceup] = Card("5", "D")
    rest = [c for c in game.deck() if c not in special.values()]
    random.Random(dealer).shuffle(rest)
    return plan.deal([special[p] if p in special else rest.pop() for p in range(plan.size)])


@pytest.mark.slow
def test_every_kind_of_label_is_exercised():
    """The playouts reach every shape of player label the grammar has."""
    seen: set[str] = set()
    for seed in range(3):
        seen |= playout("briscola", 2, {"trump_exchange": "7"}, seed, prefer=("exchange",))
        seen |= playout("chiamata", 5, {}, seed, prefer=("bid 2", "bid 2 target 64"))
        seen |= playout("chiamata", 5, {"auction": "points"}, seed)
    for prefer in CALABRESELLA_ROUTES:
        seen |= playout("calabresella", 3, {}, 0, prefer=prefer)
    for own in (True, False):  # Chiamo calling the soloist's own card, then a defender's

        def prefer(state, own=own):
            if state.phase == "auction":
                return ["bid chiamo", "pass"]
            holders = [state.soloist] if own else list(state.defenders())
            return [f"call {c}" for s in holders for c in state.hands[s]]

        seen |= playout("calabresella", 3, {}, 1, prefer=prefer)
    game = make("briscola", 4, {"black_hand": True})
    seen |= playout("briscola", 4, {"black_hand": True}, 1, prefer=("declare",), deal=black_hand_deal(game, 1))
    expected = {
        "play C",
        "exchange",
        "declare",
        "pass",
        "bid R",
        "bid R target N",
        "bid target N",
        "bid chiamo",
        "bid solo",
        "bid solissimo",
        "call C",
        "return C",
        "discard C...",
        "raise none",
        "raise dividete",
        "raise scegliete",
        "take none",
        "take C",
        "take C...",
        # chance events, for logs
        "draw C...",
        "monte C...",
        "dividete C...",
        "handover C from N",
        "handover C none",
    }
    assert expected <= seen, expected - seen


# --- the grammar --------------------------------------------------------------

EXAMPLES = {
    "play 3S": Action(0, "play", Card.parse("3S")),
    "pass": Action(0, "pass"),
    "exchange": Action(0, "exchange"),
    "declare": Action(0, "declare"),
    "bid 2": Action(0, "bid", rank="2"),
    "bid K": Action(0, "bid", rank="K"),
    "bid 2 target 71": Action(0, "bid", rank="2", target=71),
    "bid target 71": Action(0, "bid", target=71),
    "bid chiamo": Action(0, "bid", contract="chiamo"),
    "bid solo": Action(0, "bid", contract="solo"),
    "bid solissimo": Action(0, "bid", contract="solissimo"),
    "call KD": Action(0, "call", Card.parse("KD")),
    "return 5S": Action(0, "return", Card.parse("5S")),
    "discard JH QS 4C 5C": Action(0, "discard", cards=tuple(map(Card.parse, ["JH", "QS", "4C", "5C"]))),
    "raise none": Action(0, "raise", choice="none"),
    "raise dividete": Action(0, "raise", choice="dividete"),
    "raise scegliete": Action(0, "raise", choice="scegliete"),
    "take 4C 5C": Action(0, "take", cards=(Card.parse("4C"), Card.parse("5C"))),
    "take none": Action(0, "take"),
}


@pytest.mark.parametrize("text", EXAMPLES)
def test_the_documented_examples(text):
    assert parse(text, 0) == EXAMPLES[text]
    assert label(EXAMPLES[text]) == text


def test_forgiving_spellings():
    assert parse("  PLAY   3s ", 2) == Action(2, "play", Card.parse("3S"))
    assert parse("play 3♠", 1) == Action(1, "play", Card.parse("3S"))
    assert parse("Bid k", 0) == Action(0, "bid", rank="K")
    assert parse("bid 75", 0) == Action(0, "bid", target=75)
    assert parse("BID 2 TARGET 80", 0) == Action(0, "bid", rank="2", target=80)
    assert parse("discard 5c qs 4C jh", 0) == EXAMPLES["discard JH QS 4C 5C"]
    assert label(parse("discard 5c qs 4C jh", 0)) == "discard JH QS 4C 5C"
    assert parse("take NONE", 0) == Action(0, "take")


def test_chance_labels():
    c = Card.parse
    assert label(Action(CHANCE, "draw", cards=(c("3S"), None, c("KD")))) == "draw 3S ?? KD"
    assert label(Action(CHANCE, "monte", cards=(c("5C"), c("4C"), c("JH"), c("QS")))) == "monte 5C 4C JH QS"
    assert label(Action(CHANCE, "dividete", cards=(None,) * 4)) == "dividete ?? ?? ?? ??"
    assert label(Action(CHANCE, "handover", card=c("KD"), holder=2)) == "handover KD from 2"
    assert label(Action(CHANCE, "handover", card=c("KD"))) == "handover KD none"
    # A face-down discard seen from another seat.
    assert label(Action(1, "discard", cards=(None, None))) == "discard ?? ??"


def test_unknown_kind_has_no_label():
    with pytest.raises(LabelError, match="no label"):
        label(Action(0, "jump"))


# --- properties without a state -------------------------------------------------

cards = st.sampled_from(ALL_CARDS)
card_sets = st.lists(cards, max_size=5, unique=True).map(lambda cs: tuple(sorted(cs)))
player_actions = st.builds(
    lambda seat, make_action: make_action(seat),
    st.integers(0, 5),
    st.one_of(
        st.builds(lambda k, c: lambda s: Action(s, k, card=c), st.sampled_from(["play", "call", "return"]), cards),
        st.sampled_from(["pass", "exchange", "declare"]).map(lambda k: lambda s: Action(s, k)),
        st.sampled_from(BRISCOLA_ORDER).map(lambda r: lambda s: Action(s, "bid", rank=r)),
        st.integers(61, 120).map(lambda t: lambda s: Action(s, "bid", rank="2", target=t)),
        st.integers(61, 120).map(lambda t: lambda s: Action(s, "bid", target=t)),
        st.sampled_from(["chiamo", "solo", "solissimo"]).map(lambda c: lambda s: Action(s, "bid", contract=c)),
        st.sampled_from(["none", "dividete", "scegliete"]).map(lambda c: lambda s: Action(s, "raise", choice=c)),
        st.builds(lambda k, cs: lambda s: Action(s, k, cards=cs), st.sampled_from(["discard", "take"]), card_sets),
    ),
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(action=player_actions)
def test_any_player_action_round_trips_without_a_state(action):
    text = label(action)
    assert parse(text, action.seat) == action
    assert label(parse(text, action.seat)) == text
    assert parse(text.lower(), action.seat) == action


words = st.sampled_from(
    [
        "play",
        "bid",
        "target",
        "discard",
        "take",
        "raise",
        "none",
        "solo",
        "3S",
        "KD",
        "2",
        "75",
        "130",
        "ZZ",
        "??",
        "dividete",
        "pass",
        "♠",
        "-1",
        "0x10",
        "½",
        "٧٥",
    ]
)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(st.text(max_size=30), st.lists(words, max_size=6).map(" ".join)))
def test_no_text_breaks_parse(text):
    """Any text is an action or a LabelError, never another exception."""
    game = make("chiamata", 5)
    state = game.new_hand(0, game.plan(0).deal(list(game.deck())))
    for given_state in (None, state):
        try:
            action = parse(text, 1, given_state)
        except LabelError as error:
            assert str(error)
        else:
            assert label(parse(label(action), 1)) == label(action)


# --- bad input ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("play ZZ", r"no such card 'ZZ'; cards are written rank then suit, e\.g\. 3S, KD"),
        ("play 10D", r"no such card '10D'"),
        ("discard 4C 5C JH Q", r"no such card 'Q'"),
        ("discard 4C 4c", r"4C is named twice"),
        ("play", r"play takes one card, e\.g\. 'play 3S'"),
        ("play 3S 4S", r"play takes one card"),
        ("pass 3S", r"'pass' takes nothing after it"),
        ("", r"no action given"),
        ("   ", r"no action given"),
        ("jump 3S", r"unknown action 'jump'; actions are play, pass, bid"),
        ("solo", r"did you mean 'bid solo'"),
        ("dividete", r"dealt by the table.*did you mean 'raise dividete'"),
        ("draw 3S 4S", r"dealt by the table"),
        ("bid", r"no such bid 'nothing'; a bid is a rank"),
        ("bid tutto", r"no such bid 'tutto'"),
        ("bid 2 target 130", r"a target is a whole number from 61 to 120, not '130'"),
        ("bid target x", r"a target is a whole number from 61 to 120"),
        ("bid 10", r"from 61 to 120, not '10'"),
        ("bid K target 80", r"only the 2 is bid with a target"),
        ("raise maybe", r"no such raise 'maybe'; after Solissimo write raise none, raise dividete"),
        ("take", r"take needs its cards, e\.g\. 'take 4C 5C' \(or 'take none'\)"),
    ],
)
def test_bad_input_says_what_to_write(text, message):
    with pytest.raises(LabelError, match=message):
        parse(text, 0)


def test_a_label_error_is_a_value_error():
    assert issubclass(LabelError, ValueError)
    with pytest.raises(ValueError):
        parse(None, 0)  # type: ignore[arg-type]


def briscola_state(seed: int = 0):
    game = make("briscola", 2)
    deck = game.deck()
    random.Random(seed).shuffle(deck)
    return game.new_hand(0, game.plan(0).deal(deck))


def test_an_illegal_action_names_the_rule_and_lists_legal_ones():
    state = briscola_state()
    hand = state.hands[1]
    other = next(c for c in ALL_CARDS if c not in hand)
    with pytest.raises(LabelError) as caught:
        parse(f"play {other}", 1, state)
    message = str(caught.value)
    assert f"'play {other}' is not a legal action now" in message
    assert "does not hold it" in message  # the engine's reason
    assert "legal: " + ", ".join(f"play {c}" for c in sorted(hand)) in message
    with pytest.raises(LabelError, match=r"not a legal action now.*legal: play"):
        parse("declare", 1, state)


def test_out_of_turn_and_over():
    state = briscola_state()
    with pytest.raises(LabelError, match="it is seat 1's turn, not seat 0's"):
        parse("play 3S", 0, state)
    while not state.is_over():
        if state.current_player() == CHANCE:
            with pytest.raises(LabelError, match="cards are being dealt"):
                parse("play 3S", 0, state)
            state.apply(state.chance_outcome())
        else:
            state.apply(state.legal_actions()[0])
    with pytest.raises(LabelError, match="the hand is over"):
        parse("play 3S", 0, state)
    assert labels(state) == []


def test_a_long_list_of_legal_labels_is_cut_short():
    game = make("chiamata", 5, {"auction": "points"})
    state = game.new_hand(0, game.plan(0).deal(list(game.deck())))
    with pytest.raises(LabelError, match=r"legal: pass, bid target 61, .*, \.\.\. \(61 in all\)"):
        parse("bid K", 1, state)


# --- ordering and resolving ---------------------------------------------------


def test_plays_are_listed_by_suit_then_rank():
    state = briscola_state(3)
    assert labels(state) == [f"play {c}" for c in sorted(state.hands[1])]
    assert [str(c) for c in sorted(Card.parse(t) for t in ("KC", "AD", "3S", "2D", "JH"))] == [
        "AD",
        "2D",
        "JH",
        "3S",
        "KC",
    ]


def test_auction_labels_keep_the_rule_book_order():
    game = make("chiamata", 5)
    state = game.new_hand(0, game.plan(0).deal(list(game.deck())))
    assert labels(state) == ["pass"] + [f"bid {r}" for r in BRISCOLA_ORDER]
    game = make("calabresella", 3)
    state = game.new_hand(0, game.plan(0).deal(list(game.deck())))
    assert labels(state) == ["pass", "bid chiamo", "bid solo", "bid solissimo"]


def calabresella_at(phase_prefer: tuple, seed: int = 5):
    """A full Calabresella state driven by labels until a decision outside `phase_prefer`."""
    game = make("calabresella", 3)
    deck = game.deck()
    random.Random(seed).shuffle(deck)
    state = game.new_hand(0, game.plan(0).deal(deck))
    for text in phase_prefer:
        while state.current_player() == CHANCE:
            state.apply(state.chance_outcome())
        state.apply(parse(text, state.current_player(), state))
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcome())
    return state


def test_a_discard_in_any_order_is_the_legal_discard():
    state = calabresella_at(("bid solo", "pass", "pass"))
    assert state.phase == "discard"
    hand = sorted(state.hands[1])
    assert len(state.legal_actions()) == 1820
    chosen = [hand[9], hand[0], hand[15], hand[4]]
    text = "discard " + " ".join(str(c).lower() for c in chosen)
    action = parse(text, 1, state)
    assert action in state.legal_actions()
    assert label(action) == "discard " + " ".join(str(c) for c in sorted(chosen))
    with pytest.raises(LabelError, match="must discard 4 cards, not 3"):
        parse("discard " + " ".join(map(str, chosen[:3])), 1, state)


def test_a_take_resolves_to_the_legal_take_in_monte_order():
    state = calabresella_at(("bid solissimo", "raise scegliete"))
    assert state.phase == "take"
    monte = list(state.monte)
    taken = (monte[3], monte[1])
    action = parse(f"take {taken[0]} {taken[1]}", state.current_player(), state)
    assert action.cards == (monte[1], monte[3])  # as legal_actions lists it
    assert action in state.legal_actions()
    assert parse("take none", state.current_player(), state).cards == ()
    assert labels(state)[0] == "take none" and len(labels(state)) == 16
