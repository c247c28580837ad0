"""Cheating seats that tamper with the deck's messages: the commit, the
shuffle steps, the key shares of the deal and the reveals (and the coin).

Each overrides one of `TableSession`'s builders (`make_commit`,
`make_shuffle`, `make_deal`, `make_reveal`, `make_coin_reveal`) and sends
what a hostile seat could really send. `Cheater`, the base of every
cheating seat, is here too. The catalogue is in cheaters.py.
"""

from __future__ import annotations

import secrets as _secrets
from dataclasses import replace

from engine.cards import Card
from engine.state import PUBLIC
from protocol import deck as mp
from protocol.codec import encode
from protocol.identity import seal
from protocol.messages import CoinReveal, Commit, Reveal, Shares, Shuffle
from protocol.session import TableSession
from protocol.wire import scalar_bytes, seal_aad

# --- the base of every cheating seat --------------------------------------------------


class Cheater(TableSession):
    """A seat that cheats once; `cheated` says whether it has had its chance."""

    cheated = False


# --- cheats at once: refused with the message kept as evidence ------------------------


class ShuffleSpoiler(Cheater):
    """Publishes its deck of `spoiled_phase` after `spoil` has changed it (once), with the
    proof it made for the deck before (see `_spoiled`)."""

    spoiled_phase = 1

    def spoil(self, deck: list[bytes]) -> None:  # pragma: no cover - each cheat has its own
        raise NotImplementedError

    def make_shuffle(self) -> Shuffle:
        message = super().make_shuffle()
        if message.phase != self.spoiled_phase or self.cheated:
            return message
        self.cheated = True
        deck = list(message.deck)
        self.spoil(deck)
        return self._spoiled(message, deck)

    def _spoiled(self, message: Shuffle, deck: list[bytes]) -> Shuffle:
        return Shuffle(message.hand, message.phase, tuple(deck), message.proof)


class Duplicator(ShuffleSpoiler):
    """In its phase-1 shuffle, writes one encrypted card over another."""

    def spoil(self, deck: list[bytes]) -> None:
        deck[1] = deck[0]


class GarbageShuffle(ShuffleSpoiler):
    """Publishes a phase-1 deck with a value that is no curve point."""

    def spoil(self, deck: list[bytes]) -> None:
        deck[0] = b"\x02" + b"\xff" * 32  # x above the field prime: no point has it


class BadKey(Cheater):
    """Commits with a sealing key that is no curve point (x above the field prime): nobody
    could agree a pair key with it, so its commit is refused."""

    def make_commit(self) -> Commit:
        message = super().make_commit()
        if self.cheated:
            return message
        self.cheated = True
        return replace(message, seal_key=b"\x02" + b"\xff" * 32)


class Substituter(Cheater):
    """First to shuffle: swaps card `victim` for card `extra` (one the game leaves
    out), and proves its step as best it can (the honest prover on a false
    statement: the proof fails)."""

    victim = Card("A", "D").index
    extra: int | None = None

    def make_shuffle(self) -> Shuffle:
        hand, game, secrets = self.hand, self.game, self.secrets
        assert hand is not None and game is not None and secrets is not None  # (a shuffle is a hand's)
        if hand.shuffles or self.cheated:
            return super().make_shuffle()
        self.cheated = True
        start = [c.index for c in game.deck()]
        extra = self.extra if self.extra is not None else next(c for c in range(40) if c not in start)
        start[start.index(self.victim)] = extra
        return self.prove_shuffle(1, self.shuffle_input(), mp.shuffle_phase1(mp.start_deck(start), secrets))


class TagCard(Cheater):
    """First to shuffle: hides a point of its own making in place of a card, to
    follow it (proved as best it can: the proof fails)."""

    def make_shuffle(self) -> Shuffle:
        hand, game, secrets = self.hand, self.game, self.secrets
        assert hand is not None and game is not None and secrets is not None  # (a shuffle is a hand's)
        if hand.shuffles or self.cheated:
            return super().make_shuffle()
        self.cheated = True
        start = mp.start_deck([c.index for c in game.deck()])
        start[0] = mp.mul(start[0], 7)  # a valid point, but no card: only its maker can tell it
        return self.prove_shuffle(1, self.shuffle_input(), mp.shuffle_phase1(start, secrets))


