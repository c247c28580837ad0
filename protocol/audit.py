"""The end-of-hand audit: every secret revealed, every message checked.

Once every seat has revealed its seed, anyone holding the transcript can
recompute everything a seat did in the hand: check the seed against its
commitment, replay each shuffle step, decrypt the whole deck, open every
sealed key share and compare it with the share the seed gives, and replay
the hand through the rules engine with every card known. The verdict names
each seat that broke a rule, with the transcript entry that proves it.
"""

from __future__ import annotations

from engine.cards import Card
from engine.deal import DealPlan
from engine.game import Game
from engine.state import CHANCE, Action, IllegalAction, State

from . import deck as mp
from .errors import ProtocolError
from .messages import Act, Handover, Shares
from .records import HandRecord, Step
from .sealing import hand_pair_key, open_shares
from .verdict import ABSENT, CHEAT, Culprit, Verdict
from .wire import action_from_wire, commit_context, scalar_int

__all__ = ["ABSENT", "CHEAT", "Culprit", "Verdict", "audit_hand"]


def audit_hand(game: Game, table_id: bytes, hand: HandRecord, plan: DealPlan) -> Verdict:
    """Check one hand of a transcript (`hand` is the session's HandRecord).

    What the session already proved (`hand.findings`: evidence of a refused
    message, a seat timed out) comes first; then every revealed seed is
    checked as far as the revealed seeds allow. A seat that committed but
    never revealed (it was timed out) leaves the deck closed: its shuffle
    steps and public shares cannot be checked against its seed and the hand
    cannot be replayed, but everything the others did still is, and so is
    every share it sealed to a seat that revealed (that seat's seed opens
    the blob: `_wrong_to_revealed`).
    """
    verdict = Verdict(hand.number, list(hand.findings))
    _check_revealed(game, table_id, hand, plan, verdict)
    return verdict


def _check_revealed(game: Game, table_id: bytes, hand: HandRecord, plan: DealPlan, verdict: Verdict) -> None:
    blame = verdict.culprits.append
    secrets: dict[int, mp.SeatSecrets] = {}
    x_keys = {}
    for seat, (seed, entry) in sorted(hand.reveals.items()):
        commit = hand.commits.get(seat)
        if commit is None:
            continue
        if not mp.check_commitment(seed, commit_context(table_id, hand.number, seat), commit[0].commitment):
            blame(Culprit(seat, "revealed seed does not match its commitment", entry))
            continue
        s = mp.SeatSecrets(seed)
        x_keys[seat] = s.seal_key
        if s.seal_public != commit[0].seal_key:
            blame(Culprit(seat, "its sealing key is not the one its seed gives", commit[1]))
            continue
        if s.public_keys(plan.size) != (commit[0].phase1_key, commit[0].position_keys):
            blame(Culprit(seat, "its committed deck keys are not the ones its seed gives", commit[1]))
            continue
        secrets[seat] = s
    if len(verdict.culprits) > len(hand.findings):
        return
    n = game.players
    complete = len(secrets) == n
    if len(hand.shuffles) < 2 * n and complete:
        _check_deck(game, hand, secrets, verdict, complete=False)
        if not verdict.culprits:
            _blame_stopper(hand, verdict)
        return
    cards = _check_deck(game, hand, secrets, verdict, complete)
    if cards is None and complete:
        return
    _check_shares(table_id, hand, secrets, x_keys, verdict)
    if not complete:
        _blame_partial_stopper(game, hand, secrets, verdict)
        return
    if verdict.culprits:
        return
    assert cards is not None  # every seat revealed: the deck opened
    _replay(game, hand, plan, cards, verdict)


def _check_deck(
    game: Game, hand: HandRecord, secrets: dict[int, mp.SeatSecrets], verdict: Verdict, complete: bool
) -> list[int] | None:
    """Replay every shuffle step whose seat revealed; decrypt the deck when all did."""
    start = mp.start_deck([c.index for c in game.deck()])
    order = [seat for seat, _, _ in hand.shuffles[: game.players]]
    published = [list(msg.deck) for _, msg, _ in hand.shuffles]
    entries = {(seat, msg.phase): entry for seat, msg, entry in hand.shuffles}
    bad = mp.replay_shuffle(start, [(seat, secrets.get(seat)) for seat in order], published)
    for seat, phase in bad:
        verdict.culprits.append(
            Culprit(
                seat,
                f"its phase-{phase} shuffle is not what its secrets give (a substituted, duplicated or marked card)",
                entries[(seat, phase)],
            )
        )
    if bad or not complete or len(published) < 2 * game.players:
        return None
    try:
        return mp.decrypt_deck(published[-1], [secrets[s] for s in range(game.players)])
    except mp.DeckError as error:  # pragma: no cover - replay_shuffle catches this first
        verdict.culprits.append(Culprit(order[-1], str(error), entries[(order[-1], 2)]))
        return None


