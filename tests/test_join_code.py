"""The join code as a password-authenticated key exchange (protocol/channel.py), with real processes.

What is shown (docs/network.md, "The join code"; docs/protocol.md, "The connection"):

1. a proxy between a client and the host that records every byte sees neither
   the code, nor the seat asked for, nor a name, a key or an entry; replaying
   what it recorded to the host gets "wrong join code", and so does a connection
   that knows all it saw but not the code;
2. a proxy that changes one byte of the client's traffic after the exchange (the
   sealed request, where the seat asked for travels) has the connection closed
   for failing its integrity check, and one byte of the host's traffic has the
   client close it; the host takes nothing from either, and the seat is still
   free for the real player;
3. a host that gives another seat than the one asked for (or, to a client coming
   back, another seat than its own), or that cannot prove it holds the code, is
   refused by the client;
4. a wrong code is refused and not retried; an address out of tries is refused
   before its code is even checked, the right code too, until a try is back; the
   host says the first wrong code and then one line for the rest;
5. the sans-IO pieces: both sides derive the same keys only with the same code,
   and a sealed frame changed, replayed, moved, cut short or sent back fails.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import threading
from collections import defaultdict

import pytest
from helpers.admitting import Clock, lone_admission
from helpers.network import CODE, WAIT, Human, Proxy, Raw, Table, frames_of, wait_until

from briscola_tui.files.storage import read_transcript
from briscola_tui.net.admission import Guesses, GuessLimits
from briscola_tui.net.client import Client, Distrusted, Options
from briscola_tui.net.link import peer_address
from briscola_tui.net.listener import Listener
from protocol import handshake as hs
from protocol.channel import Exchange, Tampered, WrongCode
from protocol.codec import FrameReader, frame
from protocol.identity import Identity
from protocol.session import TableSession

HELLO = len(frame(hs.hello(bytes(33))))  # a first join's hello: marked for no table
EXCHANGE = len(frame(hs.exchange(bytes(16), bytes(33))))
CONFIRM = len(frame(hs.confirm(bytes(32))))
"""The frames in the clear have fixed sizes: the sealed ones start after them."""


def seated(path) -> TableSession:
    session = TableSession(None)
    for entry in read_transcript(path)[1]:
        session.receive(entry.encode())
    return session


# --- 1: what a sniffer learns ------------------------------------------------------------------


NAME = "Zedekiah Quill"


@pytest.mark.slow
def test_a_sniffer_learns_neither_code_seat_names_nor_cards_and_cannot_use_what_it_saw(children):
    table = Table(children, "briscola", players=2, bots=1)
    seen: dict[tuple[str, int], bytearray] = defaultdict(bytearray)
    lock = threading.Lock()

    def record(way: str, number: int, chunk: bytes) -> bytes:
        with lock:
            seen[way, number] += chunk
        return chunk

    proxy = Proxy(table.port, tap=record)
    children.closers.append(proxy)
    person = Human(seed=3, hold_at=2)
    # A long name: 3 bytes ("Zed") can turn up by chance in that much ciphertext (a CI run met it).
    zed = table.join(NAME, seat=0, human=person, port=proxy.port)
    zed.wait_for(r"^seat 0 at table ")
    watcher = table.watch(port=proxy.port)  # connection 2 of the proxy (Zed's is 1)
    watcher.wait_for(r"^watching at table ")
    wait_until(lambda: person.moves >= 2, "two of Zed's moves", kids=children)
    # While the hand waits for Zed: what the proxy saw gets nowhere.
    with lock:
        zed_up, watch_up = bytes(seen["up", 1]), bytes(seen["up", 2])
    for replay in (zed_up, watch_up):
        raw = Raw(table.port)
        children.closers.append(raw)
        raw.sock.sendall(replay)  # the recorded hello, confirmation, request, proof, submissions
        answers = raw.closed_by_host(timeout=10)
        assert [kind for kind, _ in answers] == ["exchange", "refuse"], answers
        assert answers[1] == ("refuse", ["wrong-code"])
    # A connection that knows everything the proxy saw, but not the code.
    raw = Raw(table.port)
    children.closers.append(raw)
    assert raw.exchange("3tvbdj") == ("refuse", ["wrong-code"])
    person.go.set()
    scores = table.finish()
    table.verify_all(scores)
    assert table.host.wait_for(r"^a wrong join code from 127\.0\.0\.1 \(any more are summed up in a minute\)$")
    # Nothing secret in what went by: not the code, the names, Zed's key, the seat asked
    # for, the welcome with the seat, nor any entry (every entry's signature is 64 random bytes).
    key = Identity.load(zed.home / "identity.key").public_bytes
    entries = read_transcript(table.transcript)[1]
    table_id = read_transcript(table.transcript)[0]
    secrets = [CODE.encode(), NAME.encode(), b"cpu1", key, hs.request("player", key, NAME, 0)]
    secrets += [hs.welcome(table_id, 0, n)[:-1] for n in range(3)]  # the seat given, whatever the count
    secrets += [entry.signature for entry in entries]
    for (way, number), data in seen.items():
        for secret in secrets:
            assert secret not in data, (way, number, secret[:20])
        sealed = frames_of(bytes(data))[2:]  # after the hello and confirmation (or exchange and confirmation)
        assert sealed, (way, number)
        for payload in sealed:
            with pytest.raises(Exception):  # noqa: B017 - ciphertext is no frame of any kind
                hs.parse(payload)
    opened = [hs.parse(f)[0] for f in frames_of(bytes(seen["down", 1]))[:2]]
    assert opened == ["exchange", "confirm"]


# --- 2: a proxy that changes a byte --------------------------------------------------------------


@pytest.mark.slow
def test_a_byte_changed_on_the_way_closes_the_connection_and_the_host_takes_nothing(children):
    table = Table(children, "briscola", players=2, bots=1)
    state = {"way": "up"}
    offsets: dict[tuple[str, int], int] = defaultdict(int)

    def flip(way: str, number: int, chunk: bytes) -> bytes:
        """One bit of the first sealed frame, the given way: the client's request (with the
        seat it asks for), or the host's challenge."""
        start = offsets[way, number]
        offsets[way, number] += len(chunk)
        if way != state["way"]:
            return chunk
        at = (HELLO + CONFIRM if way == "up" else EXCHANGE + CONFIRM) + 9 - start
        if 0 <= at < len(chunk):
            chunk = chunk[:at] + bytes([chunk[at] ^ 1]) + chunk[at + 1 :]
        return chunk

    proxy = Proxy(table.port, tap=flip)
    children.closers.append(proxy)

    def join(name: str):
        args = ["join", f"127.0.0.1:{proxy.port}", "--name", name, "--code", CODE, "--seat", "0"]
        return children.start(name, *args, "--bot", "random", "--retry", "1.5")

    zed = join("Zed")  # its request changed on the way: the host closes the connection (it may come back)
    assert zed.finish() == 1, zed.tail()
    assert re.search(
        r"^cannot reach the host at 127\.0\.0\.1:\d+: the host closed the connection: a frame failed its integrity check",
        zed.text,
        re.M,
    ), zed.tail()
    assert proxy.accepted >= 2  # it tried again (the connection was lost, not refused)
    assert re.search(r"closing connection \d+ \(\?\): a frame failed its integrity check", table.host.text)
    state["way"] = "down"
    yul = join("Yul")  # the host's challenge changed on the way: the client closes the connection
    assert yul.finish() == 1, yul.tail()
    assert "a frame failed its integrity check" in yul.text.splitlines()[-1], yul.tail()
    for client in (zed, yul):
        assert "at table" not in client.text
    assert "joined" not in table.host.text
    # Nothing forged was taken: seat 0 is still free, and the real player takes it through the proxy.
    state["way"] = ""
    ann = table.join("Ann", seat=0, port=proxy.port)
    table.verify_all(table.finish())
    keys = seated(table.transcript).keys
    assert keys[0] == Identity.load(ann.home / "identity.key").public_bytes
    for client in (zed, yul):
        assert Identity.load(client.home / "identity.key").public_bytes not in keys.values()


