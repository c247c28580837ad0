"""A club (briscola_tui/club/): `briscola club serve` runs a real nats-server on 127.0.0.1
(tests/helpers/club.py), members are invited, connect with their own credential, are refused
once revoked, publish only under their own subjects, and `briscola ledger sync --club` moves
transcripts both ways, each verified by the ledger before it counts."""

from __future__ import annotations

import asyncio
import subprocess

import pytest
from helpers.club import ClubServer, cluster, home, join, run
from helpers.ledger_tables import play

from briscola_tui.club import config, keys, parts
from briscola_tui.club.connect import Unreachable, connect
from briscola_tui.club.invite import read_token
from briscola_tui.club.needs import server_binary
from briscola_tui.club.state import Club
from briscola_tui.club.stream import Part, part_subject
from briscola_tui.ledger.book import Ledger
from protocol.identity import Identity

ANNA, BRUNO, CARLA = Identity.generate(), Identity.generate(), Identity.generate()


def _member(line: str):
    return read_token(line.split()[-1])


async def _reach(line: str):
    invitation = _member(line)
    client = await connect(invitation.url, invitation.seed, invitation.member, invitation.cert)
    await client.close()


# --- the configuration --------------------------------------------------------------------------


def test_the_generated_configuration_admits_no_one_anonymous_and_bounds_messages(tmp_path):
    with home(tmp_path / "keeper"):
        seed = keys.new_seed()
        club = Club(name="friends", keeper_seed=keys.new_seed(), port=4222, members={"anna": keys.public_key(seed)})
        text = config.render(club, config.keeper_key(club))
    assert "no_auth_user" not in text and "authorization" not in text and "password" not in text
    assert f"max_payload: {config.MAX_PAYLOAD}" in text and config.MAX_PAYLOAD == 1024 * 1024
    assert text.count('"nkey"') == 2 and seed not in text  # the keeper and Anna, by public key only
    assert '"allow": ["club.friends.ledger.anna.>"' in text
    (tmp_path / "nats.conf").write_text(text)
    check = subprocess.run(
        [server_binary(), "-t", "-c", str(tmp_path / "nats.conf")], capture_output=True, text=True, timeout=30
    )
    assert check.returncode == 0, check.stderr


def test_a_token_that_is_not_one_gets_a_clear_error(tmp_path):
    status, out, err = run(tmp_path / "anna", "club", "add", "briscola-club-1.bm90IGpzb24")
    assert status == 1 and "the invitation is damaged" in err
    status, out, err = run(tmp_path / "anna", "club", "add", "hello")
    assert status == 1 and "an invitation starts with briscola-club-1." in err
    status, out, err = run(tmp_path / "anna", "ledger", "sync", "--club", "friends")
    assert status == 1 and "no club called 'friends' here" in err


# --- the server ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_member_connects_with_its_credential_and_an_unknown_one_or_none_is_refused(club):
    line = club.invite("anna")
    assert line.startswith("briscola club add briscola-club-1.")
    asyncio.run(_reach(line))
    stranger = keys.new_seed()
    with pytest.raises(Unreachable, match="(?i)authorization"):
        asyncio.run(connect(club.url, stranger, "anna"))
    import nats

    async def anonymous() -> None:
        await nats.connect(club.url, allow_reconnect=False, max_reconnect_attempts=0, connect_timeout=10)

    with pytest.raises(Exception, match="(?i)authorization"):
        asyncio.run(anonymous())


@pytest.mark.slow
def test_a_revoked_member_is_refused_after_the_reload(club):
    line = club.invite("anna")
    asyncio.run(_reach(line))
    status, out, err = run(club.folder, "club", "revoke", "anna")
    assert status == 0 and "anna is no longer a member" in out and "has read the change" in err
    with pytest.raises(Unreachable, match="(?i)authorization"):
        asyncio.run(_reach(line))
    status, out, _err = run(club.folder, "club", "members")
    assert "club friends at nats://127.0.0.1:" in out and out.rstrip().endswith(": 0 members")


