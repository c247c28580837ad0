"""Players behind one address (one SSH server, one NAT) and an outsider on it: `briscola host`
as a real process on 127.0.0.1, every client on that same address.

What is shown (docs/network.md, "A host on a shared address"):

1. an outsider guessing codes on the players' address keeps its tries spent, and a player
   killed and started again still takes its seat back at once: its hello is signed by its
   seated key, which spends its own tries, never the address's;
2. an outsider re-opening 260 connections that each send a byte (or a hello) holds only its
   address's share of the handshake pool, and that share gives way to a newcomer: a player
   killed and started again takes its seat back, nobody is timed out;
3. a man in the middle that answers a reconnecting player's hello with a forged refusal, then a
   forged `busy 3600`, ends nothing: the player tries again, takes its seat back, and the
   table ends as it should;
4. hellos that never finish their key exchange cost the host a SPAKE2 half each: past a few
   free ones they spend the address's tries, are turned away before any work, and one line
   on the console sums them up.

Each failed on main before the change that fixed it (see the commit messages). Every process
has its own data folder, ports are the ones the OS picks, every wait has a deadline, and the
`children` fixture kills every process it started.
"""

from __future__ import annotations

import threading
from collections import defaultdict

import pytest
from helpers.admitting import lone_admission
from helpers.cheaters import random_choosers
from helpers.floods import Flood, Guesser, half_hellos
from helpers.network import WAIT, Human, Proxy, Table, frames_of, rss_mib, wait_until

from briscola_tui.files.storage import read_transcript
from briscola_tui.net import seat_copy
from briscola_tui.net.admission import Guesses, GuessLimits
from briscola_tui.net.connection import Busy, Conn, Limits
from briscola_tui.net.seat_copy import taken_over
from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import frame
from protocol.errors import RemoteProtocolError
from protocol.identity import Identity, verify
from protocol.local import LocalTable, replacement_seat
from protocol.returning import TAG_LEN, shared_key
from protocol.session import TableSession


def restart_during(table: Table, person: Human, cleo, children):
    """Kill Cleo's process and start it again; it takes seat 0 back within 10 s and the hand
    goes on. The new process."""
    cleo.proc.kill()
    cleo.finish()
    table.host.wait_for(r"closing connection \d+ \(seat 0\): connection lost")
    moves = person.moves
    cleo = table.restart(cleo)
    cleo.wait_for(r"^seat 0 at table ", timeout=10)
    person.go.set()
    wait_until(lambda: person.moves > moves + 3, "the hand to go on", kids=children)
    return cleo


def at_the_table(watcher):
    """The spectator, once it watches: one that came later from the outsider's address would
    share its tries and its share of the pool (docs/network.md, "A host on a shared address")."""
    watcher.wait_for(r"^watching at table ", timeout=WAIT)
    return watcher


HOST_GROWTH_MIB = 40
"""What the host's memory may grow by over an attack and the hand (bench/handshake_floods.py: about
12 MiB under a byte or hello flood)."""


def host_held(table: Table, rss_before: float) -> None:
    """The host's memory grew by less than HOST_GROWTH_MIB since `rss_before`."""
    grown = rss_mib(table.host.proc.pid) - rss_before
    assert grown < HOST_GROWTH_MIB, f"the host grew by {grown:.1f} MiB"


def finished_by_all(table: Table, watcher, rss_before: float | None) -> None:
    if rss_before is not None:
        host_held(table, rss_before)
    scores = table.finish()
    table.verify_all(scores)
    assert "timed out" not in table.host.text and "timed out" not in watcher.text, table.host.tail()


# --- 1: guesses on the players' address -----------------------------------------------------------


@pytest.mark.slow
def test_an_outsider_guessing_codes_on_the_players_address_keeps_no_restarted_player_out(children):
    knobs = ("--guess-free", "3", "--guess-seconds", "5", "--guess-report-seconds", "5")
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "30", *knobs))
    watcher = at_the_table(table.watch())
    rss_before = rss_mib(table.host.proc.pid)
    person = Human(seed=7, delay=0.1, hold_at=6)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 2, "the hand to start", kids=children)
    guesser = Guesser(table.port)
    try:
        wait_until(lambda: guesser.kinds.get("held", 0) >= 3, "the address's tries to run out", kids=children)
        cleo = restart_during(table, person, cleo, children)
        assert "wrong codes" not in cleo.text, cleo.tail()
        kinds = dict(guesser.kinds)
    finally:
        guesser.stop()
    finished_by_all(table, watcher, rss_before)
    # The outsider's tries stayed spent all along: checked codes were few, the rest turned away.
    assert kinds.get("refuse", 0) <= 3 + 10 and kinds["held"] > 3, kinds
    assert "more tries refused (too many wrong codes)" in table.host.text, table.host.tail()


