"""Tables through a club (issue 47): a real `briscola club serve` on 127.0.0.1, members each
in a data folder of their own with their own invitation, and `briscola host --club`, `join
CODE --club` and `watch CODE --club` as real processes. A whole table plays through it and
every transcript verifies; a connection that hears everything in the club's account finds no
secret in any message; a hostile member's flood leaves an honest table playing, its host's
memory bounded; a club that cannot be reached is said in one line, and a club's server that
stops mid-table and starts again lets the table go on."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
import threading
import time
from pathlib import Path

import pytest
from helpers.club import ClubServer, ClubTable, Tap, join, monitor
from helpers.network import Human, rss_mib, wait_until

from briscola_tui.club.invite import read_token

MEMBERS = ("anna", "bruno", "carla", "dario")


def _members(club: ClubServer, folder: Path, names=MEMBERS) -> dict[str, Path]:
    """Each member invited and its invitation kept in a data folder of its own."""
    homes = {name: folder / name for name in names}
    for name, where in homes.items():
        join(where, club.invite(name))
    return homes


def _chiamata(children, homes: dict[str, Path]) -> ClubTable:
    """A Briscola Chiamata table (5 seats) hosted by Anna with 3 computer seats; Bruno and Carla
    join by the code alone (easy computer players), Dario watches."""
    table = ClubTable(children, homes["anna"], "--game", "chiamata", "--bots", "3", "--name", "Anna")
    table.join(homes["bruno"], "Bruno")
    table.join(homes["carla"], "Carla")
    table.watch(homes["dario"])
    return table


@pytest.mark.slow
def test_a_chiamata_table_plays_whole_through_a_club_and_every_transcript_verifies(club, children, tmp_path):
    homes = _members(club, tmp_path)
    table = _chiamata(children, homes)
    assert re.fullmatch(r"\d{1,4}-[a-z2-9]{6}", table.code)
    scores = table.finish()
    table.verify_all(scores)
    assert "Bruno" in table.clients[2].text and "Carla" in table.clients[2].text  # (the spectator saw them)


# --- what the club sees -------------------------------------------------------------------


def _secrets(table: ClubTable, homes: dict[str, Path], keeper: Path) -> dict[str, bytes]:
    """What no message may hold, by what it is: the join code and its secret part; every seat
    store's secrets (seeds, coin values, signed messages not yet confirmed) and its whole bytes;
    every private key kept (a player's identity, the table's key, the host's computer seats'),
    as its file and raw; every nkey seed (each member's, the keeper's), as written and raw."""
    from cryptography.hazmat.primitives import serialization

    from protocol.store import SeatStore

    found = {"the join code": table.code.encode(), "the code's secret": table.code.split("-", 1)[1].encode()}
    for folder in homes.values():
        for path in sorted(folder.rglob("*.store")):
            store = SeatStore()
            store.load_bytes(path.read_bytes())
            found[f"{path.name}"] = path.read_bytes()
            for kind, values in (("seed", store.seeds), ("coin", store.coins), ("sent", store.sent)):
                found |= {f"{path.name} {kind} {n}": value for n, value in values.items()}
        for path in sorted(folder.rglob("*.key")):
            key = serialization.load_pem_private_key(path.read_bytes(), None)
            raw = key.private_bytes(
                serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
            )
            found |= {f"{folder.name}/{path.name}": path.read_bytes(), f"{folder.name}/{path.name} raw": raw}
        for path in sorted(folder.rglob("*.code")):
            found[f"{folder.name}/{path.name}"] = path.read_bytes().strip()
        for path in sorted((folder / "clubs").glob("*.json")):
            seed = read_token(path.read_text().strip()).seed
            found |= {f"{folder.name}'s seed": seed.encode(), f"{folder.name}'s raw seed": _raw_seed(seed)}
    keeper_seed = json.loads((keeper / "club" / "club.json").read_text())["keeper_seed"]
    found |= {"the keeper's seed": keeper_seed.encode(), "the keeper's raw seed": _raw_seed(keeper_seed)}
    assert sum(".store seed" in what for what in found) >= 5 and sum(" raw" in what for what in found) >= 8
    return found


def _raw_seed(seed: str) -> bytes:
    """An nkey seed's 32 bytes (base32: two prefix bytes, the seed, a 2-byte checksum)."""
    data = base64.b32decode(seed + "=" * (-len(seed) % 8))
    assert len(data) == 36
    return data[2:34]


