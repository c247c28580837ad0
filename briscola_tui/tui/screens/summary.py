"""The end of a hand: every hand as dealt (from the audit), the tricks, each
side's points with the breakdown (target and units for Chiamata, thirds for
Calabresella), the score change and the series table. Enter goes on."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ...language import _
from ...render import YOU, render_hand, shown_name
from ...wording import count
from ..widgets.cards import Style, sort_hand
from ..widgets.literal import literal


def sides_of(view) -> list[list[int]]:
    """Who scores together: partners in Briscola for 4 or 6, else each seat."""
    from engine.games import make

    return make(view.game, view.players, dict(view.options)).sides()


def shown_names(view) -> tuple[str, ...]:
    """The seats' names as the summary writes them ("you" in the current language)."""
    return tuple(map(shown_name, view.names))


def breakdown(view, style: Style, played=()) -> list[str]:
    """How the hand was scored, in words, from the audited result (and `played`, the hand's
    trick events: the winner `seat`, the `cards`, the `points`)."""
    last, names = view.last_hand, shown_names(view)
    result = last.result or {}
    if result.get("redeal"):
        return [_("Everybody passed: the hand is dealt again and does not count.")]
    if view.game == "chiamata":
        return _chiamata(result, names, view.options, style)
    if view.game == "calabresella":
        return _calabresella(result, names, style, played, last.deal, view.names)
    return _briscola(view, result, names)


def _briscola(view, result, names) -> list[str]:
    sides = sides_of(view)
    points = result.get("side_points") or []
    lines = []
    for i, side in enumerate(sides):
        who = " + ".join(names[s] for s in side)
        if i < len(points):
            lines.append(_("{who}: {points} of 120").format(who=who, points=count(points[i], "card point")))
    winner = result.get("winner")
    if result.get("black_hand") is not None:
        lines.append(_("{name} declared a black hand (A, 3 and K of trump)").format(name=names[result["black_hand"]]))
    if winner is None:
        lines.append(_("Nobody passed 60: a draw."))
    else:
        lines.append(_("{who} won the hand.").format(who=" + ".join(names[s] for s in sides[winner])))
    return lines


def _chiamata(result, names, options, style) -> list[str]:
    from engine.cards import Card
    from engine.games.chiamata import unit

    caller, partner, target = result.get("caller"), result.get("partner"), result.get("target", 61)
    called = result.get("called")
    card = style.card(Card.parse(called)) if called else "?"
    u = 1 if options.get("scoring") == "flat" else unit(target)
    side = names[caller] + ("" if partner is None else f" + {names[partner]}" if isinstance(partner, int) else "")
    success = result.get("success")
    won, lost = ("+", "-") if success else ("-", "+")
    compare = (">=" if style.ascii else "≥") if success else "<"
    lines = [
        _("{caller} called {card}").format(caller=names[caller], card=card)
        + (
            _("; partner {name}").format(name=names[partner])
            if isinstance(partner, int)
            else _("; alone (own card)")
            if partner is None
            else ""
        ),
        _("Target {target}: unit {unit}").format(target=target, unit=u)
        + (_(" (flat scoring)") if options.get("scoring") == "flat" else ""),
        _("{side}: {points} of 120 {compare} {target}: {outcome}").format(
            side=side,
            points=count(result.get("side_points") or 0, "card point"),
            compare=compare,
            target=target,
            outcome=_("success") if success else _("failure"),
        ),
    ]
    if result.get("multiplier", 1) > 1:
        lines.append(f"Cappotto: x{result['multiplier']}")
    if isinstance(partner, int):
        lines.append(_("Caller {won}2u, partner {won}u, each defender {lost}u").format(won=won, lost=lost))
    else:
        lines.append(_("Caller alone {won}4u, each defender {lost}u").format(won=won, lost=lost))
    return lines


