"""`briscola club ACTION`: serve, invite, revoke, members (the club served here); add, list
(the clubs this data folder belongs to). Exit status 0, or 1 with one line on standard error."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..language import _
from ..os_errors import os_error_words
from ..tools.verify import clean
from ..wording import count
from . import joined, members, state
from .invite import BadToken, read_token
from .needs import Missing, need_client, server_binary
from .state import ClubError
from .tls import fingerprint

PROG = "briscola club"


def club_command(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        need_client()
        return _run(args, out, err)
    except (Missing, ClubError, BadToken) as error:
        print(clean(f"{PROG}: {error}"), file=err)
        return 1
    except OSError as error:
        print(clean(f"{PROG}: {error.filename or ''}: {os_error_words(error)}"), file=err)
        return 1


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    action = args.club_action
    if action == "serve":
        return _serve(args, out, err)
    if action == "invite" and args.key:
        members.admit(args.member, args.key)
        print(_("{name} is a member here too, with the key they hold").format(name=args.member), file=out)
        _say_reload(err)
    elif action == "invite":
        invitation = members.invite(args.member)
        print(f"briscola club add {invitation.token()}", file=out)
        print(_("give {name} that line, as a password: it holds their credential").format(name=args.member), file=err)
        if invitation.cert:
            print(
                _("the club's certificate (in the line): SHA-256 {fingerprint}").format(
                    fingerprint=fingerprint(invitation.cert)
                ),
                file=err,
            )
        _say_reload(err)
    elif action == "revoke":
        members.revoke(args.member)
        print(_("{name} is no longer a member").format(name=args.member), file=out)
        _say_reload(err)
    elif action == "members":
        club = state.load()
        print(
            _("club {name} at {url}: {members}").format(
                name=club.name, url=club.url, members=count(len(club.members), "member")
            ),
            file=out,
        )
        for name, key in sorted(club.members.items()):
            print(f"  {name}  {key}", file=out)
    elif action == "add":
        invitation = read_token(args.token)
        name = joined.add(invitation, args.as_name)
        print(
            _("kept the club {club} as {name}: {url}, as member {member}").format(
                club=invitation.club, name=name, url=invitation.url, member=invitation.member
            ),
            file=out,
        )
        if invitation.cert:
            print(
                _("its certificate, trusted alone: SHA-256 {fingerprint}").format(
                    fingerprint=fingerprint(invitation.cert)
                ),
                file=out,
            )
    elif action == "list":
        for name in joined.kept():
            print(clean(f"{name}  {joined.find(name).url}"), file=out)
    return 0


def _serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .server import Options, serve

    options = Options(args.name, args.bind, args.port, args.advertise, args.cluster_port, args.routes)
    return serve(server_binary(), options, out, err)


def _say_reload(err: TextIO) -> None:
    done = members.reload()
    if done is None:
        print(_("the club's server is not running: it reads the change when started"), file=err)
    elif done:
        print(_("the running server has read the change"), file=err)
    else:
        print(
            _("the running server did not say it read the change: see its log {log}").format(
                log=state.path("nats.log")
            ),
            file=err,
        )
