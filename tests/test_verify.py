"""`briscola verify FILE`: the whole story of a stored transcript.

Exit codes: 0 a complete table whose every hand passed; 3 a cheat, a
tampered entry or a seat timed out (the last line of standard output names
the culprits); 4 a transcript that stops before the table ended (it says who
owes the next entry); 1 a file that cannot be read or is not a transcript.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
import sys
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.app import last_line
from helpers.cheaters import LaxSession, off_suit, pick, random_choosers, scripted, seat_sessions

from briscola_tui.cli import main
from briscola_tui.files.storage import save_transcript
from protocol.identity import Identity, fingerprint
from protocol.local import LocalTable, replacement_seat
from protocol.session import TableSession
from protocol.transcript import HOST, Entry, Signed, parse_header

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "transcripts"
FAILED_ENTRY = re.compile(r"^FAIL entry (\d+): ", re.M)
CULPRITS = re.compile(r"culprits: (?:seat \d+|host)(?:, (?:seat \d+|host))*")
DAMAGED_AT = re.compile(r"^FAIL entry (\d+): the copy is damaged or altered at entry \1 \(.*\); nobody is named$", re.M)
INCOMPLETE = re.compile(
    r"^incomplete: stops (?:after entry (\d+)|before its first entry)"
    r"(?:, between hands|, before the first hand)?: (.+)$",
    re.M,
)


@dataclass
class Played:
    path: Path
    table: LocalTable
    entries: list[bytes]


def save(path: Path, table: LocalTable, entries: list[bytes] | None = None) -> Path:
    save_transcript(path, table.host.table_id, table.entries if entries is None else entries)
    return path


def verify(path, capsys) -> tuple[int, str, str]:
    code = main(["verify", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def damaged_naming_nobody(out: str) -> bool:
    """The copy refused as damaged or altered at the entry it fails at, and nobody named: bytes
    whose signature does not verify prove nothing about who they claim to be from."""
    return bool(DAMAGED_AT.search(out)) and "culprits:" not in out


def messages(entries: list[bytes]) -> list[tuple[str, int, list]]:
    """(kind, sender, body) of each entry's message."""
    out = []
    for data in entries:
        header, body = parse_header(Signed.decode(Entry.decode(data).message).payload)
        out.append((header.kind, header.sender, body))
    return out


