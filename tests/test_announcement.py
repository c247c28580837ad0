"""The record a host announces its table with on the LAN (net/announcement.py): what a
passer-by may read, read back as it was sent; never the code or a private key; signed by
the table key over everything it says (issue 44: self-certifying tables), so that a record
whose id, key and signature disagree is refused; a hostile or foreign record is refused or
bounded, never a crash. And the browser's side (net/mdns.py): a table is its verified id,
whatever service names announce it."""

from __future__ import annotations

import dataclasses

import pytest
from zeroconf.asyncio import AsyncServiceInfo

from briscola_tui.net.announcement import (
    MAX_VALUE,
    SERVICE,
    Announcement,
    Record,
    properties,
    read,
    signed,
)
from briscola_tui.net.mdns import EXPIRE_SECONDS, MAX_TABLES, Browser
from engine.text import MAX_NAME
from protocol.handshake import VERSION
from protocol.identity import Identity
from protocol.tableid import table_id_of

KEY = Identity.generate()
TABLE = table_id_of(KEY.public_bytes).hex()
A = Announcement(
    "chiamata", 5, ("Ada", "cpu4"), True, "Ada", TABLE, 40123, plate=42, watching=1, key=KEY.public_bytes.hex()
)
WHERE = ["10.0.0.5", "192.168.1.20"]


def record(a: Announcement = A, serial: int = 7, identity: Identity = KEY, **changed: str) -> dict[bytes, bytes | None]:
    """`a`'s record as heard, signed, with the fields `changed` changed after the signature."""
    return {k.encode(): v.encode() for k, v in {**signed(a, WHERE, serial, identity), **changed}.items()}


def test_an_announcement_reads_back_as_it_was_sent():
    got = read(record(), A.port)
    assert got == Record(A, tuple(WHERE), 7) and got.announcement.free == 3 and got.announcement.version == VERSION


def test_it_carries_no_code_and_no_private_key():
    fields = signed(A, WHERE, 7, KEY)
    assert set(fields) == set(properties(A)) | {"addr", "n", "sig"}
    assert fields["plate"] == "42"  # the code's public part, never its secret
    assert fields["key"] == KEY.public_bytes.hex()  # the table key's public half: the id's proof
    assert all(len(value.encode()) <= MAX_VALUE for value in fields.values())


@pytest.mark.parametrize(
    "changed",
    [
        {"addr": "10.66.6.6"},  # another address than the key signed: an impostor's
        {"addr": "10.0.0.5"},  # one of the two dropped
        {"n": "99999999999"},  # a larger serial than was signed
        {"seated": "Ada\x1fcpu4\x1fMallory"},
        {"host": "vm"},
        {"plate": "51"},
        {"sig": "00" * 64},
        {"sig": "zz"},
        {"key": Identity.generate().public_bytes.hex()},  # another key than the id's
    ],
    ids=lambda c: ",".join(c),
)
def test_a_record_changed_after_its_signature_is_refused(changed):
    assert read(record(**changed), A.port) is None


def test_a_record_signed_with_another_key_than_its_id_is_refused():
    """A copy of a table's id under another key (correctly signed by that key) is not that table."""
    mallory = Identity.generate()
    copied = dataclasses.replace(A, key=mallory.public_bytes.hex())
    assert read(record(copied, identity=mallory), A.port) is None
    own = dataclasses.replace(copied, table=table_id_of(mallory.public_bytes).hex())
    assert read(record(own, identity=mallory), A.port) is not None  # its own table: another id
    assert read(record(), A.port + 1) is None  # the port is signed too


@pytest.mark.parametrize(
    "changed",
    [
        {"v": str(VERSION + 1)},  # another version: not one this program can join
        {"v": "three"},
        {"game": "poker"},
        {"players": "40"},
        {"players": "2", "seated": "a\x1fb\x1fc"},  # more seated than seats
        {"table": "not hex"},
        {"table": "ab"},
        {"seated": "x" * 300},  # over a text record's value
        {"plate": "-4"},
        {"plate": "12345"},
        {"watching": "lots"},
        {"addr": ""},
        {"addr": ",".join(["10.0.0.1"] * 9)},  # more addresses than a record names
        {"addr": "::1"},
        {"n": "-1"},
    ],
    ids=lambda c: ",".join(c),
)
def test_a_record_this_version_cannot_use_is_refused(changed):
    assert read(record(**changed), A.port) is None


def test_a_missing_key_bad_bytes_or_port_is_refused():
    fields = record()
    del fields[b"table"]
    assert read(fields, A.port) is None
    assert read({**record(), b"host": b"\xff\xfe"}, A.port) is None
    assert read({**record(), b"\xff": b"x"}, A.port) is None
    assert read(record(), 0) is None and read(record(), 70000) is None