class PositionSwapper(ShuffleSpoiler):
    """Swaps two positions in its phase-2 deck (phase 2 must not move a card),
    proving each position as best it can."""

    spoiled_phase = 2

    def spoil(self, deck: list[bytes]) -> None:
        deck[0], deck[1] = deck[1], deck[0]

    def _spoiled(self, message: Shuffle, deck: list[bytes]) -> Shuffle:
        return self.prove_shuffle(2, self.shuffle_input(), deck)


class WrongPublicShare(Cheater):
    """Publishes a wrong key share for the face-up Briscola card."""

    def make_deal(self) -> Shares:
        message = super().make_deal()
        if message.step != 0 or self.cheated or not message.public:
            return message
        self.cheated = True
        secrets = self.secrets
        assert secrets is not None  # (it dealt)
        public = tuple((p, scalar_bytes(mp.key_share(secrets, p) * 3 % mp.ORDER)) for p, _ in message.public)
        return Shares(message.hand, message.step, message.sealed, public)


# --- cheats named at the audit --------------------------------------------------------


class WrongShare(Cheater):
    """Sends `victim` (the next seat by default) a wrong key share in the deal."""

    victim: int | None = None

    def make_deal(self) -> Shares:
        hand, seat, secrets, transcript = self.hand, self.seat, self.secrets, self.transcript
        assert hand is not None and seat is not None and secrets is not None and transcript is not None  # (a deal)
        step = hand.steps[-1]
        victim = self.victim if self.victim is not None else (seat + 1) % self.players
        if self.cheated or step.number != 0 or victim not in step.audiences:
            return super().make_deal()
        self.cheated = True
        by_seat: dict[int, list] = {}
        public = []
        spoiled = False
        for p, audience in zip(step.positions, step.audiences):
            k = mp.key_share(secrets, p)
            if audience == victim and not spoiled:
                k = k * 2 % mp.ORDER
                spoiled = True
                self.spoiled_position = p
            if audience == PUBLIC:
                public.append((p, scalar_bytes(k)))
            elif audience != seat:
                by_seat.setdefault(audience, []).append((p, scalar_bytes(k)))
        sealed = []
        for recipient, pairs in sorted(by_seat.items()):
            aad = seal_aad(transcript.table_id, hand.number, step.number, seat, recipient)
            sealed.append((recipient, seal(self.pair_key(recipient), encode([list(x) for x in pairs]), aad)))
        return Shares(hand.number, step.number, tuple(sealed), tuple(public))


class BadReveal(Cheater):
    """Reveals a seed other than the one it committed to."""

    def make_reveal(self) -> Reveal | None:
        message = super().make_reveal()
        if message is None or self.cheated:
            return message
        self.cheated = True
        return Reveal(message.hand, _secrets.token_bytes(32))


class BadCoin(Cheater):
    """Reveals a coin value other than the one it committed to."""

    def make_coin_reveal(self) -> CoinReveal:
        self.cheated = True
        return type(super().make_coin_reveal())(bytes(32))


class Withholder(Cheater):
    """Never sends its reveal at the end of a hand (the host times it out)."""

    def make_reveal(self) -> Reveal | None:
        if self.phase == "reveal" and self.hand is not None and not self.hand.findings and self.complaint is None:
            self.cheated = True
            return None
        return super().make_reveal()


class FalseComplainer(Cheater):
    """Complains about the right key shares another seat (the previous one by default)
    sealed it in the deal: its complaint's proof holds, the blob opens to the right
    shares, so every node names the complainer."""

    accused: int | None = None

    def outgoing(self) -> list[bytes]:
        hand, seat = self.hand, self.seat
        if not self.cheated and hand is not None and seat is not None and self.phase in ("deal", "play") and hand.steps:
            step = hand.steps[0]
            accused = self.accused if self.accused is not None else (seat - 1) % self.players
            if len(step.shares) == self.players and seat in dict(step.shares[accused].sealed):
                self.cheated = True
                self._complaint = f"seat {accused} sealed me a wrong share (it did not)"
                self._sealed_fault = (step.number, accused)
        return super().outgoing()
