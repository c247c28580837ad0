"""The join and watch forms' list of the tables on the LAN (issue 36, "Find the table"), fed
by a fixed source in place of net/mdns.py's Browser (the real one is tested by processes in
network namespaces): what the list shows (a snapshot at 80x24 and at 120x40, hostile names
shown literally), picking a table, the plate put in front of a code, the code alone finding
its table (and refusing two with one plate), the line where nothing is heard or nothing can
be, the browser closed with the form, and the host form's "Announce on the LAN" tick."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import socket
import time

import pytest
from helpers.app import wait_for
from helpers.network import WAIT, Table

from briscola_tui.net.announcement import Announcement
from briscola_tui.net.mdns import MulticastRefused, Seen
from briscola_tui.tui.screens.netform_fields import host_args
from briscola_tui.tui.screens.netforms import HostForm, JoinForm, WatchForm
from briscola_tui.tui.widgets.lantables import LanTables

os.environ["TEXTUAL_ANIMATIONS"] = "none"
SMALL, BIG = (80, 24), (120, 40)
SHORT = 0.3
"""The forms' wait in these tests (FIND_SECONDS in the app)."""


def seen(plate: int | None, host: str, seated: tuple[str, ...] = (), *, players: int = 2, **kwargs) -> Seen:
    table = kwargs.pop("table", f"{plate or 0:02d}{host.encode().hex()}".ljust(32, "0")[:32])
    a = Announcement(
        game=kwargs.pop("game", "briscola"),
        players=players,
        seated=seated,
        spectators=kwargs.pop("spectators", True),
        host=host,
        table=table,
        port=kwargs.pop("port", 4000),
        plate=plate,
        watching=kwargs.pop("watching", 0),
    )
    return Seen(a, kwargs.pop("addresses", ("10.77.0.1",)), kwargs.pop("heard", 0.0))


THREE = [
    seen(42, "Ada", ("Ada",), watching=2, addresses=("10.77.0.1", "192.168.1.9"), port=40123),
    seen(
        7,
        "\x1b[31mred",
        ("\x1b[31mred", "[bold]x[/]", "Zoe"),
        players=4,
        spectators=False,
        addresses=("10.77.0.2",),
        port=4000,
    ),
    seen(
        13,
        "Bartolomeo Colleoni2",  # 20 characters: as long as a name in an announcement gets
        ("Bartolomeo Colleoni2", "Carlo"),
        game="chiamata",
        players=5,
        addresses=("10.77.0.3",),
        port=4001,
    ),
]


class FixedLan:
    """A source of tables as the Browser is (start, tables, close, `changed` called), with
    fixed tables; `add` makes one heard, `refuse` makes `start` fail as a Browser's does."""

    def __init__(self, tables: list[Seen] = (), refuse: OSError | None = None) -> None:
        self.seen = list(tables)
        self.refuse = refuse
        self.started = self.closed = False

    def __call__(self, changed):
        self.changed = changed
        return self

    async def start(self) -> None:
        if self.refuse is not None:
            raise self.refuse
        self.started = True

    def tables(self) -> list[Seen]:
        return list(self.seen)

    async def close(self) -> None:
        self.closed = True

    def add(self, table: Seen) -> None:
        self.seen.insert(0, table)
        self.changed()


def form_app(form):
    from briscola_tui.tui.app import BriscolaApp

    app = BriscolaApp(ascii=False)
    app.CSS = "Input { &>.input--cursor { text-style: none; } }"
    return app


async def open_form(pilot, form):
    from briscola_tui.tui.screens.home import HomeScreen

    await wait_for(pilot, lambda: isinstance(pilot.app.screen, HomeScreen), "the home screen", WAIT)
    pilot.app.push_screen(form)
    await wait_for(pilot, lambda: pilot.app.screen is form and form.query("#lan-list"), "the form", WAIT)


def shown(form, ident: str) -> str:
    return str(form.query_one(f"#{ident}").render())


def listed(form) -> list[str]:
    options = form.query_one("#lan-list")
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