def _check_shares(
    table_id: bytes, hand: HandRecord, secrets: dict[int, mp.SeatSecrets], x_keys: dict[int, int], verdict: Verdict
) -> None:
    keys: dict[tuple[int, int], bytes] = {}

    def sealing_key(sender: int, recipient: int) -> bytes:
        if (sender, recipient) not in keys:
            their = hand.commits[recipient][0].seal_key
            keys[(sender, recipient)] = hand_pair_key(table_id, hand.number, sender, x_keys[sender], recipient, their)
        return keys[(sender, recipient)]

    for step in hand.steps:
        for sender, msg in step.shares.items():
            entry = hand.share_entries[(step.number, sender)]
            s = secrets.get(sender)
            if s is None:
                if _wrong_to_revealed(table_id, hand, step, sender, msg, secrets, x_keys):
                    verdict.culprits.append(Culprit(sender, "sent a wrong key share", entry))
                continue
            wrong = any(scalar_int(k) != mp.expected_share(s, p) for p, k in msg.public)
            for recipient, blob in msg.sealed:
                want = {p for p, a in zip(step.positions, step.audiences) if a == recipient}
                try:
                    pairs = open_shares(
                        sealing_key(sender, recipient), table_id, hand.number, step.number, sender, recipient, blob
                    )
                except ProtocolError:
                    wrong = True
                    continue
                if set(pairs) != want or any(pairs[p] != mp.expected_share(s, p) for p in want):
                    wrong = True
            if wrong:
                verdict.culprits.append(Culprit(sender, "sent a wrong key share", entry))


def _wrong_to_revealed(
    table_id: bytes,
    hand: HandRecord,
    step: Step,
    sender: int,
    msg: Shares,
    secrets: dict[int, mp.SeatSecrets],
    x_keys: dict[int, int],
) -> bool:
    """Did `sender`, which never revealed, seal a wrong share to a seat that did?

    The recipient's revealed seed gives its sealing key u, which opens the blob (the pair
    key is the same from either side); each share in it must be the inverse of the
    sender's committed position key, as the recipient checked when it arrived. So a
    wrong sealed share is proved even when its sender withholds its seed."""
    position_keys = hand.commits[sender][0].position_keys
    their = hand.commits[sender][0].seal_key
    for recipient, blob in msg.sealed:
        if recipient not in secrets:
            continue  # nobody can open it: neither end revealed a seed
        want = {p for p, a in zip(step.positions, step.audiences) if a == recipient}
        try:
            key = hand_pair_key(table_id, hand.number, recipient, x_keys[recipient], sender, their)
            pairs = open_shares(key, table_id, hand.number, step.number, sender, recipient, blob)
        except ProtocolError:
            return True
        if set(pairs) != want or not all(mp.check_share(position_keys[p], pairs[p]) for p in want):
            return True
    return False


def _blame_partial_stopper(game: Game, hand: HandRecord, secrets: dict[int, mp.SeatSecrets], verdict: Verdict) -> None:
    """A hand stopped by an early reveal and then left by a seat that never revealed.

    The stopper is named for stopping without cause only where its own seed proves it
    had none: nothing else proved against anyone (a wrong share sealed to it is found
    above, naming the sender), and a game in which only a key share can give cause
    (`Game.SHARES_ONLY_CAUSE`: Briscola). Elsewhere it is not named: not Chiamata nor
    Calabresella, as before protocol version 3, when a two-rule call was seen by the holder
    of the 2 alone, and a partial audit would have to replay the stopper's own view, which
    it does not. (Since version 3 every rule about hidden cards is proved at its message,
    so these games could join; the stopped-hand tests of Calabresella rely on them not
    being named yet.)"""
    if hand.stopped is None or not game.SHARES_ONLY_CAUSE or verdict.cheats:
        return
    seat, entry = hand.stopped
    if seat in secrets:
        verdict.culprits.append(Culprit(seat, "stopped the hand without cause", entry))


def _replay(game: Game, hand: HandRecord, plan: DealPlan, cards: list[int], verdict: Verdict) -> None:
    """Play the hand again with every card known; name any rule broken."""
    deck = [Card.from_index(c) for c in cards]
    verdict.deal = plan.deal(deck)
    state = game.new_hand(hand.dealer, verdict.deal)
    handovers: list = []
    for entry, seat, kind, msg in hand.moves:
        if kind == "handover":
            handovers.append((entry, seat, msg))
            if len(handovers) < 2:
                continue
            if not _check_handover(state, handovers, verdict):
                return
            state.apply(state.chance_outcome())
            handovers = []
            continue
        _resolve_plain_chance(state)
        action = _full_action(seat, msg, deck)
        try:
            state.apply(action)
        except IllegalAction as error:
            verdict.culprits.append(Culprit(seat, f"illegal action: {error}", entry))
            return
    _resolve_plain_chance(state)
    if state.is_over():
        verdict.outcome = state.outcome()
    else:
        _blame_stopper(hand, verdict)


def _resolve_plain_chance(state: State) -> None:
    while state.current_player() == CHANCE and state.need().kind != "handover":
        state.apply(state.chance_outcome())


def _check_handover(state: State, handovers: list[tuple[int, int, Handover]], verdict: Verdict) -> bool:
    _resolve_plain_chance(state)
    holder = state.chance_outcome().holder
    claimed = [seat for _, seat, msg in handovers if msg.proof is not None]
    if holder is not None and holder not in claimed:
        entry = next(e for e, seat, _ in handovers if seat == holder)
        verdict.culprits.append(Culprit(holder, "falsely denied holding the called card", entry))
        return False
    return True


def _full_action(seat: int, msg: Act, deck: list[Card]) -> Action:
    if msg.action[0] == "discard":
        return action_from_wire(seat, msg.action, tuple(deck[p] for p in msg.positions))
    return action_from_wire(seat, msg.action)


def _blame_stopper(hand: HandRecord, verdict: Verdict) -> None:
    """A hand stopped early with nothing else wrong: the first seat to reveal stopped it."""
    if not hand.reveals or verdict.culprits:
        return
    seat, (_, entry) = min(hand.reveals.items(), key=lambda item: item[1][1])
    verdict.culprits.append(Culprit(seat, "stopped the hand without cause", entry))