# --- 3: a host that lies -------------------------------------------------------------------------

TABLE = bytes(range(16))


class FakeHost(threading.Thread):
    """A host by hand that knows the code (or not) and welcomes a player to seat `give`,
    whatever it asked for."""

    def __init__(self, give: int, proves: bool = True):
        super().__init__(daemon=True)
        self.give, self.proves = give, proves
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.asked: list[int] = []
        self.start()

    def run(self) -> None:
        try:
            sock, _ = self.listener.accept()
        except OSError:
            return
        with sock:
            sock.settimeout(WAIT)
            reader = FrameReader()

            def read() -> bytes:
                while (data := reader.next_frame()) is None:
                    chunk = sock.recv(65536)
                    if not chunk:
                        raise ConnectionError("closed")
                    reader.feed(chunk)
                return data

            try:
                _, (_, theirs, *_signed) = hs.parse(read())  # a player's hello is signed
                exchange = Exchange("host", CODE)
                exchange.finish(theirs, TABLE, hs.VERSION)
                sock.sendall(frame(hs.exchange(TABLE, exchange.message)))
                exchange.check(hs.parse(read())[1][0])
                sock.sendall(frame(hs.confirm(exchange.confirmation() if self.proves else os.urandom(32))))
                channel = exchange.channel()
                _, (role, key, name, seat, have, head) = hs.parse(channel.open(read()))
                self.asked.append(seat)
                nonce = os.urandom(32)
                sock.sendall(frame(channel.seal(hs.challenge(nonce))))
                hs.check_proof(key, nonce, TABLE, exchange.transcript, hs.parse(channel.open(read()))[1][0])
                sock.sendall(frame(channel.seal(hs.welcome(TABLE, self.give, 0))))
                while sock.recv(65536):
                    pass
            except (ConnectionError, OSError, Tampered):
                return

    def close(self) -> None:
        self.listener.close()


