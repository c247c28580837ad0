"""`briscola selfplay` and `briscola verify`: whole tables in one process, and
offline checking of a stored transcript."""

from __future__ import annotations

import random

from engine.games import make
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.local import LocalTable
from protocol.session import TableSession
from protocol.transcript import NotATranscript

from .storage import read_transcript, save_transcript


def hand_facts(verdict) -> str:
    """One line of what an audited hand gave: the result, card points, score change."""
    outcome = verdict.outcome
    if outcome is None:
        return str(verdict)
    result = outcome.result
    if result.get("redeal"):
        return "everybody passed, redeal"
    facts = ", ".join(f"{k} {v}" for k, v in result.items() if k != "side_points")
    return f"{facts}; points {outcome.points}; score {outcome.score}"


def describe_hand(verdict) -> str:
    return f"hand {verdict.hand + 1}: {hand_facts(verdict)}"


def selfplay(game: str, players: int | None, hands: int | None, seed: int | None,
             transcript: str | None, options: dict, out) -> int:
    rules = make(game, players, options)
    rng = random.Random(seed)

    def choose(session):
        return rng.choice(session.legal_actions())

    table = LocalTable(game, rules.players, options, choosers={s: choose for s in range(rules.players)},
                       name=f"selfplay {game}")
    print(f"{game}, {rules.players} players, options {rules.options}", file=out)
    try:
        table.run(max_hands=hands, on_hand=lambda v: print(describe_hand(v), file=out, flush=True))
    finally:
        if transcript:
            save_transcript(transcript, table.host.table_id, table.entries)
    host = table.host.session
    print(f"scores: {host.series.scores}", file=out)
    if host.series.is_over():
        print(f"winners: seats {host.series.winners()}", file=out)
    else:
        print(f"series not over after {len(host.verdicts)} hands", file=out)
    if transcript:
        print(f"transcript: {transcript} ({len(table.entries)} entries)", file=out)
    return 0 if all(v.ok for v in host.verdicts) else 3


def verify(path: str, out, err) -> int:
    """Check a stored transcript offline. 0: all well; 3: a cheat or tampering; 1: not a transcript."""
    try:
        _, entries = read_transcript(path)
    except OSError as error:
        print(f"cannot read {path}: {error.strerror or error}", file=err)
        return 1
    except NotATranscript as error:
        print(f"{path} is not a briscola transcript: {error.reason}", file=err)
        return 1
    except RemoteProtocolError as error:
        print(f"tampered: {_where(error)}{error.reason}", file=err)
        return 3
    spectator = TableSession(None)
    for entry in entries:
        try:
            spectator.receive(entry.encode())
        except ProtocolError as error:
            culprit = getattr(error, "culprit", None)
            who = "" if culprit is None else f" [{'the host' if culprit == 'host' else f'seat {culprit}'}]"
            print(f"FAIL: {_where(error)}{error.reason}{who}", file=err)
            return 3
    for verdict in spectator.verdicts:
        if verdict.ok:
            print(f"ok   {verdict} — {hand_facts(verdict)}", file=out)
        else:
            print(f"FAIL {verdict}", file=out)
    if not all(v.ok for v in spectator.verdicts):
        return 3
    series = spectator.series
    scores = series.scores if series else []
    if spectator.phase == "over":
        state = "series over"
    elif spectator.phase == "commit" and not spectator.hand.commits:
        state = "stopped between hands"
    else:
        state = f"stopped in the middle of a hand (phase {spectator.phase})"
    print(f"verified {len(entries)} entries, {len(spectator.verdicts)} hands, {state}; scores {scores}", file=out)
    return 0


def _where(error) -> str:
    entry = getattr(error, "entry", None)
    return "" if entry is None else f"entry {entry}: "
