"""`briscola host`, `join` and `watch` as real processes on 127.0.0.1.

Every table here is played by separate processes talking TCP: the host
(with `--bots` computer players of its own), computer players that join
(`join --bot random`), a person's seat driven through standard input (a
small driver answers each "your turn: a | b | c" line with one of the labels
offered), `watch`, and connections made by hand with `protocol.handshake`.
Each process has its own data folder (BRISCOLA_HOME), ports are the ones the
OS picks (`--port 0 --port-file`), every wait has a deadline, and the
`children` fixture kills every process it started, pass or fail.

What is shown (docs/protocol.md):

1. a Chiamata hand, a 2-player and a 4-player Briscola hand (with partners
   choosing seats 0 and 2) and a Calabresella hand play to the end; every
   stored transcript (the host's and each client's copy) passes
   `briscola verify`, and everybody tells the same scores;
2. a player killed (SIGKILL) mid-hand and started again with the same
   command, the host killed and started again, and a connection cut under a
   client (a proxy in the test drops it): the hand completes and verifies;
   a host restarted right after a hand's last reveal closes a one-hand table
   without playing another hand, and a client restarted then gets the end;
3. all a spectator receives (a spectator connected by hand, and the `watch`
   process's stored copy) opens no hidden card: replayed entry by entry,
   no position hidden at that moment has all its key shares public, and
   the bytes received up to then never contain a hidden card's point;
4. random bytes, an oversized frame, a slow-loris client and 200 idle
   connections during a hand: each is cut off (the idle ones past the share
   of one address as newer ones come, told the host is busy), and the hand
   completes and verifies (tests/test_admission.py has the rest of the
   limits);
5. a wrong or missing join code takes no seat and watches nothing; a
   spectator that sends a game message, and a player connection that
   submits a message signed by another key, are closed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers.home import point_home_at
from helpers.network import (
    BRISCOLA,
    CODE,
    ROOT,
    WAIT,
    Child,
    Children,
    Human,
    Proxy,
    Raw,
    RawWatcher,
    Table,
    sit,
    spectate,
    wait_until,
)

from briscola_tui.files.storage import read_transcript
from briscola_tui.notes import SoFar
from briscola_tui.render import render
from briscola_tui.tui.widgets.cards import Style
from protocol import deck as mp
from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import MAX_FRAME, frame
from protocol.identity import Identity
from protocol.session import TableSession
from protocol.transcript import Entry, Signed, parse_header

# --- what a spectator can open -----------------------------------------------------------


def hand_truths(entries: list[bytes]) -> dict[int, list[int]]:
    """Each hand's whole deck, position by position, from the seeds revealed after it (as the audit does)."""
    session, truths = TableSession(None), {}
    for data in entries:
        hand = session.hand
        session.receive(data)
        if hand is not None and session.players and len(hand.reveals) == session.players:
            secrets = [mp.SeatSecrets(hand.reveals[s][0]) for s in range(session.players)]
            truths.setdefault(hand.number, mp.decrypt_deck(list(hand.shuffles[-1][1].deck), secrets))
    return truths


