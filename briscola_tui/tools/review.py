"""`briscola review TRANSCRIPT [--seat N]`: the coach's review of a stored game.

The transcript is read by a spectator `TableSession`, which checks every entry
as `briscola verify` does. Each audited hand whose deck the audit opened (its
deal known card by card) is played again from that deal with the hand's moves,
and the seat's decisions are rebuilt as the seat saw them (its own cards and
what was shown, never another hand's hidden card). A hand the audit did not
open (a table that ended mid-hand) is rebuilt for a seat whose secrets are on
this machine (`local_secrets`: the seat's key and store that `briscola join`
or an offline game kept), by that seat's own session reading the transcript: its
view is all the review uses. The coach (`engine.bots.coach.review`) looks at
each decision. Printed per hand: the decisions where hard's choice was better
by a clear margin, with the cost and the trick. Progress ("hand 1, decision 3
of 12") goes to standard error.

`hand_lines` writes a review in words; the summary screen uses it too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypedDict, Unpack

from engine.bots import Player, View, coach
from engine.determinize import state_of

from ..engine_words import action_words, protocol_error_words
from ..language import _
from ..os_errors import os_error_words
from ..render import CardStyle, worth
from ..wording import listing

if TYPE_CHECKING:
    from engine.bots import StateView
    from engine.cards import Card
    from engine.deal import Deal
    from engine.game import Game
    from engine.state import Action
    from protocol.identity import Identity
    from protocol.records import HandRecord
    from protocol.store import SeatStore

PROG = "briscola review"
OK, UNREADABLE, USAGE = 0, 1, 2


class Budget(TypedDict, total=False):
    """What a review may be given beside its decisions (`coach.review`'s; a test's is quicker)."""

    samples: int
    budget: int
    player: Player


class ReviewError(Exception):
    """A transcript that cannot be reviewed: one line for the player."""


@dataclass
class Stored:
    """What a transcript gives the review: the game, its entries, and each audited hand
    whose deal the audit opened as (hand number, dealer, deal, actions)."""

    game: Game
    table_id: bytes
    entries: list[bytes]
    audited: list[tuple[int, int, Deal, list[Action]]]
    hands: list[int]  # every hand in which someone played, in order
    keys: dict[int, set[bytes]]  # every key each seat was held by


def audited_hands(path: str | os.PathLike) -> Stored:
    """The transcript at `path` read as the module doc says. ReviewError for a file
    that is not a transcript."""
    from protocol.errors import ProtocolError
    from protocol.session import TableSession
    from protocol.transcript_file import NotATranscript
    from protocol.wire import action_from_wire

    from ..files.storage import read_transcript_file

    try:
        loaded = read_transcript_file(path)
    except NotATranscript as error:
        if error.coded is not None:  # a transcript of an earlier format
            raise ReviewError(_("{path} is {reason}").format(path=path, reason=protocol_error_words(error))) from None
        raise ReviewError(_("{path} is not a briscola transcript").format(path=path)) from None
    except ProtocolError as error:
        why = protocol_error_words(error)
        raise ReviewError(_("{path}: a damaged entry: {error}").format(path=path, error=why)) from None
    except (OSError, ValueError) as error:
        why = os_error_words(error)
        raise ReviewError(_("cannot read {path}: {why}").format(path=path, why=why)) from None
    session = TableSession(None)
    records: dict[int, HandRecord] = {}
    keys: dict[int, set[bytes]] = {}
    done = 0
    out: list[tuple[int, int, Deal, list[Action]]] = []
    entries = [entry.encode() for entry in loaded.entries]
    for entry, data in zip(loaded.entries, entries):
        try:
            session.receive(data)
        except ProtocolError as error:
            raise ReviewError(_("entry {n} refused: {error}").format(n=entry.index, error=error)) from None
        if session.hand is not None:
            records[session.hand.number] = session.hand
        for seat, key in session.keys.items():
            keys.setdefault(seat, set()).add(key)
        for verdict in session.verdicts[done:]:
            record = records.get(verdict.hand)
            if verdict.deal is None or record is None:
                continue
            deck, game = verdict.deal, session.game
            assert game is not None  # (a hand was audited)
            actions = []
            for _entry, seat, kind, msg in record.moves:
                if kind != "act":
                    continue
                cards: tuple[Card | None, ...] = ()
                if msg.action[0] == "discard":
                    cards = tuple(_card_at(game, record.dealer, deck, p) for p in msg.positions)
                actions.append(action_from_wire(seat, msg.action, cards))
            out.append((verdict.hand, record.dealer, deck, actions))
        done = len(session.verdicts)
    if session.game is None:
        raise ReviewError(_("{path} holds no table").format(path=path))
    played = sorted(n for n, record in records.items() if any(kind == "act" for _e, _s, kind, _m in record.moves))
    return Stored(session.game, loaded.table_id, entries, out, played, keys)


def local_secrets(path: str | os.PathLike, stored: Stored, seat: int) -> tuple[Identity, SeatStore] | None:
    """The secrets of `seat` kept on this machine for the transcript at `path`: (its
    identity, an in-memory copy of its store; the review never writes to either), or
    None. Looked for: what `briscola join` keeps (the user's `identity.key` and
    `seats/TABLE-seatN.store` in the data folder), then an offline game's
    (`saved/NAME/seatN.key` and `seatN.store`, NAME being the transcript's file
    name). Only a key the transcript seated in `seat` counts."""
    from protocol.errors import ProtocolError
    from protocol.identity import Identity
    from protocol.store import SeatStore

    from ..files.folders import data_dir, own_file, read_own

    root = data_dir()
    saved = root / "saved" / Path(path).stem
    for key_file, store_file in (
        (root / "identity.key", root / "seats" / f"{stored.table_id.hex()}-seat{seat}.store"),
        (saved / f"seat{seat}.key", saved / f"seat{seat}.store"),
    ):
        try:
            identity = Identity.load(own_file(key_file))  # a link planted there: not ours (UnsafeFolder)
            data = read_own(store_file)
        except (OSError, ValueError):
            continue
        if identity.public_bytes not in stored.keys.get(seat, ()):
            continue
        store = SeatStore()
        try:
            store.load_bytes(data)
        except ProtocolError:
            continue
        return identity, store
    return None


def own_decisions(
    entries: list[bytes], seat: int, secrets: tuple[Identity, SeatStore]
) -> dict[int, list[tuple[StateView, Action]]]:
    """Each hand's decisions of `seat` as the seat saw them, rebuilt by the seat's own
    session reading the transcript with its secrets (`secrets`: its identity and
    store, `local_secrets`): hand number -> [(view, action)]. What the session would
    send is dropped."""
    from engine.bots import StateView
    from protocol.errors import ProtocolError
    from protocol.session import TableSession

    identity, store = secrets
    session = TableSession(seat, identity, store=store)
    out: dict[int, list[tuple[StateView, Action]]] = {}
    before, number = None, None
    for data in entries:
        try:
            session.receive(data)
        except ProtocolError:
            break  # the spectator's reading already accepted every entry; stop at any doubt
        view, hand = session.view, session.hand
        if view is None or hand is None or view.viewer != seat:
            before = None
            continue
        out.setdefault(hand.number, [])  # a hand the seat saw, with or without a decision of its own
        if before is not None and number == hand.number:
            state = before  # the seat's cards come in place (opened shares), its moves by history
            for action in view.history[len(before.history) :]:
                if action.seat == seat:
                    out[hand.number].append((StateView(state, seat), action))
                state = state.child(action)
        before, number = view.clone(), hand.number
    return out


def _card_at(game: Game, dealer: int, deal: Deal, position: int) -> Card | None:
    """The card dealt at deck `position` (a Calabresella discard names its cards by position)."""
    plan = game.plan(dealer)
    for seat, positions in enumerate(plan.hands):
        if position in positions:
            return deal.hands[seat][positions.index(position)]
    for cards, positions in ((deal.stock, plan.stock), (deal.monte, plan.monte)):
        if position in positions:
            return cards[positions.index(position)]
    return deal.faceup


def _words(action: Action, style: CardStyle | None, would: bool = False) -> str:
    if style is None:
        return action_words(action, _card_text, would=would)
    return action_words(action, style.card, would=would, deck=style.names)


def _card_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


def hand_lines(result: coach.Review, style: CardStyle | None = None) -> list[str]:
    """A review in words: one line per decision found, or a line saying there is none."""
    unit = result.unit
    if not result.findings:
        return [
            _("No decision where the coach's choice was clearly better ({n} looked at).").format(n=result.decisions)
        ]
    lines = []
    for f in result.findings:
        where = _("trick {n}").format(n=f.trick) if f.trick else _("before the play")
        lines.append(
            _("{where}: {played}, where hard would {best}: about {cost} lost (+/- {se})").format(
                where=where,
                played=_words(f.played.action, style),
                best=_words(f.best.action, style, would=True),
                cost=worth(round(f.cost), unit),
                se=f"{f.se:.1f}",
            )
        )
    return lines


def advice_lines(advice: coach.Advice, style: CardStyle | None = None) -> list[str]:
    """The coach's advice in words: hard's move, then each choice compared with its side's
    expected points, its chance of winning the hand and its difference to hard's move."""
    unit = _("thirds") if advice.unit == "third" else _("points")
    lines = [
        _("hard would {action}").format(action=_words(advice.choice, style, would=True)),
        *margin_lines(advice, style),
        _("estimated over {n} deals consistent with what you have seen:").format(n=advice.samples),
        "",
        f"  {_('choice'):<22.22}{unit:>8}{_('win'):>6}{_('vs hard'):>14}",
    ]
    for e in advice.estimates:
        mark = "*" if e.action == advice.choice else " "
        diff = "" if e.action == advice.choice else f"{e.diff:+.1f} +/- {e.se:.1f}"
        lines.append(f"{mark} {_words(e.action, style):<22.22}{e.points:>8.1f}{e.win:>6.0%}{diff:>14}")
    lines += ["", _("win: the share of the deals where your side wins the hand")]
    return lines


