"""The table's dialogs the keys open: the last trick (`t`) and the scores (`s`)."""

from __future__ import annotations

from engine.view import SeatView

from ...language import _
from ..widgets.cards import Style
from .dialogs import InfoScreen
from .summary import scoreboard
from .table_words import last_trick_text


def last_trick_dialog(view: SeatView | None, style: Style) -> InfoScreen:
    return InfoScreen(_("Last trick"), last_trick_text(view, style))


def score_dialog(view: SeatView) -> InfoScreen:
    return InfoScreen(_("Scores"), scoreboard(view, view.hand_scores))
