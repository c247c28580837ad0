"""Briscola (2, 3, 4 or 6 players) as the product shows it: the plain trick game, each
seat's card points shown in the play, the sides' card points of 120 in the summary."""

from __future__ import annotations

from ..language import N_
from .base import Presentation


class Briscola(Presentation):
    name = "briscola"
    rules = N_("""\
Briscola (2, 3, 4 or 6 players): 40 Italian cards (39 with 3 players, 36
with 6), 120 points in all: A 11, 3 10, K 4, Q 3, J 2, the rest 0; rank
A 3 K Q J 7 6 5 4 2. Each player holds 3 cards; the card face up under the
stock names trump (briscola). No need to follow suit: the highest trump
wins the trick, else the highest card of the suit led. The winner leads
and draws first; the face-up card is drawn last. More than 60 points wins
the hand; with 4 or 6 players partners sit opposite and add their points.
Options: trump_exchange (swap the 2 or 7 of trump for the face-up card),
seven_second (7 ranks second, worth 10), open_hands, black_hand (A 3 K of
trump ends the hand), scoring by hands or game points, match length.""")
    shows_captured = True


BRISCOLA = Briscola()
