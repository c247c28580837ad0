"""The club ledger over many hands' transcripts: how long a rebuild takes once they are verified.

    python -m bench.ledger --folder /tmp/ledger-bench --hands 10000          # make, verify, rebuild
    python -m bench.ledger --folder /tmp/ledger-bench --hands 10000 --json

Three steps, each timed apart (`time.process_time`, one core):

1. make: `selfplay` tables of computer players (Briscola for 2 and 4,
   Chiamata, Calabresella; random, easy and normal seats) into
   FOLDER/transcripts until they hold at least HANDS hands. Done once:
   the transcripts already there count, so a second run makes none.
2. verify: `briscola ledger add` over every transcript, each replayed in
   full by a spectator (verify's checks); the result of each is cached by
   the file's hash in the ledger's store (FOLDER/home, a private
   BRISCOLA_HOME). Done once too: a file already verified is not again.
3. rebuild: the ledger's store read from disk, then the ratings and
   every person's statistics from the verified tables (what `briscola
   ledger` does each time), the figure that matters: the issue asks for at
   most 5 s over 10,000 hands.

`--replicate N` also times a rebuild over N hands made of the verified tables' facts copied
under new ids (a rebuild depends on the facts only), for when fewer hands were made.

Measured here (2 shared cores, heavily loaded), 906 tables, 6,753 hands: first verification
1,210 s CPU in all (0.18 s a hand, the full replay `briscola verify` does); a second `add` of
the same files 0.01 s (nothing read again); rebuild 0.88 s; over 10,007 hands (replicated)
1.40 s.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import time
from pathlib import Path

GAMES = (
    # (game, players, options, levels): one round of tables; Briscola for 2 the most (the cheapest hand)
    ("briscola", 2, {"match": 5}, ["random", "normal"]),
    ("briscola", 2, {"match": 5}, ["easy", "random"]),
    ("briscola", 2, {"match": 5}, ["normal", "easy"]),
    ("briscola", 2, {"match": 5}, ["random", "random"]),
    ("briscola", 4, {"match": 5}, ["normal", "random", "easy", "random"]),
    ("chiamata", 5, {"series_hands": 10}, ["normal", "easy", "random", "normal", "random"]),
    ("calabresella", 3, {"series_hands": 9}, ["normal", "random", "easy"]),
)


def count_hands(folder: Path) -> int:
    """Hands already made: each transcript's name ends in its hand count (`t00012-7h.bt`)."""
    return sum(int(p.stem.rsplit("-", 1)[1].rstrip("h")) for p in folder.glob("t*-*h.bt"))


def make(folder: Path, hands: int) -> tuple[int, float]:
    """Tables of computer players until `folder` holds `hands` hands: (hands made now, CPU seconds)."""
    from briscola_tui.tools.selfplay import selfplay

    folder.mkdir(parents=True, exist_ok=True)
    have, made, start = count_hands(folder), 0, time.process_time()
    number = len(list(folder.glob("t*.bt")))
    while have + made < hands:
        game, players, options, levels = GAMES[number % len(GAMES)]
        partial = folder / f"partial-{number:05d}.bt"
        partial.unlink(missing_ok=True)  # (a table an earlier run was stopped in the middle of)
        out = io.StringIO()
        selfplay(game, players, None, number, str(partial), dict(options), out, quiet=True, seats=levels)
        played = out.getvalue().count("\nhand ")
        partial.rename(folder / f"t{number:05d}-{played}h.bt")
        made += played
        number += 1
    return made, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/ledger-bench"))
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--make-only", action="store_true", help="only make the transcripts")
    parser.add_argument("--no-make", action="store_true", help="make none: verify what is new, then rebuild")
    parser.add_argument(
        "--replicate",
        type=int,
        metavar="N",
        help="also time a rebuild over N hands: the verified tables' facts copied under new ids until N",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    transcripts = args.folder / "transcripts"
    made, make_cpu = make(transcripts, 0 if args.no_make else args.hands)
    figures: dict = {"hands": count_hands(transcripts), "made_now": made, "make_cpu_s": round(make_cpu, 2)}
    if not args.make_only:
        figures.update(measure(args.folder, transcripts))
    if args.replicate:
        figures.update(replicated(args.folder, args.replicate))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}")
    return 0


def measure(folder: Path, transcripts: Path) -> dict:
    """Verify what is not yet (once), then rebuild the ledger: the CPU seconds of each."""
    os.environ["BRISCOLA_HOME"] = str(folder / "home")
    from briscola_tui.ledger.book import Ledger
    from briscola_tui.ledger.stats import statistics

    ledger = Ledger.open()
    files = sorted(transcripts.glob("t*.bt"))
    start = time.process_time()
    report = ledger.add(files)
    verify_cpu = time.process_time() - start
    start = time.process_time()
    book = Ledger.open().rebuild()  # from the store on disk: read, then rate and count
    statistics(book.hands)
    rebuild_cpu = time.process_time() - start
    return {
        "files": len(files),
        "verified_now": report.verified,
        "refused": len(report.refused),
        "verify_cpu_s": round(verify_cpu, 2),
        "tables": len(book.tables),
        "ledger_hands": len(book.hands),
        "rated_hands": sum(1 for _t, h in book.hands if h.rated),
        "persons": len(book.persons),
        "rebuild_cpu_s": round(rebuild_cpu, 3),
    }


def replicated(folder: Path, hands: int) -> dict:
    """The verified tables' facts, copied under new table ids until they hold `hands` hands, in a
    ledger of their own (FOLDER/replicated): the time of a rebuild from it. What a rebuild costs
    depends on the facts only, not on where they came from."""
    import dataclasses

    from briscola_tui.ledger import store
    from briscola_tui.ledger.book import Ledger
    from briscola_tui.ledger.stats import statistics

    state = store.load(folder / "home" / "ledger" / "ledger.json")
    tables = sorted(state.tables.values(), key=lambda t: t.table_id)
    copied, total, k = store.State(), 0, 0
    while total < hands and tables:
        table = tables[k % len(tables)]
        copy = dataclasses.replace(table, table_id=f"{k:032x}", time=table.time + k)
        copied.tables[copy.identity] = copy
        total += len(table.hands)
        k += 1
    path = folder / "replicated" / "ledger.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    store.save(path, copied)
    start = time.process_time()
    book = Ledger.open(path).rebuild()
    statistics(book.hands)
    cpu = time.process_time() - start
    return {
        "replicated_hands": len(book.hands),
        "replicated_rated_hands": sum(1 for _t, h in book.hands if h.rated),
        "replicated_rebuild_cpu_s": round(cpu, 3),
    }


if __name__ == "__main__":
    raise SystemExit(main())
