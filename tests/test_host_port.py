"""A host that cannot listen (issue 46): the port taken is named, and what to do is said
(another --port, or 0 for any free port), headless as in the app's lobby. The port is one
a socket of the test holds on 127.0.0.1 (the OS picked it)."""

from __future__ import annotations

import socket
import time

import pytest
from helpers.network import WAIT

from briscola_tui.net.joining import player_identity
from briscola_tui.options import HostOptions


def taken_port() -> socket.socket:
    """A socket listening on a port the OS picked (the test closes it)."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder


@pytest.mark.slow  # (a process)
def test_a_headless_host_on_a_port_in_use_names_it_and_says_what_to_do(children):
    with taken_port() as holder:
        port = holder.getsockname()[1]
        host = children.start(
            "host", "host", "--headless", "--bind", "127.0.0.1", "--port", str(port), "--bots", "1", "--no-advertise"
        )
        assert host.finish(WAIT) == 2
    assert f"briscola host: cannot listen on port {port}: Address already in use" in host.text
    assert "choose another with --port N, or --port 0 for any free port" in host.text


def test_the_lobby_of_a_host_on_a_port_in_use_names_it_and_says_what_to_do():
    from briscola_tui.tables.hosting_seat import hosting_table

    with taken_port() as holder:
        port = holder.getsockname()[1]
        options = HostOptions(bind="127.0.0.1", port=port, bots=1, advertise=False, name="Ann")
        table = hosting_table(options, player_identity()).start()
        try:
            deadline = time.monotonic() + WAIT
            while not table.lobby().failed and time.monotonic() < deadline:
                time.sleep(0.05)
            failed = table.lobby().failed
        finally:
            table.stop()
    assert failed is not None and f"cannot listen on port {port}: Address already in use" in failed
    assert "or 0 for any free one" in failed
