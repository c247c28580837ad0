"""Why an action is refused: the rule it breaks, as the engine's `IllegalAction`
names it, found on a copy of the state (the state itself never changes).
`briscola_tui.render.refusal` writes the reason for a player."""

from __future__ import annotations

from .state import Action, IllegalAction, State

__all__ = ["why_illegal"]


def why_illegal(state: State | None, action: Action) -> str | None:
    """The rule `action` breaks in `state` (the engine's words), or None when it is legal
    (or there is no state to ask)."""
    if state is None:
        return None
    try:
        state.clone().apply(action)
    except IllegalAction as error:
        return str(error)
    return None
