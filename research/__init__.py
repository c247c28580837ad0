"""Research outside the product: learned models tried as parts of the computer players,
measured, and not shipped (docs/bots.md, "Research"). Nothing in engine/, protocol/ or
briscola_tui/ imports this package, and the wheel does not hold it; it runs from a clone,
through the hooks `engine.bots.hard.make_player` offers (`sampler`, `leaf`):

- `learned.py`, `learned_table.py`: a learned value of a Briscola-for-two position, its
  features and a small network (weights `learned_value.json`), inference in pure Python;
- `learned_player.py`: a player on that value; `learned_leaf.py`: hard's playouts cut at it;
- `holdings.py`, `holdings_features.py`, `holdings_draw.py`: a learned model of who holds
  what in Chiamata and Calabresella (weights `holdings.json`) and hard's determinizations
  drawn by it.

Trained by bench/train_value.py and bench/train_holdings.py; measured by
bench/learned_arena.py, bench/holdings_arena.py, bench/value_cost.py and bench/ppo.py."""
