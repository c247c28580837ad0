"""A seat's decisions in words, in the current language: `action_words` writes an action as
`engine.labels.label` does (in English, `label`'s very text), or as what someone would do
("hard would play 2♥"); a bid's rank as the language says it (`bid_rank`). Marked for the
catalogue here; `engine_words` lists them with the engine's other words."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from engine.cards import Card

from .language import N_, _, p_

if TYPE_CHECKING:
    from engine.actions import Action

__all__ = ["ACTIONS", "BIDS", "NONE_ACTIONS", "action_words", "bid_bare", "bid_rank"]

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


def _would_table() -> dict[str, str]:
    """The decisions as what someone would do ("hard would play 2♥"), in the current language:
    the same English as `ACTIONS`; a language that says it in another form (Italian: "hard
    giocherebbe 2♥") gives that form, by the context "would"."""
    return {
        "play": p_("would", "play {card}"),
        "call": p_("would", "call {card}"),
        "return": p_("would", "return {card}"),
        "pass": p_("would", "pass"),
        "exchange": p_("would", "exchange"),
        "declare": p_("would", "declare"),
        "bid": p_("would", "bid {what}"),
        "raise": p_("would", "raise {choice}"),
        "discard": p_("would", "discard {cards}"),
        "take": p_("would", "take {cards}"),
        "discard none": p_("would", "discard none"),
        "take none": p_("would", "take none"),
        "raise none": p_("would", "raise none"),
    }


BIDS = {
    "target": N_("target {target}"),
    "rank_target": N_("{rank} target {target}"),
}
"""A bid without its verb, as a seat's column shows it: `K`, `2 target 75`, `target 75`."""


def _card_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


def _sorted(cards: Iterable[Card | None]) -> list[Card | None]:
    return sorted(cards, key=lambda c: 40 if c is None else c.index)


def _would(action: Action, card: Callable[[Card | None], str]) -> str:
    """A play, a call, a pass... as what someone would do (`action_words(..., would=True)`)."""
    kind, would = action.kind, _would_table()
    if kind in ("pass", "exchange", "declare"):
        return would[kind]
    if kind == "raise":
        return would["raise none"] if action.choice == "none" else would["raise"].format(choice=action.choice)
    if kind in ("discard", "take"):
        if not action.cards:
            return would[f"{kind} none"]
        return would[kind].format(cards=" ".join(card(c) for c in _sorted(action.cards)))
    return would[kind].format(card=card(action.card))


def bid_rank(rank: str, deck: str = "french") -> str:
    """A bid's rank as the language says it: the letter in English ("K"), the word in
    Italian ("re"; the Q is "donna", or "cavallo" with the Italian cards' names: `deck`); a
    number stays a number in every language ("3")."""
    if rank == "Q" and deck == "italian":
        return p_("bid rank, Italian cards", "Q")
    words = {
        "A": p_("bid rank", "A"),
        "J": p_("bid rank", "J"),
        "Q": p_("bid rank", "Q"),
        "K": p_("bid rank", "K"),
    }
    return words.get(rank, rank)


def bid_bare(action: Action, deck: str = "french") -> str:
    """A bid without its verb (or a pass), as a seat's column shows it: "pass", "K",
    "2 target 70", "target 75", "solo"; its rank in the language's words (`bid_rank`)."""
    if action.kind != "bid":
        return action_words(action)
    if action.contract is not None:
        return action.contract
    if action.target is None:
        return bid_rank(action.rank, deck) if action.rank else "bid"  # (a bid of nothing: as `label` writes it)
    if action.rank is None:
        return _(BIDS["target"]).format(target=action.target)
    return _(BIDS["rank_target"]).format(rank=bid_rank(action.rank, deck), target=action.target)


def action_words(
    action: Action, card: Callable[[Card | None], str] = _card_text, would: bool = False, deck: str = "french"
) -> str:
    """`action` in words as `engine.labels.label` writes it (in English, the same text), in
    the current language; `card` writes its cards, a bid's rank is said as `deck`'s names ask
    (`bid_rank`). `would`: as what someone would do, after its name (`WOULD`: "hard would
    play 2♥", "hard giocherebbe 2♥")."""
    if would and action.kind in ("play", "call", "return", "pass", "exchange", "declare", "raise", "discard", "take"):
        return _would(action, card)
    if would and action.kind == "bid" and action.contract is not None:
        return p_("would contract", "bid {what}").format(what=bid_bare(action, deck))
    if would and action.kind == "bid":
        return _would_table()["bid"].format(what=bid_bare(action, deck))
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
        bare = bid_bare(action, deck)
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
