"""Where cards go: what a table needs to follow face-down cards by position.

The table protocol deals a shuffled, encrypted deck whose positions it
cannot read; it follows each position from holder to holder. These
functions say, in terms of the engine's own slots, what each game does with
its cards, so the protocol never asks which game it is playing:

- `deal_audiences(game, plan)`: who first sees each dealt position;
- `peeks(state, plan)`: positions every seat sees although they stay put
  (Briscola open hands: the top of the stock);
- `chance_holders(state, need)`: where each card of a chance event goes;
- `action_moves(state, action)`: where the cards an action names go.

A holder is a seat number, or one of STOCK, FACEUP, MONTE, TABLE.
A source is ("card", card index): the position holding that shown card;
("given", i): the i-th position the action gives up face down; (FACEUP,);
or (MONTE, i): the i-th position of the monte, in order.
"""

from __future__ import annotations

from .state import PUBLIC, Action, Need

STOCK = "stock"
FACEUP = "faceup"
MONTE = "monte"
TABLE = "table"


def deal_audiences(game, plan) -> list[tuple[int, int | str, int]]:
    """(position, holder, audience) for every position the deal places:
    hands, stock, the face-up card and the monte. The audience is the seat
    that sees the card, PUBLIC, or None for a card nobody sees yet."""
    open_hands = bool(game.options.get("open_hands"))
    placed = []
    for seat, positions in enumerate(plan.hands):
        placed += [(p, seat, PUBLIC if open_hands else seat) for p in positions]
    placed += [(p, STOCK, PUBLIC if open_hands and i == 0 else None) for i, p in enumerate(plan.stock)]
    if plan.faceup is not None:
        placed.append((plan.faceup, FACEUP, PUBLIC))
    placed += [(p, MONTE, None) for p in plan.monte]
    return placed


def peeks(state, plan) -> list[int]:
    """Stock positions every seat sees after the next draw (open hands: the new top)."""
    if not state.game.options.get("open_hands") or state.need().kind != "draw":
        return []
    top = state.drawn + state.n
    return [plan.stock[top]] if top < len(plan.stock) else []


def see_peeked(state, plan, public_card) -> None:
    """Tell `state` the stock cards everyone sees (`public_card(position)`: the
    card there if it is open to all, else None)."""
    if not state.game.options.get("open_hands"):
        return
    for slot in range(state.drawn, len(plan.stock)):
        card = public_card(plan.stock[slot])
        if card is not None:
            state.see_stock(slot, card)


def chance_holders(after, need: Need) -> tuple:
    """Where each card of the chance event `need` went, slot by slot
    (`after`: the state once the event is applied)."""
    if need.kind == "draw":
        return tuple((after.leader + i) % after.n for i in range(len(need.slots)))
    if need.kind == "monte":
        # Shown to all; the soloist takes it, unless the defenders now choose (scegliete).
        return tuple(MONTE if after.phase == "take" else after.soloist for _ in need.slots)
    if need.kind == "dividete":
        return tuple(need.audiences)
    return ()


def handover_answerers(state) -> tuple[int, ...]:
    """The seats that must answer a handover (show the called card, or say they lack it)."""
    return tuple(state.defenders())


def handover_holder(state) -> int:
    """Where the called card goes when a defender hands it over."""
    return state.soloist


def action_moves(state, action: Action) -> list[tuple[tuple, object]]:
    """(source, holder) for each card `action` moves (`state`: before it)."""
    kind = action.kind
    if kind == "play":
        return [(("card", action.card.index), TABLE)]
    if kind == "exchange":
        return [(("card", state.exchange_card.index), FACEUP), ((FACEUP,), action.seat)]
    if kind == "return":
        return [(("card", action.card.index), state.handed_from)]
    if kind == "discard":
        return [(("given", i), MONTE) for i in range(len(action.cards))]
    if kind == "take":
        first, second = state.defenders()
        taken = {c.index for c in action.cards}
        return [((MONTE, i), first if card.index in taken else second) for i, card in enumerate(state.monte)]
    return []