# --- 2: connections that send a byte --------------------------------------------------------------


HELLO = frame(hs.hello(Exchange("client", "nothing").message))


@pytest.mark.slow
@pytest.mark.parametrize("first", [b"\x00", HELLO], ids=["a byte", "a hello"])
def test_an_outsider_reopening_connections_that_send_something_keeps_no_restarted_player_out(children, first):
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "30", "--handshake-seconds", "3"))
    watcher = at_the_table(table.watch())
    rss_before = rss_mib(table.host.proc.pid)
    person = Human(seed=5, delay=0.1, hold_at=6)
    cleo = table.join("Cleo", human=person)
    wait_until(lambda: person.moves >= 2, "the hand to start", kids=children)
    flood = Flood(table.port, first=first)
    try:
        wait_until(lambda: flood.opened >= 260 and flood.closed > 100, "the flood to be closed", kids=children)
        cleo = restart_during(table, person, cleo, children)
        opened, closed = flood.opened, flood.closed
    finally:
        flood.stop()
    finished_by_all(table, watcher, rss_before)
    assert opened > 400 and closed > 300, (opened, closed)  # it kept coming all along
    said = [line for line in table.host.lines if "busy" in line or "closing connection" in line]
    assert len(said) < 10, said  # and the console did not say each one


# --- 3: words in the clear before the key confirmation -------------------------------------------


class Forger:
    """A man in the middle: once `armed`, it answers the next connections' hellos itself, a
    forged refusal for the first two, a forged `busy 3600` for the third; then it relays."""

    def __init__(self):
        self.armed = threading.Event()
        self.forged: list[int] = []  # the connections answered with a forgery
        self.lock = threading.Lock()

    def __call__(self, way: str, number: int, chunk: bytes) -> bytes:
        if not self.armed.is_set() or way != "down" or number == 1:
            return chunk
        with self.lock:
            if number in self.forged or len(self.forged) < 3:
                if number not in self.forged:
                    self.forged.append(number)
                n = self.forged.index(number)
                return frame(hs.refuse("wrong join code") if n < 2 else hs.busy("the host is busy", 3600))
        return chunk


@pytest.mark.slow
def test_a_forged_refusal_or_busy_before_the_key_confirmation_ends_nothing(children):
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "30"))
    watcher = at_the_table(table.watch())
    rss_before = rss_mib(table.host.proc.pid)
    forger = Forger()
    proxy = Proxy(table.port, tap=forger)
    children.closers.append(proxy)
    person = Human(seed=3, delay=0.1, hold_at=6)
    cleo = table.join("Cleo", human=person, port=proxy.port)
    wait_until(lambda: person.moves >= 6, "six moves", kids=children)
    forger.armed.set()
    proxy.cut()  # the connection drops; the man in the middle answers the next ones
    wait_until(lambda: len(forger.forged) >= 3, "three forged answers", kids=children)
    cleo.wait_for(r"connection lost .*; trying .*again", timeout=10)
    wait_until(lambda: table.host.text.count("(seat 0) joined") >= 2, "Cleo back at the table", kids=children)
    person.go.set()
    finished_by_all(table, watcher, rss_before)
    assert "the host refused" not in cleo.text, cleo.tail()


# --- 4: hellos that never finish -----------------------------------------------------------------


@pytest.mark.slow
def test_hellos_that_never_finish_are_counted_turned_away_and_summed_up(children):
    # (the summary comes with the end of the table, the report's minute not over: when it comes
    # otherwise is test_join_code.py's test_wrong_codes_are_summed_up_report_seconds_after_the_first)
    table = Table(children, "briscola", players=2, bots=1, extra=("--time-limit", "30"))
    watcher = at_the_table(table.watch())
    rss_before = rss_mib(table.host.proc.pid)
    ann = table.join("Ann")
    ann.wait_for(r"^seat 0 at table ", timeout=WAIT)
    stopping = threading.Event()
    answers: dict[str, int] = {}
    floods = [threading.Thread(target=half_hellos, args=(table.port, stopping, answers)) for _ in range(8)]
    for thread in floods:
        thread.start()
    try:
        # Until most hellos are turned away, told when to come back: a few hundred of them.
        wait_until(lambda: answers.get("busy", 0) >= 200, "hellos turned away", kids=children)
        host_held(table, rss_before)  # (under the flood, a second or so into it: the hand may end soon after)
        counted = dict(answers)
    finally:
        stopping.set()
        for thread in floods:
            thread.join(WAIT)
    finished_by_all(table, watcher, None)
    # A few halves for free (8), the address's tries (5), one back each 10 s: the rest were
    # turned away before any work, told when to come back.
    assert counted.get("exchange", 0) <= 8 + 5 + 8 + 10, counted  # (8 in flight; what refilled meanwhile)
    assert counted.get("busy", 0) > counted.get("exchange", 0), counted
    summary = table.host.wait_for(r"key exchanges never finished \(counted as tries\)", timeout=WAIT)
    assert "wrong join code" not in summary.string, summary.string


