"""The product: the `briscola` command and everything a player runs.

- `cli` (the command line), `options` (what a command or a form starts),
  `render` and `wording` (events and notes in words), `names`;
- `tui/`: the Textual app, its screens and widgets (the only package that
  imports textual);
- `tables/`: the table controllers the screens drive (offline, network, lobby);
- `net/`: the network host and clients (asyncio);
- `files/`: what is kept on disk (transcripts, seat stores, saved games, settings);
- `tools/`: selfplay, verify, the replay steps and the cheating seats.
"""