def assert_opens_no_hidden_card(entries: list[bytes], stream: bytes, ends: list[int]) -> int:
    """Replay what a spectator received through a spectator session, checking after each entry
    (tests/test_knowledge.py) that no position hidden at that moment has every key share public
    and that the spectator opened none; and that the bytes received up to then (`stream`, entry k
    ending at `ends[k]`) hold no hidden card's point. The number of moments checked."""
    truths = hand_truths(entries)
    assert truths, "no hand was played to its reveals"
    session = TableSession(None)
    last_hidden: dict[tuple[int, int], int] = {}
    checks = 0
    for k, data in enumerate(entries):
        session.receive(data)
        hand = session.hand
        if hand is None or not session.cards.final or session.phase in ("over", "aborted"):
            continue
        truth, n = truths[hand.number], session.players
        public = dict(session.cards.known)
        assert all(truth[p] == card for p, card in public.items())
        hidden = [p for p in range(len(truth)) if p not in public]
        hidden_cards = {truth[p] for p in hidden}
        assert not {c.index for c in session.known_cards()} & hidden_cards
        if session.view is not None:
            for s in range(n):
                assert {c.index for c in session.view.hands[s]} <= set(public.values())
        published: dict[int, set[int]] = {}
        for step in hand.steps:
            for sender, shares in step.shares.items():
                for p, _ in shares.public:
                    published.setdefault(p, set()).add(sender)
        for p in hidden:
            assert len(published.get(p, ())) < n, f"every key share of hidden position {p} is public"
            last_hidden[(hand.number, p)] = k
        checks += 1
    for (number, p), k in last_hidden.items():
        assert mp.card_point(truths[number][p]) not in stream[: ends[k]], f"hidden card at {p} in the bytes"
    assert len({p for _, p in last_hidden}) > 20  # most of the deck was hidden at some moment
    return checks


def file_frames(path: Path) -> tuple[bytes, list[bytes], list[int]]:
    """A transcript file's bytes, its entries, and the offset after each entry's frame."""
    data = path.read_bytes()
    offset, frames, ends = 0, [], []
    while offset + 4 <= len(data):
        size = int.from_bytes(data[offset : offset + 4], "big")
        frames.append(data[offset + 4 : offset + 4 + size])
        offset += 4 + size
        ends.append(offset)
    return data, frames[1:], ends[1:]  # the first frame is the file's header


# --- 1 and 3: whole hands, and what a spectator holds -------------------------------------------

TABLES = {
    "chiamata": dict(game="chiamata", bots=2, seats=[("Ann", -1, False), ("Bob", -1, False), ("Cleo", -1, True)]),
    "briscola-2": dict(game="briscola", players=2, bots=0, seats=[("Ann", -1, False), ("Cleo", -1, True)]),
    # partners sit across: seats 0 and 2 against 1 and 3
    "briscola-4": dict(
        game="briscola", players=4, bots=1, seats=[("Ann", 0, False), ("Cleo", 2, True), ("Bob", 1, False)]
    ),
    "calabresella": dict(game="calabresella", bots=1, seats=[("Ann", -1, False), ("Cleo", -1, True)]),
}


@pytest.fixture(scope="module", params=sorted(TABLES))
def played(request, tmp_path_factory):
    """One hand of a table, played by processes; what they left behind. (Set up before any
    test's own folders: the processes get a temporary HOME and XDG folders of their own.)"""
    spec = TABLES[request.param]
    env = pytest.MonkeyPatch()
    point_home_at(env, tmp_path_factory.mktemp(f"{request.param}-home"))
    kids = Children(tmp_path_factory.mktemp(request.param))
    try:
        table = Table(kids, spec["game"], players=spec.get("players"), bots=spec["bots"])
        spy = RawWatcher(table.port)
        kids.closers.append(spy.raw)
        table.watch()
        for number, (name, seat, person) in enumerate(spec["seats"]):
            table.join(name, seat=seat, human=Human(seed=number) if person else None)
        scores = table.finish()
        spy.done()
        yield request.param, spec, table, scores, spy
    finally:
        kids.close()
        env.undo()


@pytest.mark.slow
def test_a_hand_over_the_network_verifies_everywhere(played):
    name, spec, table, scores, _ = played
    table.verify_all(scores)
    for client, (_who, seat, person) in zip(table.clients[1:], spec["seats"]):
        found = int(client.wait_for(r"^seat (\d) at table [0-9a-f]{32} ").group(1))
        assert seat < 0 or found == seat
        assert ("your turn: " in client.text) == person
    if name == "briscola-4":  # the partners who chose seats 0 and 2 share their result
        final = json.loads(scores)
        assert final[0] == final[2] and final[1] == final[3]
    assert table.clients[0].wait_for(r"^watching at table ")
    assert table.host.wait_for(r"^table closed: (.*)$").group(1) == "the table ends after hand 1, as it was started"
    if spec["game"] == "briscola":  # the trump suit is named in words, not only by its letter
        assert table.clients[0].wait_for(r"trump [DHSC] \((diamonds|hearts|spades|clubs)\)$")