@pytest.mark.slow
@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
def test_join_form_lists_the_tables_heard(snap_compare, size):
    """Three tables, newest first: plate, game and size, host; seats free, who sits, who
    watches; the hostile names shown as they came (the escape made visible, the brackets
    as brackets), the 20-character one whole; the cursor on the second table."""
    form = JoinForm(FixedLan(THREE), wait=SHORT)

    async def run_before(pilot):
        await open_form(pilot, form)
        await wait_for(pilot, lambda: len(listed(form)) == 3, "the tables", WAIT)
        form.query_one("#lan-list").focus()
        await pilot.press("down")
        await pilot.pause(0.1)

    assert snap_compare(form_app(form), terminal_size=size, run_before=run_before)


@pytest.mark.slow
async def test_picking_a_table_fills_the_address_and_focuses_the_code():
    lan = FixedLan(THREE)
    form = JoinForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        await wait_for(pilot, lambda: len(listed(form)) == 3, "the tables", WAIT)
        assert "\\x1b[31mred" in listed(form)[1] and "[bold]x[/]" in listed(form)[1]
        assert "Tables on the LAN" in shown(form, "lan-status")
        form.query_one("#lan-list").focus()
        await pilot.press("enter")  # the newest: Ada's, on two addresses
        await wait_for(pilot, lambda: form.query_one("#code").has_focus, "the focus in the code", WAIT)
        assert form.query_one("#address").value == "10.77.0.1:40123"
        await pilot.press(*"43-7q8r2k", "enter")  # another table's plate
        assert "the codes of table 42 begin with 42-" in shown(form, "form-error")
        assert app.screen is form
        await pilot.click("#lan-list", offset=(10, 2))  # the second table, by the mouse
        await wait_for(pilot, lambda: form.query_one("#address").value == "10.77.0.2:4000", "the second", WAIT)
        assert form.query_one("#code").has_focus and form.query_one("#form-error").render().plain == ""
        app.pop_screen()
        await wait_for(pilot, lambda: lan.closed, "the browser closed with the form", WAIT)


@pytest.mark.parametrize("kind", [JoinForm, WatchForm], ids=["join", "watch"])
async def test_two_records_naming_one_table_are_one_row_and_the_app_lives_on(kind):
    """Issue 44, item 2: two service names announcing one table id (a copy of a real table's
    record, or a source that repeats itself) put one row in the list, never two options with
    one id (Textual's DuplicateID, the app dying with a traceback); the list follows as they
    come and go, and the row picks the table."""
    table = "5a" * 16
    copy = seen(51, "vm", table=table, addresses=("10.77.0.9",), port=4001)
    lan = FixedLan([seen(51, "vm", table=table, addresses=("10.77.0.1",), port=4000), copy, THREE[1]])
    form = kind(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        await wait_for(pilot, lambda: len(listed(form)) == 2, "the tables", WAIT)
        assert sum("host vm" in line for line in listed(form)) == 1
        lan.add(copy)  # (heard again: a third record with that id)
        await pilot.pause(0.1)
        assert len(listed(form)) == 2 and app.is_running
        form.query_one("#lan-list").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: form.query_one("#code").has_focus, "the focus in the code", WAIT)
        assert form.query_one("#address").value == "10.77.0.9:4001"  # (the newest record's)


async def test_the_list_and_briscola_tables_say_who_sits_apart_from_the_seats_free():
    """Issue 46, item 4: "1 seat free (Dave)" read as Dave's seat being free; who sits and how
    many seats are free are now said apart, in the form's list as in `briscola tables`."""
    from briscola_tui.cli_lan import table_line

    tables = [
        seen(42, "Dave", ("Dave",), port=4000),
        seen(7, "Ada", ("Ada", "Bo", "Cy"), players=4, port=4001, watching=1),
        seen(9, "Eve", (), players=3, port=4002, spectators=False),
        seen(5, "Fay", ("Fay", "Gil"), port=4003),
    ]
    form = JoinForm(FixedLan(tables), wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=BIG) as pilot:
        await open_form(pilot, form)
        await wait_for(pilot, lambda: len(listed(form)) == 4, "the tables", WAIT)
        rows = [row.split("\n")[1].strip() for row in listed(form)]
    assert rows == [
        "Dave sits · 1 seat free · 0 spectators",
        "Ada, Bo and Cy sit · 1 seat free · 1 spectator",
        "nobody sits yet · 3 seats free · closed to spectators",
        "Fay and Gil sit · full · 0 spectators",
    ]
    assert table_line(tables[0]).endswith("host Dave  Dave sits, 1 seat free  10.77.0.1:4000")
    assert table_line(tables[2]).endswith("nobody sits yet, 3 seats free, closed to spectators  10.77.0.1:4002")
    # In a terminal of 80 columns a long line goes on in a second one, the address whole.
    first, second = table_line(tables[2], 80).split("\n")
    assert (
        first.endswith("host Eve")
        and second == "     nobody sits yet, 3 seats free, closed to spectators  10.77.0.1:4002"
    )
    assert "\n" not in table_line(tables[0], 80)  # a short one stays on one line


