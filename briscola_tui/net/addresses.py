"""Where friends reach a table: the HOST:PORT a host gives for each address it listens on."""

from __future__ import annotations

import ipaddress
import socket

import ifaddr


def addresses(bind: str, port: int) -> list[str]:
    """The HOST:PORT others should give to reach a table listening on `bind`:
    `bind` itself, or for every interface this machine's LAN addresses, then loopback."""
    if bind not in ("0.0.0.0", "::", ""):
        return [join_address(bind, port)]
    family = socket.AF_INET6 if bind == "::" else socket.AF_INET
    found = [a for a in _lan_addresses(family) if not _loopback(a)]
    return [join_address(a, port) for a in found] + [join_address("::1" if bind == "::" else "127.0.0.1", port)]


def _lan_addresses(family: int) -> list[str]:
    """This machine's addresses: the one its default route leaves from (a UDP socket
    "connected" to a private address sends nothing), then those its name resolves to."""
    found: list[str] = []
    probe = "fd00::1" if family == socket.AF_INET6 else "10.255.255.255"
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            found.append(str(udp.getsockname()[0]))
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, family):
            if info[4][0] not in found:
                found.append(str(info[4][0]))
    except OSError:
        pass
    if family == socket.AF_INET:
        found += [a for a in interface_addresses() if a not in found]
    return [a.split("%")[0] for a in found]


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses on its interfaces, loopback left out (a LAN with no
    default route, and the addresses a table is announced on)."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback and ip.ip not in found:
                found.append(ip.ip)
    return found


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address == "::1"


def join_address(address: str, port: int) -> str:
    """HOST:PORT as `briscola join` takes it (an IPv6 address in brackets)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
