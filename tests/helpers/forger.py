"""Hostile announcements on a LAN of network namespaces (tests/test_discovery.py), run as a
script on one machine: `python tests/helpers/forger.py ADDRESS MODE [ARGS]`, with zeroconf's
own API, until killed (the test's `children` fixture kills it). It prints "announced" once
its records are out. Modes:

- `flood N`: N tables, each with a key of its own and a record validly signed by it.
- `names`: three tables with hostile host names (huge, escaped) and one of another version.
- `steer TABLE`: the real table TABLE's record (heard on the LAN) announced again under a
  service name of its own, with this machine's address and a larger serial, and a relay on
  its port that passes the handshake on to the real host, then drops the connection and
  stops answering (issue 44, item 3).
- `copy TABLE`: the real table TABLE's record, as it is, announced again under a service
  name of its own (two service names carrying one table id; issue 44, item 2).
- `relay TABLE`: a table of a key of its own announcing what the real table TABLE does (its
  plate, its host's name, its seats), on this machine's address, with the same relay.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from briscola_tui.net import announcement
from briscola_tui.net.announcement import SERVICE, Announcement
from protocol.identity import Identity
from protocol.tableid import table_id_of

RELAY_SECONDS = 2.0
"""How long the relay of `steer` passes a connection on before it drops it and stops answering."""


def table(n: int, address: str, **changed) -> AsyncServiceInfo:
    """Table `n`: a record of its own key's, validly signed, on `address`, with `changed` fields."""
    key = Identity.generate()
    fields = dict(game="briscola", players=2, seated=(), spectators=True, host=f"h{n}", port=4000 + n % 1000)
    fields.update(table=table_id_of(key.public_bytes).hex(), key=key.public_bytes.hex())
    fields.update(changed)
    if not hasattr(announcement, "signed"):  # (a version without signed records: to show a test fails there)
        fields.pop("key")
    a = Announcement(**fields)  # type: ignore[arg-type]
    sign = getattr(announcement, "signed", lambda a, _where, _serial, _key: announcement.properties(a))
    record = sign(a, [address], 1, key)
    return AsyncServiceInfo(
        SERVICE, f"t{n}.{SERVICE}", addresses=[socket.inet_aton(address)], port=a.port, properties=record,
        server=f"h{n}.local.",
    )  # fmt: skip


async def heard(zc: AsyncZeroconf, table_id: str, seconds: float = 30.0) -> AsyncServiceInfo:
    """The record of table `table_id` as heard on the LAN."""
    found: list[AsyncServiceInfo] = []

    def handler(zeroconf, service_type, name, state_change) -> None:
        info = AsyncServiceInfo(service_type, name)
        if info.load_from_cache(zeroconf) and (info.properties.get(b"table") or b"").decode() == table_id:
            found.append(info)

    browser = AsyncServiceBrowser(zc.zeroconf, [SERVICE], handlers=[handler])
    deadline = time.monotonic() + seconds
    while not found and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await browser.async_cancel()
    if not found:
        raise SystemExit(f"table {table_id} not heard")
    return found[0]


async def relay(real: tuple[str, int], port: int) -> None:
    """Pass the first connection on to `real` for `RELAY_SECONDS` (the handshake, the first
    entries), then drop it and stop answering (no more connections taken)."""
    first = asyncio.get_running_loop().create_future()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except OSError:
            pass

    async def passing(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if first.done():
            writer.transport.abort()
            return
        first.set_result(None)
        far_reader, far_writer = await asyncio.open_connection(*real)
        print("relaying", flush=True)
        both = asyncio.gather(pipe(reader, far_writer), pipe(far_reader, writer))
        await asyncio.wait([both], timeout=RELAY_SECONDS)
        writer.transport.abort()
        far_writer.transport.abort()
        print("dropped", flush=True)

    server = await asyncio.start_server(passing, "0.0.0.0", port)
    await first
    server.close()  # (no more connections: it stops answering)
    await asyncio.sleep(RELAY_SECONDS + 1)


async def pointers(zc: AsyncZeroconf, n: int) -> None:
    """Pointers to `n` services whose records never come, sent again and again (each one a
    lookup a browser makes, and waits for)."""
    from zeroconf import DNSOutgoing, DNSPointer
    from zeroconf.const import _CLASS_IN, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_PTR

    while True:
        for start in range(0, n, 20):
            out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
            for i in range(start, min(start + 20, n)):
                pointer = DNSPointer(SERVICE, _TYPE_PTR, _CLASS_IN, 4500, f"p{i}.{SERVICE}")
                out.add_answer_at_time(pointer, 0)
            zc.zeroconf.async_send(out)
            await asyncio.sleep(0.01)


async def main(address: str, mode: str, args: list[str]) -> None:
    zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
    work = None
    if mode == "flood":
        infos = [table(n, address) for n in range(10, 10 + int(args[0]))]
    elif mode == "pointers":
        work = pointers(zc, int(args[0]))
        infos = []
    elif mode == "names":
        infos = [table(1, address, host="x" * 200), table(2, address, host="\x1b[2J[bold]boom[/]\u202e")]
        infos.append(table(3, address, version=99))
    elif mode in ("steer", "copy"):
        real = await heard(zc, args[0])
        record = {k.decode(): (v or b"").decode() for k, v in real.properties.items()}
        port, where = real.port, real.parsed_addresses()[0]
        if mode == "steer":
            record.update(addr=address, n=str(int(record.get("n") or 0) + 10**9))  # (the real signature kept)
            port, where = real.port + 1, address
            work = relay((real.parsed_addresses()[0], real.port), port)
        infos = [
            AsyncServiceInfo(
                SERVICE, f"{mode}.{SERVICE}", addresses=[socket.inet_aton(where)], port=port, properties=record,
                server=f"{mode}.local.",
            )
        ]  # fmt: skip
    elif mode == "relay":
        real = await heard(zc, args[0])
        record = {k.decode(): (v or b"").decode() for k, v in real.properties.items()}
        port = real.port + 1
        copied = dict(host=record["host"], plate=int(record["plate"]), players=int(record["players"]), port=port)
        infos = [table(0, address, **copied)]
        work = relay((real.parsed_addresses()[0], real.port), port)
    else:
        raise SystemExit(f"no mode {mode}")
    for info in infos:
        await zc.async_register_service(info, cooperating_responders=True)
    print("announced", flush=True)
    if work is not None:
        await work
    await asyncio.sleep(600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