# --- 5: the pieces, sans IO ----------------------------------------------------------------------


def shared_with(host: Identity, *seats: Identity) -> list[tuple[bytes, bytes]]:
    """What the host works out for its seated keys: each key and the key it shares with it."""
    pairs = [(s.public_bytes, shared_key(host, s.public_bytes, s.public_bytes, host.public_bytes)) for s in seats]
    return [(key, shared) for key, shared in pairs if shared is not None]


def test_a_marked_hello_names_a_seated_key_to_its_host_alone():
    me, other, host, elsewhere = (Identity.generate() for _ in range(4))
    message = Exchange("client", "x").message
    data = hs.hello(message, me, [elsewhere.public_bytes, host.public_bytes])  # a restart: two tables lately
    assert me.public_bytes not in data
    fields = hs.parse(data)[1]
    assert hs.named(fields, shared_with(host, other, me)) == me.public_bytes
    assert hs.named(fields, shared_with(host, other)) == b""  # not seated: nobody
    assert hs.named(fields, shared_with(Identity.generate(), me)) == b""  # another table's host: nobody
    assert hs.named(hs.parse(hs.hello(message))[1], shared_with(host, me)) == b""  # not marked
    moved = hs.parse(hs.hello(Exchange("client", "x").message, me, [host.public_bytes]))[1]
    moved[1] = message  # a tag taken to another exchange message
    assert hs.named(moved, shared_with(host, me)) == b""


def test_nobody_holding_the_public_keys_can_tell_whose_hello_it_is():
    """The hello once carried the seat key's signature: anyone with the transcript (every seat's
    public key) could check it against each and see who was connecting. A tag is an HMAC under a
    key only the seat and the host can work out: checked against each public key (as a
    signature) it matches none, and two hellos of one seat share nothing."""
    me, host = Identity.generate(), Identity.generate()
    first = hs.parse(hs.hello(Exchange("client", "x").message, me, [host.public_bytes]))[1]
    second = hs.parse(hs.hello(Exchange("client", "x").message, me, [host.public_bytes]))[1]
    for fields in (first, second):
        for key in (me.public_bytes, host.public_bytes):
            with pytest.raises(RemoteProtocolError):
                verify(key, hs.HELLO_TAG + hs.VERSION.to_bytes(2, "big") + fields[1], fields[2].ljust(64, b"\0"))
    assert len(first[2]) == len(second[2]) == TAG_LEN and first[2] != second[2]


def test_a_seated_keys_tries_are_its_own_and_unfinished_exchanges_cost_tries():
    now = [0.0]
    limits = GuessLimits(free=2, seconds=10.0, free_hellos=2, hello_seconds=5.0)
    guesses = Guesses(limits, clock=lambda: now[0])
    key = ("key", bytes(32))
    assert guesses.take("a") and guesses.take("a") and not guesses.take("a")
    assert guesses.wait(key) == 0 and guesses.take(key)  # the address is out of tries, the key is not
    held = guesses.hold("a")
    assert isinstance(held, Busy) and held.seconds == 10.0 and held.reason.code == "guesses-address"
    assert guesses.hold(key).reason.code == "guesses-key"
    guesses.unconfirmed("b")
    guesses.unconfirmed("b")
    assert guesses.wait("b") == 0  # two free
    guesses.unconfirmed("b")
    guesses.unconfirmed("b")
    assert guesses.wait("b") == 10.0  # then each a try
    line = guesses.report()
    assert line == (
        "2 tries refused in the last minute: too many wrong codes; 2 key exchanges never finished (counted as tries)"
    ), line
    guesses.unconfirmed("b")
    assert guesses.report() == "1 key exchange never finished (counted as a try) in the last minute"


def _conn(number: int, address: str) -> Conn:
    conn = Conn(number, None, address=address)  # no link: the pool does not write
    conn.heard = True  # it sent a byte
    conn.peeked = False  # and no hello signed by a seated key
    return conn


