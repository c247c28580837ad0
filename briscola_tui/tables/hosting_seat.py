"""The host's own seat at the table it hosts, for the app: the table prepared and served by this
process (`net.commands.prepare_host`), and the seat's client connecting to it as any other
seat does: over loopback TCP, or through the club the table goes through."""

from __future__ import annotations

from protocol.identity import Identity

from ..net.carrier import CarriedPlaces, Carrier
from ..net.client import Options
from ..net.commands import person_name, prepare_host
from ..options import HostOptions
from .network import NetTable


def hosting_table(args: HostOptions, identity: Identity, carrier: Carrier | None = None) -> NetTable:
    """Host the table `args` describe (the `briscola host` options) and take a seat at it
    (through `carrier`, a club, when there is one, as every other seat)."""
    lines: list[str] = []
    hosting = prepare_host(args, lines.append, carrier)
    name = person_name(args.name or "")  # (prepare_host checked it)
    options = Options(_loopback(args.bind), 0, "player", name, hosting.code or "", 0, None)
    if carrier is not None:
        options.places = CarriedPlaces(carrier, carrier.member, hosting.table_id.hex())
    table = NetTable(options, identity, hosting, carrier, args.club or "")
    hosting.server.say = table.host_said
    # The table's events are told once, by the seat's own client (from the transcript it reads,
    # in its words: "you"): the host telling them too wrote each line twice in the lobby.
    hosting.server.tell = lambda event: None
    for line in lines:
        table.host_said(line)
    return table


def _loopback(bind: str) -> str:
    """Where the hosting process's own seat connects to its server."""
    return {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(bind, bind)
