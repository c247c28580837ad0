"""Benchmark the deck: the deal against its floor, each proof, and a whole hand with every proof.

    python -m bench.deck          # human-readable
    python -m bench.deck --json   # {"players5": {...}, "players2": {...}, "audit5_ms": ...}

For 2 and 5 players, 40 cards:

- **deal / floor**: a deal without proofs is a full shuffle (phase 1 and 2
  by every seat) plus every position opened by its owner with all seats' key
  shares. Its floor is a batch of as many bare curve operations
  (`deck.ops_for_deal`), each on a different point; one op is the honest
  minimum for k·P from bytes to bytes with the same library: parse the
  33-byte point, multiply, serialise (coincurve, no checks of ours). Deals
  and floor batches alternate in one run (deal, floor, deal, floor, ...) so
  that a machine busy with something else slows both alike; the ratio is the
  median of the ratios of each deal to the floor batch measured right after
  it. Target: deal / floor <= 1.25.
- **proofs**: each proof made and checked on its own (medians): the phase-1
  shuffle argument, the 40 phase-2 Chaum–Pedersen proofs, a seat's commit
  keys (41 base multiplications), the public-share check of one position.
- **hand**: one hand's whole deck work with every proof made and checked,
  as the nodes of a table do it (the seats and the host; every node checks
  every step it did not make, the host all of them; each owner opens its
  positions and checks its shares against the committed keys). Reported:
  `all_nodes_ms`, every node's CPU added up; `seat_max_ms`, the busiest
  seat's own CPU; `host_ms`; and `critical_ms`, the critical path — each of
  the 2·players steps in turn, the seat's own step plus the check the next
  seat needs before it can build on it, then the slowest owner's opening.
  Targets (5 players): critical path under 300 ms, each seat's CPU under 150 ms.

- **claims** (`--claims` prints only these): the proofs about hidden cards
  (`protocol/hidden_claims.py`) on a real shuffled deck, each row proved by
  the claimant and checked (medians of CLAIM_REPEATS, prove and check
  alternating): a first void claim with its chains (k = 11 and 17 hidden
  cards, |F| = 10, 3 seats), a later void (chains known, k = 8, |F| = 6), a
  Chiamo denial (k = 12, F = {C}, with chains), and the Chiamata two rule
  (5 seats, k = 8, with chains: holds 1 card + lacks X, holds 3 + lacks 1).
  `critical_ms` = prove + 2 × check (the host checks before it orders the
  claim, each peer on receipt); `bytes`: the proofs packed with msgpack.
  Target: critical path <= 25 ms per claim.

Times are CPU time of this process (`time.process_time`), not wall time.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import time

import msgpack
from coincurve import PublicKey

from protocol import deck, hidden_claims, stepproofs

REPEATS = 11
HAND_REPEATS = 5
TARGET_RATIO = 1.25
TARGET_CRITICAL_MS = 300
TARGET_SEAT_MS = 150
CLAIM_REPEATS = 9
TARGET_CLAIM_MS = 25
N_CARDS = 40
TABLE = bytes(16)
clock = time.process_time


def ms(t0: float) -> float:
    return (clock() - t0) * 1e3


# --- deal against floor ---------------------------------------------------------------


def floor_points(count: int) -> list[bytes]:
    """`count` different encoded points (the card points under random keys)."""
    points = []
    while len(points) < count:
        key = 1 + secrets.randbelow(deck.ORDER - 1)
        points += deck.mul_many(deck.start_deck(range(N_CARDS)), key)
    return points[:count]


def floor_batch_ms(points: list[bytes]) -> float:
    """CPU time of one bare op (parse, multiply, serialise) per point."""
    scalar = (1 + secrets.randbelow(deck.ORDER - 1)).to_bytes(32, "big")
    t0 = clock()
    for encoded in points:
        PublicKey(encoded).multiply(scalar).format()
    return ms(t0)


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


def deal(n_players: int) -> tuple[float, list[deck.SeatSecrets], list[list[bytes]]]:
    """One shuffle plus private deal of every position, no proofs; (ms, seats, published)."""
    seats = [deck.SeatSecrets.generate() for _ in range(n_players)]
    start = deck.start_deck(range(N_CARDS))
    t0 = clock()
    published = shuffle(start, seats)
    for p, x in enumerate(published[-1]):
        # The owner (seat p % n) combines its own share with the others'.
        deck.open_card(x, deck.combine(deck.key_share(s, p) for s in seats))
    return ms(t0), seats, published


def measure_deal(n_players: int) -> dict:
    """REPEATS deals, each followed by a floor batch of the same ops: medians."""
    points = floor_points(deck.ops_for_deal(n_players, N_CARDS, N_CARDS, 0))
    deals, floors = [], []
    for _ in range(REPEATS):
        deals.append(deal(n_players)[0])
        floors.append(floor_batch_ms(points))
    ratios = [d / f for d, f in zip(deals, floors)]
    return {
        "deal_ms": statistics.median(deals),
        "floor_ms": statistics.median(floors),
        "ratio": statistics.median(ratios),
    }


# --- each proof ----------------------------------------------------------------------


def one_step(phase: int, s: deck.SeatSecrets, keys, deck_in: list[bytes], seat: int = 0):
    """(deck_out, proof, ctx, ms): one seat's step of `phase` with its proof."""
    t0 = clock()
    deck_out = (deck.shuffle_phase1 if phase == 1 else deck.shuffle_phase2)(deck_in, s)
    ctx = stepproofs.context(TABLE, 0, seat, phase, keys, deck_in, deck_out)
    proof = stepproofs.prove(ctx, phase, s, keys, deck_in, deck_out)
    return deck_out, proof, ctx, ms(t0)


