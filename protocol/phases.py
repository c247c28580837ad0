"""The table's phases: what a `TableSession` waits for now (`TablePhase`), and
those a hand is on in (`HAND_PHASES`). Every part of the session names them;
this module imports nothing of the protocol.
"""

from __future__ import annotations

from typing import Literal

TablePhase = Literal[
    "table",  # waiting for the host's table message
    "join",
    "seating",  # a seat timed out between hands: waiting for a key to take it
    "coin_commit",
    "coin_reveal",
    "commit",
    "shuffle",
    "deal",  # key shares for a dealing step
    "play",  # a seat's decision
    "handover",  # a Calabresella Chiamo: the called card
    "reveal",
    "over",
    "aborted",
]
"""`TableSession.phase`: what the table waits for now."""

HAND_PHASES: tuple[TablePhase, ...] = ("commit", "shuffle", "deal", "play", "handover", "reveal")
"""The table's phases while a hand is on."""
