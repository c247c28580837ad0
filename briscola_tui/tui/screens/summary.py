"""The end of a hand: every hand as dealt (from the audit), the tricks, each
side's points with the breakdown (target and units for Chiamata, thirds for
Calabresella), the score change and the series table. Enter goes on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from engine.cards import Card
from engine.facts import NO_RESULT
from engine.state import Action
from engine.view import SeatView

from ...games import presentation
from ...games.base import Scored
from ...language import _
from ...render import render_hand, shown_name
from ..widgets.cards import Style, sort_hand
from ..widgets.fit import hanging
from ..widgets.literal import literal

if TYPE_CHECKING:
    from engine.bots.coach import Finding, Review
    from protocol.events import TrickTaken

HandScore = tuple[int, tuple[int, ...] | None]
"""An audited hand's number and score change (None: a void hand)."""


def shown_names(view: SeatView) -> tuple[str, ...]:
    """The seats' names as the summary writes them ("you" in the current language)."""
    return tuple(map(shown_name, view.names))


def breakdown(view: SeatView, style: Style, played: Sequence[TrickTaken] = ()) -> list[str]:
    """How the hand was scored, in words, from the audited result (and `played`, the hand's
    trick events: the winner `seat`, the `cards`, the `points`)."""
    last, names = view.last_hand, shown_names(view)
    result = last.result if last is not None else NO_RESULT
    if result.redeal:
        return [_("Everybody passed: the hand is dealt again and does not count.")]
    return presentation(view.game).breakdown(Scored(view, result, names, style, played))


def series_hands(view: SeatView, history: Sequence[HandScore]) -> tuple[HandScore, ...]:
    """(number, score change) of every hand audited: the view's, from the whole transcript (the
    screen's own `history` has only the hands it saw: none from before a restart)."""
    hands = tuple(view.hand_scores)
    return hands if len(hands) >= len(history) else tuple(history)


def scoreboard(view: SeatView, history: Sequence[HandScore]) -> str:
    """The series so far: each hand's score change by seat, and the totals."""
    names = shown_names(view)
    hands = [(n, score) for n, score in series_hands(view, history) if score is not None]
    shown = hands[-10:]
    head = f"{'':<8}" + "".join(f"{_('h{n}').format(n=n + 1):>5}" for n, _score in shown) + f"{_('total'):>7}"
    rows = [head]
    for seat in range(view.players):
        cells = "".join(f"{score[seat]:>+5}" if seat < len(score) else f"{'':>5}" for _n, score in shown)
        total = view.scores[seat] if seat < len(view.scores) else 0
        rows.append(f"{names[seat]:<8.8}{cells}{total:>7}")
    note = _("Hands played: {n}").format(n=view.hands_played)
    if len(hands) > len(shown):
        note += _(" (the last {n} shown)").format(n=len(shown))
    if view.series_over and view.winners:
        note += "\n" + _("The series is over: {who} won.").format(who=", ".join(names[w] for w in view.winners))
    return note + "\n\n" + "\n".join(rows)


SUMMARY_WIDTH = 78
"""The summary's width at 80 columns (less the scroll bar): its lines of words wrap within it."""


def summary_text(
    view: SeatView,
    style: Style,
    final: bool,
    tricks: Sequence[str] = (),
    history: Sequence[HandScore] = (),
    played: Sequence[TrickTaken] = (),
    width: int = SUMMARY_WIDTH,
) -> Text:
    """The summary's text, its lines of words wrapped to `width` under their own indent."""
    last = view.last_hand
    names = shown_names(view)
    out = Text()
    if last is None:
        out.append(_("No hand was played.") + "\n")
        return out
    out.append(" " + _("Hand {n}").format(n=last.number + 1) + "\n", "bold")
    if not last.ok:  # who was named and why
        out.append(literal(" " + render_hand(last, style, view.names), "bold")).append("\n")
    for line in breakdown(view, style, played) if last.ok else []:
        out.append("\n".join(hanging(line, width, "  ", "    ")) + "\n")
    unit = _(presentation(view.game).score_unit)
    out.append(f"\n {'':<8}{unit:>8}{_('change'):>8}{_('series'):>8}\n", "bold")
    for seat in range(view.players):
        points = last.points[seat] if last.points else "-"
        change = last.score[seat] if last.score else 0
        total = view.scores[seat] if seat < len(view.scores) else 0
        out.append(f"  {names[seat]:<6}{points:>8}{change:>+8}{total:>8}\n")
    deal = last.deal
    if deal is not None:
        out.append("\n " + _("As dealt") + "\n", "bold")
        for seat, cards in enumerate(deal.hands):
            out.append(f"  {names[seat]:<6} ")
            _cards(out, style, sort_hand([c for c in cards if c is not None], view.game, view.options))
        if deal.faceup is not None:
            out.append(f"  {_('face up'):<7.7} ")
            _cards(out, style, [deal.faceup])
        if deal.stock:
            out.append(f"  {_('stock'):<7.7}")
            _cards(out, style, deal.stock)
        if deal.monte:
            out.append(f"  {_('monte'):<7.7}")
            _cards(out, style, deal.monte)
    if tricks:
        out.append("\n " + _("Tricks") + "\n", "bold")
        for i, trick in enumerate(tricks, 1):
            out.append(f"  {i:>2}. {trick}\n")
    if len(series_hands(view, history)) > 1 or final:
        out.append("\n " + _("Series") + "\n", "bold")
        out.append("  " + scoreboard(view, history).replace("\n", "\n  ") + "\n")
    if final:
        if view.winners:
            who = ", ".join(names[w] for w in view.winners)
            out.append("\n " + _("The series is over: {who} won.").format(who=who) + "\n", "bold")
        else:
            out.append("\n " + _("The table is closed.") + "\n", "bold")
    return out