def check_ms(phase: int, keys, deck_in, deck_out, proof, seat: int = 0) -> float:
    """CPU time of a node checking one step as it arrives (points, distinctness, proof)."""
    t0 = clock()
    deck.check_points(deck_out)
    if phase == 1:
        deck.check_distinct(deck_out)
    ctx = stepproofs.context(TABLE, 0, seat, phase, keys, deck_in, deck_out)
    stepproofs.check(ctx, phase, keys, deck_in, deck_out, proof)
    return ms(t0)


def measure_proofs() -> dict:
    """Each proof made and checked alone (medians of REPEATS)."""
    runs: dict[str, list[float]] = {
        k: []
        for k in (
            "commit_keys_ms",
            "phase1_prove_ms",
            "phase1_check_ms",
            "phase2_prove_ms",
            "phase2_check_ms",
            "share_check_ms",
        )
    }
    start = deck.start_deck(range(N_CARDS))
    for _ in range(REPEATS):
        s = deck.SeatSecrets.generate()
        t0 = clock()
        keys = s.public_keys(N_CARDS)
        runs["commit_keys_ms"].append(ms(t0))
        proved: dict[int, tuple] = {}
        deck_in = start
        for phase in (1, 2):
            t0 = clock()
            deck_out = (deck.shuffle_phase1 if phase == 1 else deck.shuffle_phase2)(deck_in, s)
            step_ms = ms(t0)
            t0 = clock()
            ctx = stepproofs.context(TABLE, 0, 0, phase, keys, deck_in, deck_out)
            proof = stepproofs.prove(ctx, phase, s, keys, deck_in, deck_out)
            runs[f"phase{phase}_prove_ms"].append(ms(t0))
            proved[phase] = (deck_in, deck_out, proof, step_ms)
            deck_in = deck_out
        for phase, (d_in, d_out, proof, _) in proved.items():
            t0 = clock()
            ctx = stepproofs.context(TABLE, 0, 0, phase, keys, d_in, d_out)
            stepproofs.check(ctx, phase, keys, d_in, d_out, proof)
            runs[f"phase{phase}_check_ms"].append(ms(t0))
        share = deck.key_share(s, 7)
        t0 = clock()
        assert deck.check_share(keys[1][7], share)
        runs["share_check_ms"].append(ms(t0))
    return {k: statistics.median(v) for k, v in runs.items()}


# --- a whole hand ------------------------------------------------------------------------


