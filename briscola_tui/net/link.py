"""One connection's bytes, whatever carries them (issue 47): the protocol code over a `Link`.

The host (`connection`, `admission`, `relay`, `server`) and the client (`client`,
`candidates`) read and write a connection through `Link` only, so they do not know what
carries its bytes. `TcpLink` is a TCP connection (asyncio's streams): `connect_tcp` opens
one to a host, `listen_tcp` serves each one accepted as a `Link`. What is TCP's own stays
here: the frame-sized read limit, the send buffers (the kernel's and asyncio's), a peer's
address as the limits count it (`peer_address`), and a look at the bytes arrived but not
read yet. Every frame is sealed end to end by the SPAKE2 channel above this, whatever the
link (protocol/channel.py).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import struct
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from protocol.codec import MAX_FRAME

if sys.platform != "win32":  # (not on Windows: only what asyncio has read is seen there)
    import fcntl
    import termios

CHUNK = 65536
"""The most bytes one `read` of a TCP link returns."""


class Link(Protocol):
    """One connection's bytes, whatever carries them. `peer` is where it comes from, in words
    (a TCP peer's address as the host's limits count it: `peer_address`)."""

    peer: str

    async def read(self) -> bytes:
        """The next bytes that came (b"" at the end). Cancelled, it loses nothing: what came
        is there for the next `read`."""
        ...

    def write(self, data: bytes) -> None:
        """`data` sent after what was written before (buffered: `drain` waits for room)."""
        ...

    async def drain(self) -> None:
        """Wait until what is buffered to send is small enough to write more."""
        ...

    def close(self) -> None:
        """Close once what is buffered is sent."""
        ...

    def abort(self) -> None:
        """Close at once, dropping what is buffered."""
        ...

    def is_closing(self) -> bool: ...

    def buffered(self) -> int:
        """Bytes written and not sent yet."""
        ...

    def unread(self) -> bool:
        """Bytes have come that no `read` has returned yet (False where that cannot be asked)."""
        ...

    def peek(self, limit: int) -> bytes:
        """At most `limit` of the first bytes come and not read yet, left for `read` (b"" where
        that cannot be asked)."""
        ...


def peer_address(peer: Any) -> str:  # (what a socket says of its peer: a tuple, or anything)
    """The address a connection comes from, as the handshake pool's shares and the wrong
    codes' limit count it: an IPv4 address (an IPv4-mapped IPv6 one too), an IPv6 address
    by its /64 (one host's, as a network hands them out)."""
    try:
        address = ipaddress.ip_address(peer[0].split("%")[0])
    except (TypeError, ValueError, IndexError):
        return "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TcpLink:
    """A `Link` over a TCP connection's asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.peer = peer_address(writer.get_extra_info("peername"))

    async def read(self) -> bytes:
        return await self.reader.read(CHUNK)

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()

    def abort(self) -> None:
        self.writer.transport.abort()

    def is_closing(self) -> bool:
        return self.writer.transport.is_closing()

    def buffered(self) -> int:
        return self.writer.transport.get_write_buffer_size()

    def send_buffer(self, size: int) -> None:
        """Hold at most about `size` bytes in the kernel's send buffer, and as much in asyncio's:
        past that, `drain` waits."""
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        self.writer.transport.set_write_buffer_limits(high=size)

    def _held(self) -> bytes:
        """What asyncio has read from the socket and no `read` has returned yet."""
        return bytes(getattr(self.reader, "_buffer", b""))

    def unread(self) -> bool:
        sock = self.writer.get_extra_info("socket")
        return bool(self._held()) or (sock is not None and bool(_waiting_bytes(sock)))

    def peek(self, limit: int) -> bytes:
        held = self._held()
        sock = self.writer.get_extra_info("socket")
        if held or sock is None or not _waiting_bytes(sock):
            return held[:limit]
        try:
            with socket.socket(fileno=os.dup(sock.fileno())) as peek:
                return peek.recv(limit, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except OSError:
            return b""


def _waiting_bytes(sock: socket.socket) -> int:
    """Bytes received on a socket that nobody has read yet (0 where that cannot be asked)."""
    if sys.platform == "win32":
        return 0
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, bytes(4)))[0]
    except (OSError, ValueError):
        return 0


async def connect_tcp(host: str, port: int) -> TcpLink:
    """A TCP link to `host`:`port` (a read holds one whole frame at most)."""
    reader, writer = await asyncio.open_connection(host, port, limit=MAX_FRAME + 4)
    return TcpLink(reader, writer)


async def listen_tcp(
    serve: Callable[[Link], Awaitable[None]], bind: str, port: int, *, backlog: int, send_buffer: int
) -> asyncio.Server:
    """Listen on `bind`:`port`; each connection accepted is served (`serve`, in its own task)
    as a link whose send buffers hold about `send_buffer` bytes each."""

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = TcpLink(reader, writer)
        link.send_buffer(send_buffer)
        await serve(link)

    return await asyncio.start_server(accepted, bind, port, limit=MAX_FRAME + 4, backlog=backlog)
