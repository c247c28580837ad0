"""Build a `SeatView` from a session: what its node may see, and nothing secret."""

from __future__ import annotations

from engine.facts import NO_RESULT
from engine.view import HandSummary, SeatView, hand_fields

from .audit import Verdict
from .sessionstate import SessionState


def build_view(session: SessionState) -> SeatView:
    seat = session.seat if session.holds_seat() else None
    n = session.players
    series = session.series
    kinds, owing = session.expected()
    fields = hand_fields(session.view, seat) if session.view is not None else {}
    if session.game is not None:  # the unit between hands too: the summary counts the tricks in it
        fields.setdefault("unit", session.game.POINT_UNIT)
    return SeatView(
        game=session.game.name if session.game else "",
        players=n,
        options=dict(session.game.options) if session.game else {},
        seat=session.seat,
        names=tuple(session.names.get(s, f"seat {s}") for s in range(n)),
        table_phase=session.phase,
        awaited={s: kinds[0] for s in owing if s >= 0} if kinds else {},
        scores=tuple(series.scores) if series else (0,) * n,
        hands_played=series.hands_played if series else 0,
        hands_scored=series.hands_scored if series else 0,
        series_over=bool(series and series.is_over()),
        winners=tuple(series.winners()) if series and series.is_over() else (),
        hand_number=session.hand.number if session.hand else None,
        legal=tuple(session.legal_actions()),
        last_hand=summary(session.verdicts[-1]) if session.verdicts else None,
        hand_scores=tuple(
            (v.hand, tuple(v.outcome.score) if v.outcome and v.outcome.score else None) for v in session.verdicts
        ),
        _state=session.view,
        **fields,
    )


def summary(verdict: Verdict) -> HandSummary:
    outcome = verdict.outcome
    return HandSummary(
        number=verdict.hand,
        ok=verdict.ok,
        culprits=tuple(verdict.culprits),
        deal=verdict.deal,
        points=tuple(outcome.points) if outcome else None,
        score=tuple(outcome.score) if outcome and outcome.score else None,
        result=outcome.result if outcome else NO_RESULT,
        redeal=bool(outcome and outcome.result.redeal),
        tricks=tuple(outcome.tricks) if outcome else (),
    )
