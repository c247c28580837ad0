"""A table through a club served by a cluster of three nodes (tests/helpers/club.py `cluster`)
goes on when the node its host and seats reach is killed: each member, admitted by every node
(`briscola club invite NAME --key KEY` on the others), reconnects to another node the cluster
names, the hand ends, the transcripts verify, and the club's replicated stream keeps every
transcript put before (a member of a surviving node takes them all). A host whose club fails
and comes back goes on listing its table."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from helpers.club import ClubServer, cluster, home, join, run
from helpers.ledger_tables import play
from helpers.network import Human, wait_until

from briscola_tui.files.folders import subfolder
from briscola_tui.ledger.book import Ledger
from protocol.identity import Identity

PLAY = re.compile(r"^seat \d: play ")


def _key(node: ClubServer, member: str) -> str:
    """The member's public key, as `briscola club members` on the node prints it."""
    status, out, _err = run(node.folder, "club", "members")
    assert status == 0
    return next(line.split()[1] for line in out.splitlines() if line.split()[:1] == [member])


def _admitted_everywhere(nodes: list[ClubServer], folder, member: str) -> None:
    """Invited by the first node, admitted by the others with the key it holds."""
    join(folder, nodes[0].invite(member))
    key = _key(nodes[0], member)
    for node in nodes[1:]:
        status, out, err = run(node.folder, "club", "invite", member, "--key", key)
        assert status == 0 and f"{member} is a member here too" in out and "has read the change" in err, (out, err)
        assert _key(node, member) == key


def _synced_at_last(folder) -> None:
    """`ledger sync` by the member in `folder` until it succeeds (a few tries): right after a
    node dies the stream may still be electing its new leader, and a sync then fails with
    "nats: timeout" (the member syncs again, as a person would)."""
    said = []
    for _try in range(6):
        said.append(run(folder, "ledger", "sync", "--club", "friends"))
        if said[-1][0] == 0:
            return
        assert "nats: timeout" in said[-1][2], said
        time.sleep(1)
    raise AssertionError(f"no sync went through: {said}")


def _plays(child) -> int:
    with child.changed:
        return sum(1 for line in child.lines if PLAY.match(line))


def test_a_member_is_admitted_by_its_public_key_and_a_key_that_is_not_one_is_refused(tmp_path):
    from briscola_tui.club import keys
    from briscola_tui.club.server import Options, prepare

    with home(tmp_path / "b"):
        prepare(Options("friends", "127.0.0.1", 4222, None, None, None))
    seed = keys.new_seed()
    key = keys.public_key(seed)
    mistyped = key[:10] + ("B" if key[10] != "B" else "C") + key[11:]
    for wrong in (seed, mistyped, "hello"):
        status, out, err = run(tmp_path / "b", "club", "invite", "anna", "--key", wrong)
        assert status == 1 and "is not a member's public key" in err, (wrong, err)
    status, out, err = run(tmp_path / "b", "club", "invite", "anna", "--key", key)
    assert status == 0 and out.strip() == "anna is a member here too, with the key they hold" and seed not in out
    assert "briscola-club-1." not in out + err  # no invitation: Anna holds hers already
    assert run(tmp_path / "b", "club", "members")[1].splitlines()[1].split() == ["anna", key]


@pytest.mark.slow
def test_a_table_plays_on_when_the_node_its_players_reach_is_killed_and_the_stream_loses_nothing(tmp_path, children):
    nodes = cluster(tmp_path)
    try:
        anna, bruno, carla, dora = (tmp_path / name for name in ("anna", "bruno", "carla", "dora"))
        for folder in (anna, bruno, carla):
            _admitted_everywhere(nodes, folder, folder.name)
        join(dora, nodes[1].invite("dora"))  # Dora reaches the club through the second node only
        with home(anna):  # two ended tables Anna puts into the club before the kill
            people = [Identity.generate(), Identity.generate()]
            for seed in (7, 8):
                play(subfolder("transcripts") / f"before-{seed}.bin", people, ["Anna", "Carla"], seed=seed)
        status, out, err = run(anna, "ledger", "sync", "--club", "friends")
        assert status == 0 and out.strip() == "club friends: put 2, took 0, refused 0", err

        host = children.start(
            "anna", "host", "--headless", "--club", "friends", "--game", "briscola", "--players", "2", "--bots", "0"
        )
        table = host.wait_for(r"table ([0-9a-f]{32})")[1]
        code = host.wait_for(r"join with: briscola join (\S+) --club friends")[1]
        human = Human(seed=3, hold_at=3)  # Bruno's fourth move waits for the kill
        seat = children.start("bruno", "join", code, "--club", "friends", "--headless", driver=human)
        bot = children.start("carla", "join", code, "--club", "friends", "--headless", "--bot", "easy")
        wait_until(lambda: human.moves >= 3 and _plays(host) >= 5, "a few moves played", kids=children)
        before = _plays(host)
        nodes[0].close()  # the node all three reach: its serving process and its nats-server killed (-9)
        wait_until(lambda: _serial(dora, table) > 0, "the table listed through the second node", kids=children)
        human.go.set()
        statuses = [child.finish(120) for child in (host, seat, bot)]
        assert statuses == [0, 0, 0], children.report()
        assert _plays(host) > before and "series over" in host.text and "Traceback" not in host.text
        transcripts = sorted(subfolder_of(anna).glob("*.bin"))
        assert len(transcripts) == 3  # the table's and the two before
        for path in transcripts:
            status, out, err = run(anna, "verify", str(path))
            assert status == 0, (path, out, err)

        _synced_at_last(dora)
        with home(dora):
            assert len(Ledger.open().state.tables) == 2  # every transcript put before the kill
    finally:
        for node in nodes:
            node.close()


def subfolder_of(folder):
    with home(folder):
        return subfolder("transcripts")


def _serial(folder, table: str) -> int:
    """The serial of the record the club lists for `table` now, as the member in `folder` reads
    it; 0 when it is not listed or the club cannot be asked."""
    from briscola_tui.club.member import ClubUnreachable, member_of

    async def ask() -> int:
        member = member_of("friends")
        try:
            return next((t.seen.serial for t in await member.tables() if t.seen.announcement.table == table), 0)
        except ClubUnreachable:
            return 0
        finally:
            await member.close()

    with home(folder):
        return asyncio.run(ask())


@pytest.mark.slow
def test_a_host_goes_on_listing_its_table_once_the_club_is_back_after_failing_it(tmp_path, children):
    from briscola_tui.club.tables import REANNOUNCE_SECONDS

    club = ClubServer(tmp_path / "keeper")
    try:
        anna, dora = tmp_path / "anna", tmp_path / "dora"
        join(anna, club.invite("anna"))
        join(dora, club.invite("dora"))
        host = children.start("anna", "host", "--headless", "--club", "friends", "--players", "2", "--bots", "0")
        table = host.wait_for(r"table ([0-9a-f]{32})")[1]
        host.wait_for("listed by the club")
        port = club.url.rsplit(":", 1)[1]
        club.close()  # the club down long enough for the host to fail a put (it puts every 10 s)
        time.sleep(REANNOUNCE_SECONDS + 8)  # (a put waits 5 s for its answer)
        club = ClubServer(tmp_path / "keeper", "friends", "127.0.0.1", "--port", port)
        wait_until(lambda: _serial(dora, table) > 0, "the table listed again", timeout=60, kids=children)
        back = _serial(dora, table)
        wait_until(lambda: _serial(dora, table) > back, "the table put again", timeout=60, kids=children)
        assert host.proc.poll() is None and "Traceback" not in host.text, host.text
    finally:
        club.close()
