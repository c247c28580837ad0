"""Why an action is refused: the rule it breaks, as the engine's `IllegalAction`
gives it (a `Refusal`: data), found on a copy of the state (the state itself never
changes). `briscola_tui.render.refusal` writes it for a player."""

from __future__ import annotations

from .state import Action, IllegalAction, Refusal, State

__all__ = ["why_illegal"]


def why_illegal(state: State | None, action: Action) -> Refusal | None:
    """The rule `action` breaks in `state`, or None when it is legal (or there is no state
    to ask); a rule that gives no `Refusal` of its own is `Refusal("rule", its words)`."""
    if state is None:
        return None
    try:
        state.clone().apply(action)
    except IllegalAction as error:
        return error.refusal or Refusal("rule", str(error))
    return None