def _calabresella(result, names, style, played=(), deal=None, raw_names=()) -> list[str]:
    from engine.games.calabresella import PRICE

    soloist, contract, raised = result.get("soloist"), result.get("contract"), result.get("raise")
    thirds = result.get("soloist_thirds", 0)
    price = PRICE[raised if raised and raised != "none" else contract]
    what = contract + (f", {raised}" if raised and raised != "none" else "")
    lines = [_("{name} played {what}: price {price} per defender").format(name=names[soloist], what=what, price=price)]
    sum_ = _thirds_sum(result, names, style, played, deal, raw_names)
    if sum_ is not None:
        lines.extend(sum_)
    lines.append(
        _("{name} took {thirds} = {points} of 35 (needs 18 thirds, 6 points): {outcome}").format(
            name=names[soloist],
            thirds=count(thirds, "third"),
            points=count(thirds // 3, "point"),
            outcome=_("success") if result.get("success") else _("failure"),
        )
    )
    multiplier = result.get("multiplier", 1)
    if multiplier == 2:
        lines.append(_("Cappotto (all or no tricks): x2"))
    elif multiplier == 3:
        lines.append(_("Stramazzo (the losers took under 3 thirds in tricks): x3"))
    return lines


def _thirds_sum(result, names, style, played, deal, raw_names=()) -> list[str] | None:
    """Where the soloist's thirds come from: the tricks, and with the last trick the monte at the
    end (the soloist's discards, the defenders', or the monte unused) and 3 more; None when the
    tricks or the deal are not all known, or do not add up to the result."""
    from engine.cards import THIRDS
    from engine.games.calabresella import LAST_TRICK

    soloist, contract, raised = result.get("soloist"), result.get("contract"), result.get("raise")
    if not played or deal is None or soloist is None:
        return None
    dealt = [c for hand in deal.hands for c in hand if c is not None] + [c for c in deal.monte if c is not None]
    in_tricks = {c for t in played for c in t.cards}
    monte = sort_hand([c for c in dealt if c not in in_tricks], "calabresella")
    if len(dealt) != 40 or len(monte) != 4:
        return None
    monte_thirds = sum(THIRDS.get(c.rank, 0) for c in monte)
    last = played[-1].seat
    whose = (
        (
            _("your discards")
            if tuple(raw_names)[soloist : soloist + 1] == (YOU,)
            else _("{name}'s discards").format(name=names[soloist])
        )
        if contract != "solissimo"
        else _("the monte, unused")
        if raised in (None, "none")
        else _("the defenders' discards")
    )
    tricks = sum(t.points or 0 for t in played if t.seat == soloist)
    parts = [_("{n} in tricks").format(n=tricks)]
    if last == soloist:
        parts += [_("{n} the monte").format(n=monte_thirds), _("{n} the last trick").format(n=LAST_TRICK)]
    total = tricks + (monte_thirds + LAST_TRICK if last == soloist else 0)
    if total != result.get("soloist_thirds"):
        return None
    return [
        _("The monte at the end ({whose}): {cards}, {n} thirds").format(
            whose=whose, cards=style.cards(monte), n=monte_thirds
        ),
        _("The last trick: {name}, who takes the monte and {n} thirds more").format(name=names[last], n=LAST_TRICK),
        _("{name}: {parts} = {n} thirds").format(name=names[soloist], parts=" + ".join(parts), n=total),
    ]


def series_hands(view, history) -> tuple:
    """(number, score change) of every hand audited: the view's, from the whole transcript (the
    screen's own `history` has only the hands it saw: none from before a restart)."""
    hands = tuple(view.hand_scores)
    return hands if len(hands) >= len(history) else tuple(history)


def scoreboard(view, history) -> str:
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


def summary_text(view, style: Style, final: bool, tricks=(), history=(), played=()) -> Text:
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
        out.append(f"  {line}\n")
    unit = _("thirds") if view.game == "calabresella" else _("points")
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


def _cards(out: Text, style: Style, cards) -> None:
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
        """From the review's worker: decision `i` of `n` is being looked at, or (`review` set) done."""

        def __init__(self, i: int = 0, n: int = 0, review=None, failed: str = "") -> None:
            super().__init__()
            self.i, self.n, self.review, self.failed = i, n, review, failed

    def __init__(
        self, view, style: Style, final: bool = False, tricks=(), history=(), played=(), decisions=(), **kwargs
    ) -> None:
        super().__init__(**kwargs)
        self.view, self.style_, self.final = view, style, final
        self.tricks, self.history, self.played = tricks, history, played
        self.decisions = decisions  # my (view, action) of the hand, for the coach's review (`r`)
        self.reviewing = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary"):
            yield Static(
                summary_text(self.view, self.style_, self.final, self.tricks, self.history, self.played),
                id="summary-text",
            )
            yield Static(id="summary-review")
        review = _("r: review   ") if self.decisions else ""
        yield Static(
            " "
            + (_("Enter: done") if self.final else _("Enter: next hand"))
            + "   "
            + review
            + _("arrows: scroll   ctrl+q quit"),
            id="summary-keys",
        )

    def on_mount(self) -> None:
        self.query_one("#summary-review", Static).display = False

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
        try:
            result = review(self.decisions, seat, progress=lambda i, n: self.post_message(self.Reviewing(i, n)))
        except Exception as error:  # shown, not raised
            self.post_message(self.Reviewing(failed=f"{type(error).__name__}: {error}"))
            return
        self.post_message(self.Reviewing(review=result))

    def on_summary_screen_reviewing(self, message: Reviewing) -> None:
        from ...tools.review import hand_lines

        if message.failed:
            self.reviewing = False
            self._show_review(_("The review failed: {why}").format(why=message.failed))
        elif message.review is None:
            text = _("reviewing decision {i} of {n}").format(i=message.i, n=message.n)
            self._show_review(text + self.style_.ellipsis)
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
