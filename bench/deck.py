"""Benchmark the deck cipher against its floor: the same ops, bare.

    python bench/deck.py          # human-readable
    python bench/deck.py --json   # {"players5": {...}, "players2": {...}, "audit5_ms": ...}

One op is the honest minimum for x(k·P) from bytes to bytes: decoding the
point plus one ECDH `exchange` with an already prepared key. A deal is a
full shuffle (phase 1 and 2 by every seat) plus every position opened by its
owner with all seats' key shares; its floor is a batch of as many ops
(`deck.ops_for_deal`), each on a different point. Deals and floor batches
alternate in one run (deal, floor, deal, floor, ...) so that a machine
busy with something else slows both alike; the ratio is the median of the
ratios of each deal to the floor batch measured right after it. The target
is deal / floor <= 1.5.

Times are CPU time of this process (`time.process_time`), not wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

from protocol import deck  # noqa: E402

REPEATS = 11
TARGET_RATIO = 1.5
clock = time.process_time


def floor_points(count: int) -> list[bytes]:
    """`count` different encoded points (the card points under random keys)."""
    points = []
    while len(points) < count:
        key = 1 + secrets.randbelow(deck.ORDER - 1)
        points += [b"\x02" + x for x in deck.mul_many(deck.start_deck(range(40)), key)]
    return points[:count]


def floor_batch_ms(points: list[bytes]) -> float:
    """CPU time of one op (decode + exchange with a prepared key) per point."""
    key = ec.derive_private_key(1 + secrets.randbelow(deck.ORDER - 1), deck.CURVE)
    ecdh = ec.ECDH()
    decode = ec.EllipticCurvePublicKey.from_encoded_point
    curve = deck.CURVE
    t0 = clock()
    for encoded in points:
        key.exchange(ecdh, decode(curve, encoded))
    return (clock() - t0) * 1e3


def shuffle(start: list[bytes], seats: list[deck.SeatSecrets]) -> list[list[bytes]]:
    """Every seat's phase 1 then phase 2; returns all published decks."""
    published = []
    xs = start
    for s in seats:
        deck.check_distinct(xs)
        xs = deck.shuffle_phase1(xs, s)
        published.append(xs)
    for s in seats:
        xs = deck.shuffle_phase2(xs, s)
        published.append(xs)
    return published


def deal(n_players: int, n_cards: int) -> tuple[float, list[deck.SeatSecrets], list[list[bytes]]]:
    """One shuffle plus private deal of every position; (ms, seats, published)."""
    seats = [deck.SeatSecrets.generate() for _ in range(n_players)]
    start = deck.start_deck(range(n_cards))
    t0 = clock()
    published = shuffle(start, seats)
    final = published[-1]
    for p, x in enumerate(final):
        # The owner (seat p % n) combines its own share with the others'.
        deck.open_card(x, deck.combine(deck.key_share(s, p) for s in seats))
    return (clock() - t0) * 1e3, seats, published


def measure_deal(n_players: int, n_cards: int) -> dict:
    """REPEATS deals, each followed by a floor batch of the same ops: medians."""
    points = floor_points(deck.ops_for_deal(n_players, n_cards, n_cards, 0))
    deals, floors = [], []
    for _ in range(REPEATS):
        deals.append(deal(n_players, n_cards)[0])
        floors.append(floor_batch_ms(points))
    ratios = [d / f for d, f in zip(deals, floors)]
    return {"deal_ms": statistics.median(deals), "floor_ms": statistics.median(floors),
            "ratio": statistics.median(ratios)}


def audit_ms(n_players: int, n_cards: int) -> float:
    """Median time of replay_shuffle + decrypt_deck after a hand."""
    times = []
    for _ in range(REPEATS):
        _, seats, published = deal(n_players, n_cards)
        start = deck.start_deck(range(n_cards))
        # The audit starts from revealed seeds: fresh objects, no caches.
        revealed = [deck.SeatSecrets(s.seed) for s in seats]
        t0 = clock()
        bad = deck.replay_shuffle(start, list(enumerate(revealed)), published)
        deck.decrypt_deck(published[-1], revealed)
        times.append((clock() - t0) * 1e3)
        assert bad == []
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else print

    deck.card_point(0)  # build the card table outside the timings
    results = {}
    for n in (5, 2):
        r = measure_deal(n, 40)
        results[f"players{n}"] = r
        ops = deck.ops_for_deal(n, 40, 40, 0)
        verdict = "ok" if r["ratio"] <= TARGET_RATIO else "ABOVE"
        say(
            f"{n} players / 40 cards: {ops} ops, deal {r['deal_ms']:.1f} ms, "
            f"floor {r['floor_ms']:.1f} ms ({r['floor_ms'] / ops * 1e3:.1f} µs per op), "
            f"ratio {r['ratio']:.2f} (target <= {TARGET_RATIO}: {verdict})"
        )
    results["audit5_ms"] = audit_ms(5, 40)
    say(f"audit, 5 players (replay_shuffle + decrypt_deck): {results['audit5_ms']:.1f} ms")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