def frames(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of every frame of a transcript file, the 4-byte length included."""
    out, offset = [], 0
    while offset < len(data):
        size = int.from_bytes(data[offset : offset + 4], "big")
        out.append((offset, offset + 4 + size))
        offset += 4 + size
    return out


@pytest.fixture(scope="module")
def complete(tmp_path_factory) -> Played:
    """A whole Briscola series of computer players, as `briscola selfplay` plays it."""
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 5), name="selfplay briscola")
    table.run()
    assert table.host.session.phase == "over"
    path = save(tmp_path_factory.mktemp("verify") / "complete.bin", table)
    return Played(path, table, list(table.entries))


# --- a complete, honest table ------------------------------------------------------


@pytest.mark.slow
def test_a_complete_transcript_passes_and_tells_the_table(complete, capsys):
    code, out, err = verify(complete.path, capsys)
    assert code == 0, out + err
    assert err == ""
    host = complete.table.host
    lines = out.splitlines()
    assert lines[0] == f'table {host.table_id.hex()} "selfplay briscola"'
    assert lines[1].startswith("briscola, 2 players, options: ") and "match=" in lines[1]
    assert "black_hand=false" in lines[1] and "False" not in lines[1]  # as -o and selfplay write it
    assert lines[2] == f"host key {fingerprint(host.identity.public_bytes)}"
    for seat in complete.table.seats:
        assert f'seat {seat.seat} key {fingerprint(seat.identity.public_bytes)} "seat {seat.seat}"' in lines
    verdicts = host.session.verdicts
    hands = [line for line in lines if line.startswith("ok   hand ")]
    assert len(hands) == len(verdicts) >= 1
    assert hands[0].startswith("ok   hand 1: all checks pass — ")
    assert not [line for line in lines if line.startswith("FAIL")]
    assert f"{len(complete.entries)} entries checked, {len(verdicts)} hands audited" in out
    assert lines[-1].startswith("complete: the series is over")
    assert "culprits" not in out


def test_a_table_id_is_its_host_keys_fingerprint(complete, capsys):
    code, out, _err = verify(complete.path, capsys)
    assert code == 0 and "table id: the host key's fingerprint" in out


@pytest.mark.slow
def test_a_transcript_from_before_derived_ids_still_verifies(capsys):
    """Made by the previous release (a random table id): it verifies as it did, and says its id
    alone does not name its host."""
    code, out, err = verify(FIXTURES / "briscola2-v3-random-id.bin", capsys)
    assert code == 0, out + err
    assert "complete: the series is over" in out and "table id: random" in out


@pytest.mark.slow
def test_a_flipped_bit_in_a_real_process_names_nobody(complete, tmp_path):
    """A copy with one bit flipped: damaged or altered at that entry, exit 3, nobody named (it
    once said `culprits: host`, though anyone can flip a bit)."""
    data = bytearray(complete.path.read_bytes())
    start, end = frames(bytes(data))[len(complete.entries) // 2]
    data[(start + end) // 2] ^= 0x01
    path = tmp_path / "flipped.bin"
    path.write_bytes(bytes(data))
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert damaged_naming_nobody(done.stdout), done.stdout


@pytest.mark.slow
def test_verify_in_a_real_process(complete):
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui.cli", "verify", str(complete.path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all checks pass" in done.stdout
    assert "complete: the series is over" in done.stdout
    assert done.stderr == ""


def test_a_closed_table_passes_and_says_so(tmp_path, capsys):
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 7))
    table.run(max_hands=1)
    table.broadcast(table.host.close("time for dinner"))
    code, out, err = verify(save(tmp_path / "closed.bin", table), capsys)
    assert code == 0, out + err
    assert "ok   hand 1: all checks pass" in out
    # a reason that is no code: the host's own words, shown as such
    assert last_line(out) == "complete: the host closed the table: “time for dinner” (in the peer's own words)"


# --- tampering ----------------------------------------------------------------------


def value_at(data: bytes, i: int) -> tuple[int, int, int | None]:
    """The canonical msgpack value at data[i] (no maps, floats or ext types: protocol/codec.py):
    (where its header ends, where it ends, its item count if it is an array, else None; an
    array "ends" where its header does: its items follow)."""
    b = data[i]
    if b <= 0x7F or b >= 0xE0 or b in (0xC0, 0xC2, 0xC3):  # fixint, nil, false, true
        return i + 1, i + 1, None
    if 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):
        width = {0xDC: 2, 0xDD: 4}.get(b, 0)
        count = int.from_bytes(data[i + 1 : i + 1 + width], "big") if width else b & 0x0F
        return i + 1 + width, i + 1 + width, count
    if 0xA0 <= b <= 0xBF:  # fixstr
        return i + 1, i + 1 + (b & 0x1F), None
    numbers = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}
    if b in numbers:
        return i + 1, i + 1 + numbers[b], None
    width = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4}[b]  # bin and str
    size = int.from_bytes(data[i + 1 : i + 1 + width], "big")
    return i + 1 + width, i + 1 + width + size, None


PAYLOAD_FIELDS = ("version", "table id", "kind", "sender", "seq", "head")


def value_fields(data: bytes, i: int, name: str, out: list) -> int:
    """The value at data[i] and every value inside it, as (name, start, content start, end)
    into `out`; a list of more than 4 values only at its first, middle and last one. Where it ends."""
    content, end, count = value_at(data, i)
    out.append((name, i, content, end))
    if count is None:
        return end
    sampled = set(range(count)) if count <= 4 else {0, count // 2, count - 1}
    for k in range(count):
        end = value_fields(data, end, f"{name}[{k}]", out if k in sampled else [])
    return end


def entry_fields(data: bytes, start: int, end: int) -> list[tuple[str, int, int, int]]:
    """Every field of the entry framed at data[start:end], from the frame's length to the
    host's signature: [index, prev, message, signature], the message being a bin holding
    [payload, signature] and the payload a bin holding [version, table id, kind, sender,
    seq, head, *body]; each body value walked down (`value_fields`)."""
    out = [("frame length", start, start + 4, start + 4)]
    i, _, count = value_at(data, start + 4)
    assert count == 4
    out.append(("entry", start + 4, i, i))
    i = value_fields(data, i, "index", out)
    i = value_fields(data, i, "prev (the chain hash)", out)
    message, message_end, _ = value_at(data, i)
    out.append(("message", i, message, message))  # its header; its content is the fields below
    j, _, count = value_at(data, message)
    assert count == 2
    out.append(("message array", message, j, j))
    payload, payload_end, _ = value_at(data, j)
    out.append(("payload", j, payload, payload))
    k, _, count = value_at(data, payload)
    out.append(("payload array", payload, k, k))
    for n in range(count):
        k = value_fields(data, k, PAYLOAD_FIELDS[n] if n < len(PAYLOAD_FIELDS) else f"body[{n - 6}]", out)
    assert k == payload_end
    assert value_fields(data, k, "message signature", out) == message_end
    assert value_fields(data, message_end, "entry signature", out) == end
    return out


def flips(field: tuple[str, int, int, int], every: bool = True) -> list[int]:
    """Bytes to change in a field: each byte of its header (type, length) and the first, middle
    and last byte of its content; not `every`: the first byte of its header and the middle
    byte of its content."""
    _, start, content, end = field
    if every:
        head, inside = range(start, content), {content, (content + end - 1) // 2, end - 1}
    else:
        head, inside = range(start, min(start + 1, content)), {(content + end - 1) // 2}
    return [*head, *(sorted(inside) if end > content else [])]


@pytest.mark.slow
def test_every_changed_byte_is_caught_and_the_changed_entry_named(complete, tmp_path, capsys):
    """A byte changed anywhere: in the file's header (every byte); in every field of the first
    entry of each kind (`entry_fields`; `flips`: its header bytes and the first, middle and last
    byte, or two bytes a field in the kinds whose first entry comes after the deal's shuffles,
    each change to them costing the check of those shuffles' proofs: shares, act, reveal); in
    every field of the file's last entry, which no later entry's chain hash follows (two bytes a
    field); and at 20 places drawn at random (a fixed seed). (Each change verifies the series
    again, up to the changed entry: every byte of the 180 kB file took minutes.)"""
    data = complete.path.read_bytes()
    spans = frames(data)
    header, entries = spans[0], spans[1:]
    kinds = [kind for kind, _, _ in messages(complete.entries)]
    first = {kinds.index(kind) for kind in set(kinds)}
    cheap = kinds.index("shares")  # a change before it is found before any shuffle's proof is checked
    positions = set(range(*header))
    covered: dict[str, set[str]] = {}
    for k in sorted(first | {len(entries) - 1}):
        fields = entry_fields(data, *entries[k])
        covered.setdefault(kinds[k], set()).update(name for name, *_ in fields)
        positions.update(i for field in fields for i in flips(field, every=k < cheap))
    assert set(covered) == set(kinds)  # every kind of entry in the series
    for kind, names in covered.items():  # and in each, every field of the envelope and of the body
        body = len(next(body for sent, _, body in messages(complete.entries) if sent == kind))
        assert {"frame length", "index", "prev (the chain hash)", "message signature", "entry signature"} <= names
        assert {*PAYLOAD_FIELDS, *(f"body[{n}]" for n in range(body))} <= names, kind
    rng = random.Random(1234)
    positions = sorted(positions)
    taken = set(positions)
    positions += rng.sample([i for i in range(len(data)) if i not in taken], 20)
    path = tmp_path / "tampered.bin"
    failures = []
    for i in positions:
        changed = bytearray(data)
        changed[i] ^= rng.randrange(1, 256)
        path.write_bytes(bytes(changed))
        code, out, err = verify(path, capsys)
        if i < header[1]:
            if code == 1 and out == "" and err.startswith("briscola verify: "):
                continue  # no longer starts as a transcript
            if code == 3 and damaged_naming_nobody(out):
                continue  # e.g. another table id: no entry belongs to it
        else:
            holder = next(k for k, (a, b) in enumerate(entries) if a <= i < b)
            named = [int(k) for k in FAILED_ENTRY.findall(out)]
            if code == 3 and named == [holder] and damaged_naming_nobody(out):
                continue
        failures.append((i, code, out[-300:], err))
    assert not failures, failures[:5]


@pytest.mark.slow
@pytest.mark.parametrize("part", ["message", "entry signature", "frame start"])
def test_a_changed_entry_is_named_as_itself_not_the_next(complete, tmp_path, capsys, part):
    data = complete.path.read_bytes()
    entries = frames(data)[1:]
    for k in (1, 17, len(entries) // 2, len(entries) - 2):
        start, end = entries[k]
        i = {"message": (start + end) // 2, "entry signature": end - 10, "frame start": start + 4}[part]
        changed = bytearray(data)
        changed[i] ^= 0x40 if part != "frame start" else 0xFF  # 0x94 ^ 0xFF: no valid entry starts so
        path = tmp_path / f"entry{k}.bin"
        path.write_bytes(bytes(changed))
        code, out, err = verify(path, capsys)
        assert code == 3, out + err
        assert FAILED_ENTRY.findall(out) == [str(k)], out
        assert f"{k} entr" in out  # the entries before it were checked
        assert f'table {complete.table.host.table_id.hex()} "selfplay briscola"' in out  # and the table shown
        assert damaged_naming_nobody(out), out  # a signature that does not verify proves nothing of the host


# --- cut short -------------------------------------------------------------------------


def named_in(owes: str) -> set:
    named = {int(s) for s in re.findall(r"seat (\d+)", owes)}
    return named | ({HOST} if "the host" in owes else set())


@pytest.mark.slow
def test_a_cut_transcript_names_who_owes_the_next_entry(complete, tmp_path, capsys):
    entries = complete.entries
    sent = messages(entries)
    rng = random.Random(99)
    cuts = sorted({0, 1, *rng.sample(range(len(entries)), 18)})
    for m in cuts:
        code, out, err = verify(save(tmp_path / f"cut{m}.bin", complete.table, entries[:m]), capsys)
        assert code == 4, (m, out, err)
        assert err == ""
        where = INCOMPLETE.search(out)
        assert where is not None, out
        assert where.group(1) == (None if m == 0 else str(m - 1))
        assert last_line(out) == where.group(0)
        named = named_in(where.group(2))
        assert named, out
        kind, sender, _ = sent[m]
        if sender != HOST:  # the host's own entry (a table, a time-out) may follow anyone owing
            assert sender in named, (m, kind, sender, where.group(0))


def test_what_is_owed_is_said_plainly(complete, tmp_path, capsys):
    entries = complete.entries
    sent = messages(entries)

    def owes(m: int) -> str:
        code, out, _ = verify(save(tmp_path / f"at{m}.bin", complete.table, entries[:m]), capsys)
        assert code == 4, out
        return last_line(out)

    assert owes(0) == "incomplete: stops before its first entry: the host has not sent its table message"
    assert owes(1) == "incomplete: stops after entry 0: seat 0, seat 1 have not joined"
    reveals = [i for i, (kind, _, body) in enumerate(sent) if kind == "reveal" and body[0] == 0]
    last = reveals[-1]
    assert (
        owes(last)
        == f"incomplete: stops after entry {last - 1}: seat {sent[last][1]} has not sent its reveal for hand 1"
    )
    assert (
        owes(reveals[0])
        == f"incomplete: stops after entry {reveals[0] - 1}: seat 0, seat 1 have not sent their reveals for hand 1"
    )
    first = next(i for i, (kind, _, _) in enumerate(sent) if kind == "commit")
    assert owes(first) == (
        f"incomplete: stops after entry {first - 1}, before the first hand: "
        "seat 0, seat 1 have not sent their commitments for hand 1"
    )
    second = next(i for i, (kind, _, body) in enumerate(sent) if kind == "commit" and body[0] == 1)
    assert owes(second) == (
        f"incomplete: stops after entry {second - 1}, between hands: "
        "seat 0, seat 1 have not sent their commitments for hand 2"
    )
    move = next(i for i, (kind, _, _) in enumerate(sent) if kind == "act")
    assert (
        owes(move) == f"incomplete: stops after entry {move - 1}: seat {sent[move][1]} has not sent its move for hand 1"
    )


@pytest.mark.slow
@pytest.mark.parametrize("cut", ["middle", "length prefix"])
def test_a_torn_last_frame_is_dropped_with_a_warning(complete, tmp_path, capsys, cut):
    data = complete.path.read_bytes()
    start, end = frames(data)[-1]
    size = {"middle": (start + 4 + end) // 2, "length prefix": start + 2}[cut]
    torn = tmp_path / "torn.bin"
    torn.write_bytes(data[:size])
    code, out, err = verify(torn, capsys)
    assert code == 4, out + err
    assert (
        err
        == f"briscola verify: warning: {torn}: dropped a torn last frame of {size - start} bytes (a crash mid-write)\n"
    )
    cut_short = save(tmp_path / "cut.bin", complete.table, complete.entries[:-1])
    assert verify(cut_short, capsys) == (4, out, "")  # otherwise the transcript cut before that entry
    assert f"stops after entry {len(complete.entries) - 2}: " in out


# --- seats named ------------------------------------------------------------------------


class NoReveal(TableSession):
    """A seat that does not send its reveal at the end of a hand (while `withhold`)."""

    withhold = True

    def make_reveal(self):
        if self.phase == "reveal" and self.withhold:
            return None
        return super().make_reveal()


@pytest.fixture(scope="module")
def timed_out(tmp_path_factory) -> Played:
    sessions = {1: NoReveal(1, Identity.generate(), "seat 1")}
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 11), sessions=sessions, rules={"retake": True})
    table.replacement = replacement_seat
    table.run()
    assert table.timed_out == [1]
    path = save(tmp_path_factory.mktemp("timeout") / "timeout.bin", table)
    return Played(path, table, list(table.entries))


def test_a_seat_timed_out_is_named(timed_out, capsys):
    code, out, err = verify(timed_out.path, capsys)
    assert code == 3, out + err
    assert last_line(out) == "culprits: seat 1"
    assert "table rules: retake=true" in out
    timeout = next(i for i, (kind, _, _) in enumerate(messages(timed_out.entries)) if kind == "timeout")
    assert re.search(rf"^FAIL hand 1: seat 1: .*time limit \(transcript entry {timeout}\)$", out, re.M), out
    replacement = timed_out.table.seats[1].identity.public_bytes
    assert re.search(
        rf'^seat 1 key {fingerprint(replacement)} ".*" takes the seat with a new key at entry \d+$', out, re.M
    ), out
    assert "ok   hand 2: all checks pass" in out
    assert "complete: the series is over" in out  # the table went on without it


def test_a_cut_after_a_time_out_names_the_absent_seat_and_what_is_owed(timed_out, tmp_path, capsys):
    timeout = next(i for i, (kind, _, _) in enumerate(messages(timed_out.entries)) if kind == "timeout")
    path = save(tmp_path / "absent.bin", timed_out.table, timed_out.entries[: timeout + 1])
    code, out, err = verify(path, capsys)
    assert code == 3, out + err
    assert f"incomplete: stops after entry {timeout}: seat 1 has not joined again" in out
    assert last_line(out) == "culprits: seat 1"


@pytest.mark.slow
def test_a_seat_back_with_its_own_key_is_told_and_still_named(tmp_path, capsys):
    """No `retake` rule: the seat timed out comes back itself (`rejoin`), the table goes on."""
    seat = NoReveal(1, Identity.generate(), "seat 1")
    table = LocalTable("briscola", 2, {}, choosers=random_choosers(2, 11), sessions={1: seat})
    with pytest.raises(RuntimeError, match="stuck in phase seating"):
        table.run()
    seat.withhold = False
    table.send(1, seat.rejoin().messages)
    host = table.host.session
    while host.phase not in ("over", "aborted"):
        assert table.decide() or table.queue, host.phase
        table.pump()
    code, out, err = verify(save(tmp_path / "rejoin.bin", table), capsys)
    assert code == 3, out + err
    key = fingerprint(seat.identity.public_bytes)
    assert re.search(rf'^seat 1 key {key} "seat 1" is back with its own key at entry \d+$', out, re.M), out
    assert "ok   hand 2: all checks pass" in out
    assert "complete: the series is over" in out
    assert last_line(out) == "culprits: seat 1"


def test_a_cheat_in_the_transcript_is_named(tmp_path, capsys):
    """A seat that did not follow suit: verify names the seat and the entry."""
    cheat = 2
    for seed in range(20):
        sessions = seat_sessions(3, {cheat: LaxSession})
        choosers = {
            s: scripted(
                seed + s,
                auction=pick("bid", contract="solissimo"),
                **{"raise": pick("raise", choice="none")},
                play=off_suit(sessions[cheat]),
            )
            if s == cheat
            else scripted(seed + s, auction=pick("pass"))
            for s in range(3)
        }
        table = LocalTable("calabresella", 3, {}, choosers=choosers, sessions=sessions)
        table.run(max_hands=1)
        if getattr(table.seats[cheat], "cheated", False):
            break
    else:  # pragma: no cover
        pytest.fail("the cheater never had the chance")
    code, out, err = verify(save(tmp_path / "cheat.bin", table), capsys)
    assert code == 3, out + err
    assert re.search(rf"^FAIL hand 1: seat {cheat}: .*\(transcript entry \d+\)", out, re.M), out
    assert last_line(out) == f"culprits: seat {cheat}"


def test_names_are_printed_without_control_characters(tmp_path, capsys):
    # (a seat's name cannot hold them: every node refuses such a join, tests/test_hostile_text.py)
    sessions = {0: TableSession(0, Identity.generate(), "Rosa [/]")}
    table = LocalTable(
        "briscola", 2, {}, choosers=random_choosers(2, 1), sessions=sessions, name="tavola\x1b]0;owned\x07\r"
    )
    table.start()  # joins, the coin, the first deal: then the first move is owed
    code, out, err = verify(save(tmp_path / "names.bin", table), capsys)
    assert code == 4, out + err
    assert f'table {table.host.table_id.hex()} "tavola]0;owned"' in out
    assert f'seat 0 key {fingerprint(sessions[0].identity.public_bytes)} "Rosa [/]"' in out
    assert not [ch for ch in out if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch != "\n"]


# --- not a transcript ---------------------------------------------------------------------


def test_not_a_transcript(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("this is not a transcript\n" * 10)
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.bin"
    for path in (text, empty, missing, tmp_path):
        code, out, err = verify(path, capsys)
        assert code == 1, (path, out, err)
        assert out == ""
        assert err.startswith("briscola verify: ") and err.count("\n") == 1, err
        assert str(path) in err


@pytest.mark.parametrize("name, old", [("briscola2-v1.bin", 1), ("calabresella-v1.bin", 1), ("briscola2-v2.bin", 2)])
def test_a_transcript_of_the_earlier_format_is_refused_plainly(name, old, capsys):
    """Written by `briscola selfplay` of earlier releases (format 1: the deck on P-256,
    no proofs; format 2: sealing by X25519, a wrong sealed share stops the hand with an
    early reveal). This release reads only format 3 and says so, in one line."""
    path = Path(__file__).parent / "fixtures" / "transcripts" / name
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"briscola verify: {path} is a transcript of format {old}, written by an earlier release; "
        "this release reads only format 3 (proofs about hidden cards, sealing on secp256k1, a complaint anyone can check) "
        "and cannot check it\n"
    )


# --- read as it is checked -------------------------------------------------------------


def first_entry_changed(data: bytes) -> tuple[bytes, bytes]:
    """(the header and entry 0 with the last byte of its signature changed, the entries after it)."""
    _header, (_, first_end), *_ = frames(data)
    changed = bytearray(data[:first_end])
    changed[-1] ^= 1
    return bytes(changed), data[first_end:]


def verify_from_a_pipe(tmp_path, data: bytes) -> subprocess.CompletedProcess:
    """`briscola verify` of a named pipe that holds `data` and stays open (no end of file
    comes while the process runs): it ends only if it stops reading by itself."""
    pipe = tmp_path / "pipe.bin"
    os.mkfifo(pipe)
    done = threading.Event()

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), open(pipe, "wb") as writer:  # (verify stopped reading)
            writer.write(data)
            writer.flush()
            done.wait(60)  # the pipe stays open meanwhile

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        command = [sys.executable, "-m", "briscola_tui.cli", "verify", str(pipe)]
        return subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=REPO)
    finally:
        done.set()
        with contextlib.suppress(OSError):  # a writer still waiting for a reader: let it go
            os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_changed_first_entry_is_refused_before_the_rest_of_the_file_is_read(complete, tmp_path):
    """Each entry is checked as it is read: a file bad from entry 0 on is refused there
    (it once decoded the whole file first: 56 MB took 4 s and 200 MB of memory)."""
    changed, rest = first_entry_changed(complete.path.read_bytes())
    done = verify_from_a_pipe(tmp_path, changed + rest * 3)
    assert done.returncode == 3, done.stdout + done.stderr
    assert FAILED_ENTRY.search(done.stdout).group(1) == "0", done.stdout
    assert "0 entries checked" in done.stdout and damaged_naming_nobody(done.stdout)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_junk_after_a_whole_table_is_named_as_the_next_entry_without_reading_on(complete, tmp_path):
    data = complete.path.read_bytes()
    done = verify_from_a_pipe(tmp_path, data + (1000).to_bytes(4, "big") + bytes(range(200)) * 5)
    assert done.returncode == 3, done.stdout + done.stderr
    assert FAILED_ENTRY.search(done.stdout).group(1) == str(len(complete.entries)), done.stdout
    assert f"{len(complete.entries)} entries checked" in done.stdout
