"""The table screen's keys: each passed on to the picker showing, what comes of it answered
(an action sent, another picker shown, the prompt redrawn); and the keys that open a dialog
(the last trick, the scores, the help). A part of `TableScreen`, kept apart from its showing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...language import _
from ..widgets.picker import Outcome, Picker
from .table_words import last_trick_text

if TYPE_CHECKING:
    from engine.view import SeatView

    from ...tables.controller import TableController
    from ..shell import Shell
    from ..widgets.cards import Style
    from ..widgets.decision import DecisionArea


class TableKeys:
    """The keys of `TableScreen` (which it mixes in)."""

    if TYPE_CHECKING:
        app: Shell
        view: SeatView | None
        controller: TableController
        style_: Style
        decision: DecisionArea

        @property
        def picker(self) -> Picker | None: ...

        def advance(self, action=None) -> None: ...

        def paint(self) -> None: ...

        def _show_picker(self, picker: Picker | None) -> None: ...

    def _answer(self, outcome: Outcome) -> None:
        """What came of a key or a click: an action to send, another picker to show, or
        (None) the same picker, its prompt redrawn."""
        if isinstance(outcome, Picker):
            self._show_picker(outcome)
        elif outcome is not None:
            self.advance(outcome)
        else:
            self.paint()

    def _key(self, press: Callable[[Picker], Outcome], digit: bool = False) -> None:
        if self.picker is not None:
            self._answer(self.decision.key(press, digit))

    def action_digit(self, d: int) -> None:
        self._key(lambda picker: picker.digit(d), digit=True)

    def action_move(self, step: int) -> None:
        self._key(lambda picker: picker.move(step))

    def action_move_row(self, step: int) -> None:
        """Up and down: a suit in the call grid, else one step as left and right."""
        self._key(lambda picker: picker.move_row(step))

    def action_space(self) -> None:
        self._key(lambda picker: picker.space())

    def action_confirm(self) -> None:
        self._key(lambda picker: picker.confirm())

    def action_cancel(self) -> None:
        if self.picker is not None:
            self._answer(self.decision.cancel())

    def on_picker_done(self, message: Picker.Done) -> None:
        """A click in the picker showing, or a number entered."""
        if message.picker is self.picker:
            self._answer(message.outcome)

    def action_last_trick(self) -> None:
        from .dialogs import InfoScreen

        self.app.push_screen(InfoScreen(_("Last trick"), last_trick_text(self.view, self.style_)))

    def action_score(self) -> None:
        from .dialogs import InfoScreen
        from .summary import scoreboard

        if self.view is not None:
            self.app.push_screen(InfoScreen(_("Scores"), scoreboard(self.view, self.view.hand_scores)))

    def action_help(self) -> None:
        from .dialogs import InfoScreen, help_text

        game = self.view.game if self.view else self.controller.game
        self.app.push_screen(InfoScreen(_("Help"), help_text(game)))