@pytest.mark.slow
def test_a_spectator_opens_no_hidden_card(played):
    _, _, table, _, spy = played
    # What came over the spectator's socket, byte for byte.
    checks = assert_opens_no_hidden_card(spy.entries, bytes(spy.raw.received), spy.entry_ends())
    assert checks > 20
    # What the `watch` process stored: the same entries, and its bytes open nothing either.
    data, entries, ends = file_frames(next((table.clients[0].home / "transcripts").glob("*-watch.bin")))
    assert [Entry.decode(e) for e in entries] == [Entry.decode(e) for e in spy.entries]
    assert assert_opens_no_hidden_card(entries, data, ends) == checks


# --- 2: killed processes and cut connections -----------------------------------------------------


@pytest.mark.slow
def test_a_player_killed_mid_hand_comes_back(children):
    table = Table(children, "briscola", players=2, bots=1)
    watcher = table.watch()
    person = Human(seed=3, delay=0.12)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 4, "four moves", kids=children)
    cleo.proc.kill()
    cleo.finish()
    table.host.wait_for(r"closing connection \d+ \(seat 0\): connection lost")
    moves = person.moves
    watcher.wait_for(r"^Cleo is away \(no connection\)$")  # the others see why the table waits
    assert "Cleo is back" not in watcher.text
    cleo = table.restart(cleo)  # the same command, the same data folder
    cleo.wait_for(r"^seat 0 at table ")
    watcher.wait_for(r"^Cleo is back$")
    scores = table.finish()
    assert person.moves > moves + 3  # it went on playing
    table.verify_all(scores)
    assert "is away" not in table.host.text and "cpu1 is" not in watcher.text  # its own players never are


@pytest.mark.slow
def test_the_host_killed_mid_hand_comes_back(children):
    table = Table(children, "briscola", players=2, bots=1)
    watcher = table.watch()
    person = Human(seed=4, delay=0.12)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 4, "four moves", kids=children)
    table.host.proc.kill()
    table.host.finish()
    moves = person.moves
    host = table.start_host()  # the same command: the same --transcript, and now the same --port
    host.wait_for(r"^resuming table [0-9a-f]{32} from ")
    scores = table.finish()
    assert person.moves > moves + 3
    for client in (cleo, watcher):
        assert "connection lost" in client.text  # it came back by itself
    table.verify_all(scores)


@pytest.mark.slow
def test_a_connection_cut_under_a_player_comes_back(children):
    table = Table(children, "briscola", players=2, bots=1)
    proxy = Proxy(table.port)
    children.closers.append(proxy)
    person = Human(seed=5, delay=0.1)
    cleo = table.join("Cleo", human=person, port=proxy.port)
    table.watch()
    for moves in (3, 8):
        wait_until(lambda moves=moves: person.moves >= moves, f"{moves} moves", kids=children)
        proxy.cut()
    scores = table.finish()
    assert person.moves > 8
    assert cleo.text.count("connection lost") >= 2
    assert proxy.accepted >= 3  # it came back through the proxy, each time
    table.verify_all(scores)


@pytest.mark.slow
def test_a_spectator_cut_off_just_before_the_end_still_gets_it(children):
    """The spectator's connection drops before the last card and it cannot reach the host until
    the seats have read the end: the host waits for it, and it ends with the table's scores."""
    table = Table(children, "briscola", players=2, bots=1)
    proxy = Proxy(table.port)
    children.closers.append(proxy)
    person = Human(seed=3, hold_at=19)
    cleo = table.join("Cleo", human=person)
    watcher = table.watch(port=proxy.port)
    table.host.wait_for(r"\(spectator\) joined")
    wait_until(lambda: person.moves >= 19, "the last move but one", kids=children)
    proxy.cut(hold=True)
    person.go.set()
    assert cleo.finish() == 0, children.report()
    table.host.wait_for(r"waiting up to 10 s for 1 spectator to read the end")
    proxy.release()
    scores = table.finish()
    assert "connection lost" in watcher.text
    assert proxy.accepted >= 2  # it came back through the proxy
    table.verify_all(scores)