async def submit_code(pilot, form, code: str, name: str) -> None:
    """`code` and `name` typed in the form, then Enter."""
    form.query_one("#code").value = code
    form.query_one("#name").value = name
    await pilot.press("enter")


def table_of(host: Table) -> str:
    """The id of the table `host` serves (a table's id is its key's: a client checks it)."""
    return host.host.wait_for(r"table ([0-9a-f]{32})", WAIT).group(1)


async def seated(pilot, app, name: str) -> None:
    """Wait for the lobby, and for `name` in a seat of it."""
    from briscola_tui.tui.screens.lobby import LobbyScreen

    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
    lobby = app.screen.controller
    try:
        await wait_for(pilot, lambda: any(s.name == name and s.me for s in lobby.lobby().seats), "the seat", WAIT)
    except AssertionError:
        raise AssertionError(str(lobby.lobby())) from None


@pytest.mark.slow
async def test_a_picked_table_takes_its_code_without_the_plate(children, tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "app"))
    host = Table(children, "briscola", players=3, extra=("--code", "42-abcdef", "--name", "Ada"))
    lan = FixedLan(
        [seen(42, "Ada", ("Ada",), addresses=("127.0.0.1",), port=host.port, table=table_of(host)), THREE[1]]
    )
    form = JoinForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        await wait_for(pilot, lambda: len(listed(form)) == 2, "the tables", WAIT)
        form.query_one("#lan-list").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: form.query_one("#code").has_focus, "the focus in the code", WAIT)
        form.query_one("#name").value = "Bo"
        code = form.query_one("#code")
        await pilot.press(*"ABCDEF", "enter")
        await seated(pilot, app, "Bo")  # (a wrong code would be refused)
        assert code.value == "42-abcdef"
        assert lan.closed
        await pilot.press("escape")


