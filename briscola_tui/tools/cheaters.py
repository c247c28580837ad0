"""Cheating seats and cheating hosts, for `briscola selfplay --cheat` and the tests.

Each cheat is what a hostile player (or host) could really send: a
`TableSession` subclass that overrides what it builds or signs, or a
`LocalTable` subclass for the host's cheats. Where the cheat breaks a rule
the seat's *own* view would refuse (not following suit, hiding the called
card, the two rule), the cheater gets a "lax" view: the same engine state
with that one check switched off for its own moves, so it can go on
playing the hand as a real cheater would. Every other seat, the host and
the spectators are honest, unmodified sessions.

A cheater cheats once, at its first chance (`cheated` is then set), and
plays honestly otherwise.

The cheating seats live in deck_cheats.py (the commit, shuffle, shares and
reveals) and play_cheats.py (the lax views, decisions and forged or
replayed messages); this module holds the cheating hosts and the
catalogue (`CHEATS`) with the choosers `briscola selfplay --cheat` plays
with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.state import Action
from engine.view import SeatView
from protocol.errors import ProtocolError
from protocol.identity import Identity
from protocol.local import LocalTable, Player
from protocol.messages import Join
from protocol.session import TableSession
from protocol.transcript import Entry

from ..language import N_
from .deck_cheats import (
    BadKey,
    BadReveal,
    Cheater,
    Duplicator,
    FalseComplainer,
    GarbageShuffle,
    PositionSwapper,
    Substituter,
    TagCard,
    Withholder,
    WrongPublicShare,
    WrongShare,
)
from .play_cheats import (
    Denier,
    Forger,
    PlayUnheld,
    Reneger,
    Replayer,
    TwoRuleCaller,
    WrongProof,
    off_suit,
    two_rule_call,
)

# --- cheating hosts -------------------------------------------------------------------


class CheatingHost(LocalTable):
    """A table whose host cheats once; `cheated` says whether it has had its chance."""

    cheated = False


class ForkingTable(CheatingHost):
    """A host that shows seat 0 the first hand's commits in one order and every other node in another."""

    forked: TableSession | None = None  # seat 0's session, once the host has forked the history

    def _order_or_fork(self, connection: object, signed: bytes) -> None:
        host = self.host.session
        if self.cheated or host.phase != "commit" or len(self.queue) + 1 < host.players:
            return super().order(connection, signed)
        self.cheated = True
        commits = [signed, *(m for _, m in self.queue)]
        self.queue.clear()
        for node, order in ((self.seats[0], commits), *((n, commits[::-1]) for n in self.nodes[1:])):
            assert node.transcript is not None  # (every node has read the table message)
            for message in order:
                entry = Entry(len(node.transcript.entries), node.transcript.head, message)
                self.deliver(node, entry.signed_by(self.host.identity, self.host.table_id).encode())
        for message in commits[::-1]:  # the host's own log follows the majority
            judged = self.host.judge(message)
            self.entries.append(judged)
            if self.on_entry is not None:
                self.on_entry(judged)
        self.forked = self.seats[0]

    def deliver(self, node: TableSession, entry: bytes) -> None:
        if not self.cheated or node is not self.forked:
            return super().deliver(node, entry)
        # Seat 0 lives in its own history: the host would have to keep it there.
        for failed, _ in self.failures:
            if failed is node:
                return
        try:
            node.receive(entry)
        except ProtocolError as error:  # recorded like any refusal (as `LocalTable.deliver` does)
            self.failures.append((node, error))

    def order(self, connection: object, signed: bytes) -> None:
        if self.forked is not None and connection == 0:
            # The host relays seat 0's next message to the others, to keep the fork going:
            # it echoes a head they never saw, and they name the host.
            for node in self.nodes[1:]:
                assert node.transcript is not None  # (every node has read the table message)
                entry = Entry(len(node.transcript.entries), node.transcript.head, signed)
                super().deliver(node, entry.signed_by(self.host.identity, self.host.table_id).encode())
            return
        return self._order_or_fork(connection, signed)


class HijackTable(CheatingHost):
    """A host that seats a puppet key in seat `victim` before its player's join arrives."""

    victim = 1

    def start(self) -> None:
        self.broadcast(self.host.open())
        identity = Identity.generate()
        puppet = TableSession(self.victim, identity, "puppet")
        puppet.transcript, puppet.keys = self.host.transcript, dict(self.host.session.keys)
        self.cheated = True
        self.broadcast(self.host.submit(puppet.sign(Join(identity.public_bytes, "puppet"))).entry)
        for seat in self.seats:
            self.send(seat.seat, seat.start().messages)
        self.pump()


# --- the catalogue --------------------------------------------------------------------


