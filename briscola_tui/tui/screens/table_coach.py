"""The coach at the table (`h`): whether it may advise now, and its advice, computed in
the screen's worker thread. What hard would play and what each choice is worth: the table
screen shows the words `advice_text` gives in an info screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.view import SeatView

from ...language import _
from ..widgets.cards import Style

if TYPE_CHECKING:
    from engine.bots.coach import Advice


def coach_refusal(allowed: bool, view: SeatView | None, deciding: bool) -> str | None:
    """Why the coach may not advise now (None: it may): the host does not allow it, or the
    decision is not mine."""
    if not allowed:
        return _("The host does not allow the coach at this table.")
    if view is None or not deciding or not view.legal:
        return _("The coach advises on your own decisions: it is not your turn.")
    return None


def advice_for(view: SeatView) -> Advice | str:
    """In the coach's worker thread: the advice, or what went wrong, in a line."""
    import random

    from engine.bots.coach import hint

    try:
        return hint(view, random.Random())
    except Exception as error:  # shown, not raised: the table goes on
        return f"{type(error).__name__}: {error}"


def advice_text(advice: Advice, style: Style) -> str:
    """The advice in words, a line each."""
    from ...tools.review import advice_lines

    return "\n".join(advice_lines(advice, style))
