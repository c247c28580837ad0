"""What a Briscola hand is worth: the awards its sides' card points make (a black hand's
are the game's own, engine/games/briscola.py)."""

from __future__ import annotations


def two_side_awards(totals: list[int], scoring: str) -> tuple[list[int], int | None]:
    """Two players or two teams: more than 60 wins; 60-60 is a draw."""
    awards = [0, 0]
    for side in (0, 1):
        points = totals[side]
        if points > 60:
            if scoring == "game_points":
                awards[side] = 3 if points == 120 else 2 if points >= 91 else 1
            else:
                awards[side] = 1
            return awards, side
    return awards, None


def three_player_awards(totals: list[int]) -> tuple[list[int], int | None]:
    """Over 40 scores 1 when two players pass 40, 2 when one alone does; all 120 scores 3."""
    over = [p > 40 for p in totals]
    awards = [0, 0, 0]
    for seat, points in enumerate(totals):
        if points == 120:
            awards[seat] = 3
        elif over[seat]:
            awards[seat] = 1 if sum(over) == 2 else 2
    winner = over.index(True) if sum(over) == 1 else None
    return awards, winner