async def test_a_picked_table_whose_host_answers_as_another_table_is_refused(children, tmp_path, monkeypatch):
    """A record names one table, and the host at its address answers as another (a relay to
    another host, or a copy of a record): the player is told it is an impostor, and sits nowhere."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "app"))
    host = Table(children, "briscola", players=3, extra=("--code", "42-abcdef", "--name", "Ada"))
    lan = FixedLan([seen(42, "Ada", ("Ada",), addresses=("127.0.0.1",), port=host.port, table="ab" * 16)])
    form = JoinForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        await submit_code(pilot, form, "42-abcdef", "Bo")
        from briscola_tui.tui.screens.lobby import LobbyScreen

        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen.controller
        await wait_for(pilot, lambda: lobby.lobby().failed, "the refusal", WAIT)
        assert f"answers as table {table_of(host)[:12]}, not table {'ab' * 6}" in lobby.lobby().failed
        assert "an impostor" in lobby.lobby().failed and not lobby.lobby().seats
        await pilot.press("escape")


@pytest.mark.slow
async def test_the_code_alone_finds_its_table_once_heard(children, tmp_path, monkeypatch):
    """The address left blank: the code's table is not in the list yet, so it is looked for,
    and once heard the player sits there."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "app"))
    host = Table(children, "briscola", players=3, extra=("--code", "42-abcdef", "--name", "Ada"))
    lan = FixedLan([THREE[1]])
    form = JoinForm(lan, wait=WAIT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        await submit_code(pilot, form, "42-ABCDEF", "Bo")
        await wait_for(pilot, lambda: "looking for table 42" in shown(form, "lan-status"), "the search said", WAIT)
        assert app.screen is form
        address = form.query_one("#address")
        lan.add(seen(42, "Ada", ("Ada",), addresses=("127.0.0.1",), port=host.port, table=table_of(host)))
        await seated(pilot, app, "Bo")
        assert address.value == f"127.0.0.1:{host.port}"
        await pilot.press("escape")


async def test_the_code_alone_says_when_none_of_two_tables_with_one_plate_takes_it_or_none_answers():
    closed = free_port()
    lan = FixedLan(
        [
            seen(42, "Ada", addresses=("127.0.0.1",), port=closed),
            seen(42, "Bob", addresses=("127.0.0.1",), port=closed),
            THREE[1],
        ]
    )
    form = WatchForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        form.query_one("#code").value = "42-abcdef"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "none takes" in shown(form, "form-error"), "the line", WAIT)
        assert shown(form, "form-error") == (
            f"2 tables on the LAN answer to 42 and none takes this join code (127.0.0.1:{closed} (Ada), "
            f"127.0.0.1:{closed} (Bob))"
        )
        assert app.screen is form
        form.query_one("#code").value = "9-abcdef"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "answers to 9 after 0.3 s" in shown(form, "form-error"), "the line", WAIT)
        assert shown(form, "form-error") == "no table on the LAN answers to 9 after 0.3 s; type the host's HOST:PORT"
        assert form.query_one("#address").value == "" and app.screen is form
        app.pop_screen()
        patient = WatchForm(FixedLan([THREE[1]]), wait=WAIT)  # HOST:PORT typed while a code is looked for
        await open_form(pilot, patient)
        patient.query_one("#code").value = "9-abcdef"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "looking for table 9" in shown(patient, "lan-status"), "the search", WAIT)
        patient.query_one("#address").value = "[/]"
        await pilot.press("enter")
        assert "not '[/]'" in shown(patient, "form-error")
        assert "Tables on the LAN" in shown(patient, "lan-status")


@pytest.mark.parametrize("kind", [JoinForm, WatchForm], ids=["join", "watch"])
async def test_a_join_code_typed_in_the_address_is_taken_as_the_code(kind):
    """Issue 46: the code typed in the Address field (and in the code's too) was refused as
    no HOST:PORT; it is the code, and its table is looked for on the LAN by the plate; with
    another code in the code's field, the line says where the code goes."""
    from briscola_tui.tui.screens.netform_fields import FormError, join_args, watch_args

    form = kind(FixedLan([THREE[1]]), wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        form.query_one("#address").value = "49-JDCK73"
        form.query_one("#code").value = "49-jdck73"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "answers to 49" in shown(form, "form-error"), "the search", WAIT)
        assert "expected HOST:PORT" not in shown(form, "form-error")
        assert form.query_one("#code").value == "49-jdck73" and form.query_one("#address").value == ""
        form.query_one("#address").value = "49-jdck73"
        form.query_one("#code").value = "12-abcdef"
        await pilot.press("enter")
        assert shown(form, "form-error") == (
            "address: '49-jdck73' is a join code, not HOST:PORT: put it in the Join code field (the address blank)"
        )
    for args in (join_args, watch_args):
        with pytest.raises(FormError, match="is a join code, not HOST:PORT: put it in the Join code field"):
            args({"address": "49-jdck73", "code": "", "name": "", "seat": ""})