@pytest.mark.slow
def test_the_client_refuses_another_seat_than_the_one_it_asked_for(children):
    liar = FakeHost(give=0)
    children.closers.append(liar)
    args = ["join", f"127.0.0.1:{liar.port}", "--name", "Bo", "--code", CODE, "--seat", "1", "--bot", "random"]
    bo = children.start("Bo", *args, "--retry", "5")
    assert bo.finish() == 2, bo.tail()
    assert bo.wait_for(r"^stopping: the host gave seat 0, not seat 1 that was asked for$")
    assert liar.asked == [1]  # what the client asked for reached the host unchanged; the answer is a lie
    assert not (bo.home / "transcripts").exists() or not any((bo.home / "transcripts").iterdir())


@pytest.mark.slow
def test_the_client_refuses_a_host_that_cannot_prove_the_code(children):
    impostor = FakeHost(give=0, proves=False)
    children.closers.append(impostor)
    bo = children.start("Bo", "join", f"127.0.0.1:{impostor.port}", "--code", CODE, "--bot", "random")
    assert bo.finish() == 2, bo.tail()
    assert bo.wait_for(r"^stopping: the host did not prove it holds the join code")
    assert impostor.asked == []  # the client sent nothing sealed to it


def test_a_client_coming_back_refuses_another_seat_than_its_own():
    liar = FakeHost(give=0)
    try:
        client = Client(Options("127.0.0.1", liar.port, "player", code=CODE), Listener(lambda line: None))
        client.identity = Identity.generate()
        client.session, client.seat, client.table_id = TableSession(None), 1, TABLE  # it held seat 1 here
        with pytest.raises(Distrusted, match=r"^the host gave seat 0, but this client holds seat 1$"):
            asyncio.run(asyncio.wait_for(client._connection(), WAIT))
        assert liar.asked == [1]
    finally:
        liar.close()


# --- 4: wrong codes --------------------------------------------------------------------------------


