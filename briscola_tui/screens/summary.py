"""The end of a hand: every hand as dealt, each seat's points, the score
change and the series scores. Enter goes on."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..widgets.cards import Style


def summary_text(view, style: Style, final: bool) -> Text:
    last = view.last_hand
    names = view.names
    out = Text()
    if last is None:
        out.append("No hand was played.\n")
        return out
    out.append(f" Hand {last.number + 1}\n", "bold")
    out.append(" " + style.text(last.text, names) + "\n\n")
    deal = last.deal
    if deal is not None:
        out.append(" As dealt\n", "bold")
        for seat, cards in enumerate(deal.hands):
            out.append(f"  {names[seat]:<6} {style.cards(sorted(c for c in cards if c is not None))}\n")
        if deal.faceup is not None:
            out.append(f"  face up {style.card(deal.faceup)}\n")
        if deal.stock:
            out.append(f"  stock  {style.cards(deal.stock)}\n")
        if deal.monte:
            out.append(f"  monte  {style.cards(deal.monte)}\n")
        out.append("\n")
    out.append(f" {'':<8}{'points':>8}{'change':>8}{'series':>8}\n", "bold")
    for seat in range(view.players):
        points = last.points[seat] if last.points else "-"
        change = last.score[seat] if last.score else 0
        total = view.scores[seat] if seat < len(view.scores) else 0
        out.append(f"  {names[seat]:<6}{points:>8}{change:>+8}{total:>8}\n")
    if final:
        if view.winners:
            out.append("\n The series is over: " + ", ".join(names[w] for w in view.winners) + " won.\n", "bold")
        else:
            out.append("\n The table is closed.\n", "bold")
    return out


class SummaryScreen(Screen):
    CSS_PATH = "summary.tcss"
    BINDINGS = [Binding("enter,space", "next", show=False),
                Binding("up,k", "scroll(-1)", show=False), Binding("down,j", "scroll(1)", show=False)]

    def __init__(self, view, style: Style, final: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view, self.style_, self.final = view, style, final

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary"):
            yield Static(summary_text(self.view, self.style_, self.final), id="summary-text")
        yield Static(" Enter: " + ("done" if self.final else "next hand") + "   arrows: scroll   ctrl+q quit",
                     id="summary-keys")

    def action_scroll(self, step: int) -> None:
        self.query_one("#summary", VerticalScroll).scroll_relative(y=step, animate=False)

    def action_next(self) -> None:
        self.dismiss()
