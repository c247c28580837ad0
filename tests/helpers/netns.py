"""A private network namespace for the tests that send multicast (LAN discovery): made with
`unshare -n` (root, or a user namespace where the kernel allows one), its loopback up with
multicast on and the multicast range routed to it, so that nothing a test sends there can
leave this machine. `run_inside(argv)` runs a command in a fresh one; `why_not()` says why
none can be made here (the tests that need one skip with that reason)."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass

SETUP = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"
"""Inside the namespace, before the command: loopback up, multicast on it and routed to it."""


def _unshare() -> list[str]:
    """How to enter a new network namespace here: as root, or in a user namespace of our own."""
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10)
    return ["unshare", "-n"] if probe.returncode == 0 else ["unshare", "-r", "-n"]


@functools.cache
def why_not() -> str | None:
    """Why no private network namespace can be made here (None: one can)."""
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    done = subprocess.run([*_unshare(), "sh", "-c", SETUP], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        return f"no private network namespace here: {done.stderr.strip() or done.returncode}"
    return None


def run_inside(argv: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    """`argv` run in a fresh private network namespace (multicast on its loopback only)."""
    script = f'{SETUP} && exec "$@"'
    return subprocess.run([*_unshare(), "sh", "-c", script, "sh", *argv], timeout=timeout, **kwargs)


# --- a LAN of namespaces: machines on one switch ---------------------------------------

NETWORK = "10.77.0"
"""The test LAN's addresses: machine i is NETWORK.(i + 1)/24."""


def why_no_lan() -> str | None:
    """Why no LAN of namespaces can be made here (None: it can): it needs root, for the
    veth links between namespaces."""
    if (why := why_not()) is not None:
        return why
    if os.geteuid() != 0:
        return "a LAN of network namespaces (veth links between them) needs root"
    return None


class Namespace:
    """A private network namespace, kept while its holder process (`sleep`) lives; `argv`
    runs a command in it."""

    def __init__(self) -> None:
        self.holder = subprocess.Popen(["unshare", "-n", "sleep", "3600"], stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        own = os.readlink("/proc/self/ns/net")
        while os.readlink(f"/proc/{self.holder.pid}/ns/net") == own:  # (until unshare has made it)
            if time.monotonic() > deadline or self.holder.poll() is not None:
                raise RuntimeError("the namespace's holder did not start")
            time.sleep(0.01)

    def argv(self, command: list[str]) -> list[str]:
        return ["nsenter", "-t", str(self.holder.pid), "-n", *command]

    def sh(self, script: str) -> None:
        subprocess.run(self.argv(["sh", "-ec", script]), check=True, timeout=10, capture_output=True)

    def close(self) -> None:
        self.holder.kill()
        self.holder.wait(10)


@dataclass
class Machine:
    """One machine on the test LAN: its namespace and address."""

    namespace: Namespace
    address: str

    def argv(self, command: list[str]) -> list[str]:
        return self.namespace.argv(command)


@contextlib.contextmanager
def lan(machines: int = 2) -> Iterator[list[Machine]]:
    """`machines` namespaces on one switch (a bridge in a namespace of its own, a veth link
    to each), multicast routed to the LAN; every namespace is gone at the end."""
    made: list[Namespace] = []
    try:
        switch = Namespace()
        made.append(switch)
        switch.sh("ip link set lo up; ip link add sw type bridge; ip link set sw up")
        found = []
        for i in range(machines):
            space = Namespace()
            made.append(space)
            address = f"{NETWORK}.{i + 1}"
            switch.sh(
                f"ip link add p{i} type veth peer name eth0 netns {space.holder.pid}; "
                f"ip link set p{i} master sw; ip link set p{i} up"
            )
            space.sh(
                f"ip link set lo up; ip addr add {address}/24 dev eth0; ip link set eth0 up; "
                "ip route add 224.0.0.0/4 dev eth0"
            )
            found.append(Machine(space, address))
        yield found
    finally:
        for space in made:
            space.close()