def hand(n_players: int) -> dict:
    """One hand's deck work at a table of n seats and a host, every proof made and checked."""
    seats = [deck.SeatSecrets.generate() for _ in range(n_players)]
    own = [0.0] * n_players  # each seat's CPU
    host = 0.0
    keys = []
    for i, s in enumerate(seats):
        t0 = clock()
        keys.append(s.public_keys(N_CARDS))
        own[i] += ms(t0)
    critical = max(own)  # the commits go out together
    deck_in = deck.start_deck(range(N_CARDS))
    for phase in (1, 2):
        for i, s in enumerate(seats):
            deck_out, proof, _, step = one_step(phase, s, keys[i], deck_in, i)
            own[i] += step
            checks = []
            for j in range(n_players):
                if j != i:
                    checks.append(check_ms(phase, keys[i], deck_in, deck_out, proof, i))
                    own[j] += checks[-1]
            host_check = check_ms(phase, keys[i], deck_in, deck_out, proof, i)
            host += host_check
            critical += step + (checks[0] if checks else host_check)
            deck_in = deck_out
    # The deal: each owner checks every share it receives against the committed
    # position key and opens its cards (seat p % n owns position p).
    opening = [0.0] * n_players
    for p, x in enumerate(deck_in):
        owner = p % n_players
        t0 = clock()
        shares = [deck.key_share(s, p) for s in seats]
        for j, share in enumerate(shares):
            if j != owner:
                assert deck.check_share(keys[j][1][p], share)
        deck.open_card(x, deck.combine(shares))
        opening[owner] += ms(t0)
    for i in range(n_players):
        own[i] += opening[i]
    critical += max(opening)
    return {"all_nodes_ms": sum(own) + host, "seat_max_ms": max(own), "host_ms": host, "critical_ms": critical}


def measure_hand(n_players: int) -> dict:
    runs = [hand(n_players) for _ in range(HAND_REPEATS)]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def audit_ms(n_players: int) -> float:
    """Median time of replay_shuffle + decrypt_deck after a hand."""
    times = []
    for _ in range(REPEATS):
        _, seats, published = deal(n_players)
        start = deck.start_deck(range(N_CARDS))
        # The audit starts from revealed seeds: fresh objects, no caches.
        revealed = [deck.SeatSecrets(s.seed) for s in seats]
        t0 = clock()
        bad = deck.replay_shuffle(start, list(enumerate(revealed)), published)
        deck.decrypt_deck(published[-1], revealed)
        times.append(ms(t0))
        assert bad == []
    return statistics.median(times)


# --- claims about hidden cards ----------------------------------------------------------


class ClaimTable:
    """A shuffled deck dealt in blocks (seat 0 holds positions 0..k-1), with what seat 0 knows."""

    def __init__(self, n_players: int, k: int) -> None:
        self.seats = [deck.SeatSecrets.generate() for _ in range(n_players)]
        self.final = shuffle(deck.start_deck(range(N_CARDS)), self.seats)[-1]
        self.position_keys = [s.public_keys(N_CARDS)[1] for s in self.seats]
        self.cards = deck.decrypt_deck(self.final, self.seats)
        self.positions = list(range(k))
        # The claimant's keys: its own, and the inverses of the shares the others sent it.
        self.holding = hidden_claims.Holding({i: [s.card_key(i) for s in self.seats] for i in self.positions})
        self.openings = {i: deck.combine(deck.key_share(s, i) for s in self.seats) for i in self.positions}
        self.ctx = hidden_claims.claim_context(TABLE, 0, 0, "act", b"bench")

    def held(self, count: int) -> list[int]:
        return sorted(self.cards[i] for i in self.positions[:count])

    def lacking(self, count: int) -> list[int]:
        mine = {self.cards[i] for i in self.positions}
        return [c for c in range(N_CARDS) if c not in mine][:count]

    def chains(self) -> dict[int, bytes]:
        """The combined keys proved by an earlier claim (for the rows that have them already)."""
        forbidden = self.lacking(1)
        proof = self.prove_lacks({}, forbidden)
        return self.check_lacks({}, forbidden, proof)

    def prove_lacks(self, chained: dict, forbidden: list[int]) -> list:
        return hidden_claims.prove_lacks(
            self.ctx, self.holding, self.positions, self.final, self.position_keys, chained, forbidden
        )

    def check_lacks(self, chained: dict, forbidden: list[int], proof: list) -> dict[int, bytes]:
        return hidden_claims.check_lacks(
            self.ctx, self.positions, self.final, self.position_keys, chained, forbidden, proof
        )

    def prove_holds(self, card: int) -> list:
        return hidden_claims.prove_holds(self.ctx, self.openings, self.positions, self.final, card)

    def check_holds(self, card: int, proof: list) -> None:
        hidden_claims.check_holds(self.ctx, self.positions, self.final, card, proof)