def margin_lines(advice: coach.Advice, style: CardStyle | None = None) -> list[str]:
    """What the table shows beside hard's move: the choices that scored higher on these deals,
    said in words, so that a higher number below does not puzzle. Within the margin (as the
    review judges one: `coach.MARGIN` and `coach.MARGIN_SE` standard errors), they are about
    as good; past it, they scored clearly higher on these deals."""
    higher = [e for e in advice.estimates if e.action != advice.choice and e.diff > 0]
    clear = [e for e in higher if e.diff > coach.MARGIN[advice.unit] and e.diff > coach.MARGIN_SE * e.se]
    close = [e for e in higher if e not in clear]
    lines = []
    if close:
        moves = listing([_card_or_words(e.action, style) for e in close])
        lines.append(_("about as good as {moves}: the higher score there is within the margin").format(moves=moves))
    if clear:
        moves = listing([_card_or_words(e.action, style) for e in clear])
        lines.append(_("{moves} scored clearly higher on these sampled deals").format(moves=moves))
    return lines


def _card_or_words(action: Action, style: CardStyle | None) -> str:
    """A choice as a list names it: a card played by the card alone ("K♥"), any other in words."""
    if action.kind == "play" and action.card is not None:
        return style.card(action.card) if style is not None else str(action.card)
    return _words(action, style)