def test_the_pool_is_shared_per_address_whatever_is_sent_and_a_seated_key_is_out_of_it():
    admission = lone_admission(Limits(handshaking=6, per_address=3))
    for n in range(3):
        admission.enter(_conn(n, "10.0.0.1"))
    admission.enter(_conn(3, "10.0.0.1"))  # its own oldest goes
    assert admission.relay.closed == [(0, "the host is busy: too many connections from your address")]
    admission._return(admission.handshaking[3], bytes(32))  # it named a seated key: out of the pool
    assert 3 not in admission.handshaking and admission.in_handshake == 3
    for n in range(4, 8):
        admission.enter(_conn(n, "10.0.0.2"))
    assert admission.relay.closed[-1][0] == 4  # the other address's share, not the first's
    admission.enter(_conn(8, "10.0.0.3"))
    admission.enter(_conn(9, "10.0.0.3"))
    # Full (6): room is made at the busiest address (its oldest), never the named key's slot.
    assert admission.relay.closed[-1] == (5, "the host is busy: too many connections in their handshake")
    assert admission.returning[bytes(32)].number == 3
    # In a full share, a hello known to name no seated key goes before one not read yet.
    admission.handshaking[9].anonymous = True
    admission.enter(_conn(10, "10.0.0.3"))
    assert admission.relay.closed[-1][0] == 9, admission.relay.closed  # not 8, older


def test_a_key_given_a_seat_another_key_held_resumes_its_copy_as_the_replacement(monkeypatch):
    """Table rule `retake`: a seat timed out goes to a new key. That key's client, rebuilding its
    copy from the whole transcript, meets the old key's join for its seat: it resumes as the
    seat's replacement (`replacing`), not as a node whose seat the host gave away."""
    seat = 1
    gone = quitter_at_play(seat)
    table = LocalTable(
        "briscola", 2, {"match": 3}, choosers=random_choosers(2, 7), sessions={seat: gone}, rules={"retake": True}
    )
    table.replacement = replacement_seat
    table.run(max_hands=2)
    new = table.seats[seat]
    assert new.identity.public_bytes != gone.identity.public_bytes and new.holds_seat()
    assert taken_over(table.entries, seat, new.identity.public_bytes)
    assert not taken_over(table.entries, seat, gone.identity.public_bytes)
    assert not taken_over(table.entries, 0, table.seats[0].identity.public_bytes)
    monkeypatch.setattr(seat_copy.FileSeatStore, "for_seat", lambda table_id, s: new.store)
    table_id = table.host.table_id
    _log, session, _owed = seat_copy.rebuild(table.entries, table_id, seat, new.identity, "new")
    assert session.keys[seat] == new.identity.public_bytes and session.holds_seat() and not session.evicted
    assert session.transcript.head == table.host.session.transcript.head
    # What the client did before: the old key's join stops its own copy.
    with pytest.raises(RemoteProtocolError, match="seated another key"):
        TableSession.resume(seat, new.identity, new.store, table.entries)


def quitter_at_play(seat: int) -> TableSession:
    """A seat that stops playing at its first turn (timed out, then retaken by a new key)."""

    class Quitter(TableSession):
        gone = False

        def my_turn(self):
            if super().my_turn():
                self.gone = True
            return False if self.gone else super().my_turn()

    return Quitter(seat, Identity.generate(), "leaver")


# --- 6: what a returning player's hello tells whoever watches the wire ----------------------------


def hellos_seen(wire: dict[int, bytes]) -> list[list]:
    """The first frame of each connection, client to host: its hello's fields."""
    return [hs.parse(frames_of(data)[0])[1] for _, data in sorted(wire.items()) if frames_of(data)]


@pytest.mark.slow
def test_a_returning_players_hello_names_it_to_nobody_holding_the_transcript(children):
    """Issue 44, 7: a returning player's first frame, in the clear, carried its key's signature,
    so anyone holding the transcript (every seat's public key) learned who was connecting. Now
    it carries a tag that only the host can check: the observer, trying every key of the
    transcript, names nobody; the player still takes its seat back at once."""
    wire: dict[int, bytes] = defaultdict(bytes)

    def tap(way: str, number: int, chunk: bytes) -> bytes:
        if way == "up":
            wire[number] += chunk
        return chunk

    table = Table(children, "briscola", players=2, bots=1)
    proxy = Proxy(table.port, tap=tap)
    children.closers.append(proxy)
    person = Human(seed=5, delay=0.1)
    table.join("Cleo", human=person, port=proxy.port)
    wait_until(lambda: person.moves >= 3, "3 moves", kids=children)
    proxy.cut()
    wait_until(lambda: proxy.accepted >= 2 and person.moves >= 5, "the player back and playing", kids=children)
    table.finish()
    session = TableSession(None)
    for entry in read_transcript(table.transcript)[1]:
        session.receive(entry.encode())
    keys = list(session.keys.values())  # every key the transcript holds: the host's and each seat's
    returning = [fields for fields in hellos_seen(wire)[1:] if len(fields) == 3]
    assert returning, "the player came back with a marked hello"
    for _version, message, mark in returning:
        signed = hs.HELLO_TAG + hs.VERSION.to_bytes(2, "big") + message
        for key in keys:
            with pytest.raises((RemoteProtocolError, ValueError)):
                verify(key, signed, mark)