def _windows(data: bytes, size: int = 16) -> set[bytes]:
    """Every run of `size` bytes of `data` that no text or padding could make by chance."""
    runs = (data[at : at + size] for at in range(len(data) - size + 1))
    return {run for run in runs if len(set(run)) >= 10 and not run.isascii()}


def _subject_shapes(host: str, table: str, names: str) -> list[str]:
    """What a subject may name (club/subjects.py): the table's id, members' names, connection ids;
    the rest is NATS's own (the JetStream API, the key-value bucket, inboxes)."""
    cid = r"[0-9a-f]{16}"
    return [
        rf"club\.friends\.tables\.(up|down)\.{host}\.{table}\.({names})\.{cid}",
        rf"club\.friends\.tables\.watch\.{host}\.{table}",
        rf"\$KV\.tables-friends\.{host}\.{table}",
        r"\$JS\.(API|EVENT\.ADVISORY)\.[A-Z_.]+(\.(CLUB_friends|KV_tables-friends))?",
        rf"_INBOX\.({names}|_keeper)\.[A-Za-z0-9.]+",
    ]


@pytest.mark.slow
def test_a_connection_hearing_everything_in_the_club_finds_no_secret_in_any_message(club, children, tmp_path):
    homes = _members(club, tmp_path)
    tap = Tap(club, monitor(club))
    try:
        table = _chiamata(children, homes)
        table.verify_all(table.finish())
    finally:
        tap.close()
    seen = tap.messages()
    (hosted,) = (homes["anna"] / "transcripts").glob("*.bin")
    table_id = hosted.stem.split("-")[0]  # (the table's id names its transcript)
    ups = [s for s, _ in seen if s.startswith(f"club.friends.tables.up.anna.{table_id}.")]
    assert {s.split(".")[6] for s in ups} >= {"bruno", "carla", "dario"}, sorted(set(ups))
    shapes = [re.compile(shape) for shape in _subject_shapes("anna", table_id, "|".join(MEMBERS))]
    for subject in sorted({s for s, _ in seen}):
        assert any(shape.fullmatch(subject) for shape in shapes), sorted({s for s, _ in seen})
    secrets = _secrets(table, homes, club.folder)
    heard = [subject.encode() + b" " + payload for subject, payload in seen]
    for what, secret in secrets.items():
        for form in (secret, secret.hex().encode(), secret.hex().upper().encode()):
            assert not any(form in message for message in heard), f"{what} travels through the club"
    public = bytes.fromhex(table_id)  # (the handshake's first answer names the table, before the seal)
    assert any(public in payload for _, payload in seen)  # (so the search would find bytes in clear)
    runs = _windows(hosted.read_bytes().replace(public, bytes(len(public))))
    assert len(runs) > 10_000
    for subject, payload in seen:
        clear = [payload[at : at + 16] for at in range(len(payload) - 15) if payload[at : at + 16] in runs]
        assert not clear, f"{subject} carries the transcript's bytes in clear: {clear[0].hex()}"


def _peak(proc) -> list[float]:
    """The most `proc` has held in memory (MiB), read until it ends, in a thread of its own."""
    most = [0.0]

    def read() -> None:
        while proc.poll() is None:
            with contextlib.suppress(OSError, AssertionError):
                most[0] = rss_mib(proc.pid, peak=True)
            time.sleep(0.1)

    threading.Thread(target=read, daemon=True).start()
    return most


# --- a hostile member ---------------------------------------------------------------------