@pytest.mark.slow
def test_a_spectator_that_leaves_on_purpose_does_not_hold_the_host_at_the_end(children):
    table = Table(children, "briscola", players=2, bots=1)
    person = Human(seed=4, hold_at=10)
    cleo = table.join("Cleo", human=person)
    # A person's ctrl+c. The test may run as a background job, whose children start with SIGINT
    # ignored: this one takes it as a terminal's foreground process does.
    keys = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from briscola_tui.cli import main; sys.exit(main())"
    )
    watcher = Child(
        "watcher",
        [sys.executable, "-c", keys, "watch", table.address, "--retry", "20", "--code", CODE],
        children.folder / "watcher",
    )
    children.started.append(watcher)
    table.host.wait_for(r"\(spectator\) joined")
    wait_until(lambda: person.moves >= 10, "ten moves", kids=children)
    watcher.proc.send_signal(signal.SIGINT)  # it says bye as it goes
    assert watcher.finish() == 130, watcher.tail()
    person.go.set()
    assert cleo.finish() == 0, children.report()
    assert table.host.finish() == 0, children.report()
    assert "spectator to read the end" not in table.host.text


@pytest.mark.slow
def test_a_host_restarted_at_the_end_of_the_hand_closes_the_table_and_serves_its_end(children):
    """The host stops right after a hand's last reveal (a table started for one hand): started
    again, it closes the table before anything of the next hand, and a player whose process was
    restarted then still gets the end (the host waits for the seats it has not told)."""
    table = Table(children, "briscola", players=2, bots=1)
    ann = table.join("Ann")
    table.finish()
    data, entries, ends = file_frames(table.transcript)
    session = TableSession(None)
    for k, entry in enumerate(entries):  # noqa: B007 - k is the entry that gave the verdict
        session.receive(entry)
        if session.verdicts:
            break
    assert k < len(entries) - 1  # the close came after it
    table.transcript.write_bytes(data[: ends[k]])  # as if killed right after the last reveal
    for copy in (ann.home / "transcripts").glob("*.bin"):
        copy.unlink()  # Ann starts again too, from her key and her seat's store
    host = table.start_host()
    host.wait_for(r"^resuming table ")
    table.restart(ann)
    scores = table.finish()
    assert len(file_frames(table.transcript)[1]) == k + 2  # it ordered one entry: the close
    table.verify_all(scores)


# --- 4: hostile connections during a hand ------------------------------------------------------


