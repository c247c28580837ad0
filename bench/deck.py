"""Benchmark the deck cipher against its floor: ops × the cost of one op.

    python bench/deck.py          # human-readable
    python bench/deck.py --json   # {"players5": {...}, "players2": {...}, "audit5_ms": ...}

One op is the honest minimum for x(k·P) from bytes to bytes: decoding the
point plus one ECDH `exchange` with an already prepared key. A deal is a
full shuffle (phase 1 and 2 by every seat) plus every position opened by its
owner with all seats' key shares; the target is deal / floor ≤ 1.5.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

from protocol import deck  # noqa: E402

REPEATS = 11
OP_SAMPLES = 3000


def _median_ns(fn, samples: int) -> float:
    """Median wall time of one call to fn, in nanoseconds."""
    clock = time.perf_counter_ns
    times = []
    for _ in range(samples):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def one_op_ms() -> float:
    """Median exchange with a prepared key + median point decode, in ms."""
    key = ec.derive_private_key(deck.SeatSecrets.generate().phase1_key, deck.CURVE)
    encoded = b"\x02" + deck.card_point(0)
    point = ec.EllipticCurvePublicKey.from_encoded_point(deck.CURVE, encoded)
    ecdh = ec.ECDH()
    exchange = _median_ns(lambda: key.exchange(ecdh, point), OP_SAMPLES)
    decode = _median_ns(
        lambda: ec.EllipticCurvePublicKey.from_encoded_point(deck.CURVE, encoded), OP_SAMPLES
    )
    return (exchange + decode) / 1e6


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
    t0 = time.perf_counter()
    published = shuffle(start, seats)
    final = published[-1]
    for p, x in enumerate(final):
        # The owner (seat p % n) combines its own share with the others'.
        deck.open_card(x, deck.combine(deck.key_share(s, p) for s in seats))
    return (time.perf_counter() - t0) * 1e3, seats, published


def measure_deal(n_players: int, n_cards: int, op_ms: float) -> dict:
    """Median deal time over REPEATS runs, against the floor."""
    times = [deal(n_players, n_cards)[0] for _ in range(REPEATS)]
    deal_ms = statistics.median(times)
    floor_ms = deck.ops_for_deal(n_players, n_cards, n_cards, 0) * op_ms
    return {"deal_ms": deal_ms, "floor_ms": floor_ms, "ratio": deal_ms / floor_ms}


def audit_ms(n_players: int, n_cards: int) -> float:
    """Median time of replay_shuffle + decrypt_deck after a hand."""
    times = []
    for _ in range(REPEATS):
        _, seats, published = deal(n_players, n_cards)
        start = deck.start_deck(range(n_cards))
        # The audit starts from revealed seeds: fresh objects, no caches.
        revealed = [deck.SeatSecrets(s.seed) for s in seats]
        t0 = time.perf_counter()
        bad = deck.replay_shuffle(start, list(enumerate(revealed)), published)
        deck.decrypt_deck(published[-1], revealed)
        times.append((time.perf_counter() - t0) * 1e3)
        assert bad == []
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else print

    deck.card_point(0)  # build the card table outside the timings
    op_ms = one_op_ms()
    say(f"one op (decode + exchange): {op_ms * 1e3:.1f} µs")
    results = {}
    for n in (5, 2):
        r = measure_deal(n, 40, op_ms)
        results[f"players{n}"] = r
        ops = deck.ops_for_deal(n, 40, 40, 0)
        say(
            f"{n} players / 40 cards: {ops} ops, deal {r['deal_ms']:.1f} ms, "
            f"floor {r['floor_ms']:.1f} ms, ratio {r['ratio']:.2f}"
        )
    results["audit5_ms"] = audit_ms(5, 40)
    say(f"audit, 5 players (replay_shuffle + decrypt_deck): {results['audit5_ms']:.1f} ms")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
