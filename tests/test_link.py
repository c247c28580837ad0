"""The network's protocol code over a link that is not TCP (issue 47): `read_frame`, the
relay and the sealed channel run over `helpers.links.MemoryLink` (a pair of queues) as over
a socket, so a table may travel over another carrier (a club's NATS server) unchanged."""

from __future__ import annotations

import asyncio

import pytest
from helpers.links import link_pair

from briscola_tui.net.connection import Conn, Frames, Limits, read_frame
from briscola_tui.net.link import Link, TcpLink
from briscola_tui.net.relay import Relay
from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import FrameReader, frame
from protocol.errors import ProtocolError
from protocol.reasons import Reason

TABLE = bytes(range(16))


def _channels(code: str = "42-secret") -> tuple[Conn, Conn, Link, Link]:
    """A host's connection and a client's, over one link in memory, each with its side of
    the channel the join code's key exchange gives."""
    client, host = Exchange("client", code), Exchange("host", code)
    host.finish(client.message, TABLE, hs.VERSION)
    client.finish(host.message, TABLE, hs.VERSION)
    host.check(client.confirmation())
    client.check(host.confirmation())
    host_end, client_end = link_pair(a="10.0.0.7", b="10.0.0.1")
    at_host = Conn(1, host_end, role="player", seat=0, address=host_end.peer, channel=host.channel())
    at_client = Conn(2, client_end, channel=client.channel())
    return at_host, at_client, host_end, client_end


def test_a_frame_comes_whole_however_the_link_cuts_its_bytes_and_the_end_is_said():
    async def run() -> None:
        sender, receiver = link_pair()
        framed = frame(hs.bye(Reason.of("done"))) + frame(hs.away((0, 2)))
        for k in range(len(framed)):  # one byte at a time
            sender.write(framed[k : k + 1])
        frames = Frames()
        assert hs.parse(await read_frame(receiver, frames)) == ("bye", [Reason.of("done").wire()])
        assert hs.parse(await read_frame(receiver, frames)) == ("away", [(0, 2)])
        assert frames.fed == len(framed)
        sender.close()
        with pytest.raises(ConnectionError, match="closed"):
            await asyncio.wait_for(read_frame(receiver, frames), 5)

    asyncio.run(run())


def test_the_host_relays_sealed_entries_over_a_link_that_is_not_tcp_and_reads_what_comes_back():
    async def run() -> None:
        at_host, at_client, host_end, client_end = _channels()
        assert at_host.address == "10.0.0.7"  # the link says where it comes from
        said: list[str] = []
        relay = Relay(Limits(), [], {1: at_host}, said.append)
        writing = asyncio.create_task(relay.writer(at_host))
        relay.welcome(at_host, TABLE, 0)
        relay.publish(b"the first entry")
        frames = FrameReader()
        kind, fields = hs.parse(await asyncio.wait_for(read_frame(client_end, frames, at_client), 5))
        assert (kind, fields[0], fields[1]) == ("welcome", TABLE, 0)
        entry = hs.parse(await asyncio.wait_for(read_frame(client_end, frames, at_client), 5))
        assert entry == ("entry", [b"the first entry"])
        assert not any(b"the first entry" in chunk for chunk in host_end.written)  # sealed on the way
        client_end.write(frame(at_client.channel.seal(hs.submit(b"my move"))))
        got = hs.parse(await asyncio.wait_for(read_frame(host_end, Frames(), at_host), 5))
        assert got == ("submit", [b"my move"])
        relay.close(at_host, Reason.of("too-slow"))
        bye = hs.parse(await asyncio.wait_for(read_frame(client_end, frames, at_client), 5))
        assert bye == ("bye", [Reason.of("too-slow").wire()])
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(read_frame(client_end, frames, at_client), 5)
        writing.cancel()
        assert said == ["closing connection 1 (seat 0): too slow to read the table"]

    asyncio.run(run())


def test_a_frame_changed_on_a_link_is_caught_by_the_channel_whatever_carries_it():
    async def run() -> None:
        at_host, at_client, host_end, client_end = _channels()
        sealed = bytearray(frame(at_client.channel.seal(hs.submit(b"my move"))))
        sealed[-1] ^= 1  # a carrier that changed a byte
        client_end.write(bytes(sealed))
        with pytest.raises(ProtocolError):
            await asyncio.wait_for(read_frame(host_end, Frames(), at_host), 5)

    asyncio.run(run())


def test_a_memory_link_and_a_tcp_link_are_both_links():
    def takes(link: Link) -> str:
        return link.peer

    host_end, _ = link_pair()
    assert takes(host_end) == "10.0.0.2"
    assert {name for name in dir(Link) if not name.startswith("_")} <= set(dir(TcpLink)) | {"peer"}
