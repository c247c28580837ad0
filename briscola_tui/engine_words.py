"""The words that come from `engine/` and `protocol/` and reach a player, marked for the
catalogue here: `engine/` and `protocol/` do not import `briscola_tui` (nor its `_`), so
their English words are listed with `N_` below and translated with `_` where the app, the
headless clients and `render` write them.

- actions (`engine.labels.label`): `action_words` writes an action as `label` does, in the
  current language (in English, `label`'s very text);
- the games' titles and short names (`engine.games.GAMES`): `title`, `short`;
- the French suit names (`engine.cards.SUIT_NAMES`; the Italian ones stay as they are);
- the audit's reasons (`protocol.audit.Culprit.reason`): `culprit_reason`, only for a
  reason written by the audit (listed here); any other is data and stays as it is.

tests/test_italian_words.py walks the engine's own tables (action kinds, games, suits, the
audit's and the refusals' sources) and fails when a word there is not listed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.cards import Card
from engine.games import GAMES

from .language import N_, _, p_

__all__ = [
    "ACTIONS",
    "CULPRIT_REASONS",
    "GAME_WORDS",
    "REFUSAL_RULES",
    "SUIT_WORDS",
    "action_words",
    "bid_bare",
    "culprit_reason",
    "short",
    "suit_word",
    "title",
]

ACTIONS = {
    "play": N_("play {card}"),
    "call": N_("call {card}"),
    "return": N_("return {card}"),
    "pass": N_("pass"),
    "exchange": N_("exchange"),
    "declare": N_("declare"),
    "bid": N_("bid {what}"),
    "raise": N_("raise {choice}"),
    "discard": N_("discard {cards}"),
    "take": N_("take {cards}"),
    "draw": N_("draw {cards}"),
    "monte": N_("monte {cards}"),
    "dividete": N_("dividete {cards}"),
    "handover": N_("handover {card} from {seat}"),
}
"""Each kind of action (`engine.labels.KINDS`, `CHANCE_KINDS`) as `label` writes it."""
NONE_ACTIONS = {
    "discard": N_("discard none"),
    "take": N_("take none"),
    "raise": N_("raise none"),
    "handover": N_("handover {card} none"),
}
"""An action of no cards (a `take none`), no raise, a handover nobody makes."""
BIDS = {
    "target": N_("target {target}"),
    "rank_target": N_("{rank} target {target}"),
}
"""A bid without its verb, as a seat's column shows it: `K`, `2 target 75`, `target 75`."""

GAME_WORDS = (N_("Briscola"), N_("Briscola Chiamata"), N_("Calabresella"), N_("Chiamata"))
"""The titles and short names of `engine.games.GAMES`, listed for the catalogue (the test
checks this list holds each of them)."""

SUIT_WORDS = {"diamonds": N_("diamonds"), "hearts": N_("hearts"), "spades": N_("spades"), "clubs": N_("clubs")}
"""The French suits' names (`engine.cards.SUIT_NAMES`) in words; the Italian names stay."""

CULPRIT_REASONS = (
    N_("revealed seed does not match its commitment"),
    N_("its sealing key is not the one its seed gives"),
    N_("its committed deck keys are not the ones its seed gives"),
    N_("sent a wrong key share"),
    N_("stopped the hand without cause"),
    N_("falsely denied holding the called card"),
)
"""The audit's fixed reasons (`protocol.audit`): a reason that is one of these is translated."""
CULPRIT_PATTERNS = (
    (
        re.compile(
            r"its phase-(?P<phase>\d+) shuffle is not what its secrets give \(a substituted, duplicated or marked card\)$"
        ),
        N_("its phase-{phase} shuffle is not what its secrets give (a substituted, duplicated or marked card)"),
    ),
    (
        re.compile(r"left or withheld its (?P<owed>\S+) past the time limit$"),
        N_("left or withheld its {owed} past the time limit"),
    ),
    (re.compile(r"illegal action: (?P<why>.*)$"), N_("illegal action: {why}")),
)
"""The audit's reasons with a part of their own: the part is kept as it is (a message kind,
the engine's words)."""

REFUSAL_RULES = (
    "follow_suit",
    "hand_over",
    "defenders_hand_over",
    "call_rank",
    "two_rule_two",
    "two_rule_held",
    "two_rule_lowest",
)
"""The rules `render.refusal` writes in a player's words (`engine.state.Refusal.rule`)."""


def title(game: str) -> str:
    """A game's full name in the current language (`GAMES[game].title`); an unknown game as it is."""
    info = GAMES.get(game)
    return _(info.title) if info is not None else game


def short(game: str) -> str:
    """A game's name in a list (`GAMES[game].short`), in the current language."""
    info = GAMES.get(game)
    return _(info.short) if info is not None else game


def suit_word(name: str) -> str:
    """A French suit's name ("spades") in the current language; an Italian one as it is."""
    return _(SUIT_WORDS[name]) if name in SUIT_WORDS else name


def culprit_reason(reason: str) -> str:
    """An audit's reason in the current language when the audit wrote it (one listed here);
    any other reason (a peer's words) as it is."""
    if reason in CULPRIT_REASONS:
        return _(reason)
    for pattern, template in CULPRIT_PATTERNS:
        match = pattern.match(reason)
        if match:
            return _(template).format(**match.groupdict())
    return reason


def _card_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


def _sorted(cards) -> list:
    return sorted(cards, key=lambda c: 40 if c is None else c.index)


def bid_bare(action) -> str:
    """A bid without its verb (or a pass), as a seat's column shows it: "pass", "K",
    "2 target 70", "target 75", "solo"."""
    if action.kind != "bid":
        return action_words(action)
    if action.contract is not None:
        return action.contract
    if action.target is None:
        return action.rank or "bid"  # (a bid of nothing: as `label` writes it)
    if action.rank is None:
        return _(BIDS["target"]).format(target=action.target)
    return _(BIDS["rank_target"]).format(rank=action.rank, target=action.target)


def action_words(action, card: Callable[[Card | None], str] = _card_text) -> str:
    """`action` in words as `engine.labels.label` writes it (in English, the same text), in
    the current language; `card` writes its cards."""
    kind = action.kind
    if kind not in ACTIONS:
        from engine.labels import label

        return label(action, card)
    if kind in ("play", "call", "return"):
        return _(ACTIONS[kind]).format(card=card(action.card))
    if kind in ("pass", "exchange", "declare"):
        return _(ACTIONS[kind])
    if kind == "bid":
        if action.contract is None and action.rank is None and action.target is None:
            return "bid"
        bare = bid_bare(action)
        if action.contract is not None:  # Calabresella's: "bid solo"; in Italian the word alone ("solo")
            return p_("contract", "bid {what}").format(what=bare)
        return _(ACTIONS["bid"]).format(what=bare)
    if kind == "raise":
        return _(NONE_ACTIONS["raise"]) if action.choice == "none" else _(ACTIONS["raise"]).format(choice=action.choice)
    if kind in ("discard", "take"):
        if not action.cards:
            return _(NONE_ACTIONS[kind])
        return _(ACTIONS[kind]).format(cards=" ".join(card(c) for c in _sorted(action.cards)))
    if kind == "handover":
        if action.holder is None:
            return _(NONE_ACTIONS["handover"]).format(card=card(action.card))
        return _(ACTIONS["handover"]).format(card=card(action.card), seat=action.holder)
    # draw, monte, dividete: in dealing order
    return _(ACTIONS[kind]).format(cards=" ".join(card(c) for c in action.cards)).rstrip()