@pytest.mark.slow
def test_a_member_publishes_only_under_its_own_subjects_and_cannot_purge_the_store(club):
    anna = _member(club.invite("anna"))
    _member(club.invite("bruno"))

    async def attempts() -> list[str]:
        import nats
        from nats.errors import NoRespondersError

        refused: list[str] = []

        async def said(error: Exception) -> None:
            refused.append(str(error))

        client = await nats.connect(
            anna.url, nkeys_seed_str=anna.seed, inbox_prefix="_INBOX.anna", error_cb=said, allow_reconnect=False
        )
        try:
            for subject in ("elsewhere.news", "club.other.ledger.anna.x", "club.friends.ledger.bruno.x"):
                await client.publish(subject, b"hello")
                await client.flush(timeout=10)
            js = client.jetstream(timeout=3)
            with pytest.raises((NoRespondersError, TimeoutError, nats.errors.TimeoutError)):
                await js.purge_stream("CLUB_friends")
            await js.publish("club.friends.ledger.anna.x", b"mine")  # her own: stored
            await _until(lambda: len(refused) >= 4)
        finally:
            await client.close()
        return refused

    refused = asyncio.run(attempts())
    for subject in (
        "elsewhere.news",
        "club.other.ledger.anna.x",
        "club.friends.ledger.bruno.x",
        "$JS.API.STREAM.PURGE.CLUB_friends",
    ):
        assert any("permissions violation" in r.lower() and subject.lower() in r.lower() for r in refused), (
            subject,
            refused,
        )


async def _until(done, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        assert loop.time() < deadline, "not in time"
        await asyncio.sleep(0.05)


# --- the ledger through the club ----------------------------------------------------------------


def _table(folder, name: str, people: list, names: list[str], seed: int):
    """A whole table played, its transcript in the data folder `folder` (this machine's)."""
    with home(folder):
        from briscola_tui.files.folders import subfolder

        play(subfolder("transcripts") / name, people, names, seed=seed)
        return (subfolder("transcripts") / name).read_bytes()


def _tables(folder) -> set:
    with home(folder):
        return set(Ledger.open().state.tables)


def _synced(folder) -> tuple[int, str, str]:
    return run(folder, "ledger", "sync", "--club", "friends")


@pytest.mark.slow
def test_ledger_sync_moves_transcripts_both_ways_and_twice_puts_nothing_twice(club, tmp_path):
    anna, bruno = tmp_path / "anna", tmp_path / "bruno"
    join(anna, club.invite("anna"))
    join(bruno, club.invite("bruno"))
    _table(anna, "a-host.bin", [ANNA, CARLA], ["Anna", "Carla"], seed=1)
    _table(bruno, "b-host.bin", [BRUNO, CARLA], ["Bruno", "Carla"], seed=2)
    assert _synced(anna)[1].strip() == "club friends: put 1, took 0, refused 0"
    assert _synced(bruno)[1].strip() == "club friends: put 1, took 1, refused 0"
    assert _synced(anna)[1].strip() == "club friends: put 0, took 1, refused 0"
    assert _tables(anna) == _tables(bruno) and len(_tables(anna)) == 2
    for folder in (anna, bruno):  # twice: nothing put twice, nothing taken twice
        status, out, err = _synced(folder)
        assert status == 0 and out.strip() == "club friends: put 0, took 0, refused 0", err

    async def stored() -> int:
        invitation = read_token(club.invite("carla").split()[-1])
        client = await connect(invitation.url, invitation.seed, "carla")
        try:
            info = await client.jetstream().stream_info("CLUB_friends")
            return info.state.messages
        finally:
            await client.close()

    assert asyncio.run(stored()) == 2  # one part each


@pytest.mark.slow
def test_a_forged_or_damaged_transcript_put_by_a_member_is_refused_and_counts_nothing(club, tmp_path):
    bruno = tmp_path / "bruno"
    anna_line = club.invite("anna")
    join(bruno, club.invite("bruno"))
    good = _table(tmp_path / "elsewhere", "t.bin", [ANNA, CARLA], ["Anna", "Carla"], seed=3)
    forged = good[:2000] + bytes([good[2000] ^ 1]) + good[2001:]

    async def put_by_hand() -> None:
        import hashlib

        invitation = read_token(anna_line.split()[-1])
        client = await connect(invitation.url, invitation.seed, "anna")
        try:
            js = client.jetstream()
            await parts.put(js, "CLUB_friends", "club.friends", "anna", forged, 0.0, lambda: None)
            named = Part("anna", hashlib.sha256(good).hexdigest(), 0, 1)  # the good file's name, other bytes
            await js.publish(part_subject("club.friends", named), good[:-1] + b"x")
        finally:
            await client.close()

    asyncio.run(put_by_hand())
    status, out, err = _synced(bruno)
    assert status == 0 and out.strip() == "club friends: put 0, took 0, refused 2", err
    assert "anna-" in err and "refused" in err
    assert "from anna: refused: its bytes are not those its name says" in err
    assert _tables(bruno) == set()
    assert _synced(bruno)[1].strip() == "club friends: put 0, took 0, refused 0"  # each looked at once


def test_without_the_club_extra_a_club_command_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "nats", None)  # (an import of it fails, as when not installed)
    for argv in (["club", "members"], ["ledger", "sync", "--club", "friends"]):
        status, out, err = run(tmp_path / "anna", *argv)
        assert status == 1 and "pip install 'briscola-tui[club]'" in err, err


