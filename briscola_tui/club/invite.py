"""An invitation: one line a member pastes (`briscola club add <token>`). It holds the club's
name, its URL, the member's name and credential (its nkey seed: keep the line secret, as a
password) and, beyond loopback, the club's certificate, which the member then trusts alone.

The token is `briscola-club-1.` and the base64url (unpadded) of a JSON object.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

from ..language import _
from .keys import NAME, BadKey, public_key

PREFIX = "briscola-club-1."
MAX_TOKEN = 8192
"""A token longer than this is not one (a certificate of ours is some 500 bytes)."""


class BadToken(ValueError):
    """Not an invitation; the message says why."""


@dataclass(frozen=True)
class Invitation:
    club: str
    url: str
    member: str
    seed: str
    cert: bytes = b""
    """The club's certificate (DER), b"" when it listens on loopback without TLS."""

    def token(self) -> str:
        body = {"club": self.club, "url": self.url, "member": self.member, "seed": self.seed}
        if self.cert:
            body["cert"] = base64.b64encode(self.cert).decode("ascii")
        raw = json.dumps(body, separators=(",", ":"), sort_keys=True).encode("utf-8")
        return PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def read_token(text: str) -> Invitation:
    """The invitation `text` holds (blanks around it forgiven); BadToken otherwise."""
    text = text.strip()
    if len(text) > MAX_TOKEN:
        raise BadToken(_("too long for an invitation"))
    if not text.startswith(PREFIX):
        raise BadToken(_("an invitation starts with {prefix}").format(prefix=PREFIX))
    packed = text[len(PREFIX) :]
    try:
        body = json.loads(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)))
    except (ValueError, binascii.Error):
        raise BadToken(_("the invitation is damaged (cut short or mistyped?)")) from None
    return _checked(body)


def _checked(body: object) -> Invitation:
    if not isinstance(body, dict):
        raise BadToken(_("the invitation is damaged (cut short or mistyped?)"))
    fields = {k: body.get(k) for k in ("club", "url", "member", "seed")}
    if not all(isinstance(v, str) for v in fields.values()):
        raise BadToken(_("the invitation lacks the club, its address, the member or the credential"))
    club, url, member, seed = (str(fields[k]) for k in ("club", "url", "member", "seed"))
    if not NAME.match(club) or not NAME.match(member):
        raise BadToken(_("the invitation names its club or member wrongly"))
    if not url.startswith(("nats://", "tls://")) or any(c.isspace() or c == "," for c in url):
        raise BadToken(_("the invitation's address is not a club's URL"))
    try:
        public_key(seed)
    except BadKey:
        raise BadToken(_("the invitation's credential is not a member's key")) from None
    cert = body.get("cert", "")
    try:
        der = base64.b64decode(cert, validate=True) if isinstance(cert, str) else None
    except binascii.Error:
        der = None
    if der is None or url.startswith("tls://") != bool(der) or (der and not _certificate(der)):
        raise BadToken(_("the invitation's certificate is damaged or missing"))
    return Invitation(club, url, member, seed, der)


def _certificate(der: bytes) -> bool:
    from cryptography import x509

    try:
        x509.load_der_x509_certificate(der)
    except ValueError:
        return False
    return True