async def _flood(url: str, seed: str, host: str, table: str, heard: list[tuple[str, bytes]]) -> list[str]:
    """As Eve, a member with a valid credential, on the subjects she may publish to at the
    table: garbage, every message of the table's heard so far replayed, a flood of thousands,
    OPENs for a thousand new connection ids, messages as large as the club lets through; then a
    publish into Bruno's connection. What the server refused, as nats-py reported it."""
    import os
    import secrets

    import nats

    from briscola_tui.club import subjects
    from briscola_tui.club.link import HEAD, OPEN

    refused: list[str] = []

    async def said(error: Exception) -> None:
        refused.append(str(error))

    nc = await nats.connect(url, nkeys_seed_str=seed, inbox_prefix="_INBOX.eve", error_cb=said, allow_reconnect=False)

    def up(cid: str) -> str:
        return subjects.up("club.friends", host, table, "eve", cid)

    try:
        mine = [secrets.token_hex(8) for _ in range(40)]
        for n in range(3000):  # garbage: no head, heads of any kind and number, random bytes
            await nc.publish(up(mine[n % len(mine)]), os.urandom(n % 300) if n % 3 else HEAD.pack(b"d", n) + b"x" * n)
        for subject, payload in heard:  # replayed, on connections of hers named as the honest ones
            await nc.publish(up(subject.rsplit(".", 1)[1]), payload)
        for cid in mine:
            for subject, payload in heard:
                if ".up." in subject:
                    await nc.publish(up(cid), payload)
        for _ in range(1000):
            await nc.publish(up(secrets.token_hex(8)), HEAD.pack(OPEN, 0))
        for cid in mine[:20]:
            await nc.publish(up(cid), HEAD.pack(OPEN, 0))
            await nc.publish(up(cid), HEAD.pack(b"d", 1) + os.urandom(1000 * 1024))
        await nc.flush(timeout=30)
        await nc.publish(f"club.friends.tables.up.{host}.{table}.bruno.{'0' * 16}", b"not hers")
        await nc.flush(timeout=30)
        for _ in range(100):
            if refused:
                break
            await asyncio.sleep(0.1)
    finally:
        await nc.close()
    return refused


@pytest.mark.slow
def test_a_hostile_members_flood_leaves_an_honest_table_playing_and_its_host_bounded(club, children, tmp_path):
    homes = _members(club, tmp_path, ("anna", "bruno", "eve"))
    eve = read_token((homes["eve"] / "clubs" / "friends.json").read_text().strip())
    tap = Tap(club, monitor(club))
    bruno = Human(seed=4, hold_at=2)  # (the table waits at Bruno's third move until the flood is over)
    try:
        table = ClubTable(children, homes["anna"], "--game", "briscola", "--bots", "1", "--name", "Anna")
        table.join(homes["bruno"], "Bruno", human=bruno)
        wait_until(lambda: bruno.moves >= 2, "Bruno's first moves", kids=children)
        table_id = table.table_id()
        heard = [(s, p) for s, p in tap.messages() if f".{table_id}." in s]
        assert heard
        before, peak = rss_mib(table.host.proc.pid), _peak(table.host.proc)
        refused = asyncio.run(_flood(eve.url, eve.seed, "anna", table_id, heard))
        bruno.go.set()
        table.verify_all(table.finish())
    finally:
        bruno.go.set()
        tap.close()
    assert any("permissions violation" in r.lower() and ".bruno." in r for r in refused), refused
    eves = [s for s, _ in tap.messages() if s.startswith(f"club.friends.tables.up.anna.{table_id}.eve.")]
    assert len(eves) > 4000 and len(set(eves)) > 1000  # (the flood went through the club to the host)
    assert peak[0] < max(before, 60) * 4, (before, peak)  # generous: it stays near where it was (60 MiB)
    for line in table.host.lines:
        if re.search("(?i)wrong|refused|too many", line):
            assert "eve" in line and "Bruno" not in line, line  # (only Eve is named for what she sent)


# --- the club unreachable -----------------------------------------------------------------


@pytest.mark.slow
def test_a_club_that_cannot_be_reached_is_said_in_one_line_naming_it_and_why(club, children, tmp_path):
    _members(club, tmp_path, ("bruno",))  # (in his data folder he joins, watches, lists and hosts)
    url = club.url
    club.close()
    for argv in (
        ("join", "12-abcdef", "--club", "friends", "--headless"),
        ("watch", "12-abcdef", "--club", "friends", "--headless"),
        ("tables", "--club", "friends"),
        ("host", "--headless", "--club", "friends", "--bots", "1"),
    ):
        child = children.start(argv[0], *argv, home="bruno")
        assert child.finish(30) != 0, child.tail()
        said = [line for line in child.lines if line != "looking for the table at the club friends..."]
        assert said == [f"briscola {argv[0]}: the club friends cannot be reached at {url}: Connection refused"]


