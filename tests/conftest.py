"""Fixtures shared by the test modules.

Every test runs with the user's folders in a fresh temporary folder (`own_folders`,
helpers/home.py): HOME, the XDG folders and BRISCOLA_HOME, so that no test reads
the real user's settings or writes to their data folder; the processes a test
starts inherit them. Fixtures of a wider scope run before it: for them the whole
session has such a folder too (`session_folders`), and the module-scoped fixtures
that start processes give themselves one of their own.

The suite runs on every core with pytest-xdist; the tests that share a module-scoped
fixture run on one worker (`pytest_collection_modifyitems`). Processes find free ports
themselves (port 0), the tmux tests have a tmux server per worker (helpers/tmux.py).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from helpers.home import point_home_at
from helpers.network import Children

SLOW_FIXTURES = {"children", "snap_compare"}
"""A test that starts real processes or compares a screenshot is in the slow tier, whatever
else marks it."""
FAST_TIER_LIMIT = 1.0
"""Seconds a test of the fast tier may take before the run's summary names it as one to mark slow."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    """The tiers: `slow` marks the tests of real processes, the app, screenshots and seconds of
    work (`pytest -m "not slow"` is the fast tier, docs/development.md).

    The suite runs on every core (pytest-xdist: `-n auto --dist loadgroup` in pyproject.toml).
    The tests of a module that use a fixture of module (or class, package) scope are put in one
    group, which one worker runs: the fixture is made once, as in a run without xdist."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        definitions = getattr(item, "_fixtureinfo", None)
        if definitions is None:
            continue
        if any(defs[-1].scope in ("module", "class", "package") for defs in definitions.name2fixturedefs.values()):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


@pytest.fixture(scope="session", autouse=True)
def session_folders(tmp_path_factory):
    """The user's folders for what runs outside a test (session- and module-scoped fixtures)."""
    with pytest.MonkeyPatch.context() as env:
        point_home_at(env, tmp_path_factory.mktemp("session-home"))
        yield


def pytest_configure(config):
    """The multicast guard (the LAN discovery's tests): no test may send multicast from the
    network namespace the suite runs in, only from a private one it makes (helpers/netns.py).
    net/mdns.py refuses to, naming the namespace here, and writes who tried in a log that
    `pytest_sessionfinish` reads (the workers of pytest-xdist inherit both from the first
    process). Every test also runs with BRISCOLA_NO_MULTICAST set (`own_folders`): only the
    discovery tests take it away, for the processes they start in a private namespace."""
    if "BRISCOLA_TEST_NETNS" not in os.environ and os.path.exists("/proc/self/ns/net"):
        os.environ["BRISCOLA_TEST_NETNS"] = os.readlink("/proc/self/ns/net")
        log = Path(tempfile.mkdtemp(prefix="briscola-guard-")) / "multicast.log"
        log.touch()
        os.environ["BRISCOLA_TEST_MULTICAST_LOG"] = str(log)


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml's addopts): two workers a core. Most of the suite's time is
    waiting (real processes, sockets, the app's screens), not computing: on two cores the whole
    suite took 8 min 33 s with two workers and 5 min 51 s with four, every test passing
    (docs/development.md)."""
    return 2 * (os.cpu_count() or 1)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """In the fast tier, name every test that took more than `FAST_TIER_LIMIT` (not a failure:
    a note that it belongs in the slow tier)."""
    if "not slow" not in (config.option.markexpr or ""):
        return
    reports = [r for key in ("passed", "failed") for r in terminalreporter.stats.get(key, [])]
    long = sorted((r.duration, r.nodeid) for r in reports if r.when == "call" and r.duration > FAST_TIER_LIMIT)
    if long:
        terminalreporter.write_sep("-", f"in the fast tier, over {FAST_TIER_LIMIT:g} s: mark them @pytest.mark.slow")
        for seconds, nodeid in reversed(long):
            terminalreporter.write_line(f"{seconds:5.1f} s  {nodeid}")


def pytest_sessionfinish(session, exitstatus):
    """The run fails if any test tried to send multicast outside a private namespace."""
    if hasattr(session.config, "workerinput"):  # (the first process reads the log, once)
        return
    log = os.environ.get("BRISCOLA_TEST_MULTICAST_LOG")
    tried = Path(log).read_text(encoding="utf-8").splitlines() if log and os.path.exists(log) else []
    if tried:
        print("\nmulticast was tried outside a private network namespace by:\n  " + "\n  ".join(tried))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def own_folders(session_folders, tmp_path_factory, monkeypatch):
    """The user's folders, fresh for each test (beside its tmp_path, which stays its own),
    colour on whatever the terminal running the suite says (a test of NO_COLOR sets it), and
    no multicast (`pytest_configure`)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("BRISCOLA_NO_MULTICAST", "1")
    return point_home_at(monkeypatch, tmp_path_factory.mktemp("home"))


@pytest.fixture
def italian():
    """The app's words in Italian for the test, English again after it."""
    from briscola_tui import language

    language.choose("it")
    try:
        yield
    finally:
        language.choose("en")


@pytest.fixture
def club(tmp_path):
    """A club's server, `briscola club serve` for the club friends in the data folder keeper
    (helpers/club.py), killed with its nats-server at the end."""
    from helpers.club import ClubServer

    server = ClubServer(tmp_path / "keeper")
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def children(tmp_path):
    """Starts `briscola` processes (helpers/network.py) and kills every one of them at the end."""
    kids = Children(tmp_path)
    try:
        yield kids
    finally:
        kids.close()


@pytest.fixture(autouse=True)
def english_after():
    """A test that switched the process to another language (an app with language="it",
    `language.choose`) leaves it in English for the next test on this worker."""
    yield
    from briscola_tui import language

    if language.current() != "en":
        language.choose("en")