@pytest.mark.slow
async def test_back_from_a_refusal_the_join_form_keeps_what_was_typed(children, tmp_path, monkeypatch):
    """Issue 46: after the lobby said "wrong join code", Escape went home and the form, opened
    again, was blank; it comes back as it was filled, to mend the code."""
    from briscola_tui.tui.screens.lobby import LobbyScreen

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "app"))
    host = Table(children, "briscola", players=3, extra=("--code", "42-abcdef", "--name", "Ada"))
    lan = FixedLan([THREE[1]])
    form = JoinForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        form.query_one("#address").value = host.address
        form.query_one("#seat").value = "2"
        await submit_code(pilot, form, "42-zzzzzz", "Bo")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", WAIT)
        lobby = app.screen.controller
        await wait_for(pilot, lambda: lobby.lobby().failed, "the refusal", WAIT)
        assert "wrong join code" in lobby.lobby().failed
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinForm), "the form again", WAIT)
        again = app.screen
        await wait_for(pilot, lambda: again.query("#lan-list"), "its fields", WAIT)
        fields = {ident: again.query_one(f"#{ident}").value for ident in ("address", "code", "name", "seat")}
        assert fields == {"address": host.address, "code": "42-zzzzzz", "name": "Bo", "seat": "2"}
        again.query_one("#code").value = "42-abcdef"
        await pilot.press("enter")
        await seated(pilot, app, "Bo")
        await pilot.press("escape")


def free_port() -> int:
    """A port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_of_two_tables_with_one_plate_the_code_finds_the_one_it_opens_and_names_the_impostor(
    children, tmp_path, monkeypatch
):
    """Issue 44, item 6a in the app: an impostor announces the plate and the host name of a
    real table under a key of its own. The form tries the code on each, fills in the address
    of the real one, names the impostor (its address, the name it claims) and Enter seats the
    player at the real table."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "app"))
    real = Table(children, "briscola", players=3, extra=("--code", "42-abcdef", "--name", "Ada"))
    table = table_of(real)
    fake = children.start("fake", "host", "--bind", "127.0.0.1", "--port", "0", "--code", "42-zzzzzz", "--headless")
    fake_table = fake.wait_for(r"table ([0-9a-f]{32})", WAIT).group(1)
    fake_port = int(fake.wait_for(r"join with: briscola join 127\.0\.0\.1:(\d+)", WAIT).group(1))
    lan = FixedLan(
        [
            seen(42, "Ada", addresses=("127.0.0.1",), port=fake_port, table=fake_table),
            seen(42, "Ada", ("Ada",), addresses=("127.0.0.1",), port=real.port, table=table),
        ]
    )
    form = JoinForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot, form)
        await submit_code(pilot, form, "42-abcdef", "Bo")
        await wait_for(pilot, lambda: "impostors" in shown(form, "form-error"), "the impostors named", WAIT)
        assert shown(form, "form-error") == (
            f"impostors answer to 42 too, ignored (the code does not open them): 127.0.0.1:{fake_port} claiming "
            "host Ada; Enter joins the table the code opens"
        )
        assert form.query_one("#address").value == f"127.0.0.1:{real.port}" and app.screen is form
        await pilot.press("enter")
        await seated(pilot, app, "Bo")
        await pilot.press("escape")


@pytest.mark.slow
async def test_nothing_heard_or_nothing_to_hear_is_said_in_one_line():
    lan = FixedLan([])
    form = JoinForm(lan, wait=SHORT)
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        early = JoinForm(FixedLan([]), wait=WAIT)
        await open_form(pilot, early)
        await wait_for(pilot, lambda: early.query_one(LanTables).source is not None, "the source started", WAIT)
        assert shown(early, "lan-status") == "looking for tables on the LAN…"
        app.pop_screen()
        await open_form(pilot, form)
        await wait_for(pilot, lambda: "no tables heard" in shown(form, "lan-status"), "the line", WAIT)
        assert shown(form, "lan-status") == (
            "no tables heard on this network, multicast may not reach here (WSL2, a guest Wi-Fi, an SSH "
            "tunnel): type the host's HOST:PORT"
        )
        assert not form.query_one("#lan-list").display
        lan.add(THREE[0])  # then a table comes
        await wait_for(pilot, lambda: len(listed(form)) == 1, "the table", WAIT)
        app.pop_screen()
        off = JoinForm(FixedLan(refuse=MulticastRefused("BRISCOLA_NO_MULTICAST is set")), wait=SHORT)
        await open_form(pilot, off)
        await wait_for(pilot, lambda: "is off" in shown(off, "lan-status"), "the reason", WAIT)
        assert shown(off, "lan-status") == "looking for tables on the LAN is off: BRISCOLA_NO_MULTICAST is set"
        off.query_one("#code").value = "42-abcdef"
        await pilot.press("enter")
        assert "type the host's HOST:PORT" in shown(off, "form-error")
        off.query_one("#address").value = "[/]"  # HOST:PORT checked as before
        await pilot.press("enter")
        assert "not '[/]'" in shown(off, "form-error")