CARDS_A_LINE = 20
"""Cards on one line of the summary (20 fit 80 columns after the 9 of the label: the Briscola
stock of 33 takes two lines, indented under the first)."""


def _cards(out: Text, style: Style, cards: Iterable[Card | None]) -> None:
    for i, card in enumerate(cards):
        if i and i % CARDS_A_LINE == 0:
            out.append("\n" + " " * 9)
        out.append(style.card(card), style.colour_of(card))
        out.append(" ")
    out.append("\n")


class SummaryScreen(Screen):
    CSS_PATH = "summary.tcss"
    BINDINGS = [
        Binding("enter,space", "next", show=False),
        Binding("up,k", "scroll(-1)", show=False),
        Binding("down,j", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
        Binding("r", "review", show=False),
    ]

    class Reviewing(Message):
        """From the review's worker: decision `i` of `n` is being looked at, with the
        findings so far, or (`review` set) done."""

        def __init__(
            self,
            i: int = 0,
            n: int = 0,
            found: tuple[Finding, ...] = (),
            review: Review | None = None,
            failed: str = "",
        ) -> None:
            super().__init__()
            self.i, self.n, self.found, self.review, self.failed = i, n, found, review, failed

    def __init__(
        self,
        view: SeatView,
        style: Style,
        final: bool = False,
        tricks: Sequence[str] = (),
        history: Sequence[HandScore] = (),
        played: Sequence[TrickTaken] = (),
        decisions: Sequence[tuple[SeatView, Action]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.view, self.style_, self.final = view, style, final
        self.tricks, self.history, self.played = tricks, history, played
        self.decisions = decisions  # my (view, action) of the hand, for the coach's review (`r`)
        self.reviewing = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary"):
            yield Static(self._text(), id="summary-text")
            shown_later = Static(id="summary-review")
            shown_later.display = False  # until `r` asks for the review
            yield shown_later
        review = _("r: review   ") if self.decisions else ""
        yield Static(
            " "
            + (_("Enter: done") if self.final else _("Enter: next hand"))
            + "   "
            + review
            + _("arrows: scroll   ctrl+q quit"),
            id="summary-keys",
        )

    def _text(self) -> Text:
        width = max(SUMMARY_WIDTH, self.app.size.width - 2)  # (the scroll bar's 2 columns)
        return summary_text(self.view, self.style_, self.final, self.tricks, self.history, self.played, width)

    def on_resize(self) -> None:
        self.query_one("#summary-text", Static).update(self._text())

    def action_review(self) -> None:
        """`r`: the coach looks at each of my decisions of the hand (in a worker thread, with
        its progress shown) and lists those where hard's choice was clearly better."""
        if not self.decisions or self.reviewing:
            return
        self.reviewing = True
        self._show_review(_("The coach reviews your decisions") + self.style_.ellipsis)
        self.run_worker(self._review, thread=True, exclusive=True, group="review")

    def _review(self) -> None:
        from engine.bots.coach import review

        seat = self.view.seat if self.view.seat is not None else 0
        found: list[Finding] = []
        at = [0, 0]  # the decision looked at, of how many

        def progress(i: int, n: int) -> None:
            at[:] = [i, n]
            self.post_message(self.Reviewing(i, n, tuple(found)))

        def finding(f: Finding) -> None:  # (shown at once: the first comes long before the end)
            found.append(f)
            self.post_message(self.Reviewing(at[0], at[1], tuple(found)))

        try:
            result = review(self.decisions, seat, progress=progress, found=finding)
        except Exception as error:  # shown, not raised
            self.post_message(self.Reviewing(failed=f"{type(error).__name__}: {error}"))
            return
        self.post_message(self.Reviewing(review=result))

    def on_summary_screen_reviewing(self, message: Reviewing) -> None:
        from engine.bots.coach import Review, unit_of

        from ...tools.review import hand_lines

        if message.failed:
            self.reviewing = False
            self._show_review(_("The review failed: {why}").format(why=message.failed))
        elif message.review is None:
            text = _("reviewing decision {i} of {n}").format(i=message.i, n=message.n) + self.style_.ellipsis
            if message.found:
                state = self.decisions[0][0].state
                so_far = Review(0, message.i, message.found, "point" if state is None else unit_of(state))
                text += "\n" + "\n".join("  " + line for line in hand_lines(so_far, self.style_))
            self._show_review(text)
        else:
            lines = hand_lines(message.review, self.style_)
            self._show_review(_("Review") + "\n" + "\n".join("  " + line for line in lines))

    def _show_review(self, text: str) -> None:
        widget = self.query_one("#summary-review", Static)
        widget.display = True
        widget.update(literal("\n " + text, keep="\n"))
        self.query_one("#summary", VerticalScroll).scroll_end(animate=False)

    def action_scroll(self, step: int) -> None:
        self.query_one("#summary", VerticalScroll).scroll_relative(y=step, animate=False)

    def action_next(self) -> None:
        self.dismiss()