@pytest.mark.slow
def test_wrong_codes_are_refused_slowed_per_address_and_summed_up(children):
    # (the tries that come back, one each --guess-seconds, and the summary --guess-report-seconds
    # after the first wrong code: on a clock the test turns, in the tests after this one)
    knobs = ("--guess-free", "3", "--guess-seconds", "5")
    table = Table(children, "briscola", players=2, bots=1, extra=knobs)
    proxy = Proxy(table.port)
    children.closers.append(proxy)
    wrong = children.start(
        "Wrong", "join", f"127.0.0.1:{proxy.port}", "--code", "guess", "--bot", "random", "--retry", "20"
    )
    assert wrong.finish() == 2, wrong.tail()
    assert wrong.text.splitlines()[-1] == "the host refused: wrong join code"
    assert proxy.accepted == 1  # refused: not tried again
    table.host.wait_for(r"^a wrong join code from 127\.0\.0\.1 \(any more are summed up in a minute\)$")
    # Guesses as fast as they go: the tries left are checked (wrong), the rest refused at once.
    answers = []
    for n in range(8):
        raw = Raw(table.port)
        children.closers.append(raw)
        answers.append(raw.exchange(f"guess{n}"))
        raw.close()
    checked = sum(answer == ("refuse", ["wrong-code"]) for answer in answers)
    assert checked in (2, 3), answers  # 3 tries, one spent by the join (a try may come back meanwhile)
    assert answers[:checked] == [("refuse", ["wrong-code"])] * checked
    for kind, (reason, seconds) in answers[checked:]:  # told when to come back (busy): a client does
        assert kind == "busy" and re.fullmatch("guesses-address\x1f[1-5]", reason)  # a code and its field
        assert 1 <= seconds <= 5
    # Refused before its code is checked, the right code too: nothing tells the guess apart.
    raw = Raw(table.port)
    children.closers.append(raw)
    kind, (reason, seconds) = raw.exchange(CODE)
    assert kind == "busy" and reason.startswith("guesses-address\x1f") and 1 <= seconds <= 5
    assert raw.kinds == ["busy"]  # not even the key exchange
    raw.close()
    # Another address has its own tries: the right code is taken at once.
    elsewhere = Proxy(table.port, source="127.0.0.2")
    children.closers.append(elsewhere)
    table.join("Ann", port=elsewhere.port)
    table.verify_all(table.finish())
    # One line for all the rest (said at the end, the report's minute not over), then nothing per guess.
    summary = table.host.wait_for(r"^(\d+) wrong join codes from 127\.0\.0\.1 in the last minute; (\d+) more tries")
    assert int(summary.group(1)) == 1 + checked and int(summary.group(2)) == 8 - checked + 1, summary.group(0)
    assert sum("wrong" in line for line in table.host.lines) == 2, table.host.tail()
    assert "refusing connection" not in table.host.text
    assert "127.0.0.2" not in table.host.text


def test_a_try_comes_back_when_the_refusal_said_and_a_right_code_gives_its_try_back():
    """The host's side of the test above past the time it named, on a clock the test turns."""
    clock = Clock()
    guesses = lone_admission(guesses=GuessLimits(free=3, seconds=5.0), clock=clock).guesses
    for _ in range(3):
        assert guesses.take("127.0.0.1")  # three wrong codes
    assert not guesses.take("127.0.0.1")
    refusal = guesses.hold("127.0.0.1")
    assert refusal.seconds == 5.0 and refusal.reason.values == ("5",)
    clock.now = 4.9
    assert guesses.wait("127.0.0.1") == pytest.approx(0.1) and not guesses.take("127.0.0.1")
    clock.now = 5.0
    assert guesses.wait("127.0.0.1") == 0 and guesses.take("127.0.0.1")  # a try is back: the right code is checked
    guesses.give_back("127.0.0.1")  # it was right: its try is not counted
    assert guesses.take("127.0.0.1") and not guesses.take("127.0.0.1")


async def test_wrong_codes_are_summed_up_report_seconds_after_the_first():
    said: list[str] = []
    admission = lone_admission(guesses=GuessLimits(report_seconds=12.0), say=said.append)
    loop = asyncio.get_running_loop()

    def wrong_code() -> None:  # as the handshake counts one
        if (line := admission.guesses.wrong_code("127.0.0.1")) is not None:
            admission.say(line)
        admission._report_later()

    wrong_code()
    report = admission.report
    assert report is not None and report.when() - loop.time() == pytest.approx(12.0, abs=0.5)
    assert said == ["a wrong join code from 127.0.0.1 (any more are summed up in 12 s)"]
    wrong_code()
    wrong_code()
    assert admission.report is report  # the next ones do not put the report off
    report._run()  # its time: what the timer runs
    assert said[1:] == ["3 wrong join codes from 127.0.0.1 in the last 12 s"] and admission.report is None
    wrong_code()
    assert said[2:] == ["a wrong join code from 127.0.0.1 (any more are summed up in 12 s)"]
    assert admission.report is not report and admission.report is not None
    admission.say_guesses()  # as the host says at the end of the table: at once, the timer stopped
    assert admission.report is None and len(said) == 3  # (only the one said at once: nothing more)


