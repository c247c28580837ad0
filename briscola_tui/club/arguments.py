"""`briscola club`'s command line (light: `briscola --help` loads it; nothing of nats)."""

from __future__ import annotations

from typing import Any

from ..language import _


def _port(text: str) -> int:
    import argparse

    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(_("expected a port from 0 to 65535, not {text!r}").format(text=text))
    return int(text)


def add_club_command(sub: Any) -> None:  # (argparse's subparsers: a private type)
    club = sub.add_parser(
        "club",
        help=_("a club: a NATS server beyond the LAN that relays and keeps transcripts for its members"),
        description=_(
            "Serve a club (a NATS server with JetStream, every member with a credential of their own), "
            "invite and revoke members, or, as a member, keep the club a host gave you. The club's server "
            "is trusted to deliver bytes, never for a result: what it passes on is verified here. Needs the "
            "club extra: pip install 'briscola-tui[club]' (and club-server to serve)."
        ),
    )
    actions = club.add_subparsers(dest="club_action", metavar="ACTION", required=True)
    serve = actions.add_parser("serve", help=_("run the club's NATS server in the foreground (Ctrl-C stops it)"))
    serve.add_argument(
        "--name", default="", help=_("the club's name, the first time (lowercase letters, digits, - and _)")
    )
    serve.add_argument(
        "--bind", help=_("the address to listen on (default 127.0.0.1; beyond loopback the club speaks TLS)")
    )
    serve.add_argument("--port", type=_port, help=_("the port (default 4222; 0: a free one, printed)"))
    serve.add_argument(
        "--advertise", metavar="HOST", help=_("the name or address members reach the club by (default: --bind)")
    )
    serve.add_argument(
        "--cluster-port",
        type=_port,
        metavar="PORT",
        help=_("listen for the other nodes of a cluster on PORT (0: a free one)"),
    )
    serve.add_argument(
        "--routes", metavar="URLS", help=_("the other nodes' cluster URLs, comma-separated, as their serve printed")
    )
    invite = actions.add_parser("invite", help=_("add a member and print the line to give them"))
    invite.add_argument("member", metavar="NAME")
    invite.add_argument(
        "--key",
        default="",
        metavar="KEY",
        help=_(
            "admit a member another node of the cluster invited, by the public key its briscola club members "
            "prints: no new credential, the member reaches the club through this node too"
        ),
    )
    revoke = actions.add_parser("revoke", help=_("take a member out: their credential is refused from now on"))
    revoke.add_argument("member", metavar="NAME")
    actions.add_parser("members", help=_("the served club's members"))
    add = actions.add_parser("add", help=_("keep a club from the invitation its host gave you"))
    add.add_argument("token", metavar="INVITATION")
    add.add_argument(
        "--as", dest="as_name", default="", metavar="NAME", help=_("keep it under this name (default: the club's)")
    )
    actions.add_parser("list", help=_("the clubs this data folder belongs to"))
