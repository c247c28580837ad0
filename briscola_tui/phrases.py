"""The fixed phrases `render` writes events and audited hands with: a seat's role in a
hand and its secret, a seat's arrival, and the facts of a hand's result (marked for the
catalogue with `N_`, said in the current language where they are used)."""

from __future__ import annotations

from engine.facts import Role

from .language import N_

ROLES = {
    Role.PARTNER: (N_("{name} is the caller's partner"), N_("you are the caller's partner")),
    Role.ALONE: (N_("{name} called its own card: it plays alone"), N_("you called your own card: you play alone")),
    Role.CALLER: (N_("{name} wins the auction"), N_("you win the auction")),
    Role.SOLOIST: (N_("{name} plays alone against the others"), N_("you play alone against the others")),
}
"""A seat's role in a hand: (the third person, with `{name}`; the second, for "you")."""
SECRETS = {
    Role.ALONE: N_("you called your own card: you play alone"),
    Role.PARTNER: N_("you hold the called card: you are the caller's partner, and nobody else knows"),
}
SEAT_FACTS = ("caller", "partner", "soloist", "black_hand")
"""Facts of a hand's result that are a seat (named as the seats are)."""
CARD_FACTS = ("called",)
"""Facts of a hand's result that are a card (written in the card style, as every card)."""
YES_NO = {"success": (N_("success"), N_("failure"))}
"""A yes-or-no fact of a hand's result, in words for yes and for no."""
NONE_FACTS = {"winner": N_("a draw"), "partner": N_("no partner (the caller plays alone)")}
FACT_NAMES = {
    "winner": N_("winner"),
    "trump": N_("trump"),
    "caller": N_("caller"),
    "partner": N_("partner"),
    "called": N_("called"),
    "target": N_("target"),
    "multiplier": N_("multiplier"),
    "soloist": N_("soloist"),
    "contract": N_("contract"),
    "raise": N_("raise"),
    "soloist_thirds": N_("soloist_thirds"),
    "black_hand": N_("black_hand"),
}
"""The keys of a hand's result (the games' `RESULT_KEYS`) in words; another key as it is."""
ARRIVALS = {
    "joins": (N_("{name} joins (seat {seat})"), N_("you join (seat {seat})"), N_("{who}: {name} joins")),
    "back": (N_("{name} is back (seat {seat})"), N_("you are back (seat {seat})"), N_("{who}: {name} is back")),
    "takes": (
        N_("{name} takes the seat (seat {seat})"),
        N_("you take the seat (seat {seat})"),
        N_("{who}: {name} takes the seat"),
    ),
}
"""A seat's arrival: (named already, third person; second person; under another name)."""