# --- 5: the pieces, sans IO ------------------------------------------------------------------------


def _pair(client_code: str, host_code: str) -> tuple[Exchange, Exchange]:
    client, host = Exchange("client", client_code), Exchange("host", host_code)
    host.finish(client.message, TABLE, hs.VERSION)
    client.finish(host.message, TABLE, hs.VERSION)
    return client, host


def test_the_same_code_gives_the_same_keys_and_another_code_is_caught_at_confirmation():
    client, host = _pair(CODE, CODE)
    host.check(client.confirmation())
    client.check(host.confirmation())
    assert client.transcript == host.transcript
    up, down = client.channel(), host.channel()
    assert down.open(up.seal(b"\x91\xa3bye")) == b"\x91\xa3bye"
    assert up.open(down.seal(b"x")) == b"x"
    again, _ = _pair(CODE, CODE)
    assert again.transcript != client.transcript  # fresh each time: nothing to replay
    for codes in ((CODE, "s3creT"), ("", CODE), (CODE, "")):
        client, host = _pair(*codes)
        with pytest.raises(WrongCode, match="^wrong join code$"):
            host.check(client.confirmation())
        with pytest.raises(WrongCode):
            client.check(host.confirmation())
    with pytest.raises(Exception, match="not a key exchange message"):
        Exchange("host", CODE).finish(Exchange("host", CODE).message, TABLE, hs.VERSION)  # the same side's
    with pytest.raises(Exception, match="not a key exchange message"):
        Exchange("host", CODE).finish(b"A" + bytes(32), TABLE, hs.VERSION)  # not a point of the group


def test_a_sealed_frame_changed_replayed_moved_cut_or_reflected_does_not_open():
    client, host = _pair(CODE, CODE)
    up, down = client.channel(), host.channel()
    first, second, third = up.seal(b"one"), up.seal(b"two"), up.seal(b"three")
    with pytest.raises(Tampered):
        down.open(second)  # out of order (the first never came)
    assert down.open(first) == b"one"
    with pytest.raises(Tampered):
        down.open(first)  # replayed
    with pytest.raises(Tampered):
        down.open(second[:-1])  # cut short
    with pytest.raises(Tampered):
        down.open(bytes([second[0] ^ 1]) + second[1:])  # changed
    assert down.open(second) == b"two" and down.open(third) == b"three"
    with pytest.raises(Tampered):
        up.open(up.seal(b"back"))  # sent back to its sender: the other direction's key


def test_guesses_are_counted_per_address_and_ipv6_per_64():
    now = [0.0]
    guesses = Guesses(GuessLimits(free=2, seconds=10.0), clock=lambda: now[0])
    assert peer_address(("::ffff:10.0.0.5", 1, 0, 0)) == "10.0.0.5"
    assert peer_address(("2001:db8:1:2:aaaa::1", 1, 0, 0)) == peer_address(("2001:db8:1:2:bbbb::9", 1, 0, 0))
    assert peer_address(("2001:db8:1:3::1", 1, 0, 0)) != peer_address(("2001:db8:1:2::1", 1, 0, 0))
    assert guesses.take("a") and guesses.take("a") and not guesses.take("a")
    assert guesses.take("b")  # another address has its own tries
    assert guesses.wait("a") == 10.0
    now[0] = 5.0
    assert not guesses.take("a") and guesses.wait("a") == 5.0
    now[0] = 10.0
    assert guesses.take("a")  # one try back each 10 s
    guesses.give_back("a")  # that code was right: the try is not counted
    assert guesses.take("a") and not guesses.take("a")
    guesses.wrong_code("a")
    guesses.hold("a")
    assert guesses.report() == "1 wrong join code from a in the last minute; 1 more try refused (too many wrong codes)"
    assert guesses.report() is None
