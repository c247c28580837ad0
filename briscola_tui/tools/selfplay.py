"""`briscola selfplay`: whole tables of computer players in one process,
through the full protocol — one of them cheating, if asked."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TextIO, cast

from briscola_tui.tools.cheaters import CHEATS, Cheat, CheatingHost, HijackTable, cheat_chooser, honest_chooser
from briscola_tui.tools.deck_cheats import Cheater
from engine import bots
from engine.games import make
from protocol.audit import ABSENT
from protocol.errors import RemoteProtocolError
from protocol.events import Event
from protocol.identity import Identity
from protocol.local import LocalTable, Player, replacement_seat
from protocol.reasons import Reason
from protocol.session import TableSession
from protocol.verdict import Verdict
from protocol.view import summary

from ..files.identity import own_identity
from ..files.storage import TranscriptFile, fixed_store
from ..language import _
from ..names import CHEATER
from ..render import render, render_hand
from ..wording import count, option


def describe_hand(verdict: Verdict) -> str:
    return _("hand {n}: {result}").format(n=verdict.hand + 1, result=render_hand(summary(verdict)))


def selfplay(
    game: str,
    players: int | None,
    hands: int | None,
    seed: int | None,
    transcript: str | None,
    options: dict,
    out: TextIO,
    cheat: str | None = None,
    cheater: int | None = None,
    quiet: bool = False,
    seats: list[str] | None = None,
    deal_seed: int | None = None,
    bots_replace: bool = False,
) -> int:
    """Play a table of computer players (one may cheat); 0 when every hand passed, 3 when someone was named.

    Prints the events of every hand as a spectator sees them, one line each
    (`quiet`: only each hand's result). `deal_seed` fixes the secrets of
    every seat, hence every deal (not those of a computer player that takes
    a seat over): with `seed` too, such a run repeats exactly. `bots_replace`:
    the table rule `replace_cheats`, so a seat an audit names a cheat is
    evicted, an honest computer player takes it, and the table plays on."""
    rules = make(game, players, options)
    n = rules.players
    kind = CHEATS[cheat] if cheat else None
    if cheat and kind is not None:
        cheater = _check_cheat(cheat, kind, game, n, cheater)
    rng = random.Random(seed)
    levels = seats or ["random"] * n
    if len(levels) != n:
        raise SelfplayError(_("--seats names {k} levels for a {n}-player table").format(k=len(levels), n=n))

    def chooser(seat: int) -> Player:
        """An honest seat's player: shy beside a cheat, else the level --seats names."""
        return honest_chooser(cheat, rng.randrange(1 << 30)) if cheat else bots.get(levels[seat])

    table, cheating = _new_table(game, n, options, seed, bots_replace, deal_seed, cheat, cheater, chooser)
    if not cheat:
        _certify(table, levels)
    log = TranscriptFile.create(transcript, table.host.table_id) if transcript else None
    if log is not None:
        table.on_entry = log.append
    if not quiet:
        table.on_event = _printer(table.spectators[0], out)
    _print_heading(game, n, rules.options, levels, cheat, cheater, out)
    try:
        _play(table, hands, kind, out)
    finally:
        if log is not None:
            log.close()
    _print_end(table, transcript, out)
    named = culprits_of(table)
    if kind is not None and not _had_chance(table, kind, cheating):
        print(_("the cheater never had its chance in this series; try another --seed"), file=out)
        return 2
    if named:
        print(_("culprits: {names}").format(names=", ".join(named)), file=out)
        return 3
    return 0


def _certify(table: LocalTable, levels: list[str]) -> None:
    """Each seat's key vouched for, in its join, by this account as its level (the ledger rates
    the levels this account ran)."""
    person = own_identity()
    for seat, node in enumerate(table.seats):
        node.person, node.bot_level = person, levels[seat]


def _printer(watcher: TableSession, out: TextIO) -> Callable[[TableSession, object], None]:
    """What prints each event the spectator `watcher` sees, as a line."""

    def show(node: TableSession, event: object) -> None:
        if node is watcher:
            print(f"  {render(cast(Event, event))}", file=out)  # (a table's nodes hear only events)

    return show


def _new_table(
    game: str,
    n: int,
    options: dict,
    seed: int | None,
    bots_replace: bool,
    deal_seed: int | None,
    cheat: str | None,
    cheater: int | None,
    chooser: Callable[[int], Player],
) -> tuple[LocalTable, Cheater | None]:
    """The table (a cheating host's, or an honest one), and the cheating seat's node (None: no
    cheat, or the host cheats). A seat taken over by a computer player gets `chooser`'s player."""
    kind = CHEATS[cheat] if cheat else None
    choosers = {s: chooser(s) for s in range(n)}
    stores = {s: fixed_store(deal_seed, s) for s in range(n)} if deal_seed is not None else {}
    sessions = {s: TableSession(s, Identity.generate(), f"seat {s}", store=store) for s, store in stores.items()}
    cheating: Cheater | None = None
    if cheat and kind is not None and kind.session is not None and cheater is not None:
        cheating = sessions[cheater] = kind.session(
            cheater, Identity.generate(), f"seat {cheater}", store=stores.get(cheater)
        )
        choosers[cheater] = cheat_chooser(cheat, cheating, choosers[cheater])
    table_cls = kind.table if kind is not None else LocalTable
    table = table_cls(
        game,
        n,
        options,
        choosers=choosers,
        name=f"selfplay {game}",
        sessions=sessions,
        seed=seed,
        rules={"retake": True, "replace_cheats": True} if bots_replace else {"retake": True},
    )

    def replacement(seat: int, entries: list[bytes]) -> tuple[TableSession, list[bytes]]:
        choosers[seat] = chooser(seat)
        return replacement_seat(seat, entries)

    table.replacement = replacement
    if cheating is not None:
        table.outsiders.append(cheating)  # its word counts for nothing: it leaves, the table goes on
    elif isinstance(table, HijackTable) and cheater is not None:
        table.victim = cheater
    return table, cheating


def _print_heading(
    game: str, n: int, options: dict, levels: list[str], cheat: str | None, cheater: int | None, out: TextIO
) -> None:
    """The table, and its players or its cheat."""
    heading = _("{game}, {n} players, options {options}").format(game=game, n=n, options=as_flags(options))
    if not cheat:
        print(heading + _(", players {levels}").format(levels=", ".join(levels)), file=out)
        return
    print(heading, file=out)
    kind = CHEATS[cheat]
    who = _("the host") if kind.session is None else _("seat {n}").format(n=cheater)
    print(
        _("cheat: {who} {what} ({cheat}), at its first chance").format(who=who, what=_(kind.what), cheat=cheat),
        file=out,
    )


def _print_end(table: LocalTable, transcript: str | None, out: TextIO) -> None:
    """The scores and the winners, or how the table ended; where the transcript is."""
    host = table.host.session
    if host.series is not None:
        print(_("scores: {scores}").format(scores=host.series.scores), file=out)
    if host.series is not None and host.series.is_over():
        print(_("winners: seats {seats}").format(seats=host.series.winners()), file=out)
    elif host.phase == "over" and host.closed:
        print(_("table closed after {hands}").format(hands=count(len(host.verdicts), "hand")), file=out)
    else:
        print(_("the table was stopped after {hands}").format(hands=count(len(host.verdicts), "hand")), file=out)
    if transcript:
        entries = count(len(table.entries), "entry", "entries")
        print(_("transcript: {file} ({entries})").format(file=transcript, entries=entries), file=out)


def _play(table: LocalTable, hands: int | None, kind: Cheat | None, out: TextIO) -> None:
    """Run the table, printing each hand, each refusal and each failure as it comes."""
    seen = {"refused": 0, "dropped": 0, "left": 0, "timed_out": 0}

    def on_hand(verdict: Verdict) -> None:
        _report(table, seen, out)
        print(describe_hand(verdict), file=out, flush=True)
        if hands is not None and table.hands_played() >= hands and table.host.session.phase not in ("over", "aborted"):
            # the reason goes into the transcript as a code: each reader writes it in its own language
            table.broadcast(table.host.close(Reason.of("hands-played", hands=hands).wire()))

    table.redeals_count = False  # --hands K: K hands played to a result (or made void), not K deals
    table.run(max_hands=hands, on_hand=on_hand)
    _report(table, seen, out)
    for node, error in table.failures:
        who = _("a spectator") if node.seat is None else _("seat {n}").format(n=node.seat)
        print(_("{who} stopped: {error}").format(who=who, error=error), file=out)


def _report(table: LocalTable, seen: dict[str, int], out: TextIO) -> None:
    for ordered in table.refused[seen["refused"] :]:
        refusal = ordered.refused
        assert refusal is not None  # (listed as refused)
        print(
            _("refused seat {seat}'s message at entry {entry}: {reason} (kept as evidence)").format(
                seat=refusal.culprit, entry=refusal.entry, reason=refusal.reason
            ),
            file=out,
        )
    for error in table.dropped[seen["dropped"] :]:
        if error.culprit is None:  # it crossed the end of the table: nobody is named for it
            print(_("a message came after the end, not ordered: {reason}").format(reason=error.reason), file=out)
        else:
            print(
                _("dropped a message from seat {seat}'s connection: {reason}").format(
                    seat=error.culprit, reason=error.reason
                ),
                file=out,
            )
    for node, why in table.left[seen["left"] :]:
        print(
            _("seat {n}, the cheater, left: {error} (its word counts for nothing)").format(n=node.seat, error=why),
            file=out,
        )
    for seat in table.timed_out[seen["timed_out"] :]:
        print(_("seat {n} timed out").format(n=seat), file=out)
    seen.update(
        refused=len(table.refused), dropped=len(table.dropped), left=len(table.left), timed_out=len(table.timed_out)
    )


def culprits_of(table: LocalTable) -> list[str]:
    """Everyone named, by the verdicts, the table, the host's drops and the nodes that stopped."""
    named: set[int | str] = set()
    host = table.host.session
    for verdict in host.verdicts:
        named.update(c.seat for c in verdict.culprits)
    named.update(c.seat for c in host.culprits)
    for _node, error in table.failures:
        culprit = error.culprit if isinstance(error, RemoteProtocolError) else None
        named.add("host" if culprit in (None, "host", -1) else culprit)
    if "host" in named:
        # A host proven to cheat is not believed on its own word: who it timed
        # out, whose connection it dropped. Only what signatures prove stands.
        proven = [c for v in host.verdicts for c in v.culprits if c.kind != ABSENT]
        return format_culprits({"host", *(c.seat for c in proven)})
    named.update(error.culprit for error in table.dropped if error.culprit is not None)
    return format_culprits(named)


def format_culprits(named: Iterable[int | str]) -> list[str]:
    seats = sorted(c for c in named if isinstance(c, int) and c >= 0)
    host = [_("host")] if any(not isinstance(c, int) or c < 0 for c in named) else []
    return [_("seat {n}").format(n=s) for s in seats] + host


def _check_cheat(cheat: str, kind: Cheat, game: str, n: int, cheater: int | None) -> int:
    if game not in kind.games:
        raise SelfplayError(
            _("--cheat {cheat} cannot happen in {game} (only in {games})").format(
                cheat=cheat, game=game, games=", ".join(kind.games)
            )
        )
    if kind.short_deck and len(make(game, n).deck()) == 40:
        raise SelfplayError(
            _("--cheat {cheat} needs a game that leaves cards out of the deck (briscola with 3 or 6 players)").format(
                cheat=cheat
            )
        )
    if kind.seat is not None:
        if cheater not in (None, kind.seat):
            raise SelfplayError(
                _("--cheat {cheat} is done by the first seat to shuffle, seat {n}").format(cheat=cheat, n=kind.seat)
            )
        return kind.seat
    cheater = CHEATER if cheater is None else cheater
    if not 0 <= cheater < n:
        raise SelfplayError(_("--cheater must be a seat from 0 to {last}").format(last=n - 1))
    return cheater


def _had_chance(table: LocalTable, kind: Cheat, session: Cheater | None) -> bool:
    if session is None:  # the host cheats: a cheating host's table
        return isinstance(table, CheatingHost) and table.cheated
    host = table.host.session
    return session.cheated or host.phase == "aborted" or any(v.cheats for v in host.verdicts)


class SelfplayError(ValueError):
    """A selfplay that cannot be set up as asked (a cheat this table cannot show, a --seats list of the wrong length)."""


def as_flags(options: dict) -> str:
    """The options as `-o NAME=VALUE` would give them, e.g. `trump_exchange=none black_hand=false`."""
    return " ".join(option(name, value) for name, value in options.items())