@dataclass(frozen=True)
class Cheat:
    """One kind of cheat: who commits it, where it can happen, how it is caught."""

    session: type[Cheater] | None  # the cheating seat's class (None: the host cheats)
    table: type[LocalTable] = LocalTable
    games: tuple[str, ...] = ("briscola", "chiamata", "calabresella")
    seat: int | None = None  # a seat the cheat needs (the first to shuffle)
    short_deck: bool = False  # needs a game that leaves some cards out
    transcript_names: bool = True  # does `briscola verify` of the transcript name the culprit?
    what: str = ""


CHEATS: dict[str, Cheat] = {
    "play-unheld": Cheat(PlayUnheld, what=N_("plays a card from a deck position it does not hold")),
    "duplicate": Cheat(Duplicator, what=N_("copies one encrypted card over another in its shuffle")),
    "substitute": Cheat(
        Substituter,
        seat=0,
        games=("briscola",),
        short_deck=True,
        what=N_("swaps a card of the game for one the game leaves out"),
    ),
    "garbage-shuffle": Cheat(
        GarbageShuffle, what=N_("publishes a shuffled deck holding a value that is no card point")
    ),
    "bad-key": Cheat(BadKey, what=N_("commits with a sealing key that is no curve point")),
    "wrong-share": Cheat(WrongShare, what=N_("sends another seat a wrong key share")),
    "false-complaint": Cheat(FalseComplainer, what=N_("complains about a right key share another seat sealed it")),
    "wrong-public-share": Cheat(
        WrongPublicShare, games=("briscola",), what=N_("publishes a wrong key share for the face-up card")
    ),
    "swap-positions": Cheat(PositionSwapper, what=N_("swaps two positions of the deck in its phase-2 step")),
    "bad-reveal": Cheat(BadReveal, what=N_("reveals a seed other than the one it committed to")),
    "renege": Cheat(Reneger, games=("calabresella",), what=N_("does not follow suit while holding the suit led")),
    "false-denial": Cheat(Denier, games=("calabresella",), what=N_("denies holding the called card in a Chiamo")),
    "two-rule": Cheat(
        TwoRuleCaller, games=("chiamata",), what=N_("bids 2 and calls a low trump without holding the 2")
    ),
    "wrong-proof": Cheat(WrongProof, what=N_("plays one card and proves another")),
    "tag-card": Cheat(TagCard, seat=0, what=N_("hides a marked point in place of a card, to follow it")),
    "withhold-reveal": Cheat(Withholder, what=N_("never sends its reveal after the hand")),
    "replay": Cheat(Replayer, transcript_names=False, what=N_("sends one of its old messages again")),
    "forge": Cheat(Forger, transcript_names=False, what=N_("sends a message in another seat's name")),
    "host-fork": Cheat(None, ForkingTable, transcript_names=False, what=N_("shows two seats different histories")),
    "seat-hijack": Cheat(None, HijackTable, transcript_names=False, what=N_("seats a puppet key in a player's seat")),
}


def cheat_chooser(kind: str, cheater: Cheater, fallback: Player) -> Player:
    """The player a cheating seat plays with: its cheat where the player picks it."""
    if kind == "false-denial":
        return lambda view, rng: next((a for a in view.legal if a.kind == "pass"), None) or fallback(view, rng)
    if kind == "renege":
        rule = off_suit(cheater)
        return lambda view, rng: rule(view) or fallback(view, rng)
    if kind == "two-rule":

        def choose(view: SeatView, rng: random.Random) -> Action:
            if view.phase == "auction" and not cheater.cheated:
                # The 2, or after another seat's 2 the lowest "2 with a target".
                twos = [a for a in view.legal if a.kind == "bid" and a.rank == "2"]
                if twos:
                    return min(twos, key=lambda a: a.target or 0)
            if view.phase == "call" and not cheater.cheated:
                card = two_rule_call(view.hand)
                if card is not None and view.seat is not None:  # (a player's view has its seat)
                    cheater.cheated = True
                    return Action(view.seat, "call", card)
            return fallback(view, rng)

        return choose
    return fallback


def honest_chooser(kind: str, seed: int) -> Player:
    """How the honest computer players play beside a cheat: they pass most
    auctions (so a cheater's bid can win), except beside a false denial,
    where they bid a Chiamo and call a card at random (so the cheater, a
    defender, may be asked for one it holds)."""
    if kind != "false-denial":
        return shy_chooser(seed)
    rng = random.Random(seed)

    def choose(view: SeatView, _rng: random.Random) -> Action:
        if view.phase == "auction":
            chiamo = [a for a in view.legal if a.kind == "bid" and a.contract == "chiamo"]
            return chiamo[0] if chiamo else next(a for a in view.legal if a.kind == "pass")
        return rng.choice(view.legal)

    return choose


def shy_chooser(seed: int) -> Player:
    """A random player that passes most auctions (so a cheater's bid can win)."""
    rng = random.Random(seed)

    def choose(view: SeatView, _rng: random.Random) -> Action:
        passes = [a for a in view.legal if a.kind == "pass"]
        if passes and rng.random() < 0.9:
            return passes[0]
        return rng.choice(view.legal)

    return choose
