"""The commands that are not a table to play: `selfplay` (computer players through the
whole protocol, with `cheaters` for the cheats it can stage), `verify` (a stored
transcript checked), and `replay_steps` (a transcript as the replay viewer's steps)."""