@pytest.mark.slow
def test_garbage_slow_loris_and_idle_connections_do_not_stop_a_hand(children):
    table = Table(children, "briscola", players=2, bots=1, extra=("--handshake-seconds", "2"))
    table.watch()
    # The person keeps playing while the connections come, but stops after 15 of their 20 moves
    # until the test has seen every bad connection cut off: the hand cannot end first.
    person = Human(seed=6, delay=0.1, hold_at=15)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 1, "the hand to start", kids=children)
    moves = person.moves
    idle = [Raw(table.port) for _ in range(200)]
    children.closers += idle
    garbage = Raw(table.port)
    garbage.sock.sendall(os.urandom(3000))
    oversized = Raw(table.port)
    oversized.sock.sendall((MAX_FRAME + 1).to_bytes(4, "big") + os.urandom(1000))
    junk_frame = Raw(table.port)
    junk_frame.send(os.urandom(500))
    children.closers += [garbage, oversized, junk_frame]
    loris = Raw(table.port)
    children.closers.append(loris)
    hello = frame(hs.hello(Exchange("client", CODE).message))
    sent = threading.Event()

    def drip() -> None:
        for byte in hello:
            try:
                loris.sock.send(bytes([byte]))
            except OSError:
                return
            if sent.wait(1.0):
                return

    threading.Thread(target=drip, daemon=True).start()
    # Garbage is refused as it arrives (a refusal, not the handshake's time limit: that says bye).
    for raw in (garbage, oversized, junk_frame):
        frames = raw.closed_by_host(timeout=5)
        assert [kind for kind, _ in frames] == ["refuse"], frames
    # The slow loris and the idle connections: cut off once the handshake time is up, but one
    # address holds at most 32 idle ones: each newer one closed an older one (busy) as it came.
    assert [kind for kind, _ in loris.closed_by_host(timeout=10)] == ["bye"]
    sent.set()
    ends = [[kind for kind, _ in raw.closed_by_host(timeout=10)] for raw in idle]
    assert all(end in (["bye"], ["busy"]) for end in ends), ends
    timed_out = ends.count(["bye"])
    assert 0 < timed_out <= 32 and ends[-timed_out:] == [["bye"]] * timed_out, ends
    wait_until(lambda: table.host.text.count("no handshake in time") == timed_out + 1, "the time-outs", kids=children)
    assert table.host.text.count("refusing connection") == 3
    # ... while the hand went on (it is not over: the person holds their last moves).
    assert table.host.proc.poll() is None and "the table is over" not in cleo.text
    wait_until(lambda: person.moves > moves + 3, "the hand to go on", kids=children)
    person.go.set()
    scores = table.finish()
    table.verify_all(scores)


# --- 5: who may do what ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_wrong_or_missing_code_takes_no_seat_and_watches_nothing(children):
    table = Table(children, "briscola", players=2, bots=1)
    intruders = [
        table.join("Wrong", code="guess"),
        table.join("Nocode", code=None),
        table.watch("Peeker", code="guess"),
        table.watch("Nocode-watch", code=None),
    ]
    for intruder in intruders:
        assert intruder.finish() == 2, intruder.tail()
        needs = r"this table needs a join code \(--code\)" if intruder.name.startswith("Nocode") else "wrong join code"
        assert intruder.wait_for(rf"^the host refused: {needs}$")
        assert "at table" not in intruder.text and "joins" not in intruder.text
        assert not (intruder.home / "transcripts").exists() or not any((intruder.home / "transcripts").iterdir())
    for intruder in intruders:
        table.clients.remove(intruder)
    assert "joined" not in table.host.text
    # The seat is still free: the right code takes it and the hand is played.
    table.join("Ann")
    table.verify_all(table.finish())


@pytest.mark.slow
def test_a_spectator_that_sends_a_game_message_is_closed(children):
    table = Table(children, "briscola", players=2, bots=1)
    raw, entries = spectate(table.port)
    children.closers.append(raw)
    raw.send(hs.submit(Entry.decode(entries[-1]).message))  # signed bytes (a computer player's join)
    frames = raw.closed_by_host(timeout=5)
    assert ("bye", ["spectator-message"]) in frames
    table.join("Ann")
    table.verify_all(table.finish())


def _join_of(entries: list[bytes], seat: int) -> bytes:
    for data in entries:
        message = Entry.decode(data).message
        header, _ = parse_header(Signed.decode(message).payload)
        if header.kind == "join" and header.sender == seat:
            return message
    raise AssertionError(f"no join of seat {seat}")


