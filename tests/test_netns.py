"""The private network namespace the LAN discovery tests run in (helpers/netns.py): multicast
sent there reaches a listener there, and there is no interface but loopback for it to leave by."""

from __future__ import annotations

import sys
import textwrap

import pytest
from helpers.netns import run_inside, why_not

pytestmark = pytest.mark.skipif(why_not() is not None, reason=str(why_not()))

MULTICAST = textwrap.dedent("""
    import socket, struct
    group, port = "224.0.0.251", 5353
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("", port))
    listener.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                        struct.pack("4s4s", socket.inet_aton(group), socket.inet_aton("127.0.0.1")))
    listener.settimeout(5)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
    sender.sendto(b"briscola?", (group, port))
    print(listener.recvfrom(64)[0].decode())
    print(sorted(name for _, name in socket.if_nameindex()))
""")


def test_multicast_inside_the_namespace_stays_on_its_loopback():
    done = run_inside([sys.executable, "-c", MULTICAST], timeout=30, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    received, interfaces = done.stdout.splitlines()
    assert received == "briscola?"
    assert interfaces == "['lo']"  # nothing else to leave by