async def test_the_host_forms_tick_keeps_the_table_off_the_lan():
    form = HostForm()
    app = form_app(form)
    async with app.run_test(size=SMALL) as pilot:
        from briscola_tui.tui.screens.home import HomeScreen

        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen", WAIT)
        app.push_screen(form)
        await wait_for(pilot, lambda: app.screen is form and form.query("#advertise"), "the form", WAIT)
        assert host_args(form.values()).advertise
        form.query_one("#advertise").focus()
        await pilot.press("space")
        await wait_for(pilot, lambda: not form.query_one("#advertise").value, "the tick off", WAIT)
        assert host_args(form.values()).advertise is False


def screen_shows(name: str, text: str | re.Pattern, timeout: float = WAIT) -> str:
    """The tmux session's screen once it shows `text` (AssertionError with the screen if it does not in time)."""
    from helpers.tmux import capture

    end = time.monotonic() + timeout
    while True:
        screen = capture(name)
        if text.search(screen) is not None if isinstance(text, re.Pattern) else text in screen:
            return screen
        if time.monotonic() > end:
            raise AssertionError(f"no {text!r} in time; the screen:\n{screen}")
        time.sleep(0.1)


# --- the real thing: a host and the app on a LAN of network namespaces -----------------


def no_lan() -> str | None:
    from helpers.netns import why_no_lan

    return "tmux is not installed" if shutil.which("tmux") is None else why_no_lan()


MULTICAST = ["env", "-u", "BRISCOLA_NO_MULTICAST"]
"""Before a command started inside a namespace: multicast allowed there."""


def join_form_on(machine, home, name: str) -> None:
    """The app on `machine` (its data folder `home`), in tmux session `name`, on its join form."""
    from helpers.home import terminal_env
    from helpers.network import BRISCOLA
    from helpers.tmux import tmux

    env = f"{terminal_env()} TERM=xterm-256color LANG=C.UTF-8 TEXTUAL_ANIMATIONS=none BRISCOLA_HOME={home}"
    app = f"nsenter -t {machine.namespace.holder.pid} -n {' '.join(MULTICAST)} {env} {' '.join(BRISCOLA)}"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", os.getcwd(), f"{app}; sleep 30")
    screen_shows(name, "Join a table")
    for keys in (["7"], ["Enter"]):
        tmux("send-keys", "-t", name, *keys)


def seated_by_code(name: str, host, code: str) -> None:
    """The code alone typed in the address field (focused; a key after a Tab could still reach
    the field it left: Textual moves the focus once the Tab has gone through that field), then
    Enter: the friend sits at `host`'s table."""
    from helpers.tmux import tmux

    tmux("send-keys", "-t", name, "-l", code)
    screen_shows(name, re.compile(rf"Address +{code}\n"))
    tmux("send-keys", "-t", name, "Enter")
    seat = host.wait_for(r"connection \d+ \(seat (\d)\) joined").group(1)
    screen_shows(name, re.compile(rf"\b{seat} +\S.* you\b"))  # the lobby's seats


@pytest.mark.slow
@pytest.mark.skipif(no_lan() is not None, reason=str(no_lan()))
def test_a_friend_on_the_lan_sees_the_table_in_the_join_form_and_sits_by_the_code_alone(children, tmp_path):
    """Machine A hosts (announced on the LAN); on machine B the app's join form lists A's
    table, and the code alone, typed where the address goes, seats the friend there."""
    from helpers.netns import lan
    from helpers.network import BRISCOLA, Child
    from helpers.tmux import session_name, tmux

    with lan(2) as (a, b):
        host = Child(
            "host",
            a.argv(
                [*MULTICAST, *BRISCOLA, "host", "--headless", "--game", "briscola", "--players", "3"]
                + ["--bots", "1", "--port", "0", "--name", "Ada"]
            ),
            tmp_path / "a",
        )
        children.started.append(host)
        code = host.wait_for(r"announced on the LAN.*briscola join (\d+-[a-z2-9]+)").group(1)
        name = session_name("lan-form")
        try:
            join_form_on(b, tmp_path / "b", name)
            listed = screen_shows(name, "host Ada")
            assert f"{code.split('-')[0]:>3}  Briscola, 3 players   host Ada" in listed
            screen_shows(name, "cpu2 sits · 2 seats free · 0 spectators")  # (a headless host holds no seat)
            seated_by_code(name, host, code)
        finally:
            tmux("kill-session", "-t", name, check=False)
            host.kill()


