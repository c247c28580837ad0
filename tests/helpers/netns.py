"""A private network namespace for the tests that send multicast (LAN discovery): made with
`unshare -n` (root, or a user namespace where the kernel allows one), its loopback up with
multicast on and the multicast range routed to it, so that nothing a test sends there can
leave this machine. `run_inside(argv)` runs a command in a fresh one; `why_not()` says why
none can be made here (the tests that need one skip with that reason)."""

from __future__ import annotations

import functools
import shutil
import subprocess

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