@pytest.mark.slow
def test_a_club_server_that_stops_mid_table_and_starts_again_lets_the_table_go_on(club, children, tmp_path):
    homes = _members(club, tmp_path, ("anna", "bruno"))
    bruno = Human(seed=7, delay=0.3)  # (a person who takes a moment: the table is still on when the club stops)
    table = ClubTable(children, homes["anna"], "--game", "briscola", "--bots", "1", "--name", "Anna")
    player = table.join(homes["bruno"], "Bruno", human=bruno)
    wait_until(lambda: bruno.moves >= 2, "Bruno's first moves", kids=children)
    port = club.url.rsplit(":", 1)[1]
    club.close()
    player.wait_for(r"^connection lost \(.*\); trying the club friends, table [0-9a-f]{12} again for up to", 40)
    again = ClubServer(club.folder, port=None)  # (the same data folder: the port its record keeps)
    try:
        assert again.url == club.url, (again.url, port)
        player.wait_for("^the host is back$", 40)
        table.verify_all(table.finish(60))
    finally:
        again.close()
    for child in (table.host, player):  # (the host's listing in the club outlived the club's absence)
        assert "Traceback" not in child.text and "exception" not in child.text, child.tail(60)


@pytest.mark.slow
def test_a_table_is_listed_while_its_host_lives_and_a_dead_host_leaves_the_list_within_its_time_to_live(
    club, children, tmp_path
):
    """`briscola tables --club` lists a table hosted through the club (by its plate, its host,
    through the club); its host killed with no word (kill -9), the club's bucket forgets its
    record within the time to live, and the list no longer has it."""
    from helpers.club import run

    from briscola_tui.club.tables import TTL_SECONDS

    homes = _members(club, tmp_path, ("anna", "bruno"))
    table = ClubTable(children, homes["anna"], "--game", "briscola", "--name", "Anna")
    table.host.wait_for(r"listed by the club", 30)
    status, out, err = run(homes["bruno"], "tables", "--club", "friends", "--json")
    assert status == 0, err
    (record,) = json.loads(out)
    assert record["plate"] == int(table.code.split("-")[0]) and record["via"] == "anna" and record["addresses"] == []
    status, out, _err = run(homes["bruno"], "tables", "--club", "friends")
    assert "through the club" in out and "Briscola, 2 players" in out, out
    table.host.proc.kill()  # (no goodbye: its record stays until the bucket forgets it)
    table.host.proc.wait(10)
    still = json.loads(run(homes["bruno"], "tables", "--club", "friends", "--json")[1])
    assert [r["table"] for r in still] == [record["table"]]  # (no goodbye: the time to live takes it)
    wait_until(
        lambda: json.loads(run(homes["bruno"], "tables", "--club", "friends", "--json")[1]) == [],
        "the dead host's table to leave the list",
        timeout=TTL_SECONDS + 15,
    )


@pytest.mark.slow
def test_a_plate_copied_at_the_club_is_named_an_impostor_and_the_code_joins_the_real_table(club, children, tmp_path):
    """Anyone may copy a plate: Eve hosts through the club with a code of Anna's plate and
    another secret. `join CODE --club` tries the code on both through the club, joins Anna's
    table (the one it opens) and names Eve's in one line; the table plays to its end."""
    homes = _members(club, tmp_path, ("anna", "bruno", "eve"))
    real = ClubTable(children, homes["anna"], "--game", "briscola", "--bots", "1", "--code", "42-abcdef")
    fake = ClubTable(children, homes["eve"], "--game", "briscola", "--code", "42-zzzzzz", "--name", "Anna")
    real.host.wait_for(r"listed by the club", 30)
    fake.host.wait_for(r"listed by the club", 30)
    bruno = real.join(homes["bruno"], "Bruno")
    bruno.wait_for(r"impostors answer to 42 too, ignored \(the code does not open them\): eve at the club", 30)
    real.finish()
    assert "Traceback" not in fake.host.text