@pytest.mark.slow
def test_a_person_may_not_take_a_computer_players_name(children):
    # The lobby shows a seat named cpuN as a computer player: the host refuses such a
    # name in the hello, and closes a connection whose join (signed by its own key) uses one.
    table = Table(children, "briscola", players=2, bots=1)
    posing = table.join("cpu0")
    assert posing.finish() == 2, posing.tail()
    assert posing.wait_for(r"^briscola join: --name 'cpu0': a name such as cpu1 .* is kept for the host's")
    table.clients.remove(posing)
    raw = Raw(table.port)
    children.closers.append(raw)
    raw.hello("player", Identity.generate().public_bytes, "Cpu0", CODE, -1)
    assert raw.closed_by_host(timeout=5) == [("refuse", ["bot-name\x1f'Cpu0'"])]  # a code and its field
    k1 = Identity.generate()
    raw, seat, entries = sit(table.port, k1)
    children.closers.append(raw)
    forger = TableSession(seat, k1, "cpu0")
    owed = [m for data in entries for m in forger.receive(data).messages] + forger.start().messages
    raw.send(hs.submit(owed[0]))
    assert ("bye", ["bot-join"]) in raw.closed_by_host(timeout=5)
    table.join("Ann")  # the seat is still free
    table.verify_all(table.finish())
    session = TableSession(None)
    for entry in read_transcript(table.transcript)[1]:
        session.receive(entry.encode())
    assert {s: session.names[s] for s in (0, 1)} == {0: "Ann", 1: "cpu1"}


@pytest.mark.slow
def test_a_connection_submitting_another_keys_message_is_closed(children, tmp_path):
    table = Table(children, "briscola", players=4, bots=2)
    ann = table.join("Ann", seat=0)
    table.host.wait_for(r"^Ann joins \(seat 0\)$")
    k1 = Identity.generate()
    reason = "other-signer"  # the code of the reason (protocol/reasons.py)
    # A player proves K1 and sends Ann's own signed join (seat 0, Ann's key).
    raw, seat, entries = sit(table.port, k1)
    children.closers.append(raw)
    assert seat == 1
    raw.send(hs.submit(_join_of(entries, 0)))
    assert ("bye", [reason]) in raw.closed_by_host(timeout=5)
    # A join for its own seat, but signed by (and binding) another key than the one it proved.
    k2 = Identity.generate()
    raw, seat, entries = sit(table.port, k1)
    children.closers.append(raw)
    assert seat == 1  # the seat was given back when the connection closed
    forger = TableSession(seat, k2)
    owed = [m for data in entries for m in forger.receive(data).messages] + forger.start().messages
    assert parse_header(Signed.decode(owed[0]).payload)[0].kind == "join"
    raw.send(hs.submit(owed[0]))
    assert ("bye", [reason]) in raw.closed_by_host(timeout=5)
    # Neither entered the transcript: seat 1 is still free, and a real player takes it.
    table.join("Bob", seat=1)
    scores = table.finish()
    table.verify_all(scores)
    session = TableSession(None)
    for entry in read_transcript(table.transcript)[1]:
        session.receive(entry.encode())
    assert set(session.keys.values()).isdisjoint({k1.public_bytes, k2.public_bytes})
    assert ann.finish() == 0


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
def test_a_table_over_ipv6_loopback(children):
    table = Table(children, "briscola", players=2, bots=1, extra=("--bind", "::1"))
    assert f"join with: briscola join [::1]:{table.port} --code {CODE}" in table.host.wait_for(r"join with: .*").group(
        0
    )
    table.clients.append(children.start("Ivo", "join", f"[::1]:{table.port}", "--code", CODE, "--bot", "random"))
    table.verify_all(table.finish())


def test_addresses_are_given_as_join_takes_them():
    from briscola_tui.net.addresses import addresses
    from briscola_tui.net.hosting import SetupError
    from briscola_tui.net.joining import host_port

    assert host_port("[::1]:7777") == ("::1", 7777)
    assert host_port("box.lan:7000") == ("box.lan", 7000)
    for bad in ("::1:7777", "[::1]", "box.lan", "box.lan:0", "box.lan:70000", ":7777"):
        with pytest.raises(SetupError, match="expected HOST:PORT"):
            host_port(bad)
    assert addresses("192.168.1.20", 7777) == ["192.168.1.20:7777"]
    assert addresses("fe80::1", 7777) == ["[fe80::1]:7777"]
    every = addresses("0.0.0.0", 7777)
    assert every[-1] == "127.0.0.1:7777" and all(host_port(a)[1] == 7777 for a in every)