def review_hand(
    decisions: Sequence[tuple[View, Action]],
    number: int,
    s: int,
    audited: bool,
    out: TextIO,
    err: TextIO,
    seed: int,
    **budget: Unpack[Budget],
) -> None:
    """Review hand `number` for seat `s`: its progress on `err`, each finding on `out` as
    soon as it is found (the first comes long before the end)."""

    def progress(i: int, n: int) -> None:
        err.write("\r" + _("hand {h}, seat {s}: decision {i} of {n}").format(h=number + 1, s=s, i=i, n=n) + "...")
        err.flush()

    def found(finding: coach.Finding) -> None:
        err.write("\r\x1b[K" if err.isatty() else "\n")
        unit = coach.unit_of(state_of(decisions[0][0]))
        for line in hand_lines(coach.Review(s, 0, (finding,), unit)):
            print("  " + line, file=out)
        out.flush()

    print(_("hand {h}, seat {s}:").format(h=number + 1, s=s), file=out)
    if not audited:
        print("  " + _("(not audited: from this seat's secrets on this machine)"), file=out)
    out.flush()
    result = coach.review(decisions, s, seed=seed, progress=progress, found=found, **budget)
    err.write("\r\x1b[K" if err.isatty() else "\n")
    if not result.findings:
        for line in hand_lines(result):
            print("  " + line, file=out)
    out.flush()


def review_file(
    path: str | os.PathLike, seat: int | None, out: TextIO, err: TextIO, seed: int = 0, **budget: Unpack[Budget]
) -> int:
    """Review the transcript at `path` for `seat` (None: every seat); the exit status."""
    try:
        stored = audited_hands(path)
    except ReviewError as error:
        print(f"{PROG}: {error}", file=err)
        return UNREADABLE
    game = stored.game
    if seat is not None and not 0 <= seat < game.players:
        print(
            _("{prog}: no seat {seat} at this table (seats 0 to {last})").format(
                prog=PROG, seat=seat, last=game.players - 1
            ),
            file=err,
        )
        return USAGE
    seats = range(game.players) if seat is None else (seat,)
    opened = {number: (dealer, deal, actions) for number, dealer, deal, actions in stored.audited}
    closed = [number for number in stored.hands if number not in opened]
    own: dict[int, dict[int, list]] = {}
    for s in seats:
        secrets = local_secrets(path, stored, s) if closed else None
        if secrets is not None:
            own[s] = own_decisions(stored.entries, s, secrets)
    if not opened and not own:
        print(_("No hand of this transcript was audited with every card known: nothing to review."), file=out)
        return OK
    for number in stored.hands:
        for s in seats:
            if number in opened:
                dealer, deal, actions = opened[number]
                decisions = coach.seat_decisions(game, dealer, deal, actions, s)
            elif number in own.get(s, {}):
                decisions = own[s][number]
            else:
                print(
                    _("hand {h}, seat {s}: not audited, and this seat's secrets are not on this machine").format(
                        h=number + 1, s=s
                    ),
                    file=out,
                )
                continue
            review_hand(decisions, number, s, number in opened, out, err, seed, **budget)
    return OK