def claim_row(n_players: int, k: int, n_forbidden: int, chained: bool, n_holds: int = 0) -> dict:
    """One claim (holds n_holds of seat 0's cards, then lacks n_forbidden), proved and checked alternately."""
    table = ClaimTable(n_players, k)
    forbidden, cards = table.lacking(n_forbidden), table.held(n_holds)
    known = table.chains() if chained else {}
    proves, checks, size = [], [], 0
    for _ in range(CLAIM_REPEATS):
        t0 = clock()
        proofs = [table.prove_holds(c) for c in cards] + [table.prove_lacks(known, forbidden)]
        proves.append(ms(t0))
        t0 = clock()
        for c, proof in zip(cards, proofs):
            table.check_holds(c, proof)
        table.check_lacks(known, forbidden, proofs[-1])
        checks.append(ms(t0))
        size = len(msgpack.packb(proofs))
    prove, check = statistics.median(proves), statistics.median(checks)
    return {"prove_ms": prove, "check_ms": check, "critical_ms": prove + 2 * check, "bytes": size}


CLAIM_ROWS: list[tuple[str, str, dict]] = [
    # (JSON key, what a person reads, claim_row arguments); other kinds of claim add their rows here
    (
        "void_first_k11_f10",
        "first void claim, 3 seats, k=11, |F|=10, with chains",
        dict(n_players=3, k=11, n_forbidden=10, chained=False),
    ),
    (
        "void_first_k17_f10",
        "first void claim, 3 seats, k=17, |F|=10, with chains",
        dict(n_players=3, k=17, n_forbidden=10, chained=False),
    ),
    (
        "void_later_k17_f10",
        "later void claim, 3 seats, k=17, |F|=10, chains known",
        dict(n_players=3, k=17, n_forbidden=10, chained=True),
    ),
    (
        "void_later_k8_f6",
        "later void claim, 3 seats, k=8, |F|=6, chains known",
        dict(n_players=3, k=8, n_forbidden=6, chained=True),
    ),
    (
        "chiamo_denial_k12",
        "Chiamo denial, 3 seats, k=12, F={C}, with chains",
        dict(n_players=3, k=12, n_forbidden=1, chained=False),
    ),
    (
        "two_rule_holds1_k8",
        "two rule, 5 seats, k=8: holds the 2 + lacks X, with chains",
        dict(n_players=5, k=8, n_forbidden=1, chained=False, n_holds=1),
    ),
    (
        "two_rule_holds3_k8",
        "two rule, 5 seats, k=8: holds 2, 4, 5 + lacks 6, with chains",
        dict(n_players=5, k=8, n_forbidden=1, chained=False, n_holds=3),
    ),
]


def mul_us() -> float:
    """CPU time of one variable-base multiplication (parse, multiply, serialise): the unit the claims scale with."""
    points = floor_points(200)
    return floor_batch_ms(points) / len(points) * 1e3


