"""Short human labels for actions, and the parser that reads them back.

One action is one line of words; cards are written as `str(card)` (`3S`,
`KD`) and the cards of a discard or a take in the order `Card` sorts (suit
D H S C, then rank A 2 3 4 5 6 7 J Q K), so `label(parse(s, seat)) == s` for
every label `label` writes. Player actions:

    play 3S                  a card to the trick
    exchange                 Briscola: the 2 (or 7) of trump for the face-up card
    declare                  Briscola: a black hand
    pass                     Chiamata, Calabresella auctions
    bid K                    Chiamata rank auction: a rank (A 3 K Q J 7 6 5 4 2)
    bid 2 target 75          Chiamata: the 2 with a target (62..120)
    bid target 75            Chiamata points auction (61..120); `bid 75` is read too
    bid solo                 Calabresella: chiamo, solo, solissimo
    call KD                  Chiamata, Calabresella Chiamo
    return 5S                Calabresella: the card returned to the defender
    discard JH QS 4C 5C      Calabresella: the cards discarded face down
    raise dividete           Calabresella after Solissimo: none, dividete, scegliete
    take 4C 5C               Calabresella scegliete: the monte cards taken (`take none`)

Chance events get labels for logs (`parse` does not read them; `??` is a
card the viewer may not see): `draw 3S ?? KD` (one card per seat, trick
winner first), `monte 4C 5C JH QS` and `dividete 4C 5C JH QS` (in monte
order), `handover KD from 2` or `handover KD none`.

`parse` ignores case and extra spaces, and reads suit glyphs (`3♠`); any
other unknown word or card raises `LabelError` saying what is expected. With
a `state` it returns the matching legal action (a discard in any order is the
legal discard), or says why the action is not legal now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .cards import BRISCOLA_ORDER, SUIT_GLYPHS, Card
from .coded import CodedError
from .games.calabresella import CONTRACTS, RAISES
from .state import CHANCE, TERMINAL, Action, ActionKind, IllegalAction, Refusal, State

__all__ = ["LabelError", "label", "labels", "parse"]


class LabelError(CodedError):
    """Text that is not an action (or not a legal one now); the message says what to write (a
    template and its fields: the product writes it in the player's language). `refusal`: the
    rule an action that is not legal now breaks, when the rules name one."""

    refusal: Refusal | None = None


CARD_KINDS: tuple[ActionKind, ...] = ("play", "call", "return")
CARDS_KINDS: tuple[ActionKind, ...] = ("discard", "take")
BARE_KINDS: tuple[ActionKind, ...] = ("pass", "exchange", "declare")
KINDS: tuple[ActionKind, ...] = (
    "play",
    "pass",
    "bid",
    "call",
    "exchange",
    "declare",
    "return",
    "discard",
    "raise",
    "take",
)
CHANCE_KINDS: tuple[ActionKind, ...] = ("draw", "monte", "dividete", "handover")
HINTS = {
    "dividete": "raise dividete",
    "scegliete": "raise scegliete",
    "chiamo": "bid chiamo",
    "solo": "bid solo",
    "solissimo": "bid solissimo",
}
"""What a player probably meant by a lone word that is not an action."""

CARD_HELP = (
    "no such card '{word}'; cards are written rank then suit, e.g. 3S, KD (ranks A 2 3 4 5 6 7 J Q K, suits D H S C)"
)
BID_HELP = (
    "no such bid '{given}'; a bid is a rank (bid K), the 2 with a target (bid 2 target 75), a target "
    "(bid target 75) or a contract (bid chiamo, bid solo, bid solissimo)"
)
LOW, HIGH = 61, 120
"""The range of a target."""
SHOWN = 8
"""Legal labels quoted in an error."""

_GLYPHS = str.maketrans({glyph: suit for suit, glyph in SUIT_GLYPHS.items()})


# --- writing ------------------------------------------------------------------


def _card_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


def _sorted(cards: Iterable[Card | None]) -> list[Card | None]:
    """Cards in `Card` order, unknown (None) ones last."""
    return sorted(cards, key=lambda c: 40 if c is None else c.index)


def label(action: Action, card: Callable[[Card | None], str] = _card_text) -> str:
    """The short text of `action` (the seat is not part of it); `card` writes its cards (a
    screen's glyphs: then `parse` reads it too)."""
    kind = action.kind
    if kind in CARD_KINDS:
        return f"{kind} {card(action.card)}"
    if kind in BARE_KINDS:
        return kind
    if kind == "bid":
        if action.contract is not None:
            return f"bid {action.contract}"
        words = ["bid"]
        if action.rank is not None:
            words.append(action.rank)
        if action.target is not None:
            words += ["target", str(action.target)]
        return " ".join(words)
    if kind == "raise":
        return f"raise {action.choice}"
    if kind in CARDS_KINDS:
        cards = [card(c) for c in _sorted(action.cards)]
        return " ".join([kind, *(cards or ["none"])])
    if kind == "handover":
        giver = "none" if action.holder is None else f"from {action.holder}"
        return f"handover {card(action.card)} {giver}"
    if kind in CHANCE_KINDS:  # dealing order matters: keep it
        return " ".join([kind, *(card(c) for c in action.cards)])
    raise LabelError("no label for an action of kind {kind}", kind=repr(kind))


def labels(state: State) -> list[str]:
    """The labels of `state.legal_actions()`: kinds in the order the game lists
    them, cards by suit then rank, discards and takes by size then cards."""
    actions = state.legal_actions()
    kinds: dict[str, int] = {}
    for action in actions:
        kinds.setdefault(action.kind, len(kinds))

    def key(item: tuple[int, Action]) -> tuple[int, int, tuple[int, ...]]:
        position, action = item
        if action.kind in CARDS_KINDS:
            return kinds[action.kind], len(action.cards), _indices(action.cards)
        if action.card is not None and action.kind in CARD_KINDS:
            return kinds[action.kind], 0, (action.card.index,)
        return kinds[action.kind], 0, (position,)

    return [label(a) for _, a in sorted(enumerate(actions), key=key)]


def _indices(cards: Iterable[Card | None]) -> tuple[int, ...]:
    return tuple(40 if c is None else c.index for c in _sorted(cards))


# --- reading ------------------------------------------------------------------


def parse(text: str, seat: int, state: State | None = None) -> Action:
    """The action of `seat` that `text` names; with `state`, the legal action it names.

    Raises `LabelError` for text that is not an action, and, given a state,
    for an action that is not legal now (the message lists some that are).
    """
    if not isinstance(text, str):
        raise LabelError("an action is text like 'play 3S', not {given}", given=type(text).__name__)
    words = text.translate(_GLYPHS).split()
    if not words:
        raise LabelError("no action given; write one, e.g. 'play 3S' or 'pass'")
    kind, args = words[0].lower(), words[1:]
    if kind in CARD_KINDS:
        if len(args) != 1:
            raise LabelError("{kind} takes one card, e.g. '{kind} 3S'", kind=kind)
        action = Action(seat, kind, card=_card(args[0]))
    elif kind in BARE_KINDS:
        if args:
            raise LabelError("'{kind}' takes nothing after it, not '{given}'", kind=kind, given=" ".join(args))
        action = Action(seat, kind)
    elif kind == "bid":
        action = _bid(seat, args)
    elif kind == "raise":
        choice = args[0].lower() if len(args) == 1 else None
        if choice not in RAISES:
            shown = " ".join(args) or "nothing"
            raise LabelError(
                "no such raise '{given}'; after Solissimo write {raises}",
                given=shown,
                raises=", ".join("raise " + r for r in RAISES),
            )
        action = Action(seat, "raise", choice=choice)
    elif kind in CARDS_KINDS:
        action = Action(seat, kind, cards=_card_set(kind, args))
    else:
        raise _unknown(words[0], kind)
    return action if state is None else _resolve(action, state)


def _unknown(word: str, kind: str) -> LabelError:
    if kind in CHANCE_KINDS and kind in HINTS:
        return LabelError(
            "'{word}' is dealt by the table, not played by a seat; did you mean '{hint}'?", word=word, hint=HINTS[kind]
        )
    if kind in CHANCE_KINDS:
        return LabelError("'{word}' is dealt by the table, not played by a seat", word=word)
    if kind in HINTS:
        return LabelError("unknown action '{word}'; did you mean '{hint}'?", word=word, hint=HINTS[kind])
    return LabelError("unknown action '{word}'; actions are {kinds}", word=word, kinds=", ".join(KINDS))


def _card(word: str) -> Card:
    try:
        return Card.parse(word)
    except ValueError:
        raise LabelError(CARD_HELP, word=word) from None


def _card_set(kind: str, args: list[str]) -> tuple:
    if [a.lower() for a in args] == ["none"]:
        return ()
    if not args:
        raise LabelError("{kind} needs its cards, e.g. '{kind} 4C 5C' (or '{kind} none')", kind=kind)
    cards = [_card(a) for a in args]
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise LabelError("{card} is named twice in '{given}'", card=twice, given=" ".join([kind, *args]))
    return tuple(sorted(cards))


def _target(word: str) -> int:
    if word.isdigit() and LOW <= int(word) <= HIGH:
        return int(word)
    raise LabelError("a target is a whole number from {low} to {high}, not '{word}'", low=LOW, high=HIGH, word=word)


def _bid(seat: int, args: list[str]) -> Action:
    lowered = [a.lower() for a in args]
    if len(args) == 1 and lowered[0] in CONTRACTS:
        return Action(seat, "bid", contract=lowered[0])
    if len(args) == 1 and len(args[0]) == 1 and args[0].upper() in BRISCOLA_ORDER:
        return Action(seat, "bid", rank=args[0].upper())
    if len(args) == 1 and len(args[0]) > 1 and args[0].isdigit():
        return Action(seat, "bid", target=_target(args[0]))  # a points bid without its keyword
    if len(args) == 2 and lowered[0] == "target":
        return Action(seat, "bid", target=_target(args[1]))
    if len(args) == 3 and lowered[1] == "target":
        if args[0] != "2":
            raise LabelError("only the 2 is bid with a target (bid 2 target 75), not '{given}'", given=args[0])
        return Action(seat, "bid", rank="2", target=_target(args[2]))
    shown = " ".join(args) or "nothing"
    raise LabelError(BID_HELP, given=shown)


def _key(action: Action) -> tuple:
    """What makes two actions the same choice: a set of cards has no order."""
    return (
        action.seat,
        action.kind,
        action.card,
        _indices(action.cards),
        action.rank,
        action.target,
        action.contract,
        action.choice,
    )


def _resolve(action: Action, state: State) -> Action:
    turn = state.current_player()
    if turn != action.seat:
        if turn == TERMINAL:
            raise LabelError("the hand is over")
        if turn == CHANCE:
            raise LabelError("wait: cards are being dealt")
        raise LabelError("it is seat {turn}'s turn, not seat {seat}'s", turn=turn, seat=action.seat)
    for legal in state.legal_actions():
        if _key(legal) == _key(action):
            return legal
    refusal = None
    try:
        state.clone().apply(action)
    except IllegalAction as error:
        refusal = error.refusal or Refusal("rule", str(error))
    named = labels(state)
    shown = ", ".join(named[:SHOWN])
    more = ", ... ({n} in all)" if len(named) > SHOWN else ""
    if refusal is None:
        template = "'{label}' is not a legal action now; legal: {legal}" + more
        raise LabelError(template, label=label(action), legal=shown, n=len(named))
    refused = LabelError(
        "'{label}' is not a legal action now ({why}); legal: {legal}" + more,
        label=label(action),
        why=refusal.text,
        legal=shown,
        n=len(named),
    )
    refused.refusal = refusal
    raise refused