@pytest.mark.slow
def test_a_seat_silent_past_the_time_limit_is_named_and_a_computer_player_takes_it(children):
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "3", "--bots-replace"))
    person = Human(seed=5)  # plays three cards, then never answers again
    nico = table.join("Nico", human=lambda child, line: person(child, line) if person.moves < 3 else None)
    table.host.wait_for(r"Nico timed out", timeout=WAIT)
    table.host.wait_for(r"a computer player takes seat 0")
    assert nico.finish() != 0  # its seat was given away: it says so and stops
    assert "your seat was given to a computer player" in nico.text
    assert table.host.finish() == 0, children.report()  # one hand scored after the void one
    assert re.search(r"^hand 2: .*score", table.host.text, re.M), table.host.tail()
    done = subprocess.run(
        [*BRISCOLA, "verify", str(table.transcript)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert re.search(r"culprits: .*seat 0", done.stdout), done.stdout


@pytest.mark.slow
def test_a_spectator_arriving_late_is_told_who_sits_where(children):
    table = Table(children, "briscola", players=2, bots=1)
    table.join("Ann", human=lambda child, line: None)  # takes seat 0 and never plays: the table waits
    table.host.wait_for(r"Ann joins")
    watcher = table.watch()
    names = watcher.wait_for(r"^at the table: (.*)$").group(1)
    assert re.fullmatch(r"Ann, \w+ \(seats 0, 1\)", names), watcher.tail()
    who, seats = re.fullmatch(r"(.*) \(seats (.*)\)", names).groups()
    note = SoFar(tuple(who.split(", ")), tuple(int(s) for s in seats.split(", ")))
    assert render(note, Style(True), ["Ann", "Bea"]).removeprefix("at the table: ") == names  # written as it is
    assert watcher.text.index("watching at table") < watcher.text.index("at the table: ")


@pytest.mark.slow
def test_a_host_never_reached_is_not_called_a_lost_connection(children):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ann = children.start("Ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--bot", "random", "--retry", "1")
    assert ann.finish() == 1
    assert ann.text.splitlines() == [f"nothing answers at 127.0.0.1:{port} (is the host running, on that port?)"]


@pytest.mark.slow
def test_a_second_join_from_the_same_data_folder_is_told_to_use_another(children):
    table = Table(children, "briscola", players=2)
    first = table.join("Uno", human=None)
    first.wait_for(r"^seat \d at table ")
    second = children.start("Due", "join", table.address, "--code", CODE, "--bot", "random", home="Uno")
    assert second.finish() == 2
    assert "one seat per data folder" in second.text and "BRISCOLA_HOME" in second.text
    table.join("Tre")
    table.verify_all(table.finish())


@pytest.mark.slow
def test_a_reader_too_slow_is_dropped_and_one_catching_up_is_not(children):
    """With a backlog of 5: a spectator that stops reading is closed once it is 5 new entries
    behind (three hands: more than the socket buffers hold); a watch that comes in mid-hand reads the dozens stored before it from its own
    cursor (its catch-up is not held against it), and the hand goes on."""
    table = Table(children, "briscola", players=2, bots=1, extra=("--backlog", "5", "--hands", "3", "-o", "match=3"))
    stalled = Raw(table.port, rcvbuf=4096)
    children.closers.append(stalled)
    stalled.hello("spectator", b"", "", CODE)
    assert stalled.next()[0] == "welcome"  # then it reads nothing more
    person = Human(seed=11, delay=0.05)
    table.join("Pia", human=person)
    wait_until(lambda: person.moves >= 4, "four moves", kids=children)
    table.watch()
    table.finish()
    assert re.search(r"closing connection \d+ \(spectator\): too slow to read the table", table.host.text), (
        table.host.tail()
    )
    assert "Traceback" not in table.host.text  # the stalled connection is cut at the end, not cancelled
    # every copy holds the whole table: the watch's too, which came in 20-odd entries late
    for path in table.stored():
        done = subprocess.run([*BRISCOLA, "verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
        assert done.returncode == 0 and "3 hands audited" in done.stdout, done.stdout + done.stderr
