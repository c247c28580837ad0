"""The club's certificate when it listens beyond loopback: self-signed (ECDSA P-256, made
with `cryptography`), its DER carried in each invitation, so a member trusts that certificate
alone (pinned: the only authority its connection accepts), and its SHA-256 fingerprint printed
beside the invitation for a check by eye."""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from ..files.atomic import replace_file

YEARS = 10


def make_certificate(cert: Path, key: Path, club: str, hosts: list[str]) -> None:
    """A new key (0600) and a self-signed certificate for `hosts` (names or addresses)."""
    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"briscola club {club}")])
    now = datetime.datetime.now(datetime.UTC)
    names: list[x509.GeneralName] = []
    for host in dict.fromkeys(hosts):
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365 * YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
    )
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    certificate = builder.sign(private, hashes.SHA256())
    pem_key = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    replace_file(key, pem_key, 0o600)
    replace_file(cert, certificate.public_bytes(serialization.Encoding.PEM), 0o644)


def der_of(cert_pem: bytes) -> bytes:
    return x509.load_pem_x509_certificate(cert_pem).public_bytes(serialization.Encoding.DER)


def fingerprint(der: bytes) -> str:
    """The certificate's SHA-256, as browsers and `openssl x509 -fingerprint -sha256` show it."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def pinned_context(der: bytes) -> ssl.SSLContext:
    """A client context that trusts this one certificate and nothing else. The host name is
    not checked: the pinned certificate is the only authority, so only the holder of its key
    passes, whatever name or address the member reached it by."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=der)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_REQUIRED
    return context