def measure_claims(say) -> dict:
    results: dict = {"mul_us": mul_us()}
    say(f"claims: one variable-base multiplication {results['mul_us']:.1f} µs")
    for key, label, kwargs in CLAIM_ROWS:
        r = results[key] = claim_row(**kwargs)
        ok = "ok" if r["critical_ms"] <= TARGET_CLAIM_MS else "ABOVE"
        say(
            f"claim: {label}: prove {r['prove_ms']:.2f} ms, check {r['check_ms']:.2f} ms, "
            f"critical path {r['critical_ms']:.1f} ms (target <= {TARGET_CLAIM_MS}: {ok}), {r['bytes']} bytes"
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    parser.add_argument("--claims", action="store_true", help="only the claims about hidden cards")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else print

    deck.card_point(0)  # build the card table outside the timings
    if args.claims:
        claims = measure_claims(say)
        if args.json:
            print(json.dumps({"claims": claims}))
        return
    results: dict = {"proofs": measure_proofs()}
    p = results["proofs"]
    say(
        f"proofs, 40 cards: phase-1 shuffle argument prove {p['phase1_prove_ms']:.1f} ms, "
        f"check {p['phase1_check_ms']:.1f} ms; 40 phase-2 DLEQs prove {p['phase2_prove_ms']:.1f} ms, "
        f"check {p['phase2_check_ms']:.1f} ms; commit keys {p['commit_keys_ms']:.2f} ms; "
        f"one public share checked {p['share_check_ms'] * 1e3:.0f} µs"
    )
    for n in (5, 2):
        r = measure_deal(n)
        r.update(measure_hand(n))
        results[f"players{n}"] = r
        ops = deck.ops_for_deal(n, N_CARDS, N_CARDS, 0)
        ratio_ok = "ok" if r["ratio"] <= TARGET_RATIO else "ABOVE"
        say(
            f"{n} players / 40 cards, no proofs: {ops} ops, deal {r['deal_ms']:.1f} ms, "
            f"floor {r['floor_ms']:.1f} ms ({r['floor_ms'] / ops * 1e3:.1f} µs per op), "
            f"ratio {r['ratio']:.2f} (target <= {TARGET_RATIO}: {ratio_ok})"
        )
        targets = ""
        if n == 5:
            good = r["critical_ms"] < TARGET_CRITICAL_MS and r["seat_max_ms"] < TARGET_SEAT_MS
            targets = f" (targets < {TARGET_CRITICAL_MS} and < {TARGET_SEAT_MS}: {'ok' if good else 'ABOVE'})"
        say(
            f"{n} players, every proof made and checked: all nodes {r['all_nodes_ms']:.0f} ms, "
            f"host {r['host_ms']:.0f} ms, critical path {r['critical_ms']:.0f} ms, "
            f"busiest seat {r['seat_max_ms']:.0f} ms{targets}"
        )
    results["audit5_ms"] = audit_ms(5)
    say(f"audit, 5 players (replay_shuffle + decrypt_deck): {results['audit5_ms']:.1f} ms")
    results["claims"] = measure_claims(say)
    results["complaint"] = complaint_rows(say)
    if args.json:
        print(json.dumps(results))


def complaint_rows(say) -> dict:
    """A complaint about a wrong sealed share (protocol/complaint.py): the complainer's
    proof, and one node's judgment (proof checked, blob opened, each share checked),
    for a blob of 4 and of 12 shares; medians of REPEATS, CPU time."""
    from protocol import complaint
    from protocol.sealing import key_from_shared, seal_shares
    from protocol.wire import pair_context

    table_id, hand = bytes(16), 0
    r, s = deck.SeatSecrets.generate(), deck.SeatSecrets.generate()
    keys = s.public_keys(N_CARDS)[1]
    out = {}
    for count in (4, 12):
        proves, judges = [], []
        for _ in range(REPEATS):
            t0 = clock()
            z, proof = complaint.make(table_id, hand, 0, 0, r.seal_key, r.seal_public, 1, s.seal_public)
            proves.append(ms(t0))
            key = key_from_shared(z, pair_context(table_id, hand, 1, 0))
            shares = [(p, deck.key_share(s, p)) for p in range(count)]
            shares[-1] = (count - 1, shares[-1][1] * 2 % deck.ORDER)  # the wrong one: the last checked
            blob = seal_shares(key, table_id, hand, 0, 1, 0, shares)
            t0 = clock()
            culprit, _ = complaint.judge(
                table_id, hand, 0, 0, 1, r.seal_public, s.seal_public, z, proof, blob, set(range(count)), keys
            )
            judges.append(ms(t0))
            assert culprit == 1
        out[f"shares{count}"] = {"prove_ms": statistics.median(proves), "judge_ms": statistics.median(judges)}
        say(
            f"complaint, blob of {count} shares: prove {out[f'shares{count}']['prove_ms']:.2f} ms, "
            f"judge {out[f'shares{count}']['judge_ms']:.2f} ms (CPU, median of {REPEATS})"
        )
    return out


if __name__ == "__main__":
    main()
