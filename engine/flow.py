"""Where cards go: the words a game uses to tell the table how its cards move.

The table protocol deals a shuffled, encrypted deck whose positions it
cannot read; it follows each position from holder to holder. Each game says,
in its own file, where its cards go (the protocol never asks which game it
is playing):

- `Game.deal_audiences(plan)`: where the deal puts each position and who sees it;
- `State.chance_holders(need)`: where each card of a chance event went;
- `State.card_moves(action)`: where the cards an action names go;
- `State.handover_answerers()` / `handover_holder()`: a Calabresella Chiamo;
- `State.peeks(plan)` / `see_peeked(...)`: cards everyone sees where they
  lie (Briscola open hands: the top of the stock).

A holder is a seat number, or one of the names below. A source (in
`card_moves`) is ("card", card index): the position holding that shown card;
("given", i): the i-th position the action gives up face down; (FACEUP,);
or (MONTE, i): the i-th position of the monte, in order.
"""

STOCK = "stock"
FACEUP = "faceup"
MONTE = "monte"
TABLE = "table"