def test_names_are_bounded_and_kept_as_they_came():
    """A huge or escaped name is cut to a seat name's length and kept as data: the screens show
    it literally (never as markup or terminal control)."""
    hostile = "\x1b]0;pwned\x07[b]" + "x" * 100
    a = dataclasses.replace(A, host=hostile, seated=(hostile, "Bo"))
    got = read(record(a), A.port)
    assert got is not None and got.announcement.host == hostile[:MAX_NAME]
    assert got.announcement.seated == (hostile[:MAX_NAME], "Bo")


# --- the browser: a table is its verified id -------------------------------------------


def heard(a: Announcement, serial: int, where: list[str] = WHERE, identity: Identity = KEY) -> Record:
    got = read(record(a, serial, identity) if where == WHERE else _record_at(a, serial, where, identity), a.port)
    assert got is not None
    return got


def _record_at(a: Announcement, serial: int, where: list[str], identity: Identity) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in signed(a, where, serial, identity).items()}


def test_a_browser_keeps_the_newest_announcement_of_a_table_whatever_order_they_arrive_in():
    """An answer queued before a change can arrive after the change's own announcement: the
    serial keeps the list from going back to the old seats."""
    seated = dataclasses.replace(A, seated=("Ada", "cpu4", "Bo"))
    browser = Browser()
    browser.hear("t", heard(A, 1_000), 0.0)
    browser.hear("t", heard(seated, 1_001), 0.0)
    browser.hear("t", heard(A, 1_000), 0.0)  # (the old one, late)
    assert [s.announcement.seated for s in browser.tables()] == [("Ada", "cpu4", "Bo")]
    browser.hear("t", heard(A, 1_002), 0.0)  # (Bo left: a newer one)
    assert [s.announcement.seated for s in browser.tables()] == [("Ada", "cpu4")]


def test_two_service_names_for_one_table_are_one_table_on_every_address_its_key_signed():
    changes = []
    browser = Browser(lambda: changes.append(1))
    browser.hear("honest", heard(A, 1_000, ["10.0.0.5"]), 0.0)
    browser.hear("second", heard(dataclasses.replace(A, watching=2), 1_005, ["10.0.0.6", "10.0.0.5"]), 0.0)
    (table,) = browser.tables()
    assert table.addresses == ("10.0.0.6", "10.0.0.5") and table.announcement.watching == 2  # the newest's fields
    browser._forget(["second"])  # (its goodbye)
    (table,) = browser.tables()
    assert table.addresses == ("10.0.0.5",) and table.announcement.watching == 1
    browser._forget(["honest"])
    assert browser.tables() == [] and changes


def test_a_table_not_heard_for_the_bound_is_dropped():
    browser = Browser()
    browser.hear("t", heard(A, 1_000), 100.0)
    browser.expire(100.0 + EXPIRE_SECONDS - 1)
    assert len(browser.tables()) == 1
    browser.hear("t", heard(A, 1_001), 100.0 + EXPIRE_SECONDS - 1)  # (announced again)
    browser.expire(100.0 + EXPIRE_SECONDS + 5)
    assert len(browser.tables()) == 1
    browser.expire(100.0 + 2 * EXPIRE_SECONDS)
    assert browser.tables() == []


def test_a_flood_of_names_for_one_table_or_of_tables_is_bounded():
    browser = Browser()
    for n in range(50):
        browser.hear(f"copy{n}", heard(A, 1_000 + n, [f"10.0.1.{n}"]), 0.0)
    (table,) = browser.tables()
    assert len(table.addresses) <= 8 and len(browser.names) <= 8
    assert "copy49" in browser.names and table.serial == 1_049  # (the freshest names kept)
    for n in range(MAX_TABLES + 20):
        key = Identity.generate()
        a = dataclasses.replace(A, table=table_id_of(key.public_bytes).hex(), key=key.public_bytes.hex())
        browser.hear(f"t{n}", heard(a, 1, identity=key), 0.0)
    assert len(browser.tables()) == MAX_TABLES


def test_a_browser_reads_what_zeroconf_heard():
    info = AsyncServiceInfo(
        SERVICE, f"t.{SERVICE}", addresses=[bytes([10, 66, 6, 6])], port=A.port, properties=signed(A, WHERE, 3, KEY)
    )
    browser = Browser()
    browser._keep(f"t.{SERVICE}", info)
    (table,) = browser.tables()
    assert table.addresses == tuple(WHERE)  # the signed addresses, not the address record's
