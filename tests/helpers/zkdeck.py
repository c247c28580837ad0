"""A real dealt deck for the tests of the proofs about hidden cards (tests/test_zk_*.py).

Every seat's SeatSecrets, both shuffle phases with their step proofs checked,
and each holder's keys rebuilt from the key shares it receives (each checked
against the sender's committed position key), as a seat does at the table.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from protocol import deck, stepproofs
from protocol.curve import ORDER
from protocol.hidden_claims import Holding

TABLE = bytes(range(16))
N_POSITIONS = 40


@dataclass
class Dealt:
    seats: list[deck.SeatSecrets]
    final: list[bytes]  # the final deck D_0..D_39
    position_keys: list[tuple[bytes, ...]]  # position_keys[j][i] = K_{j,i}
    cards: list[int]  # the truth, for the tests only
    owner: list[int]  # the seat that holds each position

    @property
    def n(self) -> int:
        return len(self.seats)

    def positions(self, seat: int, count: int | None = None) -> list[int]:
        held = [i for i, o in enumerate(self.owner) if o == seat]
        return held if count is None else held[:count]

    def keys(self, seat: int, position: int) -> list[int]:
        """Every seat's key for `position` as its holder knows them: its own, the others' from their shares."""
        out = []
        for j, s in enumerate(self.seats):
            if j == seat:
                out.append(s.card_key(position))
                continue
            share = deck.key_share(s, position)
            assert deck.check_share(self.position_keys[j][position], share)
            out.append(pow(share, -1, ORDER))
        return out

    def holding(self, seat: int, positions: list[int]) -> Holding:
        return Holding({i: self.keys(seat, i) for i in positions})

    def openings(self, seat: int, positions: list[int]) -> dict[int, int]:
        """position -> s_i = k_i⁻¹, from the shares received and the holder's own."""
        out = {}
        for i in positions:
            s = deck.combine(pow(k, -1, ORDER) for k in self.keys(seat, i))
            assert deck.open_card(self.final[i], s) == self.cards[i]
            out[i] = s
        return out

    def secret_scalars(self) -> list[int]:
        """Every scalar a proof must not carry: each key, each share, each combined key and opening."""
        out = []
        for i in range(N_POSITIONS):
            ks = [s.card_key(i) for s in self.seats]
            out += ks + [pow(k, -1, ORDER) for k in ks]
            k = deck.combine(ks)
            out += [k, pow(k, -1, ORDER)]
        out += [s.phase1_key for s in self.seats]
        return out


@functools.cache
def dealt(n_seats: int, seed: int = 0) -> Dealt:
    """The shared deck of a test module (built once a process; the tests must not change it)."""
    return deal(n_seats, seed)


def deal(n_seats: int, seed: int, hand_sizes: list[int] | None = None) -> Dealt:
    """A shuffled, proved and dealt 40-card deck for `n_seats`; positions go to seats in blocks.

    hand_sizes: how many positions each seat holds, in seat order, the rest
    (if any) left undealt (owner -1); default: 40 shared evenly."""
    rng = random.Random(seed)
    seats = [deck.SeatSecrets(rng.randbytes(32)) for _ in range(n_seats)]
    keys = [s.public_keys(N_POSITIONS) for s in seats]
    xs = deck.start_deck(range(N_POSITIONS))
    for phase in (1, 2):
        for j, s in enumerate(seats):
            out = (deck.shuffle_phase1 if phase == 1 else deck.shuffle_phase2)(xs, s)
            ctx = stepproofs.context(TABLE, 0, j, phase, keys[j], xs, out)
            stepproofs.check(ctx, phase, keys[j], xs, out, stepproofs.prove(ctx, phase, s, keys[j], xs, out))
            xs = out
    sizes = hand_sizes or [N_POSITIONS // n_seats] * n_seats
    owner = [-1] * N_POSITIONS
    start = 0
    for j, size in enumerate(sizes):
        for i in range(start, start + size):
            owner[i] = j
        start += size
    return Dealt(seats, xs, [k[1] for k in keys], deck.decrypt_deck(xs, seats), owner)