def test_the_hosts_lobby_gives_the_code_alone_first_once_the_table_is_announced():
    from briscola_tui.tables.controller import Lobby
    from briscola_tui.tui.screens.lobby import friends_text

    lobby = Lobby(role="host", code="42-7q8r2k", addresses=("10.77.0.1:7777", "127.0.0.1:7777"))
    lines = friends_text(lobby).plain.splitlines()
    assert "briscola join 10.77.0.1:7777 --code 42-7q8r2k" in lines[2]  # not announced: the address first
    announced = friends_text(dataclasses.replace(lobby, announced=True)).plain.splitlines()
    assert announced[2].strip() == "briscola join 42-7q8r2k  (on this LAN)"
    assert "briscola join 10.77.0.1:7777 --code 42-7q8r2k" in announced[3]  # the address still given
    chosen = Lobby(role="host", code="s3cret", addresses=("10.77.0.1:7777",), announced=True)
    assert "on this LAN" not in friends_text(chosen).plain  # a code with no plate: found by its address only


NAMES_HEARD = """
import asyncio
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf
from briscola_tui.net.announcement import SERVICE

async def main():
    zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
    AsyncServiceBrowser(zc.zeroconf, [SERVICE], handlers=[lambda zeroconf, service_type, name, state_change: print(name, flush=True)])
    await asyncio.sleep(600)

asyncio.run(main())
"""
"""Prints the name of each service heard (what a machine's browsers hear, record by record)."""


@pytest.mark.skipif(no_lan() is not None, reason=str(no_lan()))
def test_two_service_names_carrying_one_table_id_are_one_row_in_the_app_on_the_lan(children, tmp_path):
    """Issue 44, item 2, with real processes: machine A hosts; machine C announces A's record
    again, as it is, under a service name of its own; on machine B the app's join form lists
    the table once (the app does not die of a DuplicateID), and the code alone seats the friend."""
    import sys

    from helpers.netns import lan
    from helpers.network import BRISCOLA, Child
    from helpers.tmux import session_name, tmux

    with lan(3) as (a, b, c):
        host = Child(
            "host",
            a.argv([*MULTICAST, *BRISCOLA, "host", "--headless", "--players", "3", "--port", "0", "--name", "Ada"]),
            tmp_path / "a",
        )
        children.started.append(host)
        table = host.wait_for(r"table ([0-9a-f]{32})").group(1)
        code = host.wait_for(r"announced on the LAN.*briscola join (\d+-[a-z2-9]+)").group(1)
        heard = Child("heard", b.argv([*MULTICAST, sys.executable, "-c", NAMES_HEARD]), tmp_path / "heard")
        children.started.append(heard)
        name = session_name("lan-copy")
        try:
            join_form_on(b, tmp_path / "b", name)
            screen_shows(name, "host Ada")
            copy = [*MULTICAST, sys.executable, "tests/helpers/forger.py", c.address, "copy", table]
            copier = Child("copy", c.argv(copy), tmp_path / "copy")
            children.started.append(copier)
            copier.wait_for("announced", WAIT)
            heard.wait_for(r"^copy\._briscola", WAIT)  # (machine B heard the copy)
            screen = screen_shows(name, "Tables on the LAN")
            assert screen.count("host Ada") == 1 and "Traceback" not in screen and "DuplicateID" not in screen
            seated_by_code(name, host, code)
        finally:
            tmux("kill-session", "-t", name, check=False)
            host.kill()