@pytest.mark.slow
def test_beyond_127_0_0_1_the_club_speaks_tls_and_a_member_trusts_its_certificate_alone(tmp_path):
    from briscola_tui.club.tls import fingerprint, make_certificate

    server = ClubServer(tmp_path / "keeper", bind="127.0.0.2")  # (loopback still, but not 127.0.0.1: TLS)
    try:
        assert server.url.startswith("tls://127.0.0.2:")
        printed = server.wait_for(r"SHA-256 fingerprint: ([0-9A-F:]{95})")[1]
        line = server.invite("anna")
        invitation = _member(line)
        assert invitation.cert and fingerprint(invitation.cert) == printed
        status, out, err = run(tmp_path / "anna", "club", "add", line.split()[-1])
        assert status == 0 and printed in out
        asyncio.run(_reach(line))
        make_certificate(tmp_path / "other.pem", tmp_path / "other.key", "friends", ["127.0.0.2"])
        from briscola_tui.club.tls import der_of

        other = der_of((tmp_path / "other.pem").read_bytes())
        with pytest.raises(Unreachable, match="(?i)certificate"):
            asyncio.run(connect(invitation.url, invitation.seed, "anna", other))  # another certificate: refused
        with pytest.raises(Unreachable):
            asyncio.run(connect(invitation.url.replace("tls://", "nats://"), invitation.seed, "anna"))  # no TLS
    finally:
        server.close()


@pytest.mark.slow
def test_three_nodes_serve_one_club_as_a_cluster_and_each_admits_its_own_members(tmp_path):
    nodes = cluster(tmp_path)
    try:
        anna, bruno = tmp_path / "anna", tmp_path / "bruno"
        join(anna, nodes[0].invite("anna"))  # Anna reaches the club through the first node,
        join(bruno, nodes[1].invite("bruno"))  # Bruno through the second
        _table(anna, "a-host.bin", [ANNA, CARLA], ["Anna", "Carla"], seed=4)
        assert _synced(anna)[1].strip() == "club friends: put 1, took 0, refused 0"
        assert _synced(bruno)[1].strip() == "club friends: put 0, took 1, refused 0"
        assert _tables(anna) == _tables(bruno) and len(_tables(bruno)) == 1
    finally:
        for node in nodes:
            node.close()
