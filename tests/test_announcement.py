"""The record a host announces its table with on the LAN (net/announcement.py): what a
passer-by may read, read back as it was sent; never the code or a key; a hostile or foreign
record is refused or bounded, never a crash."""

from __future__ import annotations

import pytest

from briscola_tui.net.announcement import MAX_VALUE, Announcement, properties, read
from engine.text import MAX_NAME
from protocol.handshake import VERSION

TABLE = "ab" * 16
A = Announcement("chiamata", 5, ("Ada", "cpu4"), True, "Ada", TABLE, 40123, plate=42, watching=1)


def record(a: Announcement = A, **changed: str) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in {**properties(a), **changed}.items()}


def test_an_announcement_reads_back_as_it_was_sent():
    got = read(record(), A.port)
    assert got == A and got.free == 3 and got.version == VERSION


def test_it_carries_no_code_and_no_key():
    fields = properties(A)
    assert set(fields) == {"v", "game", "players", "seated", "watch", "host", "table", "plate", "watching"}
    assert fields["plate"] == "42"  # the code's public part, never its secret
    assert all(len(value.encode()) <= MAX_VALUE for value in fields.values())


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
    assert read(record(), 0) is None and read(record(), 70000) is None


def test_names_are_bounded_and_kept_as_they_came():
    """A huge or escaped name is cut to a seat name's length and kept as data: the screens show
    it literally (never as markup or terminal control)."""
    hostile = "\x1b]0;pwned\x07[b]" + "x" * 100
    got = read(record(host=hostile, seated=f"{hostile}\x1fBo"), A.port)
    assert got is not None and got.host == hostile[:MAX_NAME] and got.seated == (hostile[:MAX_NAME], "Bo")


def test_a_browser_keeps_the_newest_announcement_of_a_table_whatever_order_they_arrive_in():
    """An answer queued before a change can arrive after the change's own announcement: the
    serial (net/mdns.py) keeps the list from going back to the old seats."""
    from zeroconf.asyncio import AsyncServiceInfo

    from briscola_tui.net.mdns import SERIAL, SERVICE, Browser

    def heard(a: Announcement, serial: int) -> AsyncServiceInfo:
        fields = {**properties(a), SERIAL: str(serial)}
        return AsyncServiceInfo(
            SERVICE, f"t.{SERVICE}", addresses=[bytes([10, 0, 0, 5])], port=a.port, properties=fields
        )

    seated = Announcement("chiamata", 5, ("Ada", "cpu4", "Bo"), True, "Ada", TABLE, 40123, plate=42)
    browser = Browser()
    browser._keep(f"t.{SERVICE}", heard(A, 1_000))
    browser._keep(f"t.{SERVICE}", heard(seated, 1_001))
    browser._keep(f"t.{SERVICE}", heard(A, 1_000))  # (the old one, late)
    assert [s.announcement.seated for s in browser.tables()] == [("Ada", "cpu4", "Bo")]
    browser._keep(f"t.{SERVICE}", heard(A, 1_002))  # (Bo left: a newer one)
    assert [s.announcement.seated for s in browser.tables()] == [("Ada", "cpu4")]
